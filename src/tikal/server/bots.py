"""Bots on the server: the levels on offer, their turns in worker threads, and hints.

A bot plays in a worker thread (never on the event loop) after a short delay, one
action at a time, through the same :meth:`Session.apply` as a human.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .. import bots as bots_module
from .errors import ServerError
from .messages import action_entry
from .session import Session

#: Strongest first: the hint button asks the first one that exists.
HINT_PREFERENCE = ("hard", "mcts", "medium", "greedy", "easy", "random")

log = logging.getLogger("tikal.server")


def bot_names() -> list[str]:
    return list(bots_module.BOT_NAMES)


def hint_bot_name() -> str:
    names = bot_names()
    return next((n for n in HINT_PREFERENCE if n in names), names[0])


def _new_bot(level: str) -> Any:
    return bots_module.make_bot(level, seed=random.randrange(2**31))


def hint(session: Session, seats: tuple[int, ...]) -> dict[str, Any]:
    """What the strongest bot would play now, as a legal-action entry (``text`` and all)."""
    with session.lock:
        game = session.game
        if not seats or game.current not in seats or game.is_over:
            raise ServerError("forbidden", "hints are for the player to move", 403)
        view = game.view(game.current)
        state = session.state
    name = hint_bot_name()
    action = _new_bot(name).choose(view)
    entry = action_entry(view.state, action, session.names)
    return {"type": "hint", **entry, "bot": name, "state": state}


class BotRunner:
    """Plays the bots' turns of every session in a small thread pool.

    ``changed(session)`` is called after each bot action (and when a bot starts
    thinking), so the server can broadcast and schedule the next turn.
    """

    def __init__(
        self, changed: Callable[[Session], None], *, delay: float = 0.6, workers: int = 2
    ) -> None:
        self.changed = changed
        self.delay = delay
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tikal-bot")
        self._closed = False

    def close(self) -> None:
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)

    def schedule(self, session: Session) -> None:
        """Start the bot's turn if a bot is to act and none is thinking already."""
        if self._closed:
            return
        with session.lock:
            if session.bot_busy or session.bot_to_move() is None:
                return
            session.bot_busy = True
        try:
            self._pool.submit(self._turn, session)
        except RuntimeError:  # pool shut down
            session.bot_busy = False

    def _bot(self, session: Session, seat: int) -> Any:
        bot = session.bots.get(seat)
        if bot is None:
            level = session.record.seats[seat].level or "random"
            if level not in bot_names():  # a level that no longer exists: keep the game going
                level = hint_bot_name()
            bot = session.bots[seat] = _new_bot(level)
        return bot

    def _turn(self, session: Session) -> None:
        try:
            time.sleep(self.delay)
            if self._closed:
                return
            with session.lock:
                seat = session.bot_to_move()
                if seat is None:
                    return
                state = session.state
                view = session.game.view(seat)
            self.changed(session)  # shows "thinking"
            action = self._bot(session, seat).choose(view)
            with session.lock:
                if session.state != state or self._closed:
                    return
                try:
                    session.apply(seat, str(action))
                except ServerError:
                    # A broken bot must not stall the game: fall back to any legal action.
                    fallback = random.choice(session.game.legal_actions())
                    session.apply(seat, str(fallback))
        except Exception:  # pragma: no cover - logged, game stays as stored
            log.exception("bot move failed in %s", session.game_id)
        finally:
            session.bot_busy = False
        self.changed(session)
