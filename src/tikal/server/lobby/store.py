"""The lobby's tables (``lobby_tables``, ``lobby_seats``: migration 7 of
``store/schema.py``), in the games' database.

A seat is taken by one ``INSERT ... ON CONFLICT DO NOTHING``: the primary key (table,
seat) and the unique (table, player) make the database, not a process, decide who got
it, so two players asking for the last seat on two processes get one seat and one
``table_full``.  A start is claimed the same way (``UPDATE ... WHERE status = 'open'``):
one game per table.  On PostgreSQL every change is announced on :data:`CHANNEL` in its
transaction (``NOTIFY``), so the lobby of every other process shows it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..store.protocol import TableStorage
from ..store.schema import Db
from .model import (
    CLOSED,
    OPEN,
    STARTED,
    STARTING,
    Player,
    Seat,
    Spec,
    Table,
    check_join,
    check_leave,
    check_start,
    quick_fits,
    refused,
    settings,
)

T = TypeVar("T")
#: The NOTIFY channel of lobby changes (payload ``"<table id> <origin>"``).
CHANNEL = "tikal_lobby"

TABLE_COLUMNS = ("id, rules, players, options, rated, fill, creator, status, game_id, "
                 "created, quick, rating, clock")
#: The advisory lock (PostgreSQL) that makes quick matches one at a time across processes.
QUICK_LOCK = 290_2026


def _table(row: Any, seats: Sequence[Any]) -> Table:
    spec = Spec(row["rules"], int(row["players"]), json.loads(row["options"]),
                bool(row["rated"]), row["fill"], row["clock"])
    return Table(row["id"], spec, row["creator"], row["status"],
                 tuple(Seat(int(s["seat"]), s["player"], s["name"], s["token"])
                       for s in sorted(seats, key=lambda s: int(s["seat"]))),
                 float(row["created"]), row["game_id"], bool(row["quick"]),
                 None if row["rating"] is None else int(row["rating"]))


class LobbyStore:
    def __init__(self, storage: TableStorage) -> None:
        self.storage = storage
        self._announce: Callable[[Db, str, str], None] | None = getattr(
            storage, "announce", None)
        self.storage_kind: str = getattr(storage, "kind", "sqlite")

    def _q(self, db: Db, query: str, params: Sequence[Any] = ()) -> list[Any]:
        cursor = db.execute(self.storage.sql(query), params)
        return list(cursor.fetchall()) if cursor.description else []

    def _changed(self, db: Db, table_id: str, now: float) -> None:
        self._q(db, "UPDATE lobby_tables SET updated = ? WHERE id = ?", (now, table_id))
        if self._announce is not None:
            self._announce(db, CHANNEL, table_id)

    def _read(self, db: Db, table_id: str) -> Table | None:
        rows = self._q(db, f"SELECT {TABLE_COLUMNS} FROM lobby_tables WHERE id = ?",
                       (table_id,))
        if not rows:
            return None
        seats = self._q(db, "SELECT seat, player, name, token FROM lobby_seats "
                        "WHERE table_id = ?", (table_id,))
        return _table(rows[0], seats)

    def _existing(self, db: Db, table_id: str) -> Table:
        table = self._read(db, table_id)
        if table is None:
            raise refused("unknown_table", "unknown_table", 404)
        return table

    def _write(self, work: Callable[[Db], T]) -> T:
        return self.storage.transaction(work)

    # -- reads --------------------------------------------------------------------------

    def get(self, table_id: str) -> Table | None:
        return self.storage.transaction(lambda db: self._read(db, table_id), write=False)

    def _many(self, db: Db, rows: list[Any]) -> list[Table]:
        if not rows:
            return []
        ids = [row["id"] for row in rows]
        marks = ", ".join("?" for _ in ids)
        seats = self._q(db, f"SELECT table_id, seat, player, name, token FROM lobby_seats "
                        f"WHERE table_id IN ({marks})", ids)
        by_table: dict[str, list[Any]] = {}
        for seat in seats:
            by_table.setdefault(seat["table_id"], []).append(seat)
        return [_table(row, by_table.get(row["id"], [])) for row in rows]

    def listing(self, since: float) -> tuple[list[Table], list[Table]]:
        """(open tables, newest first; started ones, to watch), within the caps of
        ``data/lobby.json``; open tables older than ``since`` are not listed."""
        def work(db: Db) -> tuple[list[Table], list[Table]]:
            opened = self._q(db, f"SELECT {TABLE_COLUMNS} FROM lobby_tables WHERE status = ? "
                             "AND quick = ? AND updated >= ? ORDER BY created DESC LIMIT ?",
                             (OPEN, False, since, settings()["open_listed"]))
            started = self._q(db, f"SELECT {TABLE_COLUMNS} FROM lobby_tables WHERE "
                              "status = ? ORDER BY updated DESC LIMIT ?",
                              (STARTED, settings()["started_listed"]))
            return self._many(db, opened), self._many(db, started)

        return self.storage.transaction(work, write=False)

    def of_player(self, player_id: str) -> list[Table]:
        """The open and started tables ``player_id`` sits at, newest first."""
        def work(db: Db) -> list[Table]:
            rows = self._q(db, f"SELECT {TABLE_COLUMNS} FROM lobby_tables WHERE id IN "
                           "(SELECT table_id FROM lobby_seats WHERE player = ?) "
                           "AND status IN (?, ?) ORDER BY created DESC LIMIT 100",
                           (player_id, OPEN, STARTED))
            return self._many(db, rows)

        return self.storage.transaction(work, write=False)

    # -- changes ------------------------------------------------------------------------

    def create(self, table_id: str, spec: Spec, player: Player, now: float) -> Table:
        """A new open table, its creator in the first seat (``too_many_tables`` past the
        cap of open tables per player)."""
        def work(db: Db) -> Table:
            mine = self._q(db, "SELECT COUNT(*) AS n FROM lobby_tables WHERE creator = ? "
                           "AND status = ?", (player.player_id, OPEN))
            cap = settings()["tables_per_player"]
            if int(mine[0]["n"]) >= cap:
                raise refused("too_many_tables", "too_many_tables", 429, max=cap)
            return self._new_table(db, table_id, spec, player, now)

        return self._write(work)

    def _new_table(self, db: Db, table_id: str, spec: Spec, player: Player, now: float,
                   quick: bool = False, rating: int | None = None) -> Table:
        self._q(db, f"INSERT INTO lobby_tables ({TABLE_COLUMNS}, updated) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, spec.rules, spec.players, json.dumps(spec.options),
                 spec.rated, spec.fill, player.player_id, OPEN, None, now, quick, rating,
                 spec.clock, now))
        self._insert_seat(db, table_id, 0, player, now)
        self._changed(db, table_id, now)
        return self._existing(db, table_id)

    def quick(self, table_id: str, spec: Spec, player: Player, rating: int | None,
              now: float) -> tuple[Table, bool]:
        """A quick match: ``player`` sits down at the oldest waiting quick table it fits
        (same game; ratings within the table's window, see :func:`~.model.quick_fits`),
        else opens one (id ``table_id``).  (table, whether it is now full: claimed to be
        started).  One at a time, so two seekers never open two tables for one game."""
        def work(db: Db) -> tuple[Table, bool]:
            if self.storage_kind == "postgresql":
                db.execute("SELECT pg_advisory_xact_lock(%s)", (QUICK_LOCK,))
            if self._waiting_at(db, player.player_id):
                raise refused("already_queued", "already_queued")
            rows = self._q(db, f"SELECT {TABLE_COLUMNS} FROM lobby_tables WHERE quick = ? "
                           "AND status = ? AND rules = ? AND players = ? ORDER BY created",
                           (True, OPEN, spec.rules, spec.players))
            for table in self._many(db, rows):
                if not quick_fits(table, spec, player, rating, now):
                    continue
                seat = check_join(table, player, None, matched=True)
                if not self._insert_seat(db, table.table_id, seat, player, now):
                    continue
                full = len(table.free) == 1
                if full:
                    self._q(db, "UPDATE lobby_tables SET status = ? WHERE id = ? AND "
                            "status = ?", (STARTING, table.table_id, OPEN))
                self._changed(db, table.table_id, now)
                return self._existing(db, table.table_id), full
            return self._new_table(db, table_id, spec, player, now, True, rating), False

        return self._write(work)

    def _waiting_at(self, db: Db, player_id: str) -> str | None:
        rows = self._q(db, "SELECT t.id AS id FROM lobby_tables t JOIN lobby_seats s ON "
                       "s.table_id = t.id WHERE s.player = ? AND t.quick = ? AND t.status = ?",
                       (player_id, True, OPEN))
        return str(rows[0]["id"]) if rows else None

    def waiting_at(self, player_id: str) -> str | None:
        """The quick table ``player_id`` waits at, if any."""
        return self.storage.transaction(lambda db: self._waiting_at(db, player_id),
                                        write=False)

    def _insert_seat(self, db: Db, table_id: str, seat: int, player: Player,
                     now: float) -> bool:
        cursor = db.execute(self.storage.sql(
            "INSERT INTO lobby_seats (table_id, seat, player, name, token, joined) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"),
            (table_id, seat, player.player_id, player.name, None, now))
        return bool(cursor.rowcount == 1)

    def join(self, table_id: str, player: Player, seat: int | None, now: float) -> Table:
        """``player`` in ``seat`` (or the first free one); refused as
        :func:`~.model.check_join` says, or when another took the seat first."""
        def work(db: Db) -> Table:
            table = self._existing(db, table_id)
            wanted = check_join(table, player, seat)
            if not self._insert_seat(db, table_id, wanted, player, now):
                check_join(self._existing(db, table_id), player, seat)  # names who won
                raise refused("table_full" if seat is None else "seat_taken",
                              "table_full" if seat is None else "seat_taken", seat=wanted + 1)
            self._changed(db, table_id, now)
            return self._existing(db, table_id)

        return self._write(work)

    def leave(self, table_id: str, player: Player, now: float) -> Table:
        """``player`` leaves; the creator leaving closes the table."""
        def work(db: Db) -> Table:
            table = self._existing(db, table_id)
            check_leave(table, player)
            if table.creator == player.player_id and not table.quick:
                self._close(db, table_id)
            else:
                self._q(db, "DELETE FROM lobby_seats WHERE table_id = ? AND player = ?",
                        (table_id, player.player_id))
                if table.quick and len(table.seats) == 1:  # the last one waiting left
                    self._close(db, table_id)
            self._changed(db, table_id, now)
            return self._existing(db, table_id)

        return self._write(work)

    def _close(self, db: Db, table_id: str) -> None:
        self._q(db, "UPDATE lobby_tables SET status = ? WHERE id = ? AND status = ?",
                (CLOSED, table_id, OPEN))

    def claim_start(self, table_id: str, player: Player, now: float) -> Table:
        """Mark the table starting (one start wins); the game is made next."""
        def work(db: Db) -> Table:
            table = self._existing(db, table_id)
            check_start(table, player)
            cursor = db.execute(self.storage.sql(
                "UPDATE lobby_tables SET status = ? WHERE id = ? AND status = ?"),
                (STARTING, table_id, OPEN))
            if cursor.rowcount != 1:
                raise refused("table_closed", "table_closed")
            return self._existing(db, table_id)

        return self._write(work)

    def started(self, table_id: str, game_id: str, tokens: dict[int, str],
                now: float) -> Table:
        """The table's game exists: each seat keeps its invite token (for its player)."""
        def work(db: Db) -> Table:
            self._q(db, "UPDATE lobby_tables SET status = ?, game_id = ? WHERE id = ?",
                    (STARTED, game_id, table_id))
            for seat, token in tokens.items():
                self._q(db, "UPDATE lobby_seats SET token = ? WHERE table_id = ? AND seat = ?",
                        (token, table_id, seat))
            self._changed(db, table_id, now)
            return self._existing(db, table_id)

        return self._write(work)

    def unclaim(self, table_id: str, now: float) -> None:
        """The game could not be made: the table is open again."""
        def work(db: Db) -> None:
            self._q(db, "UPDATE lobby_tables SET status = ? WHERE id = ? AND status = ?",
                    (OPEN, table_id, STARTING))
            self._changed(db, table_id, now)

        self._write(work)
