"""The storage's records, protocol and SQLite backend, under their old names: they live in
:mod:`tikal.server.store` now (import them from there)."""

from .store import (
    GameRecord,
    LogEntry,
    SeatRecord,
    SqliteStorage,
    Storage,
    StorageConflict,
    StorageUnavailable,
)

__all__ = ["GameRecord", "LogEntry", "SeatRecord", "SqliteStorage", "Storage",
           "StorageConflict", "StorageUnavailable"]
