"""Bots on the server: the levels on offer, their turns, and hints — off the request path.

A bot's visible delay is an event-loop timer (``loop.call_later``), not a sleeping
worker.  Its search runs in a process pool sized to the machine's cores, so searching
never holds the GIL that request handling needs; the bot object travels to the worker
with the view and comes back with its choice (planning bots keep their plan).  Under
load the search budget shrinks instead of searches queueing: a search bot's ``seconds``
are divided by how many searches are waiting for each worker (never below
:data:`MIN_SECONDS`).  Bots without a budget (random) choose in a thread.

A game's players may ask for another pace (:data:`PACES`, ``POST /api/games/{id}/pace``):
the server's ``--bot-delay`` times the pace's factor, per game.  At the default 0.6 s a
round of three bots in a four-player game took 14-17 s, too slow for some and too fast
to follow for others.

Hints are cached per game and state counter; a seat may have one hint being worked out
at a time (another request meanwhile is refused with ``hint_busy``, HTTP 429).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any

from .. import bots as bots_module
from ..actions import Action
from ..game import Game
from ..messages import Message
from ..view import View
from ..workers import process_pool
from .errors import ServerError
from .round.legal import action_entry
from .session import Session, stored_first
from .store import LogEntry

#: Strongest first: the hint button asks the first one that exists.
HINT_PREFERENCE = ("hard", "mcts", "medium", "greedy", "easy", "random")
#: Levels that choose at once (no search): they never go to the process pool.
INSTANT = frozenset({"random"})
#: The least a search bot is given under load (seconds).
MIN_SECONDS = 0.05
HINT_CACHE = 1024
#: The paces players may choose: factors of the server's bot delay.
#: The manager's one path for a change (:meth:`~tikal.server.manager.Manager.change`).
Change = Callable[..., Awaitable[Session]]

PACES: dict[str, float] = {"fast": 0.25, "normal": 1.0, "slow": 2.0}

log = logging.getLogger("tikal.server")


def bot_names() -> list[str]:
    return list(bots_module.BOT_NAMES)


def hint_bot_name() -> str:
    names = bot_names()
    return next((n for n in HINT_PREFERENCE if n in names), names[0])


def _new_bot(level: str, players: int) -> Any:
    """A bot of ``level`` for a game of ``players`` (weights tuned for that count)."""
    return bots_module.make_bot(level, seed=random.randrange(2**31), players=players)


def think(bot: Any, view: View, seconds: float | None) -> tuple[Action, Any]:
    """Run in a worker process: ``bot``'s choice in ``view`` and the bot itself (its plan
    may have changed).  ``seconds`` replaces a search bot's time budget."""
    if seconds is not None and getattr(bot, "seconds", None):
        bot.seconds = seconds
    return bot.choose(view), bot


def warm_up(lasting: float) -> int:
    """Run in a worker process: one greedy choice at the start of a game (imports the
    engine and fills its tables), then wait until ``lasting`` seconds have passed; the
    worker's process id."""
    start = time.perf_counter()
    from ..game import Game

    game = Game.new("standard", 2, seed=0)
    bots_module.make_bot("greedy", seed=0).choose(game.view(game.current_player))
    time.sleep(max(0.0, lasting - (time.perf_counter() - start)))
    return os.getpid()


def hint(session: Session, seats: tuple[int, ...]) -> dict[str, Any]:
    """What the strongest bot would play now, worked out in the calling thread (the
    server's own routes use :class:`Hints`, which caches and runs in the pool)."""
    view, state = hint_view(session, seats)
    name = hint_bot_name()
    action = _new_bot(name, view.state.players).choose(view)
    return hint_entry(session, view, action, name, state)


def hint_view(session: Session, seats: tuple[int, ...]) -> tuple[View, int]:
    with session.lock:
        game = session.game
        if not seats or game.current not in seats or game.is_over:
            raise ServerError("forbidden", Message("server.hint_not_yours"), 403)
        return game.view(game.current), session.state


def hint_entry(
    session: Session, view: View, action: Action, name: str, state: int,
    language: str = "en",
) -> dict[str, Any]:
    entry = action_entry(view.state, action, session.names, language)
    return {"type": "hint", **entry, "bot": name, "state": state}


class SearchPool:
    """The process pool (created on first use) and how busy it is."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: Executor | None = None
        self.waiting = 0  # searches submitted and not finished
        self.closed = False

    def budget(self, seconds: float | None) -> float | None:
        """A search's time budget under the present load: shares of a worker."""
        if not seconds:
            return None
        share = self.workers / max(self.workers, self.waiting + 1)
        return max(MIN_SECONDS, seconds * share)

    async def run(self, bot: Any, view: View) -> tuple[Action, Any]:
        if self.closed:
            raise RuntimeError("the bot pool is closed")
        pool = self._executor()
        seconds = self.budget(getattr(bot, "seconds", None))
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(pool, think, bot, view, seconds)
        finally:
            self.waiting -= 1

    def _executor(self) -> Executor:
        """The pool, started on first use (spawned workers: no state forked from the
        server's threads)."""
        if self._pool is None:
            self._pool = process_pool(self.workers, start="spawn")
        return self._pool

    async def warm(self) -> list[int]:
        """Start every worker now and let each make one greedy choice, so that no bot's
        first reply pays for starting a process and importing the engine: measured, 20
        human-vs-bot games (level medium) had replies up to 1.3 s after the delay, each
        the first search of a worker (warm: at most 64-80 ms, on a busy machine).  The
        workers' process ids."""
        if self.closed:
            return []
        pool = self._executor()
        loop = asyncio.get_running_loop()
        # Each warm-up lasts long enough that the next one finds no idle worker, so
        # the pool starts another process for it.
        return list(await asyncio.gather(*(
            loop.run_in_executor(pool, warm_up, 0.3) for _ in range(self.workers))))

    def close(self) -> None:
        """Stop the workers; waits for searches under way (at most one budget), since
        workers left running would outlive the server."""
        self.closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


async def choose(pool: SearchPool, level: str, bot: Any, view: View) -> tuple[Action, Any]:
    """A bot's choice: at once in a thread for levels without search, else in the pool."""
    if level in INSTANT:
        return await asyncio.to_thread(think, bot, view, None)
    return await pool.run(bot, view)


class BotRunner:
    """Plays the bots' turns of every session: a timer for the visible delay, then the
    search in the pool, then the move through the manager's one path (``change``,
    :meth:`~tikal.server.manager.Manager.change`) like a human's.

    ``changed(session)`` is called after each bot action (and when a bot starts
    thinking), so the server can broadcast and schedule the next turn.  ``loop`` is the
    server's event loop (set when the app starts); without one, turns are not played.
    """

    def __init__(
        self, changed: Callable[[Session], None], change: Change, *, delay: float = 0.6,
        workers: int = 0,
    ) -> None:
        self.changed = changed
        self.change = change
        self.delay = delay
        del workers  # the pool is sized to the cores (the argument is kept for callers)
        self.pool = SearchPool()
        self.loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._paces: dict[str, float] = {}  # game id -> factor of the delay (not "normal")

    def set_pace(self, game_id: str, pace: str) -> None:
        """The bots of ``game_id`` wait ``delay`` times the factor of ``pace`` from now on
        (a turn already waiting keeps its timer)."""
        factor = PACES[pace]
        if factor == PACES["normal"]:
            self._paces.pop(game_id, None)
        else:
            self._paces[game_id] = factor

    def delay_for(self, game_id: str) -> float:
        """The visible delay before each bot action of ``game_id``."""
        return self.delay * self._paces.get(game_id, PACES["normal"])

    def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        self.pool.close()

    def schedule(self, session: Session) -> None:
        """Start the bot's turn (after the delay) if a bot is to act and none is busy."""
        loop = self.loop
        if self._closed or loop is None or loop.is_closed():
            return
        with session.lock:
            if session.bot_busy or session.bot_to_move() is None:
                return
            session.bot_busy = True
        try:
            loop.call_soon_threadsafe(self._arm, session)
        except RuntimeError:  # the loop closed meanwhile
            session.bot_busy = False

    def _arm(self, session: Session) -> None:
        assert self.loop is not None
        self.loop.call_later(self.delay_for(session.game_id), self._start, session)

    def _start(self, session: Session) -> None:
        if self._closed:
            session.bot_busy = False
            return
        task = asyncio.get_running_loop().create_task(self._turn(session))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _bot(self, session: Session, seat: int) -> tuple[str, Any]:
        level = session.bot_level(seat) or "random"
        if level not in bot_names():  # a level that no longer exists: keep the game going
            level = hint_bot_name()
        bot = session.bots.get(seat)
        if bot is None:
            bot = session.bots[seat] = _new_bot(level, session.game.players)
        return level, bot

    async def _turn(self, session: Session) -> None:
        try:
            with session.lock:
                seat = session.bot_to_move()
                if seat is None:
                    return
                state = session.state
                view = session.game.view(seat)
                level, bot = self._bot(session, seat)
            self.changed(session)  # shows "thinking"
            action, bot = await choose(self.pool, level, bot, view)
            await self._play(session, seat, state, action, bot)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot move failed in %s", session.game_id)
        finally:
            session.bot_busy = False
        if not self._closed:
            self.changed(session)

    async def _play(
        self, session: Session, seat: int, state: int, action: Action, bot: Any,
    ) -> None:
        if session.state != state or self._closed:
            return
        session.bots[seat] = bot

        def prepare(session: Session) -> tuple[Game, LogEntry]:
            if session.state != state:  # someone moved meanwhile (another process)
                raise stored_first(session.state)
            try:
                return session.prepare(seat, str(action))
            except ServerError as refused:
                if refused.code == "stale":
                    raise
                # A broken bot must not stall the game: fall back to any legal action.
                return session.prepare(seat, str(random.choice(session.game.legal_actions())))

        try:
            await self.change(session, state, prepare, notify=False)
        except ServerError as refused:
            if refused.code != "stale":
                raise
            # another process stored this seat's move first: nothing to do


class Hints:
    """Hints from the strongest bot: cached per (game, state), one in flight per seat."""

    def __init__(self, pool: SearchPool) -> None:
        self.pool = pool
        self._cache: OrderedDict[tuple[str, int], tuple[View, Action, str]] = OrderedDict()
        self._busy: set[tuple[str, tuple[int, ...]]] = set()

    async def ask(
        self, session: Session, seats: tuple[int, ...], language: str = "en",
    ) -> dict[str, Any]:
        """The hint for the position now (from the cache if asked before), its text in
        ``language``."""
        view, state = hint_view(session, seats)
        key = (session.game_id, state)
        found = self._cache.get(key)
        if found is not None:
            self._cache.move_to_end(key)
            return hint_entry(session, found[0], found[1], found[2], state, language)
        busy = (session.game_id, seats)
        if busy in self._busy:
            raise ServerError("hint_busy", Message("server.hint_busy"), 429, retry_after=1)
        self._busy.add(busy)
        try:
            name = hint_bot_name()
            action, _ = await choose(self.pool, name, _new_bot(name, view.state.players), view)
        finally:
            self._busy.discard(busy)
        answer = hint_entry(session, view, action, name, state, language)
        self._cache[key] = (view, action, name)
        while len(self._cache) > HINT_CACHE:
            self._cache.popitem(last=False)
        return answer
