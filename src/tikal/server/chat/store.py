"""Chat lines (``game_chat``, migration 8 of ``store/schema.py``), in the games' database.

A line's number is the next of its game, taken in the insert itself (``INSERT ... SELECT
MAX + 1``); two processes writing the same game at once collide on the primary key and
the loser takes the number after.  On PostgreSQL a line is announced on :data:`CHANNEL`
in its transaction, so the game's clients on every other process get it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..store.protocol import TableStorage
from ..store.schema import Db
from .model import Line, settings

#: The NOTIFY channel of chat lines (payload ``"<game id> <origin>"``).
CHANNEL = "tikal_chat"
COLUMNS = "seq, seat, name, text, phrase, state, at"
#: Tries for a line's number when another process wrote the same game at the same time.
ATTEMPTS = 5


def _line(row: Any) -> Line:
    return Line(int(row["seq"]), int(row["seat"]), row["name"], row["text"], row["phrase"],
                int(row["state"]), float(row["at"]))


class ChatStore:
    def __init__(self, storage: TableStorage) -> None:
        self.storage = storage
        self._announce: Callable[[Db, str, str], None] | None = getattr(
            storage, "announce", None)

    def append(self, game_id: str, seat: int, name: str, text: str | None,
               phrase: str | None, state: int, now: float) -> Line:
        """The line stored as the game's next."""
        def work(db: Db) -> Line | None:
            cursor = db.execute(self.storage.sql(
                f"INSERT INTO game_chat (game_id, {COLUMNS}) SELECT ?, "
                "COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM game_chat WHERE game_id = ? "
                "ON CONFLICT DO NOTHING"),
                (game_id, seat, name, text, phrase, state, now, game_id))
            if cursor.rowcount != 1:
                return None
            row = db.execute(self.storage.sql(
                f"SELECT {COLUMNS} FROM game_chat WHERE game_id = ? ORDER BY seq DESC "
                "LIMIT 1"), (game_id,)).fetchone()
            if self._announce is not None:
                self._announce(db, CHANNEL, game_id)
            return _line(row)

        for _ in range(ATTEMPTS):
            line = self.storage.transaction(work)
            if line is not None:
                return line
        raise RuntimeError(f"no chat number for {game_id} after {ATTEMPTS} tries")

    def spectators_write(self, game_id: str) -> bool:
        """Whether the game's creator lets its spectators write (not unless asked)."""
        def work(db: Db) -> bool:
            row = db.execute(self.storage.sql(
                "SELECT spectators FROM chat_rooms WHERE game_id = ?"), (game_id,)).fetchone()
            return bool(row["spectators"]) if row is not None else False

        return self.storage.transaction(work, write=False)

    def let_spectators_write(self, game_id: str, allowed: bool, now: float) -> None:
        def work(db: Db) -> None:
            db.execute(self.storage.sql(
                "INSERT INTO chat_rooms (game_id, spectators, updated) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET spectators = excluded.spectators, "
                "updated = excluded.updated"), (game_id, allowed, now))

        self.storage.transaction(work)

    def lines(self, game_id: str, after: int = 0) -> list[Line]:
        """The game's lines numbered above ``after``, oldest first (the last
        ``history`` of them)."""
        def work(db: Db) -> list[Line]:
            rows = db.execute(self.storage.sql(
                f"SELECT {COLUMNS} FROM game_chat WHERE game_id = ? AND seq > ? "
                "ORDER BY seq DESC LIMIT ?"),
                (game_id, after, settings()["history"])).fetchall()
            return [_line(r) for r in reversed(rows)]

        return self.storage.transaction(work, write=False)
