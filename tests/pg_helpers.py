"""Helpers for the PostgreSQL tests: a fresh database per test on the real server that
``.ci/postgres.sh`` starts (URL in ``TIKAL_TEST_PG``), and ``tikal serve`` processes on it.

Without ``TIKAL_TEST_PG`` the tests skip locally but fail in CI (``CI`` set): CI must run
them against a real server, never silently pass without one.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import psycopg
import pytest

from web_helpers import ROOT, ServerProcess

T = TypeVar("T")


def base_url() -> str:
    url = os.environ.get("TIKAL_TEST_PG", "")
    if url:
        return url
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail("TIKAL_TEST_PG is not set: CI must run the PostgreSQL tests "
                    "(.ci/run starts a server with .ci/postgres.sh)")
    pytest.skip("no PostgreSQL server: run `bash .ci/postgres.sh start` and export "
                "TIKAL_TEST_PG=<the URL it prints>")


def with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name``."""
    head, _, _ = url.rpartition("/")
    return f"{head}/{name}"


def fresh_database() -> Iterator[str]:
    """A new, empty database for one test (dropped afterwards, connections and all)."""
    url = base_url()
    name = f"tikal_{secrets.token_hex(5)}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    try:
        yield with_database(url, name)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def database_of_kind(kind: str, folder: Path) -> Iterator[str]:
    """Where a storage lives for one test: a SQLite file in ``folder`` (``kind`` "sqlite")
    or a fresh PostgreSQL database (for fixtures parametrized over both)."""
    if kind == "sqlite":
        yield str(folder / "games.sqlite3")
    else:
        yield from fresh_database()


def restart_postgres() -> None:
    """Restart the test server (fast shutdown: every connection is cut)."""
    subprocess.run(["bash", str(ROOT / ".ci" / "postgres.sh"), "restart"], check=True,
                   capture_output=True, timeout=120)


def can_restart_postgres() -> bool:
    """The server was started by .ci/postgres.sh (so the tests may restart it)."""
    default = Path(os.environ.get("TMPDIR", "/tmp")) / "tikal-pg"
    data = Path(os.environ.get("TIKAL_TEST_PG_DIR", default)) / "data"
    return (data / "PG_VERSION").exists()


def require_restartable_postgres() -> None:
    """Skip (fail in CI) unless the server is the one .ci/postgres.sh runs."""
    if can_restart_postgres():
        return
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail("the PostgreSQL server was not started by .ci/postgres.sh")
    pytest.skip("the PostgreSQL server was not started by .ci/postgres.sh")


class PgServerProcess(ServerProcess):
    """``tikal serve --db postgresql://...`` in a subprocess on 127.0.0.1."""

    def __init__(self, url: str, logs: Path, bot_delay: float = 0.05) -> None:
        super().__init__(logs / f"server-{secrets.token_hex(3)}.db", bot_delay=bot_delay)
        self.database = url

    def start(self, timeout: float = 30) -> PgServerProcess:
        cmd = [
            sys.executable, "-c", "from tikal.cli import main; main()", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--db", self.database,
            "--bot-delay", str(self.bot_delay), "--log-level", "warning",
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        wait_for(self._ready, timeout, "the server did not start")
        return self

    def _ready(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
        try:
            return httpx.get(f"{self.url}/api/meta", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False


def wait_for(condition: Callable[[], T], timeout: float, what: str) -> T:
    """Poll ``condition`` until it returns something true; fail with ``what`` after
    ``timeout`` seconds (a bound for a broken server, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} (waited {timeout} s)")
        time.sleep(0.05)


def new_game(base: str, seed: int, rules: str = "standard") -> dict[str, Any]:
    """A two-player human game created through ``base``'s API."""
    body = {"rules": rules, "seed": seed,
            "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]}
    r = httpx.post(f"{base}/api/games", json=body, timeout=30)
    r.raise_for_status()
    data: dict[str, Any] = r.json()
    return data
