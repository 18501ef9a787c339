"""Where the server keeps its games: the storage protocol and its two databases.

* :mod:`.protocol`: the records (:class:`GameRecord`, :class:`SeatRecord`,
  :class:`LogEntry`) and what a database provides (:class:`Storage`: games, uploads,
  analyses);
* :mod:`.rows`: records <-> rows, by column name; :mod:`.schema`: the one schema and
  its numbered migrations; :mod:`.faults`: storage errors, classified;
* :mod:`.base`: the queries both databases share; :mod:`.sqlite` and :mod:`.postgres`:
  the two backends; :mod:`.check`: ``tikal db check`` and ``tikal db backup``.

:func:`open_storage` picks the backend from the ``--db`` argument; psycopg is imported only
by a server that uses PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

from .faults import StorageConflict, StorageUnavailable
from .protocol import (
    AnalysisStorage,
    GameRecord,
    GameStorage,
    LogEntry,
    SeatRecord,
    Storage,
    UploadCap,
    UploadStorage,
    is_postgres_url,
    shown_location,
)
from .sqlite import SqliteStorage

__all__ = [
    "AnalysisStorage",
    "GameRecord",
    "GameStorage",
    "LogEntry",
    "SeatRecord",
    "SqliteStorage",
    "Storage",
    "StorageConflict",
    "StorageUnavailable",
    "UploadCap",
    "UploadStorage",
    "is_postgres_url",
    "open_storage",
    "shown_location",
]


def open_storage(db: str | Path) -> Storage:
    """The storage for ``db``: PostgreSQL for a URL, else the SQLite file at that path
    (migrated to this version's schema; :class:`StorageUnavailable` if it cannot be)."""
    if is_postgres_url(db):
        from .postgres import PostgresStorage

        return PostgresStorage(str(db))
    return SqliteStorage(db)
