"""The accounts' own tables (``accounts``, ``account_sessions``, ``seat_accounts``:
migration 4 of ``store/schema.py``), in the games' database, SQLite or PostgreSQL.

Every method is one transaction (:meth:`SqlStorage.transaction`); a conflict on a
unique name is found by ``ON CONFLICT DO NOTHING`` rather than by a driver's error, so
two processes racing for one name get one account and one clear refusal.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..store.protocol import TableStorage
from ..store.schema import Db
from .names import AccountName


@dataclass(frozen=True)
class AccountRow:
    account_id: str
    name: str | None  # None once deleted
    password: str | None
    created: float
    deleted: float | None = None


@dataclass(frozen=True)
class SessionRow:
    account_id: str
    name: str
    csrf: str
    created: float
    seen: float
    expires: float


ACCOUNT_COLUMNS = "id, name, password, created, deleted"


def _account(row: Any) -> AccountRow:
    return AccountRow(row["id"], row["name"], row["password"], float(row["created"]),
                      None if row["deleted"] is None else float(row["deleted"]))


class AccountStore:
    """Accounts, sessions and claimed seats of one database."""

    def __init__(self, storage: TableStorage) -> None:
        self.storage = storage

    def _one(self, query: str, params: Sequence[Any], write: bool = False) -> Any:
        def work(db: Db) -> Any:
            cursor = db.execute(self.storage.sql(query), params)
            return cursor.fetchone() if cursor.description else None

        return self.storage.transaction(work, write=write)

    # -- accounts ------------------------------------------------------------

    def create(self, account_id: str, name: AccountName, password: str | None,
               now: float) -> bool:
        """A new account; False (nothing stored) if its handle or skeleton is taken."""
        row = self._one(
            "INSERT INTO accounts (id, name, handle, skeleton, password, created) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
            (account_id, name.shown, name.handle, name.skeleton, password, now), write=True)
        return row is not None

    def taken(self, name: AccountName) -> bool:
        """Whether an account has this name, or one that looks like it."""
        return self._one("SELECT 1 AS one FROM accounts WHERE handle = ? OR skeleton = ?",
                         (name.handle, name.skeleton)) is not None

    def by_handle(self, handle: str) -> AccountRow | None:
        row = self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE handle = ?", (handle,))
        return None if row is None else _account(row)

    def by_id(self, account_id: str) -> AccountRow | None:
        row = self._one(f"SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE id = ?", (account_id,))
        return None if row is None else _account(row)

    def set_password(self, account_id: str, password: str) -> None:
        self._one("UPDATE accounts SET password = ? WHERE id = ? AND deleted IS NULL",
                  (password, account_id), write=True)

    def delete(self, account_id: str, now: float) -> None:
        """Forget the account's name, password and passkeys and end its sessions; the row
        stays, so its seats in stored games show a deleted player (and the name is free
        again)."""
        def work(db: Db) -> None:
            db.execute(self.storage.sql(
                "UPDATE accounts SET name = NULL, handle = NULL, skeleton = NULL, "
                "password = NULL, deleted = ? WHERE id = ?"), (now, account_id))
            for table in ("account_sessions", "passkeys"):
                db.execute(self.storage.sql(f"DELETE FROM {table} WHERE account_id = ?"),
                           (account_id,))

        self.storage.transaction(work)

    # -- sessions ------------------------------------------------------------

    def open_session(self, digest: str, account_id: str, csrf: str, now: float,
                     expires: float, replaces: str | None = None) -> None:
        """A new session (and the one it ``replaces`` ended: rotation at sign-in)."""
        def work(db: Db) -> None:
            if replaces is not None:
                db.execute(self.storage.sql("DELETE FROM account_sessions WHERE digest = ?"),
                           (replaces,))
            db.execute(self.storage.sql(
                "INSERT INTO account_sessions (digest, account_id, csrf, created, seen, "
                "expires) VALUES (?, ?, ?, ?, ?, ?)"), (digest, account_id, csrf, now, now,
                                                       expires))

        self.storage.transaction(work)

    def session(self, digest: str) -> SessionRow | None:
        row = self._one(
            "SELECT s.account_id, a.name, s.csrf, s.created, s.seen, s.expires "
            "FROM account_sessions s JOIN accounts a ON a.id = s.account_id "
            "WHERE s.digest = ? AND a.deleted IS NULL", (digest,))
        if row is None:
            return None
        return SessionRow(row["account_id"], row["name"], row["csrf"], float(row["created"]),
                          float(row["seen"]), float(row["expires"]))

    def touch(self, digest: str, now: float) -> None:
        self._one("UPDATE account_sessions SET seen = ? WHERE digest = ?", (now, digest),
                  write=True)

    def end_session(self, digest: str) -> None:
        self._one("DELETE FROM account_sessions WHERE digest = ?", (digest,), write=True)

    def end_sessions(self, account_id: str, keep: str | None = None) -> None:
        """End every session of the account (but ``keep``, the one asking, if given)."""
        self._one("DELETE FROM account_sessions WHERE account_id = ? AND digest <> ?",
                  (account_id, keep or ""), write=True)

    def sessions_of(self, account_id: str) -> int:
        row = self._one("SELECT COUNT(*) AS n FROM account_sessions WHERE account_id = ?",
                        (account_id,))
        return int(row["n"])

    # -- seats ---------------------------------------------------------------

    def claim(self, account_id: str, claims: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
        """Bind to the account each seat whose own invite token is given (game id, token);
        a seat already bound (to anyone) stays as it is.  The seats bound now."""
        def work(db: Db) -> list[tuple[str, int]]:
            bound = []
            for game_id, token in claims:
                row = db.execute(self.storage.sql(
                    "SELECT seats FROM games WHERE id = ? AND kind = 'game'"),
                    (game_id,)).fetchone()
                seat = _seat_of(row["seats"], token) if row is not None else None
                if seat is None:
                    continue
                done = db.execute(self.storage.sql(
                    "INSERT INTO seat_accounts (game_id, seat, account_id) VALUES (?, ?, ?) "
                    "ON CONFLICT DO NOTHING RETURNING seat"), (game_id, seat, account_id))
                if done.fetchone() is not None:
                    bound.append((game_id, seat))
            return bound

        return self.storage.transaction(work)

    def seats_of(self, account_id: str) -> list[tuple[str, int]]:
        def work(db: Db) -> list[tuple[str, int]]:
            rows = db.execute(self.storage.sql(
                "SELECT game_id, seat FROM seat_accounts WHERE account_id = ? "
                "ORDER BY game_id, seat"), (account_id,)).fetchall()
            return [(row["game_id"], int(row["seat"])) for row in rows]

        return self.storage.transaction(work, write=False)

    def accounts_of(self, game_id: str) -> dict[int, str]:
        """Seat -> account id of a game's claimed seats."""
        def work(db: Db) -> dict[int, str]:
            rows = db.execute(self.storage.sql(
                "SELECT seat, account_id FROM seat_accounts WHERE game_id = ?"),
                (game_id,)).fetchall()
            return {int(row["seat"]): row["account_id"] for row in rows}

        return self.storage.transaction(work, write=False)

    def players_of(self, game_id: str) -> dict[int, str | None]:
        """Seat -> account name of a game's claimed seats (None: a deleted account)."""
        def work(db: Db) -> dict[int, str | None]:
            rows = db.execute(self.storage.sql(
                "SELECT c.seat, a.name FROM seat_accounts c JOIN accounts a "
                "ON a.id = c.account_id WHERE c.game_id = ?"), (game_id,)).fetchall()
            return {int(row["seat"]): row["name"] for row in rows}

        return self.storage.transaction(work, write=False)


def _seat_of(seats_json: str, token: str) -> int | None:
    """The human seat whose own invite token is ``token`` (not a hot-seat token)."""
    for index, seat in enumerate(json.loads(seats_json)):
        stored = seat.get("token")
        if seat.get("kind") == "human" and stored and hmac.compare_digest(stored, token):
            return index
    return None
