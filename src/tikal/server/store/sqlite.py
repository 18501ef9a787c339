""":class:`~.protocol.Storage` in one SQLite file, with the standard library's ``sqlite3``.

WAL journal, ``synchronous=FULL``: an entry is committed before the server acknowledges
the move, so killing the server (even with SIGKILL) loses nothing that a client was told
about.  The server's commit thread hands over every move that arrived while it was
syncing the last batch, committed together in one transaction
(:meth:`SqliteStorage.append_many`, :mod:`tikal.server.commits`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .base import SqlStorage
from .faults import FaultLog, StorageConflict, StorageUnavailable, sqlite_fault
from .protocol import LogEntry
from .rows import INSERT_ENTRY, entry_values
from .schema import SQLITE, Db, migrate, stored_version

T = TypeVar("T")


@dataclass(eq=False)
class _Pending:
    """An entry of a batch being appended, and how its commit went."""

    game_id: str
    entry: LogEntry
    error: BaseException | None = None


class SqliteStorage(SqlStorage):
    """:class:`~.protocol.Storage` in one SQLite file (``:memory:`` works too, for tests)."""

    kind = "sqlite"
    shared = False
    dialect = SQLITE

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.where = self.path if self.path == ":memory:" else str(Path(self.path).resolve())
        self.faults = FaultLog()
        self._lock = threading.Lock()
        self.commits = 0  # transactions of appended entries so far (each one sync to disk)
        #: migrations applied when this storage opened the file (none if it was current)
        self.migrated: list[int] = []
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = self._connect()
            self.migrated = self._run(lambda db: migrate(db, SQLITE, self.where), write=True)
        except OSError as exc:
            raise StorageUnavailable(str(exc), "unreachable", self.where) from exc
        self.faults.opened = True

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.row_factory = sqlite3.Row
            stored_version(db, SQLITE, self.where)  # a foreign file is left as it is
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            self._raise_fault(exc)
            raise
        return db

    def _raise_fault(self, exc: sqlite3.Error) -> None:
        """Raise the fault ``exc`` says (noted in the log), if it is one."""
        fault = sqlite_fault(exc, self.where)
        if fault is not None:
            raise self.faults.failed(fault) from exc

    def _run(self, work: Callable[[Db], T], *, write: bool, single: bool = False) -> T:
        transaction = write and not single
        with self._lock:
            try:
                if transaction:
                    self._db.execute("BEGIN IMMEDIATE")
                result = work(self._db)
                if transaction:
                    self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._roll_back()
                self._raise_fault(exc)
                raise
            except BaseException:
                self._roll_back()
                raise
        if write:  # a fault is over once something is written again (reads went on)
            self.faults.worked(self.where)
        return result

    def _roll_back(self) -> None:
        """Undo a failed transaction (call with the lock).  Should the rollback fail too
        (the disk went away), the connection is opened again: a connection left inside
        a transaction would refuse every later one."""
        if not self._db.in_transaction:
            return
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:
            self._db.close()
            self._db = self._connect()

    # -- appending ---------------------------------------------------------------

    def append(self, game_id: str, entry: LogEntry) -> None:
        """One entry in a transaction of its own.  The server stores its moves through
        :meth:`append_many` instead, batched by its commit thread (the one group-commit
        layer, :mod:`tikal.server.commits`)."""
        error = self.append_many([(game_id, entry)])[0]
        if error is not None:
            raise error

    def append_many(self, entries: Sequence[tuple[str, LogEntry]]) -> list[BaseException | None]:
        """Append every ``(game_id, entry)`` in one transaction (one sync); per entry
        None if it was stored, else the error (:class:`StorageConflict` for a sequence
        number that exists: only that entry is refused).  The server's commit thread
        batches the moves applied on the event loop through this."""
        batch = [_Pending(game_id, entry) for game_id, entry in entries]
        if batch:
            self._write(batch)
        return [item.error for item in batch]

    def _write(self, batch: list[_Pending]) -> None:
        def insert_all(db: Db) -> None:
            for item in batch:
                self._insert(db, item)

        try:
            self._run(insert_all, write=True)
            self.commits += 1
        except BaseException as exc:  # nothing of the batch is stored
            for item in batch:
                item.error = item.error or exc
            if not isinstance(exc, Exception):
                raise

    @staticmethod
    def _insert(db: Db, item: _Pending) -> None:
        entry = item.entry
        db.execute("SAVEPOINT entry")
        try:
            db.execute(INSERT_ENTRY, entry_values(item.game_id, entry))
            db.execute("UPDATE games SET updated = ?, state = ? WHERE id = ?",
                       (entry.at, entry.seq, item.game_id))
        except sqlite3.IntegrityError:
            db.execute("ROLLBACK TO entry")
            item.error = StorageConflict(f"entry {entry.seq} of {item.game_id} already exists")
        db.execute("RELEASE entry")

    def close(self) -> None:
        with self._lock:
            self._db.close()
