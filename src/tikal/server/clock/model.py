"""Time controls and stand-ins, derived from the stored log alone.

A clock is never a timer in memory: every log entry carries the time it was stored
(:attr:`~tikal.server.store.LogEntry.at`), so the time each seat has left follows from
the log and the time control, in any process and after any restart.  A *turn* is a run
of entries by one seat (Tikal gives one seat the move at a time, scoring turns, bids
and tile placement included: ``Game.current``); it starts when the previous seat's last
entry was stored, or when its player came back.

Seats can be played by a *stand-in* bot: a ``standin`` entry (its ``action`` is the
bot's level) hands the seat over when its time ran out or its player left, a ``back``
entry gives it back.  Neither changes the game, so the engine's replay skips them
(:func:`~tikal.server.session.effective_entries` keeps actions and undos only); they
are in the log so that every process sees them and the log says who played each turn.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ...messages import Message
from ...packaged import data_json
from ..errors import ServerError
from ..store import LogEntry

REALTIME = "realtime"
TURN = "turn"
#: Log entry kinds of a seat handed to a bot and given back (no change to the game).
STANDIN = "standin"
BACK = "back"


@functools.cache
def settings() -> dict[str, Any]:
    """``data/clocks.json``: presets, limits, the default stand-in level."""
    found: dict[str, Any] = data_json("clocks.json")
    return found


def bad_clock(field: str, key: str, **params: Any) -> ServerError:
    return ServerError("bad_request", Message(key,
                                              {"field": field, **params}), 422, field=field)


@dataclass(frozen=True)
class TimeControl:
    """A game's time control: ``realtime`` (a bank per seat, ``increment`` added at the
    start of each of its turns) or ``turn`` (``per_turn`` seconds for every turn, no
    carry-over); ``standin`` is the level of the bot that takes a seat over."""

    kind: str
    bank: float = 0.0
    increment: float = 0.0
    per_turn: float = 0.0
    standin: str = "medium"
    preset: str | None = None

    @classmethod
    def from_json(cls, data: Any, levels: Sequence[str]) -> TimeControl:
        """A time control from a request: a preset's name, or ``{"preset": name}`` or
        ``{"kind": ..., ...}``, with an optional ``standin`` level; 422 ``bad_request``
        naming the field otherwise."""
        if isinstance(data, str):
            data = {"preset": data}
        if not isinstance(data, dict):
            raise bad_clock("clock", "server.clock.type")
        conf = settings()
        standin = data.get("standin", conf["standin"])
        if standin not in levels:
            raise bad_clock("clock.standin", "server.clock.level", level=str(standin)[:24])
        preset = data.get("preset")
        if preset is not None:
            if preset not in conf["presets"]:
                raise bad_clock("clock.preset", "server.clock.preset", preset=str(preset)[:24],
                                presets=", ".join(conf["presets"]))
            return cls(**conf["presets"][preset], standin=standin, preset=preset)
        kind = data.get("kind")
        if kind == REALTIME:
            return cls(REALTIME, bank=_seconds(data, "bank"),
                       increment=_seconds(data, "increment", 0), standin=standin)
        if kind == TURN:
            return cls(TURN, per_turn=_seconds(data, "per_turn"), standin=standin)
        raise bad_clock("clock.kind", "server.clock.kind", kind=str(kind)[:24])

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "standin": self.standin}
        if self.kind == REALTIME:
            out.update(bank=self.bank, increment=self.increment)
        else:
            out["per_turn"] = self.per_turn
        if self.preset is not None:
            out["preset"] = self.preset
        return out

    @classmethod
    def stored(cls, data: dict[str, Any]) -> TimeControl:
        """A time control as stored with a game (checked when it was made)."""
        return cls(**data)

    def turn_start(self, left: float) -> float:
        """What a seat has when its turn starts, ``left`` being what it had."""
        if self.kind == TURN:
            return self.per_turn
        return left + self.increment

    def start(self) -> float:
        return self.bank if self.kind == REALTIME else self.per_turn

    def comeback(self, left: float) -> float:
        """What a seat has when its player takes it back from the stand-in."""
        if self.kind == TURN:
            return self.per_turn
        return max(left, min(float(settings()["return_seconds"]), self.bank))


def _seconds(data: dict[str, Any], field: str, default: float | None = None) -> float:
    value = data.get(field, default)
    low, high = settings()["limits"][field]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise bad_clock(f"clock.{field}", "server.clock.number")
    if not low <= value <= high:
        raise bad_clock(f"clock.{field}", "server.clock.range", low=low, high=high)
    return float(value)


@dataclass(frozen=True)
class ClockState:
    """Each seat's time left as of ``since`` (when the running seat's turn, or its
    player's return, began); ``running`` is the seat whose time runs (None if the game
    is over or a bot plays the seat to act), ``deadline`` when it runs out."""

    left: tuple[float, ...]
    running: int | None
    since: float
    deadline: float | None

    def left_at(self, seat: int, now: float) -> float:
        if seat == self.running:
            return self.left[seat] - (now - self.since)
        return self.left[seat]

    def expired(self, now: float) -> bool:
        return self.deadline is not None and now >= self.deadline


def standins(log: Sequence[LogEntry]) -> dict[int, str]:
    """The seats played by a stand-in now: seat -> the bot's level."""
    out: dict[int, str] = {}
    for entry in log:
        if entry.kind == STANDIN:
            out[entry.seat] = entry.action or "medium"
        elif entry.kind == BACK:
            out.pop(entry.seat, None)
    return out


def standin_actions(log: Sequence[LogEntry]) -> list[tuple[LogEntry, str | None]]:
    """The effective actions of the game after the setup (the steps the engine's history
    has, in order), each with the stand-in's level if a stand-in played it, else None."""
    playing: dict[int, str] = {}
    out: list[tuple[LogEntry, str | None]] = []
    for entry in log:
        if entry.kind == STANDIN:
            playing[entry.seat] = entry.action or "medium"
        elif entry.kind == BACK:
            playing.pop(entry.seat, None)
        elif entry.kind == "undo":
            if out:
                out.pop()
        elif entry.kind == "action":
            out.append((entry, playing.get(entry.seat)))
    return out


def forfeits(log: Sequence[LogEntry], share: float | None = None) -> set[int]:
    """The seats a stand-in played for more than ``share`` of their actions (a rated
    game counts each as a loss: docs/web.md, Time controls)."""
    share = float(settings()["forfeit_share"]) if share is None else share
    mine: dict[int, int] = {}
    by_bot: dict[int, int] = {}
    for entry, level in standin_actions(log):
        mine[entry.seat] = mine.get(entry.seat, 0) + 1
        if level is not None:
            by_bot[entry.seat] = by_bot.get(entry.seat, 0) + 1
    return {seat for seat, n in by_bot.items() if n > share * mine[seat]}


def clock_state(control: TimeControl, log: Sequence[LogEntry], players: int,
                current: int | None) -> ClockState:
    """Each seat's time from the stored log (``log[0]`` is the start entry);
    ``current`` is the seat to act, None once the game is over.

    Time between two entries is charged to the seat of the later one, counted from the
    later of the earlier entry and that seat's return; time while a stand-in plays the
    seat is not charged.  A seat's turn starts when an entry by another seat came last."""
    left = [control.start()] * players
    away: set[int] = set()
    returned = [0.0] * players
    last_at = log[0].at if log else 0.0
    last_seat: int | None = None
    for entry in log[1:]:
        seat = entry.seat
        if entry.kind == STANDIN:
            away.add(seat)
            left[seat] = min(left[seat], 0.0)
        elif entry.kind == BACK:
            away.discard(seat)
            left[seat] = control.comeback(left[seat])
            returned[seat] = entry.at
            if seat == last_seat:
                last_seat = None  # what follows is a new turn for the clock
        elif entry.kind in ("action", "undo"):  # others (an offer to end) take no time
            if seat not in away:
                if seat != last_seat:
                    left[seat] = control.turn_start(left[seat])
                left[seat] -= entry.at - max(last_at, returned[seat])
            last_at = entry.at
            last_seat = seat
    if current is None or current in away:
        return ClockState(tuple(left), None, last_at, None)
    if current != last_seat:
        left[current] = control.turn_start(left[current])
    since = max(last_at, returned[current])
    return ClockState(tuple(left), current, since, since + left[current])
