"""The :class:`~tikal.server.storage.Storage` protocol on PostgreSQL (psycopg 3).

Used by ``tikal serve --db postgresql://...`` so that several server processes share the
same games.  Three things matter beyond what SQLite does:

* **One move per state, across processes.**  Each game row carries its state counter;
  :meth:`PostgresStorage.append` moves it from ``seq - 1`` to ``seq`` with one
  ``UPDATE ... WHERE state = seq - 1`` in the transaction that inserts the entry.  The
  update takes the game row's lock, so of two processes storing the same ``seq`` the
  second waits, then finds the counter moved on and gets :class:`StorageConflict` (the
  client's ``stale`` answer).  The log's primary key is a second guard.
* **Telling the other processes.**  The same transaction sends ``NOTIFY tikal`` with
  ``"<game id> <seq> <origin>"``; PostgreSQL delivers it only if the entry is committed.
  :mod:`tikal.server.cluster` listens for it.
* **Surviving a database restart.**  A statement that fails because the connection broke
  is retried on a new connection for up to ``retry_for`` seconds.  When the commit of an
  append was cut off, the retry finds whether the entry is stored (then it succeeded).
"""

from __future__ import annotations

import functools
import json
import logging
import queue
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg

from .storage import (
    ANALYSIS_SCHEMA,
    CLAIM_SCHEMA,
    CLAIM_SQL,
    GAME_INSERT_COLUMNS,
    GAME_SELECT_COLUMNS,
    LISTING_COLUMNS,
    LOG_SELECT_COLUMNS,
    GameRecord,
    LogEntry,
    StorageConflict,
    StorageUnavailable,
    claim_from_row,
    entry_from_row,
    entry_row,
    game_from_row,
    game_row,
    listing_from_row,
)

#: The NOTIFY channel of stored log entries.
CHANNEL = "tikal"

log = logging.getLogger("tikal.server")

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL DEFAULT 'game',
    rules TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seeded BOOLEAN NOT NULL DEFAULT FALSE,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    record TEXT,
    status TEXT NOT NULL DEFAULT 'playing',
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    state INTEGER NOT NULL DEFAULT -1
);
CREATE TABLE IF NOT EXISTS log (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT,
    chance TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS games_updated ON games (updated);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema', '1') ON CONFLICT DO NOTHING;
"""

#: One stored move: the game's counter moves from ``seq - 1`` to ``seq`` (the row lock
#: serialises two processes storing the same state; the second finds the counter moved
#: on and stores nothing), the entry is inserted only if it did, and the notice is sent
#: only if the entry was inserted.  One row comes back when the entry is stored.
APPEND_SQL = """
WITH moved AS (
    UPDATE games SET state = %s, updated = %s WHERE id = %s AND state = %s RETURNING id
), stored AS (
    INSERT INTO log (game_id, seq, kind, seat, action, chance, at)
    SELECT %s, %s, %s, %s, %s, %s, %s FROM moved RETURNING seq
)
SELECT pg_notify(%s, %s) FROM stored
"""

#: Any number; two processes creating the schema at once take turns on this lock.
SCHEMA_LOCK = 0x71CA1


class PostgresStorage:
    """:class:`~tikal.server.storage.Storage` in a PostgreSQL database.

    A small pool of connections (``connections``) lets request threads and bot threads
    query at the same time; ``origin`` names this process in its notifications, so the
    cluster bridge can skip its own.
    """

    def __init__(self, url: str, *, connections: int = 4, retry_for: float = 30.0) -> None:
        self.url = url
        self.retry_for = retry_for
        self.origin = secrets.token_hex(6)
        self._idle: queue.LifoQueue[psycopg.Connection[Any] | None] = queue.LifoQueue()
        for _ in range(connections):
            self._idle.put(None)  # opened on first use
        self._closed = False
        self._run(self._create_schema)

    # -- connections ---------------------------------------------------------

    def connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=5)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection; a broken one is closed and replaced on next use."""
        conn = self._idle.get()
        try:
            if conn is None or conn.closed:
                conn = self.connect()
            yield conn
        except psycopg.OperationalError:
            if conn is not None:
                conn.close()
            conn = None
            raise
        finally:
            self._idle.put(conn)

    def _run(self, work: Callable[[psycopg.Connection[Any]], T], transaction: bool = True) -> T:
        """``work`` in a transaction, retried on a new connection while the database is
        unreachable (a restart), for up to ``retry_for`` seconds.  ``transaction=False``
        for work that is one statement (atomic by itself, in autocommit mode): it saves
        the ``BEGIN`` and ``COMMIT`` round trips."""
        deadline = time.monotonic() + self.retry_for
        pause = 0.05
        while True:
            try:
                with self._connection() as conn:
                    if not transaction:
                        return work(conn)
                    with conn.transaction():
                        return work(conn)
            except psycopg.OperationalError as exc:
                if self._closed or time.monotonic() + pause > deadline:
                    raise StorageUnavailable(f"PostgreSQL is not reachable: {exc}") from exc
                log.warning("PostgreSQL unreachable; retrying in %.2f s", pause)
                time.sleep(pause)
                pause = min(pause * 2, 1.0)

    @staticmethod
    def _create_schema(conn: psycopg.Connection[Any]) -> None:
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        for statement in filter(str.strip, SCHEMA.split(";")):
            conn.execute(statement)

    # -- the Storage protocol ------------------------------------------------

    def create(self, game: GameRecord) -> None:
        def insert(conn: psycopg.Connection[Any]) -> None:
            conn.execute(
                f"INSERT INTO games ({GAME_INSERT_COLUMNS}) "
                "VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s)",
                game_row(game),
            )

        self._run(insert)

    def append(self, game_id: str, entry: LogEntry) -> None:
        """Store ``entry`` if the game's counter is at ``seq - 1``, and tell the other
        processes, in one statement: the counter's update, the log's insert and the
        notice are one atomic unit (the notice goes out only if the entry is committed).
        As three statements in a transaction a move took five round trips to the
        database (with ``BEGIN`` and ``COMMIT``); now it takes one."""
        attempt = 0

        def store(conn: psycopg.Connection[Any]) -> None:
            nonlocal attempt
            attempt += 1
            stored = conn.execute(APPEND_SQL, self._append_params(game_id, entry)).rowcount
            if stored != 1:
                if attempt > 1 and self._stored(conn, game_id, entry):
                    return  # the first attempt committed, only its answer was lost
                raise StorageConflict(f"entry {entry.seq} of {game_id} already exists")

        try:
            self._run(store, transaction=False)
        except psycopg.errors.UniqueViolation as exc:
            raise StorageConflict(f"entry {entry.seq} of {game_id} already exists") from exc

    def append_many(self, entries: Sequence[tuple[str, LogEntry]]) -> list[BaseException | None]:
        """Append every ``(game_id, entry)`` in one transaction, the statements sent
        together (psycopg's pipeline mode: one round trip for the batch, one WAL flush);
        per entry None if it was stored, else :class:`StorageConflict` (the game's
        counter had moved on: only that entry is refused).  The games' rows are locked in
        the order of their ids, so two processes' batches cannot deadlock.  Should the
        answer of a committed batch be lost, the retry finds each entry stored and says
        so, as :meth:`append` does."""
        order = sorted(range(len(entries)), key=lambda i: entries[i][0])
        attempt = 0

        def store(conn: psycopg.Connection[Any]) -> dict[int, int]:
            nonlocal attempt
            attempt += 1
            with conn.transaction(), conn.pipeline():
                cursors = {i: conn.execute(APPEND_SQL, self._append_params(*entries[i]))
                           for i in order}
            return {i: cursor.rowcount for i, cursor in cursors.items()}

        if not entries:
            return []
        try:
            counts = self._run(store, transaction=False)
        except psycopg.errors.UniqueViolation:  # took the whole batch down: one by one
            return [self._append_one(game_id, entry) for game_id, entry in entries]
        results: list[BaseException | None] = []
        for i, (game_id, entry) in enumerate(entries):
            if counts[i] == 1 or (attempt > 1 and self._run(
                    functools.partial(self._stored, game_id=game_id, entry=entry), False)):
                results.append(None)
            else:
                results.append(StorageConflict(f"entry {entry.seq} of {game_id} already exists"))
        return results

    def _append_one(self, game_id: str, entry: LogEntry) -> BaseException | None:
        try:
            self.append(game_id, entry)
        except StorageConflict as exc:
            return exc
        return None

    def _append_params(self, game_id: str, entry: LogEntry) -> tuple[Any, ...]:
        return (entry.seq, entry.at, game_id, entry.seq - 1, *entry_row(game_id, entry),
                CHANNEL, f"{game_id} {entry.seq} {self.origin}")

    @staticmethod
    def _stored(conn: psycopg.Connection[Any], game_id: str, entry: LogEntry) -> bool:
        row = conn.execute(
            f"SELECT {LOG_SELECT_COLUMNS} FROM log WHERE game_id=%s AND seq=%s",
            (game_id, entry.seq),
        ).fetchone()
        return row is not None and entry_from_row(row) == entry

    def load(self, game_id: str) -> tuple[GameRecord, list[LogEntry]] | None:
        def read(conn: psycopg.Connection[Any]) -> tuple[GameRecord, list[LogEntry]] | None:
            row = conn.execute(
                f"SELECT {GAME_SELECT_COLUMNS} FROM games WHERE id=%s", (game_id,)
            ).fetchone()
            if row is None:
                return None
            return game_from_row(row), self._log(conn, game_id, -1)

        return self._run(read)

    @staticmethod
    def _log(conn: psycopg.Connection[Any], game_id: str, after: int) -> list[LogEntry]:
        rows = conn.execute(
            f"SELECT {LOG_SELECT_COLUMNS} FROM log "
            "WHERE game_id=%s AND seq>%s ORDER BY seq",
            (game_id, after),
        ).fetchall()
        return [entry_from_row(r) for r in rows]

    def log_since(self, game_id: str, seq: int) -> list[LogEntry]:
        return self._run(lambda conn: self._log(conn, game_id, seq))

    def game_ids(self, kind: str = "game") -> list[str]:
        rows = self._run(lambda conn: conn.execute(
            "SELECT id FROM games WHERE kind=%s ORDER BY created", (kind,)
        ).fetchall())
        return [r[0] for r in rows]

    def set_status(self, game_id: str, status: str) -> None:
        self._run(lambda conn: conn.execute(
            "UPDATE games SET status=%s WHERE id=%s", (status, game_id)
        ))

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        rows = self._run(lambda conn: conn.execute(
            f"SELECT {LISTING_COLUMNS} FROM games WHERE kind='game' "
            "ORDER BY updated DESC LIMIT %s",
            (limit,),
        ).fetchall())
        return [listing_from_row(r) for r in rows]

    def close(self) -> None:
        self._closed = True
        while True:
            try:
                conn = self._idle.get_nowait()
            except queue.Empty:
                return
            if conn is not None:
                conn.close()

    # -- analyses (see tikal.server.analysis_jobs) -----------------------------

    def _analysis_table(self, conn: psycopg.Connection[Any]) -> None:
        """Create the ``analyses`` table on first use (databases made before it existed);
        processes creating it at once take turns on the schema lock."""
        if not getattr(self, "_has_analyses", False):
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            conn.execute(ANALYSIS_SCHEMA)
            conn.execute(CLAIM_SCHEMA)

    def save_analysis(self, game_id: str, analysis: dict[str, Any]) -> None:
        def store(conn: psycopg.Connection[Any]) -> None:
            self._analysis_table(conn)
            conn.execute(
                "INSERT INTO analyses (game_id, analysis, created) VALUES (%s,%s,%s) "
                "ON CONFLICT (game_id) DO NOTHING",
                (game_id, json.dumps(analysis), time.time()),
            )
            conn.execute("DELETE FROM analysis_claims WHERE game_id=%s", (game_id,))

        self._run(store)
        self._has_analyses = True

    def load_analysis(self, game_id: str) -> dict[str, Any] | None:
        def read(conn: psycopg.Connection[Any]) -> Any:
            self._analysis_table(conn)
            return conn.execute(
                "SELECT analysis FROM analyses WHERE game_id=%s", (game_id,)
            ).fetchone()

        row = self._run(read)
        self._has_analyses = True
        return dict(json.loads(row[0])) if row is not None else None

    def _on_claims(self, sql: str, params: tuple[Any, ...]) -> Any:
        """Run one statement on the claims table; its first row (or None)."""
        def work(conn: psycopg.Connection[Any]) -> Any:
            self._analysis_table(conn)
            cursor = conn.execute(sql, params)
            return cursor.fetchone() if cursor.description else None

        row = self._run(work)
        self._has_analyses = True
        return row

    def claim_analysis(self, game_id: str, owner: str, total: int, until: float) -> bool:
        return self._on_claims(CLAIM_SQL, (game_id, owner, total, until, time.time())) is not None

    def renew_analysis(self, game_id: str, owner: str, done: int, until: float) -> None:
        self._on_claims(
            "UPDATE analysis_claims SET done=%s, until=%s WHERE game_id=%s AND owner=%s",
            (done, until, game_id, owner))

    def analysis_claim(self, game_id: str) -> dict[str, Any] | None:
        return claim_from_row(self._on_claims(
            "SELECT owner, done, total, until FROM analysis_claims WHERE game_id=%s",
            (game_id,)))

    def release_analysis(self, game_id: str, owner: str) -> None:
        self._on_claims("DELETE FROM analysis_claims WHERE game_id=%s AND owner=%s",
                        (game_id, owner))
