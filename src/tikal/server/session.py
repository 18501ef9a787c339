"""One live game: the single authority on every move.

A :class:`Session` is the stored setup, the stored log and the engine
:class:`~tikal.game.Game` obtained by replaying that log.  A move is checked by the
engine, appended to storage (committed), and only then acknowledged and broadcast.
The state counter (:attr:`Session.state`) is the sequence number of the last log
entry; a move must name it, so stale or replayed moves are refused.

The stored log and the engine's history are one model: each effective ``action``
entry of the log is one :class:`~tikal.actions.LogStep` of ``game.history`` (the action
and the chance outcomes it produced), after the setup step of the ``start`` entry.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field
from typing import Any

from ..actions import LogStep, log_steps, parse_action
from ..errors import IllegalAction, NotationError, RecordError
from ..game import Game
from ..messages import Message, render
from .clock.model import STANDIN, ClockState, TimeControl, clock_state, standin_actions, standins
from .ending.model import end_offers, ended_early, winners_as_they_stand
from .errors import ServerError
from .store import GameRecord, LogEntry, Storage, StorageUnavailable

#: Refusal when the game is over (the engine's words for the phase).
GAME_OVER = Message("refuse.wrong_phase", {"now": Message("phase.over")})


# ------------------------------------------------------------------ the log model


def effective_entries(log: list[LogEntry]) -> list[LogEntry]:
    """The ``action`` entries that still count: undone ones removed (no ``start`` entry)."""
    effective: list[LogEntry] = []
    for entry in log:
        if entry.kind == "undo":
            if not effective or effective[-1].chance:
                raise RecordError(entry.seq, "undo across a reveal in the stored log")
            effective.pop()
        elif entry.kind == "action":
            effective.append(entry)
    return effective


def entry_of(step: LogStep, seq: int, seat: int) -> LogEntry:
    """The stored form of one step of the engine's history."""
    if step.action is None:
        return LogEntry(seq=seq, kind="start", seat=-1, chance=tuple(map(str, step.chance)))
    return LogEntry(seq=seq, kind="action", seat=seat, action=str(step.action),
                    chance=tuple(map(str, step.chance)))


def step_of(entry: LogEntry) -> LogStep:
    """The engine step of one stored ``start`` or ``action`` entry."""
    action = parse_action(entry.action) if entry.action is not None else None
    return LogStep(action, tuple(parse_action(text) for text in entry.chance))


def rebuild(game: GameRecord, log: list[LogEntry]) -> Game:
    """Replay a stored game exactly (chance outcomes forced from the log)."""
    if not log or log[0].kind != "start":
        raise RecordError(0, "stored log has no start entry")
    texts: list[str] = []
    for step in [step_of(log[0]), *map(step_of, effective_entries(log[1:]))]:
        if step.action is not None:
            texts.append(str(step.action))
        texts.extend(map(str, step.chance))
    record = {
        "format": "tikal-record", "version": 1, "rules": game.rules, "options": game.options,
        "players": game.players, "seed": game.seed, "log": texts,
    }
    return Game.from_record(record)


def remember_status(storage: Storage, game_id: str, status: str) -> None:
    """Store a game's status for listings and start-up, if the storage can now: the
    status follows from the stored log, so a fault here (logged by the storage) loses
    nothing, and the next start-up mends it."""
    with contextlib.suppress(StorageUnavailable):
        storage.set_status(game_id, status)


def mark_over(storage: Storage, game_id: str) -> None:
    """The game's last move is stored: remember that it is over."""
    remember_status(storage, game_id, "over")


def stored_first(state: int) -> ServerError:
    """The refusal of a move whose state another move took first (stored by another
    process, or being committed here)."""
    return ServerError("stale", Message("server.stored_first"), 409, state=state)


# ------------------------------------------------------------------ sessions


@dataclass(frozen=True)
class Derived:
    """What a state's log says beyond the engine's game (kept per state)."""

    state: int
    standins: dict[int, str]
    clock: ClockState | None
    ended_early: bool
    end_offers: list[int]



@dataclass
class Session:
    record: GameRecord
    game: Game
    log: list[LogEntry]
    storage: Storage
    lock: threading.RLock = field(default_factory=threading.RLock)
    bots: dict[int, Any] = field(default_factory=dict)
    bot_busy: bool = False
    #: The entry of a move applied on the event loop whose commit is under way
    #: (:meth:`prepare`): until it is stored no other move is taken.
    pending: LogEntry | None = None
    #: what the server derives from the log (stand-ins, clocks, an early end), per state
    _derived: Derived | None = None

    @property
    def state(self) -> int:
        return self.log[-1].seq if self.log else 0

    @property
    def game_id(self) -> str:
        return self.record.game_id

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.record.seats]

    @property
    def human_seats(self) -> tuple[int, ...]:
        """The seats people play (a stand-in plays one for a while; a bot seat is none)."""
        return tuple(n for n, seat in enumerate(self.record.seats) if seat.kind == "human")

    def actors(self) -> list[int]:
        """The seat that played each step of the game after the setup, in order."""
        return [entry.seat for entry in effective_entries(self.log[1:])]

    def seats_for(self, token: str | None) -> tuple[int, ...]:
        """The seats a token may act for; () for spectators (no token)."""
        if not token:
            return ()
        seats = self.record.tokens.get(token) if isinstance(token, str) else None
        if seats is None:
            raise ServerError("bad_token", Message("error.bad_token"), 403)
        return seats

    def bot_to_move(self) -> int | None:
        """The seat to act if a bot plays it (its own, or a stand-in), else None."""
        if self.over:
            return None
        seat = self.game.current
        if self.record.seats[seat].kind == "bot" or seat in self.standins():
            return seat
        return None

    def bot_level(self, seat: int) -> str | None:
        """The level of the bot that plays ``seat`` now (a stand-in's, else the seat's)."""
        return self.standins().get(seat) or self.record.seats[seat].level

    @property
    def time_control(self) -> TimeControl | None:
        clock = self.record.clock
        return TimeControl.stored(clock) if clock is not None else None

    def standins(self) -> dict[int, str]:
        """The human seats a stand-in bot plays now: seat -> its level."""
        return self._derive().standins

    def clock(self) -> ClockState | None:
        """Each seat's time (None for an untimed game), from the stored log."""
        return self._derive().clock

    @property
    def ended_early(self) -> bool:
        """Ended by every player's agreement (:mod:`tikal.server.ending`)."""
        return self._derive().ended_early

    @property
    def over(self) -> bool:
        """Over by the rules or by agreement: no more moves either way."""
        return self.game.is_over or self.ended_early

    def end_offers(self) -> list[int]:
        """The seats whose offer to end the game now stands."""
        return self._derive().end_offers

    @property
    def winners(self) -> list[int]:
        if self.ended_early and not self.game.is_over:
            return winners_as_they_stand(self.game.scores)
        return list(self.game.winners)

    def standin_levels(self) -> list[str | None]:
        """For each step after the setup: the stand-in's level if one played it."""
        if not any(entry.kind == STANDIN for entry in self.log):
            return []
        return [level for _, level in standin_actions(self.log)]

    def _derive(self) -> Derived:
        derived = self._derived
        if derived is None or derived.state != self.state:
            control = self.time_control
            early = ended_early(self.log)
            current = None if self.game.is_over or early else self.game.current
            clock = (clock_state(control, self.log, self.record.players, current)
                     if control is not None else None)
            derived = self._derived = Derived(self.state, standins(self.log), clock, early,
                                              end_offers(self.log))
        return derived

    # -- moves (call with the lock held) -------------------------------------

    def check_turn(self, seats: tuple[int, ...], state: Any) -> int:
        """The seat that acts now, if ``seats`` include it and ``state`` is current."""
        if not seats:
            raise ServerError("forbidden", Message("server.spectator"), 403)
        if not isinstance(state, int) or isinstance(state, bool):
            raise ServerError("bad_request", Message("server.state_type"))
        self._refuse_while_pending()
        if state != self.state:
            raise ServerError("stale", Message(
                "server.stale", {"state": self.state, "yours": state}), 409, state=self.state)
        game = self.game
        if self.over:
            raise ServerError("illegal", render(GAME_OVER), 422, rule="END-2", state=self.state,
                              reason=GAME_OVER)
        if game.current not in seats:
            who = self.record.seats[game.current].name
            raise ServerError("not_your_turn", Message("server.not_your_turn", {"name": who}),
                              403, state=self.state)
        return game.current

    def prepare(self, seat: int, text: str) -> tuple[Game, LogEntry]:
        """``text`` played for ``seat`` on a copy of the game, and its log entry, neither
        stored nor installed: :meth:`install` them once the entry is committed (the
        manager stores it, :meth:`~tikal.server.manager.Manager.change`).  Marks the entry
        pending; ServerError if the engine refuses (nothing changes then)."""
        self._refuse_while_pending()
        try:
            action = parse_action(text)
        except NotationError as exc:
            raise ServerError.notation(exc, self.state) from None
        after = self.game.clone()
        start = len(after.history)
        try:
            after.apply(action)
        except IllegalAction as exc:
            raise ServerError.illegal(exc, self.state) from None
        entry = entry_of(log_steps(after.history[start:])[-1], self.state + 1, seat)
        self.pending = entry
        return after, entry

    def prepare_undo(self, seat: int) -> tuple[Game, LogEntry]:
        """Take back the last action of the turn for ``seat``, on a copy and with its log
        entry, as :meth:`prepare` does a move; the engine refuses an undo across a reveal
        (``[HIDDEN-1]``)."""
        self._refuse_while_pending()
        after = self.game.clone()
        try:
            after.undo()
        except IllegalAction as exc:
            raise ServerError.illegal(exc, self.state) from None
        entry = LogEntry(seq=self.state + 1, kind="undo", seat=seat)
        self.pending = entry
        return after, entry

    def prepare_seat(self, kind: str, seat: int, level: str | None = None
                     ) -> tuple[Game, LogEntry]:
        """A stand-in takes ``seat`` (``kind`` "standin", with its ``level``) or its player
        takes it back ("back"): a log entry that leaves the game as it is."""
        self._refuse_while_pending()
        entry = LogEntry(seq=self.state + 1, kind=kind, seat=seat, action=level)
        self.pending = entry
        return self.game, entry

    def install(self, after: Game, entry: LogEntry) -> None:
        """The prepared move's entry is stored: it becomes the game (call with the lock)."""
        self.pending = None
        self.game = after
        self.log.append(entry)

    def _refuse_while_pending(self) -> None:
        if self.pending is not None:
            raise stored_first(self.state)

    def refresh(self) -> bool:
        """Catch up with entries another server process stored in the shared database;
        True if there were any.  Replays just the new entries (the whole log if they do
        not fit, which only a bug could cause).  Not while a move of this process is
        being committed: its entry would be read back before it is installed."""
        with self.lock:
            if self.pending is not None:
                return False
            new = self.storage.log_since(self.game_id, self.state)
            if not new:
                return False
            try:
                for entry in new:
                    self._replay(entry)
                self.log.extend(new)
            except Exception:
                loaded = self.storage.load(self.game_id)
                if loaded is None:
                    raise
                self.game, self.log = rebuild(*loaded), loaded[1]
            return True

    def _replay(self, entry: LogEntry) -> None:
        if entry.kind == "undo":
            self.game.undo()
        elif entry.kind == "action":
            step = step_of(entry)
            assert step.action is not None
            self.game.apply(step.action, chance=step.chance)
