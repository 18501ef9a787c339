"""What both databases do alike: the queries of the :class:`~.protocol.Storage` protocol.

A backend says how a piece of work reaches its database (:meth:`SqlStorage._run`: the
connection, the transaction, what a driver's error means) and how log entries are
appended (SQLite's batches, PostgreSQL's state counter); everything else is here,
written once.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .protocol import (
    DAMAGED,
    GameRecord,
    LogEntry,
    UploadCap,
    check_start,
)
from .rows import (
    INSERT_ENTRY,
    INSERT_GAME,
    claim_from_row,
    entry_from_row,
    entry_values,
    game_from_row,
    game_values,
    listing_from_row,
)
from .schema import Db, Dialect

T = TypeVar("T")

GAME_SELECT = "SELECT * FROM games WHERE id = ?"
LOG_SELECT = ("SELECT seq, kind, seat, action, chance, at FROM log "
              "WHERE game_id = ? AND seq > ? ORDER BY seq")
LISTING = (
    "SELECT id, rules, players, status, created, updated, seats, state + 1 AS moves "
    f"FROM games WHERE kind = 'game' AND status <> '{DAMAGED}' ORDER BY updated DESC LIMIT ?"
)
#: Take the claim if there is none, it ran out, or it is the owner's own (parameters:
#: game, owner, total, until, now); a row comes back if taken.
CLAIM = """
INSERT INTO analysis_claims (game_id, owner, done, total, until) VALUES (?, ?, 0, ?, ?)
ON CONFLICT (game_id) DO UPDATE SET owner=excluded.owner, done=0, total=excluded.total,
    until=excluded.until
WHERE analysis_claims.until < ? OR analysis_claims.owner = excluded.owner
RETURNING game_id
"""
#: The uploads in the order they go when over the cap: never visited (oldest first),
#: then the least recently visited.
EVICTION_ORDER = ("SELECT id, size FROM games WHERE kind = 'replay' AND id <> ? "
                  "ORDER BY visited IS NOT NULL, COALESCE(visited, created), id")


class SqlStorage(ABC):
    """The protocol's queries on a database of :attr:`dialect`."""

    kind: str
    shared: bool
    dialect: Dialect
    #: the database, as shown to people (a file's path, a URL without its password)
    where: str

    @abstractmethod
    def _run(self, work: Callable[[Db], T], *, write: bool, single: bool = False) -> T:
        """``work`` on a connection: in a transaction (a write, or several statements
        read together) unless ``single`` (one statement, atomic by itself); a driver's
        error becomes :class:`~.faults.StorageUnavailable` when it is a fault."""

    def transaction(self, work: Callable[[Db], T], *, write: bool = True) -> T:
        """``work`` in one transaction of this database: for the modules beside the games
        that keep their own tables in it (accounts); queries written with ``?`` go
        through :meth:`sql`."""
        return self._run(work, write=write)

    def sql(self, query: str) -> str:
        """``query`` with this database's parameter marks."""
        return self.dialect.sql(query)

    def _q(self, query: str) -> str:
        return self.dialect.sql(query)

    def _fetch(self, query: str, params: Sequence[Any] = ()) -> list[Any]:
        return self._run(lambda db: db.execute(self._q(query), params).fetchall(),
                         write=False, single=True)

    def _change(self, query: str, params: Sequence[Any] = ()) -> Any:
        """One writing statement; its first row, if it returns any."""
        def work(db: Db) -> Any:
            cursor = db.execute(self._q(query), params)
            return cursor.fetchone() if cursor.description else None

        return self._run(work, write=True, single=True)

    # -- games ---------------------------------------------------------------

    def create(self, game: GameRecord, start: LogEntry | None = None) -> None:
        check_start(game, start)

        def insert(db: Db) -> None:
            db.execute(self._q(INSERT_GAME), game_values(game, -1 if start is None else 0))
            if start is not None:
                db.execute(self._q(INSERT_ENTRY), entry_values(game.game_id, start))

        self._run(insert, write=True)

    def load(self, game_id: str) -> tuple[GameRecord, list[LogEntry]] | None:
        def read(db: Db) -> tuple[GameRecord, list[LogEntry]] | None:
            row = db.execute(self._q(GAME_SELECT), (game_id,)).fetchone()
            if row is None:
                return None
            rows = db.execute(self._q(LOG_SELECT), (game_id, -1)).fetchall()
            return game_from_row(row), [entry_from_row(r) for r in rows]

        return self._run(read, write=False)

    def log_since(self, game_id: str, seq: int) -> list[LogEntry]:
        return [entry_from_row(r) for r in self._fetch(LOG_SELECT, (game_id, seq))]

    def game_ids(self, kind: str = "game", status: Sequence[str] = ()) -> list[str]:
        among = f" AND status IN ({', '.join('?' for _ in status)})" if status else ""
        rows = self._fetch(f"SELECT id FROM games WHERE kind = ?{among} ORDER BY created",
                           (kind, *status))
        return [r["id"] for r in rows]

    def set_status(self, game_id: str, status: str) -> None:
        self._change("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        return [listing_from_row(r) for r in self._fetch(LISTING, (limit,))]

    # -- uploads -------------------------------------------------------------

    def store_upload(self, game: GameRecord, digest: str,
                     cap: UploadCap) -> tuple[str, list[str]]:
        check_start(game, None)

        def store(db: Db) -> tuple[str, list[str]]:
            db.execute(self._q(f"{INSERT_GAME} ON CONFLICT (digest) DO NOTHING"),
                       game_values(game, -1, digest))
            row = db.execute(self._q("SELECT id FROM games WHERE digest = ?"),
                             (digest,)).fetchone()
            kept: str = row["id"]
            return kept, self._evict(db, kept, cap)

        return self._run(store, write=True)

    def _evict(self, db: Db, kept: str, cap: UploadCap) -> list[str]:
        """Delete uploads (``kept`` aside) in eviction order while over ``cap``; their ids."""
        count, size = _totals(db)
        evicted: list[str] = []
        if count <= cap.count and size <= cap.bytes:
            return evicted
        for row in db.execute(self._q(EVICTION_ORDER), (kept,)).fetchall():
            if count <= cap.count and size <= cap.bytes:
                break
            for table, column in (("analyses", "game_id"), ("analysis_claims", "game_id"),
                                  ("games", "id")):
                db.execute(self._q(f"DELETE FROM {table} WHERE {column} = ?"), (row["id"],))
            count, size = count - 1, size - int(row["size"])
            evicted.append(row["id"])
        return evicted

    def visit(self, game_id: str, at: float) -> None:
        self._change("UPDATE games SET visited = ? WHERE id = ? AND kind = 'replay'",
                     (at, game_id))

    def upload_totals(self) -> tuple[int, int]:
        return self._run(_totals, write=False, single=True)

    # -- analyses (see tikal.server.analysis_jobs) -----------------------------

    def save_analysis(self, game_id: str, analysis: dict[str, Any]) -> None:
        def store(db: Db) -> None:
            db.execute(self._q("INSERT INTO analyses (game_id, analysis, created) "
                               "VALUES (?, ?, ?) ON CONFLICT (game_id) DO NOTHING"),
                       (game_id, json.dumps(analysis), time.time()))
            db.execute(self._q("DELETE FROM analysis_claims WHERE game_id = ?"), (game_id,))

        self._run(store, write=True)

    def load_analysis(self, game_id: str) -> dict[str, Any] | None:
        rows = self._fetch("SELECT analysis FROM analyses WHERE game_id = ?", (game_id,))
        return dict(json.loads(rows[0]["analysis"])) if rows else None

    def claim_analysis(self, game_id: str, owner: str, total: int, until: float) -> bool:
        return self._change(CLAIM, (game_id, owner, total, until, time.time())) is not None

    def renew_analysis(self, game_id: str, owner: str, done: int, until: float) -> None:
        self._change("UPDATE analysis_claims SET done = ?, until = ? "
                     "WHERE game_id = ? AND owner = ?", (done, until, game_id, owner))

    def analysis_claim(self, game_id: str) -> dict[str, Any] | None:
        rows = self._fetch("SELECT owner, done, total, until FROM analysis_claims "
                           "WHERE game_id = ?", (game_id,))
        return claim_from_row(rows[0] if rows else None)

    def release_analysis(self, game_id: str, owner: str) -> None:
        self._change("DELETE FROM analysis_claims WHERE game_id = ? AND owner = ?",
                     (game_id, owner))


def _totals(db: Db) -> tuple[int, int]:
    row = db.execute("SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM games "
                     "WHERE kind = 'replay'").fetchone()
    return int(row["n"]), int(row["bytes"])
