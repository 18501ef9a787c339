"""All games of one server: live sessions in memory, rebuilt from storage on demand.

The :class:`Manager` creates games, finds them (loading and replaying a stored game the
first time it is asked for), runs moves and undos through each :class:`Session` and
tells its listeners (the WebSocket hub) after every change.  Bots play through
:class:`~tikal.server.bots.BotRunner`.

At start only the games in play are loaded (:meth:`Manager.resume_all`); a finished game
is loaded when it is asked for, so start-up time and memory grow with the games being
played, not with every game ever played.  A stored game that does not replay (a damaged
log) is set aside (:meth:`Manager.get` answers ``410 damaged_game``), never taking the
server or another game down with it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from ..actions import log_steps
from ..components import RULE_SET_NAMES, rule_set
from ..game import Game
from ..messages import Message
from ..seats import seat_look
from .bots import BotRunner, bot_names, hint_bot_name
from .clock.model import TimeControl
from .commits import CommitQueue
from .ending.model import ENDED
from .errors import ServerError
from .session import Session, entry_of, mark_over, rebuild, remember_status, stored_first
from .store import GameRecord, LogEntry, SeatRecord, Storage, StorageConflict, StorageUnavailable
from .store.protocol import DAMAGED, UNFINISHED

Listener = Callable[[str], None]
#: A change prepared on a copy of the game (:meth:`Session.prepare`,
#: :meth:`Session.prepare_undo`): the game after it and its log entry.
Prepare = Callable[[Session], tuple[Game, LogEntry]]
log = logging.getLogger("tikal.server")


def new_token() -> str:
    return secrets.token_urlsafe(18)


def check_action_text(text: Any) -> None:
    """An action as sent must be a short, non-blank text (the engine reads the rest)."""
    if not isinstance(text, str) or not text.strip() or len(text) > 64:
        raise ServerError("bad_request", Message("server.action_type"))


def human_to_act(session: Session, seats: tuple[int, ...], state: Any,
                 now: float | None = None) -> int:
    """The seat to act, if ``seats`` hold it, ``state`` is current, a human plays it and
    its time has not run out (call with the session's lock held)."""
    acting = session.check_turn(seats, state)
    if session.record.seats[acting].kind != "human":
        raise ServerError("forbidden", Message("server.bot_seat"), 403)
    standin = session.standins().get(acting)
    if standin is not None:
        raise ServerError("seat_with_bot", Message("server.seat_with_bot", {"level": standin}),
                          409, state=session.state)
    clock = session.clock()
    if clock is not None and clock.expired(time.time() if now is None else now):
        raise ServerError("time_out", Message(
            "server.time_out", {"name": session.record.seats[acting].name}), 409,
            state=session.state)
    return acting


def plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 40 and all(c.isalnum() or c in "-_" for c in game_id)


def damaged_game(game_id: str) -> ServerError:
    """The answer for a game set aside because its stored log does not replay."""
    return ServerError("damaged_game", Message("server.damaged_game", {"game_id": game_id}),
                       410)


class Manager:
    """All games of one server."""

    def __init__(self, storage: Storage, *, bot_delay: float = 0.6, bot_workers: int = 2) -> None:
        self.storage = storage
        self.sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        #: told (in a worker thread) once a game's last move is stored: the ratings
        self._end_listeners: list[Callable[[Session], object]] = []
        self.bots = BotRunner(self._after_change, self.change, delay=bot_delay,
                              workers=bot_workers)
        self.commits = CommitQueue(storage)
        #: games set aside: id -> why their stored log does not replay
        self.quarantined: dict[str, str] = {}
        #: games loaded (rebuilt from their stored logs) so far
        self.loads = 0
        self._unfinished_loaded = False

    # -- lifecycle ---------------------------------------------------------

    def resume_all(self) -> int:
        """Load the games in play (after a restart, :meth:`load_unfinished`) and restart
        the bots whose turn it is; how many games are in memory."""
        self.load_unfinished()
        with self._lock:
            sessions = list(self.sessions.values())
        for session in sessions:
            self.bots.schedule(session)
        return len(sessions)

    def load_unfinished(self) -> dict[str, str]:
        """Load every stored game not finished (once: ``tikal serve`` does it before it
        listens, so that a database it cannot read stops it there); finished games load
        when asked for.  Games set aside earlier are tried again (a newer version may
        replay them).  Returns the games set aside (id -> why)."""
        if self._unfinished_loaded:
            return dict(self.quarantined)
        set_aside = set(self.storage.game_ids(status=(DAMAGED,)))
        for game_id in self.storage.game_ids(status=UNFINISHED):
            try:
                session = self.get(game_id)
            except StorageUnavailable as exc:
                if exc.cause != "damaged":
                    raise
                self._quarantine(game_id, exc.driver_text, remember=False)
                continue
            except ServerError:  # does not replay: set aside by get
                continue
            if session.over:  # its last move's status did not get stored
                mark_over(self.storage, game_id)
            elif game_id in set_aside:  # replays again
                remember_status(self.storage, game_id, "playing")
        self._unfinished_loaded = True
        return dict(self.quarantined)

    def _quarantine(self, game_id: str, why: str, remember: bool = True) -> None:
        """Set ``game_id`` aside (and, if ``remember``, mark it damaged in storage, which
        keeps it out of listings); its clients get ``410 damaged_game``."""
        with self._lock:
            new = game_id not in self.quarantined
            self.quarantined[game_id] = why
        if new:
            log.warning("game %s does not load (%s): set aside; `tikal db check` lists "
                        "every such game", game_id, why)
        if remember:
            remember_status(self.storage, game_id, DAMAGED)

    def close(self) -> None:
        self.bots.close()
        self.commits.close()

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def add_end_listener(self, listener: Callable[[Session], object]) -> None:
        """Call ``listener(session)`` in a worker thread once a game has ended here."""
        self._end_listeners.append(listener)

    def _game_ended(self, session: Session) -> None:
        mark_over(self.storage, session.game_id)
        for listener in list(self._end_listeners):
            try:
                listener(session)
            except StorageUnavailable:  # logged by the storage; mended at the next start
                continue

    def _after_change(self, session: Session) -> None:
        for listener in list(self._listeners):
            listener(session.game_id)
        self.bots.schedule(session)

    # -- other server processes (one PostgreSQL database) --------------------

    def refresh(self, game_id: str, seq: int | None = None) -> None:
        """Another process stored entry ``seq`` of ``game_id``: catch up and tell the
        listeners.  Skipped if this process has the entry already (whoever brought it in
        told the listeners), and for a game not in memory (read when next asked for)."""
        with self._lock:
            session = self.sessions.get(game_id)
        if session is None or (seq is not None and session.state >= seq):
            return
        session.refresh()
        self._after_change(session)

    def refresh_all(self) -> None:
        """Catch up every game in memory (notices may have been missed while the database
        connection was down)."""
        with self._lock:
            sessions = list(self.sessions.values())
        for session in sessions:
            if session.refresh():
                self._after_change(session)

    def _catch_up_to(self, session: Session, state: Any) -> None:
        """A client names a state this process has not reached: another process stored
        it (its notice is on the way or was lost), so read it now rather than refuse."""
        if isinstance(state, int) and state > session.state and session.refresh():
            self._after_change(session)

    def _catch_up(self, session: Session, exc: ServerError) -> None:
        """A ``stale`` refusal may mean another process stored a move first: load it, so
        the refusal names the current state and this process's clients see the move."""
        if exc.code != "stale":
            return
        if session.refresh():
            self._after_change(session)
        exc.state = session.state  # (the notice may have brought the move in meanwhile)

    # -- games -------------------------------------------------------------

    def get(self, game_id: str) -> Session:
        """The game ``game_id``, loaded and replayed if it is not in memory; 404
        ``unknown_game``, 410 ``damaged_game`` if its stored log does not replay."""
        with self._lock:
            session = self.sessions.get(game_id)
            if session is not None:
                return session
            if game_id in self.quarantined:
                raise damaged_game(game_id)
        try:
            loaded = self.storage.load(game_id) if plausible_id(game_id) else None
            if loaded is None or loaded[0].kind != "game":
                raise ServerError("unknown_game", Message(
                    "server.unknown_game", {"game_id": game_id}), 404)
            record, entries = loaded
            game = rebuild(record, entries)
        except ServerError:  # unknown, or the storage's fault (503): nothing to set aside
            raise
        except Exception as exc:  # the stored game does not read or replay
            self._quarantine(game_id, f"{type(exc).__name__}: {exc}")
            raise damaged_game(game_id) from None
        with self._lock:
            self.loads += 1
            session = self.sessions.setdefault(
                game_id, Session(record, game, entries, self.storage))
        return session

    def create(
        self, rules: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
        hotseat: bool = False, seed: int | None = None, clock: Any = None,
    ) -> tuple[Session, dict[str, Any]]:
        """A new game; returns it and the secret links data (tokens per seat).  ``clock``
        is its time control (a preset's name or its JSON, :class:`TimeControl`), if any."""
        if rules not in RULE_SET_NAMES:
            raise ServerError("bad_request", Message("server.unknown_rules", {"rules": rules}),
                              422)
        rs = rule_set(rules)
        if len(seats) not in rs.player_counts:
            counts = ", ".join(map(str, rs.player_counts))
            raise ServerError("bad_request", Message(
                "server.player_count", {"rules": rules, "counts": counts}), 422)
        options = dict(options or {})
        unknown = set(options) - set(rs.default_options)
        if unknown:
            names = ", ".join(sorted(unknown))
            raise ServerError("bad_request", Message(
                "server.unknown_options", {"names": names, "count": len(unknown)}), 422)
        levels = bot_names()
        control = TimeControl.from_json(clock, levels) if clock is not None else None
        records: list[SeatRecord] = []
        tokens: dict[str, tuple[int, ...]] = {}
        for p, seat in enumerate(seats):
            kind = seat.get("kind", "human")
            name = str(seat.get("name") or "").strip()[:24] or seat_look(p).name
            if kind == "bot":
                level = str(seat.get("level") or hint_bot_name())
                if level not in levels:
                    raise ServerError("bad_request", Message(
                        "server.unknown_level", {"level": level}), 422)
                records.append(SeatRecord("bot", name, level))
            elif kind == "human":
                token = new_token()
                tokens[token] = (p,)
                records.append(SeatRecord("human", name, None, token))
            else:
                raise ServerError(
                    "bad_request", Message("server.seat_kind", {"kind": kind}), 422
                )
        humans = tuple(p for p, s in enumerate(records) if s.kind == "human")
        hotseat_token = None
        if hotseat and len(humans) > 1:
            hotseat_token = new_token()
            tokens[hotseat_token] = humans
        seeded = seed is not None
        seed = secrets.randbits(62) if seed is None else seed
        game = Game.new(rules, len(seats), seed=seed, **options)
        game_id = secrets.token_urlsafe(8)
        record = GameRecord(
            game_id=game_id, rules=rules, players=len(seats),
            options={**rs.default_options, **options}, seed=seed, seats=tuple(records),
            tokens=tokens, seeded=seeded,
            clock=control.to_json() if control is not None else None,
        )
        start = entry_of(log_steps(game.history)[0], 0, -1)
        self.storage.create(record, start)  # the game and its start, in one transaction
        session = Session(record, game, [start], self.storage)
        with self._lock:
            self.sessions[game_id] = session
        links = {
            "seats": [
                {"seat": p, "kind": s.kind, "name": s.name, "level": s.level, "token": s.token}
                for p, s in enumerate(records)
            ],
            "hotseat_token": hotseat_token,
        }
        self.bots.schedule(session)
        return session, links

    # -- moves: the one path ------------------------------------------------

    async def act(self, game_id: str, token: str | None, text: Any, state: Any) -> Session:
        """A human's move: checked and applied on the event loop, stored by the commit
        thread (:meth:`change`)."""
        session = await self._session(game_id)
        seats = session.seats_for(token)
        check_action_text(text)
        return await self.change(
            session, state, lambda s: s.prepare(human_to_act(s, seats, state), text))

    async def undo(self, game_id: str, token: str | None, state: Any) -> Session:
        """Take back the last action of the turn (never across a reveal: the engine
        refuses), through the same path as a move."""
        session = await self._session(game_id)
        seats = session.seats_for(token)
        return await self.change(
            session, state, lambda s: s.prepare_undo(s.check_turn(seats, state)))

    def act_blocking(self, game_id: str, token: str | None, text: Any, state: Any) -> Session:
        """:meth:`act` for code without an event loop (benchmarks, scripts, tests)."""
        return asyncio.run(self.act(game_id, token, text, state))

    async def change(
        self, session: Session, state: Any, prepare: Prepare, *, notify: bool = True,
    ) -> Session:
        """The one way a game changes (a human's move or undo, a bot's move), as
        boardgame.io does it: catch up if the client names a state another process
        stored, ``prepare`` the change on a copy under the session's lock (it checks the
        turn and the state counter, so a stale or conflicting change is refused here,
        ``409 stale``), store its entry through the commit thread (:mod:`.commits`: one
        transaction and one sync per batch), and only then install it and tell the
        listeners (unless ``notify`` is false: the bot runner tells them itself once its
        turn is over).  The commit finishes even if the caller is cancelled (its client
        went away): storage and memory must not part."""
        if isinstance(state, int) and not isinstance(state, bool) and state > session.state:
            await asyncio.to_thread(self._catch_up_to, session, state)
        try:
            after, entry = await self._prepared(session, prepare)
        except ServerError as exc:
            if exc.code == "stale" and session.pending is None:
                await asyncio.to_thread(self._catch_up, session, exc)
            raise
        await asyncio.shield(asyncio.ensure_future(self._commit(session, after, entry, notify)))
        return session

    async def note(self, session: Session, kind: str, seat: int,
                   level: str | None = None) -> Session:
        """A log entry about a seat that leaves the game as it is (a stand-in taking it or
        giving it back, an offer to end: :mod:`.clock`, :mod:`.ending`), through the same
        path as a move, for the state as it is now: ``409 stale`` if a move or another
        process's entry came first, or the game is over meanwhile."""
        state = session.state

        def prepare(s: Session) -> tuple[Game, LogEntry]:
            if s.state != state or s.over:
                raise stored_first(s.state)
            return s.prepare_seat(kind, seat, level)

        return await self.change(session, state, prepare)

    async def _session(self, game_id: str) -> Session:
        """The game in memory, else loaded in a thread (reading and replaying its log)."""
        with self._lock:
            session = self.sessions.get(game_id)
        return session if session is not None else await asyncio.to_thread(self.get, game_id)

    async def _prepared(self, session: Session, prepare: Prepare) -> tuple[Game, LogEntry]:
        """``prepare(session)`` under the session's lock: on the loop if the lock is free
        (it nearly always is), else in a thread that waits for it (another process's
        move being read in, :meth:`refresh`)."""
        if session.lock.acquire(blocking=False):
            try:
                return prepare(session)
            finally:
                session.lock.release()
        return await asyncio.to_thread(_prepare_locked, session, prepare)

    async def _commit(
        self, session: Session, after: Game, entry: LogEntry, notify: bool = True,
    ) -> None:
        """Store a prepared change, then install it and tell the listeners; on a refusal
        by the storage the game stays as it was."""
        try:
            await self.commits.append(session.game_id, entry)
        except BaseException as exc:
            with session.lock:
                session.pending = None
            if isinstance(exc, StorageConflict):
                refused = stored_first(session.state)
                await asyncio.to_thread(self._catch_up, session, refused)
                raise refused from None
            raise
        with session.lock:
            session.install(after, entry)
        if notify:
            self._after_change(session)
        if session.over and (after.is_over or entry.kind == ENDED):
            await asyncio.to_thread(self._game_ended, session)


def _prepare_locked(session: Session, prepare: Prepare) -> tuple[Game, LogEntry]:
    with session.lock:
        return prepare(session)
