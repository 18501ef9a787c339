"""The passkeys' tables (``passkeys``, ``passkey_challenges``: migration 6).

A challenge is stored in the database, not in a process's memory, so that the options
may come from one ``tikal serve`` and the answer go to another (PostgreSQL); taking it
deletes it in the same statement (``DELETE ... RETURNING``): a replayed answer finds none.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..store.protocol import TableStorage
from ..store.schema import Db


@dataclass(frozen=True)
class PasskeyRow:
    credential_id: str
    account_id: str
    public_key: str
    sign_count: int
    name: str
    created: float
    used: float | None


@dataclass(frozen=True)
class ChallengeRow:
    challenge: str
    purpose: str
    account_id: str | None
    expires: float


COLUMNS = "id, account_id, public_key, sign_count, name, created, used"


def _passkey(row: Any) -> PasskeyRow:
    return PasskeyRow(row["id"], row["account_id"], row["public_key"], int(row["sign_count"]),
                      row["name"], float(row["created"]),
                      None if row["used"] is None else float(row["used"]))


class PasskeyStore:
    def __init__(self, storage: TableStorage) -> None:
        self.storage = storage

    def _run(self, query: str, params: Sequence[Any], write: bool = True) -> list[Any]:
        def work(db: Db) -> list[Any]:
            cursor = db.execute(self.storage.sql(query), params)
            return list(cursor.fetchall()) if cursor.description else []

        return self.storage.transaction(work, write=write)

    # -- challenges ---------------------------------------------------------------

    def put_challenge(self, challenge_id: str, challenge: str, purpose: str,
                      account_id: str | None, expires: float, now: float) -> None:
        """Store a challenge (and forget the ones that ran out)."""
        def work(db: Db) -> None:
            db.execute(self.storage.sql("DELETE FROM passkey_challenges WHERE expires < ?"),
                       (now,))
            db.execute(self.storage.sql(
                "INSERT INTO passkey_challenges (id, challenge, purpose, account_id, expires) "
                "VALUES (?, ?, ?, ?, ?)"), (challenge_id, challenge, purpose, account_id,
                                            expires))

        self.storage.transaction(work)

    def take_challenge(self, challenge_id: str) -> ChallengeRow | None:
        """The challenge, deleted as it is read (None: unknown, or taken already)."""
        rows = self._run("DELETE FROM passkey_challenges WHERE id = ? "
                         "RETURNING challenge, purpose, account_id, expires", (challenge_id,))
        if not rows:
            return None
        row = rows[0]
        return ChallengeRow(row["challenge"], row["purpose"], row["account_id"],
                            float(row["expires"]))

    # -- passkeys -----------------------------------------------------------------

    def add(self, key: PasskeyRow) -> bool:
        """Store a new passkey; False if that credential is stored already."""
        rows = self._run(
            f"INSERT INTO passkeys ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING RETURNING id",
            (key.credential_id, key.account_id, key.public_key, key.sign_count, key.name,
             key.created, key.used))
        return bool(rows)

    def of_account(self, account_id: str) -> list[PasskeyRow]:
        rows = self._run(f"SELECT {COLUMNS} FROM passkeys WHERE account_id = ? "
                         "ORDER BY created", (account_id,), write=False)
        return [_passkey(row) for row in rows]

    def by_credential(self, credential_id: str) -> PasskeyRow | None:
        """The passkey of a credential id, if its account is not deleted."""
        rows = self._run(f"SELECT p.{COLUMNS.replace(', ', ', p.')} FROM passkeys p "
                         "JOIN accounts a ON a.id = p.account_id "
                         "WHERE p.id = ? AND a.deleted IS NULL", (credential_id,), write=False)
        return _passkey(rows[0]) if rows else None

    def used(self, credential_id: str, sign_count: int, now: float) -> None:
        self._run("UPDATE passkeys SET sign_count = ?, used = ? WHERE id = ?",
                  (sign_count, now, credential_id))

    def remove(self, account_id: str, credential_id: str) -> bool:
        """Remove one of the account's passkeys; False if it has no such one."""
        rows = self._run("DELETE FROM passkeys WHERE id = ? AND account_id = ? RETURNING id",
                         (credential_id, account_id))
        return bool(rows)

    def remove_all(self, account_id: str) -> None:
        self._run("DELETE FROM passkeys WHERE account_id = ?", (account_id,))
