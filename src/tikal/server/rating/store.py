"""The ratings' own tables (``ratings``, ``rating_history``, ``rated_games``: migration 5
of ``store/schema.py``), in the games' database.

A result is applied in one transaction that first marks the game's ``rated_games`` row
applied (``UPDATE ... WHERE applied IS NULL RETURNING``): a second attempt, in this
process or another, finds it applied and changes nothing, so ratings change once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..store.protocol import TableStorage
from ..store.schema import Db
from .model import Rating, display, initial
from .result import RatedResult

BOT_PREFIX = "bot:"


def bot_player(level: str) -> str:
    """The rating player of a bot level (bots are rated players like accounts)."""
    return BOT_PREFIX + level


@dataclass(frozen=True)
class Standing:
    """A player's rating in a rule set, as boards and profiles show it."""

    player: str
    name: str | None  # None: a deleted account
    rating: Rating
    wins: int
    shown: int

    @property
    def is_bot(self) -> bool:
        return self.player.startswith(BOT_PREFIX)


@dataclass(frozen=True)
class HistoryPoint:
    game_id: str
    at: float
    shown: int


INSERT_RATING = ("INSERT INTO ratings (player, rules, mu, sigma, games, wins, shown, updated) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player, rules) ")
UPSERT = (INSERT_RATING + "DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
          "games = excluded.games, wins = excluded.wins, shown = excluded.shown, "
          "updated = excluded.updated")
#: A rating given only where there is none (the shipped bot ratings at start-up).
SEED = INSERT_RATING + "DO NOTHING"
HISTORY = ("INSERT INTO rating_history (player, rules, game_id, at, mu, sigma, shown) "
           "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")
NAMED = ("SELECT r.player, r.rules, r.mu, r.sigma, r.games, r.wins, r.shown, a.name "
         "FROM ratings r LEFT JOIN accounts a ON a.id = r.player")


class Reader:
    """Reads of one database in a read-only transaction (the store and the lookup)."""

    def __init__(self, storage: TableStorage) -> None:
        self.storage = storage

    def _all(self, query: str, params: Sequence[Any]) -> list[Any]:
        def work(db: Db) -> list[Any]:
            return list(db.execute(self.storage.sql(query), params).fetchall())

        return self.storage.transaction(work, write=False)


class RatingStore(Reader):
    """Ratings of one database."""

    # -- rated games ------------------------------------------------------------------

    def ask(self, game_id: str, rules: str, account_id: str) -> None:
        """Record that the game's creator asked for it to be rated."""
        def work(db: Db) -> None:
            db.execute(self.storage.sql(
                "INSERT INTO rated_games (game_id, rules, asked_by) VALUES (?, ?, ?) "
                "ON CONFLICT DO NOTHING"), (game_id, rules, account_id))

        self.storage.transaction(work)

    def asked(self, game_id: str) -> bool:
        return bool(self._all("SELECT 1 AS one FROM rated_games WHERE game_id = ?",
                              (game_id,)))

    def waiting(self) -> list[str]:
        """Rated games whose result is not applied yet (mended at start-up)."""
        rows = self._all("SELECT game_id FROM rated_games WHERE applied IS NULL "
                         "ORDER BY game_id", ())
        return [row["game_id"] for row in rows]

    def settle(self, game_id: str) -> None:
        """Mark a rated game done without rating it (it turned out it cannot be)."""
        def work(db: Db) -> None:
            db.execute(self.storage.sql("UPDATE rated_games SET applied = ? WHERE game_id = ? "
                                        "AND applied IS NULL"), (time.time(), game_id))

        self.storage.transaction(work)

    def apply(self, result: RatedResult, players: Sequence[str], now: float | None = None,
              ) -> list[Rating] | None:
        """Rate the game (players in seat order): the new ratings, or None when it was
        rated already (or never asked to be) - then nothing changes."""
        at = time.time() if now is None else now

        def work(db: Db) -> list[Rating] | None:
            marked = db.execute(self.storage.sql(
                "UPDATE rated_games SET applied = ? WHERE game_id = ? AND applied IS NULL "
                "RETURNING game_id"), (at, result.game_id)).fetchone()
            if marked is None:
                return None
            before = [self._rating(db, player, result.rule_set) for player in players]
            after = result.rate([rating for rating, _ in before])
            best = max(result.scores)
            for seat, player in enumerate(players):
                wins = before[seat][1] + (result.scores[seat] == best)
                self._store(db, player, result.rule_set, after[seat], wins, at)
                db.execute(self.storage.sql(HISTORY), (
                    player, result.rule_set, result.game_id, at, after[seat].mu,
                    after[seat].sigma, display(after[seat])))
            return after

        return self.storage.transaction(work)

    def _rating(self, db: Db, player: str, rules: str) -> tuple[Rating, int]:
        row = db.execute(self.storage.sql(
            "SELECT mu, sigma, games, wins FROM ratings WHERE player = ? AND rules = ?"),
            (player, rules)).fetchone()
        if row is None:
            return initial(), 0
        return Rating(float(row["mu"]), float(row["sigma"]), int(row["games"])), int(row["wins"])

    def _store(self, db: Db, player: str, rules: str, rating: Rating, wins: int,
               at: float) -> None:
        db.execute(self.storage.sql(UPSERT), (player, rules, rating.mu, rating.sigma,
                                              rating.games, wins, display(rating), at))

    def seed(self, ratings: Sequence[tuple[str, str, Rating, int]]) -> int:
        """Store each (player, rules, rating, wins) that has no rating yet, in one
        transaction (an existing one, moved by rated games, is kept: two processes starting
        at once both seed, and neither overwrites); how many were new."""
        def work(db: Db) -> int:
            added = 0
            for player, rules, rating, wins in ratings:
                added += db.execute(self.storage.sql(SEED), (
                    player, rules, rating.mu, rating.sigma, rating.games, wins,
                    display(rating), time.time())).rowcount > 0
            return added

        return self.storage.transaction(work) if ratings else 0

    def set(self, player: str, rules: str, rating: Rating, wins: int = 0) -> None:
        """Set a rating outright (the bots' calibration)."""
        self.storage.transaction(
            lambda db: self._store(db, player, rules, rating, wins, time.time()))

    # -- reading ----------------------------------------------------------------------

    def rating(self, player: str, rules: str) -> Rating:
        return self.storage.transaction(lambda db: self._rating(db, player, rules)[0],
                                        write=False)

    def standings_of(self, player: str) -> dict[str, Standing]:
        """The player's rating in each rule set it has one in."""
        return self.standings_of_all([player]).get(player, {})

    def standings_of_all(self, players: Sequence[str]) -> dict[str, dict[str, Standing]]:
        """Per player (those with any rating) its rating per rule set: one query, by the
        primary key (the bot list asks for every level at each ``/api/meta``)."""
        if not players:
            return {}
        marks = ", ".join("?" for _ in players)
        rows = self._all(f"{NAMED} WHERE r.player IN ({marks}) ORDER BY r.rules", tuple(players))
        found: dict[str, dict[str, Standing]] = {}
        for row in rows:
            found.setdefault(row["player"], {})[row["rules"]] = _standing(row)
        return found

    def leaderboard(self, rules: str, limit: int = 50, offset: int = 0) -> list[Standing]:
        """The rule set's players, best display rating first (an index scan)."""
        rows = self._all(f"{NAMED} WHERE r.rules = ? ORDER BY r.shown DESC, r.player "
                         "LIMIT ? OFFSET ?", (rules, limit, offset))
        return [_standing(row) for row in rows]

    def history(self, player: str, rules: str, limit: int = 500) -> list[HistoryPoint]:
        """The player's display rating after each rated game, oldest first."""
        rows = self._all("SELECT game_id, at, shown FROM rating_history WHERE player = ? "
                         "AND rules = ? ORDER BY at DESC LIMIT ?", (player, rules, limit))
        return [HistoryPoint(row["game_id"], float(row["at"]), int(row["shown"]))
                for row in reversed(rows)]


def _standing(row: Any) -> Standing:
    player = row["player"]
    name = player[len(BOT_PREFIX):] if player.startswith(BOT_PREFIX) else row["name"]
    rating = Rating(float(row["mu"]), float(row["sigma"]), int(row["games"]))
    return Standing(player, name, rating, int(row["wins"]), int(row["shown"]))
