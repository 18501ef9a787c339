"""``tikal db check`` and ``tikal db backup``: is every stored game whole, and a copy of a
SQLite file taken while the server runs.

The check reads the file first with a plain read-only connection (SQLite's
``PRAGMA integrity_check``: pages, indexes), so that a file too damaged to open as a
storage is still described; then it replays every stored game and upload, as the server
would when asked for it, and lists those that do not replay (the server sets them aside:
``410 damaged_game``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ...game import Game
from ..session import rebuild
from .faults import StorageUnavailable, sqlite_fault
from .protocol import Storage

#: Problems of ``integrity_check`` listed at most.
MAX_PROBLEMS = 20


@dataclass
class Replayed:
    """What replaying every stored game found."""

    games: int = 0
    uploads: int = 0
    #: id -> (kind, why it does not replay)
    damaged: dict[str, tuple[str, str]] = field(default_factory=dict)


def read_only(path: str | Path) -> sqlite3.Connection:
    """A connection that cannot change the file (nor create it)."""
    return sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)


def integrity(path: str | Path) -> list[str]:
    """The problems SQLite's ``PRAGMA integrity_check`` finds in the file (none: ``[]``);
    :class:`StorageUnavailable` if it cannot read the file at all."""
    where = str(Path(path).resolve())
    if not Path(path).is_file():
        raise StorageUnavailable("no such file", "unreachable", where)
    try:
        conn = read_only(path)
        try:
            rows = conn.execute(f"PRAGMA integrity_check({MAX_PROBLEMS})").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        fault = sqlite_fault(exc, where)
        if fault is None:
            raise
        raise fault from exc
    found = [str(row[0]) for row in rows]
    return [] if found == ["ok"] else found


def why_not(storage: Storage, game_id: str, kind: str) -> str | None:
    """Why the stored game (or upload) ``game_id`` does not replay, or None if it does."""
    try:
        loaded = storage.load(game_id)
        if loaded is None:
            return "gone"
        record, log = loaded
        if kind == "game":
            rebuild(record, log)
        else:
            Game.from_record(record.record or {})
    except StorageUnavailable:
        raise
    except Exception as exc:  # anything: the stored data does not replay
        return f"{type(exc).__name__}: {exc}"
    return None


def replay_all(storage: Storage, progress: Callable[[int, int], None]) -> Replayed:
    """Replay every stored game and upload; ``progress(done, total)`` after each."""
    ids = [("game", gid) for gid in storage.game_ids("game")]
    ids += [("replay", gid) for gid in storage.game_ids("replay")]
    found = Replayed()
    for done, (kind, game_id) in enumerate(ids, start=1):
        why = why_not(storage, game_id, kind)
        if kind == "game":
            found.games += 1
        else:
            found.uploads += 1
        if why is not None:
            found.damaged[game_id] = (kind, why)
        progress(done, len(ids))
    return found


def backup(path: str | Path, target: str | Path) -> int:
    """Copy the SQLite file ``path`` to ``target`` (which must not exist) with SQLite's
    online backup, in one step: a consistent copy, while the server goes on writing (in
    WAL mode readers do not hold writers back).  Returns the copy's size in bytes."""
    where = str(Path(path).resolve())
    if not Path(path).is_file():
        raise StorageUnavailable("no such file", "unreachable", where)
    try:
        source = read_only(path)
        copy = sqlite3.connect(str(target))
        try:
            source.backup(copy)
        finally:
            copy.close()
            source.close()
    except sqlite3.Error as exc:
        Path(target).unlink(missing_ok=True)
        fault = sqlite_fault(exc, where)
        if fault is None:
            raise
        raise fault from exc
    return Path(target).stat().st_size
