"""What a lobby table is and who may do what to it: no I/O.

A table is a game not started yet: its rule set, player count and options, whether it is
rated, and the bot level that fills the seats still free when its creator starts it.
Players are named by a *player id*: ``account:<id>`` for a signed-in player, ``guest:<digest
of the browser's secret>`` for a guest; neither is ever shown.  What others see of a player
is a *tag* (:func:`public_tag`), the same for every table, so a page can tell its own seats.
Every refusal is a :class:`~tikal.server.errors.ServerError` with a documented code
(docs/web.md, Lobby).
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

from ...components import RULE_SET_NAMES, rule_set
from ...messages import Message
from ...packaged import data_json
from ..clock.model import settings as clock_settings
from ..errors import ServerError

OPEN, STARTING, STARTED, CLOSED = "open", "starting", "started", "closed"
ACCOUNT_PREFIX, GUEST_PREFIX = "account:", "guest:"


@functools.cache
def settings() -> dict[str, Any]:
    """The lobby's parameters, from ``data/lobby.json``."""
    found: dict[str, Any] = data_json("lobby.json")
    return found


def refused(code: str, key: str, status: int = 409, field: str | None = None,
            **params: int | str) -> ServerError:
    return ServerError(code, Message(f"lobby.{key}", params), status, field=field)


@dataclass(frozen=True)
class Player:
    """Who asks: the player id (private), the name shown, and the account if signed in."""

    player_id: str
    name: str
    account_id: str | None = None

    @property
    def tag(self) -> str:
        return public_tag(self.player_id)


def public_tag(player_id: str) -> str:
    """A player's public handle in the lobby: a digest of the id, so that the id (a
    guest's is derived from the browser's secret) never leaves the server."""
    return hashlib.sha256(f"tikal-lobby-tag:{player_id}".encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Spec:
    """The game a table will start."""

    rules: str
    players: int
    options: dict[str, bool]
    rated: bool
    fill: str
    #: the time control, a preset of data/clocks.json (None: untimed)
    clock: str | None = None


def checked_spec(rules: str, players: int, options: dict[str, bool], rated: bool,
                 fill: str | None, clock: str | None = None) -> Spec:
    """The table's game, or ``bad_table`` (422) naming the field at fault."""
    if rules not in RULE_SET_NAMES:
        raise refused("bad_table", "unknown_rules", 422, "rules", rules=rules)
    found = rule_set(rules)
    if players not in found.player_counts:
        raise refused("bad_table", "player_count", 422, "players", rules=rules,
                      counts=", ".join(map(str, found.player_counts)))
    unknown = sorted(set(options) - set(found.default_options))
    if unknown:
        raise refused("bad_table", "unknown_option", 422, "options", name=unknown[0])
    level = fill or settings()["fill_default"]
    if level not in settings()["fill_levels"]:
        raise refused("bad_table", "fill_level", 422, "fill", level=level,
                      levels=", ".join(settings()["fill_levels"]))
    if clock is not None and clock not in clock_settings()["presets"]:
        raise refused("bad_table", "clock_preset", 422, "clock", preset=clock,
                      presets=", ".join(clock_settings()["presets"]))
    return Spec(rules, players, dict(options), rated, level, clock)


@dataclass(frozen=True)
class Seat:
    seat: int
    player_id: str
    name: str
    #: the seat's invite token once the game started (shown to its player only)
    token: str | None = None


@dataclass(frozen=True)
class Table:
    table_id: str
    spec: Spec
    creator: str  # a player id
    status: str
    seats: tuple[Seat, ...]
    created: float
    game_id: str | None = None
    #: a quick match's table: not listed, joined by rating, started once full
    quick: bool = False
    #: the rating of its first player (rated quick matches), as players are shown it
    rating: int | None = None

    def seat_of(self, player_id: str) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)

    @property
    def free(self) -> list[int]:
        taken = {s.seat for s in self.seats}
        return [n for n in range(self.spec.players) if n not in taken]


def check_join(table: Table, player: Player, seat: int | None, *,
               matched: bool = False) -> int:
    """The seat ``player`` gets at ``table`` (the one asked for, else the first free);
    a quick match's table is joined only by being matched to it."""
    if table.quick and not matched:
        raise refused("quick_table", "quick_table")
    if table.status != OPEN:
        raise refused("table_closed", "table_closed")
    if table.seat_of(player.player_id) is not None:
        raise refused("already_seated", "already_seated")
    if table.spec.rated and player.account_id is None:
        raise refused("rated_needs_account", "rated_needs_account", 403)
    if seat is not None and not 0 <= seat < table.spec.players:
        raise refused("bad_table", "no_such_seat", 422, "seat", seat=seat,
                      players=table.spec.players)
    free = table.free
    if not free:
        raise refused("table_full", "table_full")
    if seat is not None and seat not in free:
        raise refused("seat_taken", "seat_taken", seat=seat + 1)
    return free[0] if seat is None else seat


def check_leave(table: Table, player: Player) -> Seat:
    if table.status != OPEN:
        raise refused("table_closed", "table_closed")
    seat = table.seat_of(player.player_id)
    if seat is None:
        raise refused("not_seated", "not_seated")
    return seat


def check_start(table: Table, player: Player) -> None:
    """Only the creator starts, and only an open table; rated tables need every seat
    taken by an account or left to a bot (the ratings' own checks follow)."""
    if table.quick:
        raise refused("quick_table", "quick_table")
    if table.creator != player.player_id:
        raise refused("not_creator", "not_creator", 403)
    if table.status != OPEN:
        raise refused("table_closed", "table_closed")


def rating_window(waited: float) -> float:
    """How far apart two ratings may be to be matched after ``waited`` seconds: narrow
    at first, wider the longer a table waits (``quick_window`` of data/lobby.json)."""
    window = settings()["quick_window"]
    return float(min(window["max"], window["start"] + window["per_minute"] * waited / 60))


def quick_fits(table: Table, spec: Spec, player: Player, rating: int | None,
               now: float) -> bool:
    """Whether ``player`` (rated ``rating``) may be matched to the waiting ``table``."""
    if (table.spec != spec or not table.free or table.seat_of(player.player_id)
            or table.status != OPEN):
        return False
    if not spec.rated or table.rating is None or rating is None:
        return True
    return abs(table.rating - rating) <= rating_window(now - table.created)


def game_seats(table: Table) -> list[dict[str, Any]]:
    """The seats of the game a table starts: its players, then bots of its fill level."""
    by_seat = {s.seat: s for s in table.seats}
    return [{"kind": "human", "name": by_seat[n].name} if n in by_seat
            else {"kind": "bot", "level": table.spec.fill}
            for n in range(table.spec.players)]


def game_clock(table: Table) -> dict[str, str] | None:
    """The time control of the game a table starts: its preset, the stand-in bots (for a
    seat whose time runs out) of the level that fills its free seats."""
    if table.spec.clock is None:
        return None
    return {"preset": table.spec.clock, "standin": table.spec.fill}


def table_json(table: Table) -> dict[str, Any]:
    """A table as every lobby client sees it (no player id, no token)."""
    by_seat = {s.seat: s for s in table.seats}
    return {
        "id": table.table_id, "rules": table.spec.rules, "players": table.spec.players,
        "options": table.spec.options, "rated": table.spec.rated, "fill": table.spec.fill,
        "clock": table.spec.clock,
        "status": table.status, "game": table.game_id, "created": table.created,
        "creator": public_tag(table.creator), "quick": table.quick,
        "seats": [{"seat": n, "name": by_seat[n].name if n in by_seat else None,
                   "tag": public_tag(by_seat[n].player_id) if n in by_seat else None}
                  for n in range(table.spec.players)],
    }


def clean_name(name: str | None, fallback: str) -> str:
    """A guest's name as shown: printable characters only, trimmed, at most the limit
    (``bad_name``: control or markup characters, refused rather than mended)."""
    raw = name or ""
    if any(not ch.isprintable() or ch in "<>&\"'" for ch in raw):
        raise refused("bad_name", "bad_name", 422, "name")
    return " ".join(raw.split())[:settings()["guest_name_max"]] or fallback
