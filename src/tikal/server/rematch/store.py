"""Rematch offers (``rematches``, migration 9 of ``store/schema.py``), in the games'
database: one row per finished game, changed in transactions that read it first (under an
advisory lock of the game on PostgreSQL), so the last acceptance through any process
starts the new game exactly once."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..store.protocol import TableStorage
from ..store.schema import Db
from .model import DECLINED, OFFERED, STARTED, STARTING, Offer, accepting, refused

#: The NOTIFY channel of rematch changes (payload ``"<game id> <origin>"``).
CHANNEL = "tikal_rematch"
COLUMNS = "game_id, by_seat, accepted, status, declined_by, new_game, tokens"


def _offer(row: Any) -> Offer:
    return Offer(row["game_id"], int(row["by_seat"]), frozenset(json.loads(row["accepted"])),
                 row["status"], row["declined_by"], row["new_game"],
                 {int(k): v for k, v in json.loads(row["tokens"]).items()})


class RematchStore:
    def __init__(self, storage: TableStorage) -> None:
        self.storage = storage
        self.kind: str = getattr(storage, "kind", "sqlite")
        self._announce: Callable[[Db, str, str], None] | None = getattr(
            storage, "announce", None)

    def _q(self, db: Db, query: str, params: tuple[Any, ...]) -> list[Any]:
        cursor = db.execute(self.storage.sql(query), params)
        return list(cursor.fetchall()) if cursor.description else []

    def _read(self, db: Db, game_id: str) -> Offer | None:
        rows = self._q(db, f"SELECT {COLUMNS} FROM rematches WHERE game_id = ?", (game_id,))
        return _offer(rows[0]) if rows else None

    def _locked(self, db: Db, game_id: str) -> Offer | None:
        if self.kind == "postgresql":
            db.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (game_id,))
        return self._read(db, game_id)

    def _save(self, db: Db, offer: Offer, now: float) -> None:
        self._q(db, "DELETE FROM rematches WHERE game_id = ?", (offer.game_id,))
        self._q(db, f"INSERT INTO rematches ({COLUMNS}, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (offer.game_id, offer.by_seat, json.dumps(sorted(offer.accepted)),
                 offer.status, offer.declined_by, offer.new_game,
                 json.dumps({str(k): v for k, v in offer.tokens.items()}), now))
        if self._announce is not None:
            self._announce(db, CHANNEL, offer.game_id)

    def get(self, game_id: str) -> Offer | None:
        return self.storage.transaction(lambda db: self._read(db, game_id), write=False)

    def accept(self, game_id: str, seats: frozenset[int], humans: frozenset[int],
               now: float) -> tuple[Offer, bool]:
        """``seats`` offer the rematch or accept it; (the offer, whether this call made
        everyone agree: then it is ``starting`` and the caller makes the game)."""
        def work(db: Db) -> tuple[Offer, bool]:
            found = self._locked(db, game_id)
            offer = accepting(found, tuple(seats)) or Offer(
                game_id, min(seats), seats, OFFERED)
            everyone = offer.status == OFFERED and humans <= offer.accepted
            if everyone:
                offer = Offer(game_id, offer.by_seat, offer.accepted, STARTING)
            if offer != found:
                self._save(db, offer, now)
            return offer, everyone

        return self.storage.transaction(work)

    def decline(self, game_id: str, seat: int, now: float) -> Offer:
        def work(db: Db) -> Offer:
            found = self._locked(db, game_id)
            if found is None:
                raise refused("no_rematch", "no_offer")
            if found.status != OFFERED:
                raise refused("rematch_declined" if found.status == DECLINED
                              else "rematch_started",
                              "declined" if found.status == DECLINED else "started")
            offer = Offer(game_id, found.by_seat, found.accepted, DECLINED, seat)
            self._save(db, offer, now)
            return offer

        return self.storage.transaction(work)

    def started(self, game_id: str, new_game: str, tokens: dict[int, str],
                now: float) -> Offer:
        def work(db: Db) -> Offer:
            found = self._locked(db, game_id)
            assert found is not None
            offer = Offer(game_id, found.by_seat, found.accepted, STARTED, None, new_game,
                          tokens)
            self._save(db, offer, now)
            return offer

        return self.storage.transaction(work)

    def unclaim(self, game_id: str, now: float) -> None:
        """The new game could not be made: the offer stands again."""
        def work(db: Db) -> None:
            found = self._locked(db, game_id)
            if found is not None and found.status == STARTING:
                self._save(db, Offer(game_id, found.by_seat, found.accepted, OFFERED), now)

        self.storage.transaction(work)
