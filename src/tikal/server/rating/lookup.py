"""The read queries of leaderboards and profiles, beside :class:`~.store.RatingStore` (which
writes ratings): who a name is, a rule set's board without deleted accounts, and the games
a player sat in.

Each query is an index scan or bounded: the board walks ``ratings_board (rules, shown)``
from the top, an account's games ``seat_accounts_account``, and a bot's games are looked
for among the latest :data:`BOT_WINDOW` games only (the seats are JSON text, which no
index of both databases can search), so no profile reads a whole table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..store.protocol import DAMAGED
from .model import Rating
from .store import BOT_PREFIX, NAMED, Reader, Standing

#: How many of the latest games a bot's game list is looked for in.
BOT_WINDOW = 5_000
#: The most games of each kind (in progress, finished) a profile lists.
GAMES_LISTED = 50

#: (no ``%`` in the queries: PostgreSQL's driver reads it as a parameter mark)
BOARD = (f"{NAMED} WHERE r.rules = ? AND (a.name IS NOT NULL OR r.player LIKE ?) "
         "ORDER BY r.shown DESC, r.player LIMIT ? OFFSET ?")
GAME_COLUMNS = "g.id, g.rules, g.players, g.status, g.created, g.updated, g.seats"
ACCOUNT_GAMES = (f"SELECT {GAME_COLUMNS}, c.seat FROM seat_accounts c "
                 "JOIN games g ON g.id = c.game_id WHERE c.account_id = ? AND g.kind = 'game' "
                 "AND g.status {among} ORDER BY g.updated DESC, g.id LIMIT ?")
BOT_GAMES = (f"SELECT {GAME_COLUMNS} FROM (SELECT id, rules, players, status, created, updated, "
             "seats FROM games WHERE kind = 'game' ORDER BY updated DESC LIMIT ?) g "
             f"WHERE g.status <> '{DAMAGED}' AND g.seats LIKE ? ESCAPE '\\' "
             "ORDER BY g.updated DESC, g.id LIMIT ?")


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str
    level: str | None


@dataclass(frozen=True)
class GameRow:
    """A game a player sat in, as a profile lists it (``seats``: the player's own)."""

    game_id: str
    rules: str
    status: str
    created: float
    updated: float
    players: tuple[Seat, ...]
    seats: tuple[int, ...]

    @property
    def in_progress(self) -> bool:
        return self.status == "playing"


class PlayerLookup(Reader):
    """Reading players, boards and game lists of one database."""

    def account(self, handle: str) -> tuple[str, str] | None:
        """(id, name) of the live account with this handle (a deleted one has none)."""
        rows = self._all("SELECT id, name FROM accounts WHERE handle = ? AND deleted IS NULL",
                         (handle,))
        return (rows[0]["id"], rows[0]["name"]) if rows else None

    def board(self, rules: str, limit: int, offset: int) -> list[Standing]:
        """The rule set's players, best display rating first; deleted accounts left out
        (so ranks and pages count only the players shown)."""
        return [standing(row) for row in self._all(BOARD, (rules, BOT_PREFIX + "%", limit, offset))]

    def account_games(self, account_id: str, limit: int = GAMES_LISTED) -> list[GameRow]:
        """The account's games in progress, then its other games, latest first in each
        (at most ``limit`` of each: a profile shows what is going on and what was)."""
        playing = self._all(ACCOUNT_GAMES.format(among="= 'playing'"), (account_id, limit))
        others = self._all(ACCOUNT_GAMES.format(among=f"NOT IN ('playing', '{DAMAGED}')"),
                           (account_id, limit))
        return _merged(playing) + _merged(others)

    def seat_accounts(self, game_ids: Sequence[str]) -> dict[str, dict[int, str | None]]:
        """Per game, the accounts on its claimed seats: seat -> name (None: deleted), so a
        game list names the people, not the seat names typed at creation."""
        if not game_ids:
            return {}
        marks = ", ".join("?" for _ in game_ids)
        rows = self._all("SELECT c.game_id, c.seat, a.name FROM seat_accounts c JOIN accounts a "
                         f"ON a.id = c.account_id WHERE c.game_id IN ({marks})", tuple(game_ids))
        found: dict[str, dict[int, str | None]] = {}
        for row in rows:
            found.setdefault(row["game_id"], {})[int(row["seat"])] = row["name"]
        return found

    def bot_games(self, level: str, limit: int = GAMES_LISTED,
                  window: int = BOT_WINDOW) -> list[GameRow]:
        """The latest games with a bot of ``level`` among the latest ``window`` games."""
        pattern = f'%"level": "{_like_escaped(level)}"%'
        rows = self._all(BOT_GAMES, (window, pattern, limit))
        found = []
        for row in rows:
            seats = _seats(row["seats"])
            mine = tuple(i for i, s in enumerate(seats) if s.kind == "bot" and s.level == level)
            if mine:
                found.append(_game(row, seats, mine))
        return found


def standing(row: Any) -> Standing:
    player = row["player"]
    name = player[len(BOT_PREFIX):] if player.startswith(BOT_PREFIX) else row["name"]
    rating = Rating(float(row["mu"]), float(row["sigma"]), int(row["games"]))
    return Standing(player, name, rating, int(row["wins"]), int(row["shown"]))


def _like_escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _seats(seats_json: str) -> tuple[Seat, ...]:
    return tuple(Seat(str(s.get("name", "")), str(s.get("kind", "")), s.get("level"))
                 for s in json.loads(seats_json))


def _game(row: Any, seats: tuple[Seat, ...], mine: tuple[int, ...]) -> GameRow:
    return GameRow(row["id"], row["rules"], row["status"], float(row["created"]),
                   float(row["updated"]), seats, mine)


def _merged(rows: list[Any]) -> list[GameRow]:
    """One entry a game (an account may hold two seats of one game), order kept."""
    seats: dict[str, list[int]] = {}
    first: dict[str, Any] = {}
    for row in rows:
        seats.setdefault(row["id"], []).append(int(row["seat"]))
        first.setdefault(row["id"], row)
    return [_game(row, _seats(row["seats"]), tuple(sorted(seats[gid])))
            for gid, row in first.items()]
