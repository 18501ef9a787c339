"""Which storage ``tikal serve --db`` means: a ``postgresql://`` URL or a SQLite file.

Kept apart from both storages so that neither imports the other, and so that psycopg is
loaded only by a server that uses PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

from .storage import SqliteStorage, Storage


def is_postgres_url(db: str | Path) -> bool:
    return str(db).startswith(("postgresql://", "postgres://"))


def open_storage(db: str | Path) -> Storage:
    """The storage for ``db``: PostgreSQL for a URL, else the SQLite file at that path."""
    if is_postgres_url(db):
        from .storage_pg import PostgresStorage

        return PostgresStorage(str(db))
    return SqliteStorage(db)
