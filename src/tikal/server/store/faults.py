"""Storage faults, classified: what went wrong with the database, for clients and logs.

A fault of the database (disk full, read-only, locked, damaged, out of reach) is not a
bug of the server: the request is answered ``503 unavailable`` with ``Retry-After``,
nothing of it is stored, and the next request after the cause went away succeeds.
:class:`StorageUnavailable` is that answer (a :class:`ServerError`, so every route and
the WebSocket answer it alike); :func:`sqlite_fault` and :func:`postgres_fault` tell the
cause from a driver's error.  :class:`FaultLog` logs a fault once when it starts and
once when it is over, not once per request.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from typing import Any

from ...messages import Message
from ..errors import ServerError

log = logging.getLogger("tikal.server")

#: Seconds a client should wait before sending a request again after a 503.
RETRY_AFTER = 5

#: The causes, each with its catalog message ``server.storage.<cause>``.
CAUSES = ("full", "read_only", "busy", "damaged", "foreign", "too_new", "io", "unreachable")

#: SQLite's primary result codes (the low byte of an extended code) -> cause.
SQLITE_CAUSES = {
    13: "full",  # SQLITE_FULL
    8: "read_only",  # SQLITE_READONLY
    5: "busy",  # SQLITE_BUSY
    6: "busy",  # SQLITE_LOCKED
    11: "damaged",  # SQLITE_CORRUPT
    26: "damaged",  # SQLITE_NOTADB
    10: "io",  # SQLITE_IOERR
    14: "unreachable",  # SQLITE_CANTOPEN
    23: "read_only",  # SQLITE_AUTH (refused by the file system's permissions)
}

#: PostgreSQL's SQLSTATE codes (or their two-letter classes) -> cause.
POSTGRES_CAUSES = {
    "25006": "read_only",  # read_only_sql_transaction
    "53100": "full",  # disk_full
    "53": "busy",  # insufficient_resources: out of memory, too many connections
    "55P03": "busy",  # lock_not_available
    "57P03": "unreachable",  # cannot_connect_now (starting up, shutting down)
    "XX001": "damaged",  # data_corrupted
    "XX002": "damaged",  # index_corrupted
    "58": "io",  # system errors (I/O)
}


class StorageConflict(Exception):
    """An entry with this sequence number is already stored (a concurrent or replayed move)."""


class StorageUnavailable(ServerError):
    """The database cannot store or read now (``cause``: one of :data:`CAUSES`); nothing
    was stored, and the request may be sent again later.  ``driver_text`` is the
    driver's words (for the log), ``where`` the database (a file, or a URL without its
    password)."""

    def __init__(self, driver_text: str, cause: str = "unreachable", where: str = "") -> None:
        super().__init__("unavailable", Message(f"server.storage.{cause}"),
                         503, retry_after=RETRY_AFTER)
        self.cause = cause
        self.driver_text = driver_text
        self.where = where

    def __str__(self) -> str:
        return f"{self.message}: {self.driver_text}" if self.driver_text else self.message

    def to_json(self, language: str = "en") -> dict[str, Any]:
        return {**super().to_json(language), "cause": self.cause}


def sqlite_fault(exc: sqlite3.Error, where: str) -> StorageUnavailable | None:
    """The fault ``exc`` says, or None if it is not one (a bug, an integrity error)."""
    code = getattr(exc, "sqlite_errorcode", None)
    cause = SQLITE_CAUSES.get(code & 0xFF) if isinstance(code, int) else None
    if cause is None and isinstance(exc, sqlite3.DatabaseError) and "malformed" in str(exc):
        cause = "damaged"
    return StorageUnavailable(str(exc), cause, where) if cause is not None else None


def postgres_fault(sqlstate: str | None, driver_text: str, where: str) -> StorageUnavailable | None:
    """The fault of a PostgreSQL error with ``sqlstate``, or None if it is not one."""
    if not sqlstate:
        return None
    cause = POSTGRES_CAUSES.get(sqlstate) or POSTGRES_CAUSES.get(sqlstate[:2])
    return StorageUnavailable(driver_text, cause, where) if cause is not None else None


class FaultLog:
    """Logs a storage fault when it starts (with its cause) and when it is over."""

    def __init__(self) -> None:
        self.cause: str | None = None
        #: faults are logged once the database is open (before, whoever opens it says
        #: why it cannot: ``tikal serve`` in one line)
        self.opened = False
        self._lock = threading.Lock()

    def failed(self, fault: StorageUnavailable) -> StorageUnavailable:
        """Note ``fault`` (logged if it is a new one); returns it, to raise."""
        with self._lock:
            new = fault.cause != self.cause
            self.cause = fault.cause
        if new and self.opened:
            log.error("storage fault (%s) in %s: %s; requests answer 503 until it is over",
                      fault.cause, fault.where, fault.driver_text)
        return fault

    def worked(self, where: str) -> None:
        """A statement went through: a fault, if there was one, is over."""
        if self.cause is None:
            return
        with self._lock:
            cause, self.cause = self.cause, None
        if cause is not None:
            log.warning("storage works again in %s (the %s fault is over)", where, cause)
