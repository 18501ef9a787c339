""":class:`~.protocol.Storage` on PostgreSQL (psycopg 3).

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
  Other faults (read-only, disk full) are answered at once (503), and the connection that
  met them is dropped, so the next request gets a fresh one.
"""

from __future__ import annotations

import functools
import logging
import queue
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg.rows import dict_row

from .base import SqlStorage
from .faults import FaultLog, StorageConflict, StorageUnavailable, postgres_fault
from .protocol import LogEntry, shown_location
from .rows import entry_from_row, entry_values
from .schema import POSTGRES, Db, migrate

#: The NOTIFY channel of stored log entries.
CHANNEL = "tikal"

log = logging.getLogger("tikal.server")

T = TypeVar("T")

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

#: Any number; two processes migrating the schema at once take turns on this lock.
SCHEMA_LOCK = 0x71CA1

#: SQLSTATE classes of a connection that broke (or a server going down): retried.
RETRIED = ("08", "57P01", "57P02")


def retried(exc: psycopg.Error) -> bool:
    """Whether ``exc`` is a broken connection (worth a retry on a new one), not a fault
    of the database itself (full, read-only), which a retry would only wait for."""
    state = exc.sqlstate
    return isinstance(exc, psycopg.OperationalError) and (
        state is None or state.startswith(RETRIED[0]) or state in RETRIED[1:])


class PostgresStorage(SqlStorage):
    """:class:`~.protocol.Storage` in a PostgreSQL database.

    A small pool of connections (``connections``) lets request threads and bot threads
    query at the same time; ``origin`` names this process in its notifications, so the
    cluster bridge can skip its own.
    """

    kind = "postgresql"
    shared = True
    dialect = POSTGRES

    def __init__(self, url: str, *, connections: int = 4, retry_for: float = 30.0) -> None:
        self.url = url
        self.where = shown_location(url)
        self.retry_for = retry_for
        self.origin = secrets.token_hex(6)
        self.faults = FaultLog()
        self._idle: queue.LifoQueue[psycopg.Connection[Any] | None] = queue.LifoQueue()
        for _ in range(connections):
            self._idle.put(None)  # opened on first use
        self._closed = False
        self.migrated = self._run(self._migrate, write=True)
        self.faults.opened = True

    # -- connections ---------------------------------------------------------

    def connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.url, autocommit=True, connect_timeout=5,
                               row_factory=dict_row)

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection; a broken one is closed and replaced on next use."""
        conn = self._idle.get()
        try:
            if conn is None or conn.closed:
                conn = self.connect()
            yield conn
        except psycopg.Error as exc:
            if conn is not None and (retried(exc) or postgres_fault(exc.sqlstate, "", "")):
                conn.close()
                conn = None
            raise
        finally:
            self._idle.put(conn)

    def _drop_idle(self) -> None:
        """Close the idle connections (after a fault that may be a property of them, such
        as a session made read-only): each is opened afresh on next use."""
        taken = []
        while True:
            try:
                taken.append(self._idle.get_nowait())
            except queue.Empty:
                break
        for conn in taken:
            if conn is not None:
                conn.close()
            self._idle.put(None)

    def _run(self, work: Callable[[Db], T], *, write: bool, single: bool = False) -> T:
        """``work`` in a transaction, retried on a new connection while the database is
        unreachable (a restart), for up to ``retry_for`` seconds.  ``single`` for work
        that is one statement (atomic by itself, in autocommit mode): it saves the
        ``BEGIN`` and ``COMMIT`` round trips."""
        deadline = time.monotonic() + self.retry_for
        pause = 0.05
        fresh = False  # retried once on new connections after a fault of the old ones
        while True:
            try:
                result = self._attempt(work, single)
            except psycopg.Error as exc:
                if not retried(exc):
                    fault = self._fault(exc)
                    if fault is None:
                        raise
                    if fault.cause == "read_only" and not fresh:
                        fresh = True  # the pool's sessions may predate the change
                        continue
                    raise self.faults.failed(fault) from exc
                if self._closed or time.monotonic() + pause > deadline:
                    raise self.faults.failed(StorageUnavailable(
                        f"PostgreSQL is not reachable: {exc}", "unreachable",
                        self.where)) from exc
                log.warning("PostgreSQL unreachable; retrying in %.2f s", pause)
                time.sleep(pause)
                pause = min(pause * 2, 1.0)
            else:
                if write:  # a fault is over once something is written again
                    self.faults.worked(self.where)
                return result

    def _attempt(self, work: Callable[[Db], T], single: bool) -> T:
        with self._connection() as conn:
            if single:
                return work(conn)
            with conn.transaction():
                return work(conn)

    def _fault(self, exc: psycopg.Error) -> StorageUnavailable | None:
        """The fault ``exc`` says, or None if it is none; the idle connections are
        dropped (a session made read-only stays so until it is opened again)."""
        fault = postgres_fault(exc.sqlstate, str(exc).strip(), self.where)
        if fault is not None:
            self._drop_idle()
        return fault

    def _migrate(self, db: Db) -> list[int]:
        db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
        return migrate(db, POSTGRES, self.where)

    # -- appending -------------------------------------------------------------

    def append(self, game_id: str, entry: LogEntry) -> None:
        """Store ``entry`` if the game's counter is at ``seq - 1``, and tell the other
        processes, in one statement: the counter's update, the log's insert and the
        notice are one atomic unit (the notice goes out only if the entry is committed).
        As three statements in a transaction a move took five round trips to the
        database (with ``BEGIN`` and ``COMMIT``); now it takes one."""
        attempt = 0

        def store(db: Db) -> None:
            nonlocal attempt
            attempt += 1
            stored = db.execute(APPEND_SQL, self._append_params(game_id, entry)).rowcount
            if stored != 1:
                if attempt > 1 and self._stored(db, game_id, entry):
                    return  # the first attempt committed, only its answer was lost
                raise StorageConflict(f"entry {entry.seq} of {game_id} already exists")

        try:
            self._run(store, write=True, single=True)
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

        def store(conn: Any) -> dict[int, int]:
            nonlocal attempt
            attempt += 1
            with conn.transaction(), conn.pipeline():
                cursors = {i: conn.execute(APPEND_SQL, self._append_params(*entries[i]))
                           for i in order}
            return {i: cursor.rowcount for i, cursor in cursors.items()}

        if not entries:
            return []
        try:
            counts = self._run(store, write=True, single=True)
        except psycopg.errors.UniqueViolation:  # took the whole batch down: one by one
            return [self._append_one(game_id, entry) for game_id, entry in entries]
        results: list[BaseException | None] = []
        for i, (game_id, entry) in enumerate(entries):
            if counts[i] == 1 or (attempt > 1 and self._run(
                    functools.partial(self._stored, game_id=game_id, entry=entry),
                    write=False)):
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
        return (entry.seq, entry.at, game_id, entry.seq - 1, *entry_values(game_id, entry),
                CHANNEL, f"{game_id} {entry.seq} {self.origin}")

    def announce(self, db: Db, channel: str, payload: str) -> None:
        """Tell the other processes (``LISTEN channel``) of a change in this transaction:
        PostgreSQL delivers ``"<payload> <origin>"`` only if it commits."""
        db.execute("SELECT pg_notify(%s, %s)", (channel, f"{payload} {self.origin}"))

    @staticmethod
    def _stored(db: Db, game_id: str, entry: LogEntry) -> bool:
        row = db.execute(
            "SELECT seq, kind, seat, action, chance, at FROM log WHERE game_id=%s AND seq=%s",
            (game_id, entry.seq),
        ).fetchone()
        return row is not None and entry_from_row(row) == entry

    def close(self) -> None:
        self._closed = True
        while True:
            try:
                conn = self._idle.get_nowait()
            except queue.Empty:
                return
            if conn is not None:
                conn.close()
