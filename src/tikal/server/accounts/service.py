"""What accounts do, apart from HTTP: sign up, sign in, sessions, password, deletion, and
the seats a guest brings along.  The routes (``routes.py``) only read and set cookies.

Sessions follow OWASP ASVS (V7): the cookie holds a random secret (256 bits,
``secrets``) and the database only its SHA-256 digest, so a copy of the database signs
nobody in; a session ends after ``idle_days`` unused and ``lifetime_days`` at most;
signing in always starts a new one (the old one, if any, ends: no session fixation);
changing the password ends every other session.  Each session has its own CSRF token,
which every change made with the cookie must send back (``X-CSRF-Token``).
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ...messages import Message
from ..errors import ServerError
from ..limits import Limits
from ..store.protocol import TableStorage
from . import names, passwords
from .settings import settings
from .store import AccountStore

DAY = 86_400.0
T = TypeVar("T")


@dataclass(frozen=True)
class Account:
    """A signed-in account as the pages and routes see it."""

    account_id: str
    name: str


@dataclass(frozen=True)
class SignedIn:
    """A new session: the cookie's secret (shown once, never stored) and its CSRF token."""

    account: Account
    secret: str
    csrf: str
    expires: float


@dataclass(frozen=True)
class Current:
    """The session a request's cookie names."""

    account: Account
    digest: str
    csrf: str


def digest_of(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def refused(code: str, key: str, status: int, field: str | None = None,
            **params: int | str) -> ServerError:
    return ServerError(code, Message(key, params), status, field=field)


def bad_credentials() -> ServerError:
    """The one answer for an unknown name and a wrong password (no account enumeration)."""
    return refused("bad_credentials", "accounts.bad_credentials", 401)


class Accounts:
    """The accounts of one database, with the server's rate limits.  Its queries run in
    worker threads (:meth:`_db`): a PostgreSQL round trip must not stall the event loop."""

    def __init__(self, storage: TableStorage, limits: Limits,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = AccountStore(storage)
        self.limits = limits
        self.clock = clock

    async def _db(self, query: Callable[..., T], *args: object) -> T:
        return await asyncio.to_thread(query, *args)

    # -- sign up / in / out --------------------------------------------------------

    async def sign_up(self, name: str, password: str, client: str,
                      seats: Sequence[tuple[str, str]] = (),
                      replaces: str | None = None) -> SignedIn:
        """A new account and its first session; ``seats`` (game id, invite token) are the
        guest's seats, bound to it."""
        self.limits.check(client, "signup")
        problem = names.problem(name)
        if problem is not None:
            raise refused("name_invalid", problem.key, 422, "name", **problem.params)
        _check_password(password, "password")
        wanted = names.account_name(name)
        if await self._db(self.store.taken, wanted):
            raise _name_taken(wanted.shown)
        account_id = "u" + secrets.token_urlsafe(12)
        hashed = await passwords.hashed(password)
        if not await self._db(self.store.create, account_id, wanted, hashed, self.clock()):
            raise _name_taken(wanted.shown)  # taken meanwhile (another request, process)
        account = Account(account_id, wanted.shown)
        await self._db(self.store.claim, account_id, seats)
        return await self.start_session(account, replaces)

    async def sign_in(self, name: str, password: str, client: str,
                      seats: Sequence[tuple[str, str]] = (),
                      replaces: str | None = None) -> SignedIn:
        """A new session for the account whose name and password these are."""
        handle = names.handle_of(name)
        self.limits.check(client, "signin")
        self.limits.check(f"account:{handle}", "signin_account")
        row = await self._db(self.store.by_handle, handle) if names.problem(name) is None else None
        stored = row.password if row is not None else None
        if not await passwords.verified(stored, password) or row is None or row.name is None:
            raise bad_credentials()
        if stored is not None and passwords.needs_rehash(stored):
            await self._db(self.store.set_password, row.account_id,
                           await passwords.hashed(password))
        account = Account(row.account_id, row.name)
        await self._db(self.store.claim, row.account_id, seats)
        return await self.start_session(account, replaces)

    async def start_session(self, account: Account, replaces: str | None) -> SignedIn:
        """A new session for ``account`` (ending the one it ``replaces``: no fixation)."""
        secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        now = self.clock()
        expires = now + settings()["session"]["lifetime_days"] * DAY
        await self._db(self.store.open_session, digest_of(secret), account.account_id, csrf,
                       now, expires, replaces)
        return SignedIn(account, secret, csrf, expires)

    async def current(self, secret: str | None) -> Current | None:
        """The live session of the cookie's ``secret`` (None: none, ended or expired)."""
        if not secret:
            return None
        digest = digest_of(secret)
        row = await self._db(self.store.session, digest)
        if row is None:
            return None
        now, rules = self.clock(), settings()["session"]
        if now >= row.expires or now - row.seen >= rules["idle_days"] * DAY:
            await self._db(self.store.end_session, digest)
            return None
        if now - row.seen >= rules["seen_every_seconds"]:
            await self._db(self.store.touch, digest, now)
        return Current(Account(row.account_id, row.name), digest, row.csrf)

    async def sign_out(self, current: Current) -> None:
        await self._db(self.store.end_session, current.digest)

    async def sign_out_everywhere(self, current: Current) -> None:
        await self._db(self.store.end_sessions, current.account.account_id)

    # -- the account ---------------------------------------------------------------

    async def change_password(self, current: Current, old: str, new: str,
                              client: str) -> SignedIn:
        """A new password (the old one proven) and a new session; every other ends."""
        await self._prove(current, old, client, "current_password")
        _check_password(new, "new_password")
        account_id = current.account.account_id
        await self._db(self.store.set_password, account_id, await passwords.hashed(new))
        await self._db(self.store.end_sessions, account_id)
        return await self.start_session(current.account, None)

    async def delete(self, current: Current, password: str, client: str) -> None:
        """The account deleted (its password proven): name and password forgotten,
        sessions ended; its seats in stored games then show a deleted player."""
        await self._prove(current, password, client, "password")
        await self._db(self.store.delete, current.account.account_id, self.clock())

    async def _prove(self, current: Current, password: str, client: str, field: str) -> None:
        self.limits.check(client, "signin")
        self.limits.check(f"account:{current.account.account_id}", "signin_account")
        row = await self._db(self.store.by_id, current.account.account_id)
        if row is None or not await passwords.verified(row.password, password):
            raise refused("bad_credentials", "accounts.wrong_password", 403, field)

    async def claim(self, current: Current,
                    seats: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
        return await self._db(self.store.claim, current.account.account_id, seats)

    async def seats(self, current: Current) -> list[tuple[str, int]]:
        return await self._db(self.store.seats_of, current.account.account_id)


def _check_password(password: str, field: str) -> None:
    bounds = passwords.length_problem(password)
    if bounds is not None:
        raise refused("password_invalid", "accounts.password_length", 422, field, **bounds)


def _name_taken(name: str) -> ServerError:
    return refused("name_taken", "accounts.name_taken", 409, "name", name=name)
