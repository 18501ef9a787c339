"""Passwords: hashed with argon2id (``argon2-cffi``), never stored nor logged as given.

The cost is in ``data/accounts.json`` (one hash took 175 ms on the project's 2-core
machine).  Hashes run in worker threads, at most ``at_once`` together, so that sign-ins
neither stall the event loop nor take 64 MiB each without bound.  An unknown name is
checked against a dummy hash, so "no such account" costs the same time as "wrong
password" and both get the same answer.
"""

from __future__ import annotations

import asyncio
import functools
import threading

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from .settings import settings


@functools.cache
def hasher() -> PasswordHasher:
    cost = settings()["argon2"]
    return PasswordHasher(time_cost=cost["time_cost"], memory_cost=cost["memory_kib"],
                          parallelism=cost["parallelism"])


@functools.cache
def _slots() -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(settings()["argon2"]["at_once"])


@functools.cache
def _dummy() -> str:
    return hasher().hash("not the password of any account")


def length_problem(password: str) -> dict[str, int] | None:
    """The bounds a password breaks (None: within them): at least ``min`` characters
    (ASVS 5.0 V6.2.1), at most ``max`` (a hash of a megabyte is a denial of service)."""
    rules = settings()["password"]
    if rules["min"] <= len(password) <= rules["max"]:
        return None
    return {"min": rules["min"], "max": rules["max"]}


def hash_now(password: str) -> str:
    with _slots():
        return hasher().hash(password)


def verify_now(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (a dummy check, always
    False, when there is no stored hash)."""
    against = stored or _dummy()
    with _slots():
        try:
            return hasher().verify(against, password) and stored is not None
        except (VerificationError, InvalidHashError):
            return False


def needs_rehash(stored: str) -> bool:
    """A hash made with other (older) parameters, to be made again at the next sign-in."""
    return hasher().check_needs_rehash(stored)


async def hashed(password: str) -> str:
    return await asyncio.to_thread(hash_now, password)


async def verified(stored: str | None, password: str) -> bool:
    return await asyncio.to_thread(verify_now, stored, password)
