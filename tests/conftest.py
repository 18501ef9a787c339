"""Lanes of the suite: ``browser`` (Chromium), ``pg`` (a PostgreSQL server) and ``slow``.

The fast lane, ``pytest -m "not browser and not pg and not slow"`` (``make fast``), needs
neither a browser nor a database server and takes under two minutes.  A test is ``pg`` when
its module is about PostgreSQL alone (``test_server_pg.py``) or when it runs with a
``postgresql`` storage parameter (the fixtures parametrized over both storages): marked
here, by what the test runs on, so that a new test on those fixtures cannot land in the fast
lane by mistake.

A test is ``slow`` when it says so, or when it took :data:`SLOW_SECONDS` or more the last
time durations were stored (``tests/durations.json``, as pytest-split keeps them:
``make durations`` runs the suite with ``--store-durations``).  Measured on the 2-core
machine, 2026-12-03: the 1,198 tests then in the fast lane took 9 min 38 s, 90% of it in
the 177 tests of 0.5 s or more; those under 0.75 s take about 90 s together.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pg_helpers import PgServerProcess, database_of_kind, fresh_database
from tikal.server import create_app
from tikal.server.limits import LimitSettings, Rate

PG_MODULES = frozenset({"test_server_pg.py", "test_lobby_pg.py"})
PG_PARAMETERS = frozenset({"postgresql"})  # the kind tests/pg_helpers.py knows
#: Durations (setup, call and teardown, seconds) of the last stored run, by test id.
DURATIONS = Path(__file__).with_name("durations.json")
SLOW_SECONDS = 0.75

_measured: Counter[str] = Counter()
#: Limits no test of the game's modules (chat, rematch, clocks, ending) meets by accident.
PLAY_LIMITS = LimitSettings(lobby=Rate(6000, 1000), create=Rate(6000, 1000),
                            chat=Rate(6000, 1000))


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A real SQLite file, then a fresh PostgreSQL database (a module may have its own)."""
    yield from database_of_kind(request.param, tmp_path)


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    """The app on ``db`` with bots that move at once (a module may have its own)."""
    with TestClient(create_app(db, bot_delay=0.0, limit_settings=PLAY_LIMITS)) as c:
        yield c


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test (skipped without a server, failed in CI)."""
    yield from fresh_database()


@pytest.fixture
def servers(pg_url: str, tmp_path: Path) -> Iterator[list[PgServerProcess]]:
    """Two ``tikal serve`` processes on the same PostgreSQL database."""
    started: list[PgServerProcess] = []
    try:
        for _ in range(2):
            started.append(PgServerProcess(pg_url, tmp_path).start())
        yield started
    finally:
        for server in started:
            server.stop()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--store-durations", action="store_true",
                     help="write each test's duration to tests/durations.json (the fast "
                          "lane leaves out those of SLOW_SECONDS or more)")


def runs_on_postgresql(item: pytest.Item) -> bool:
    if item.path.name in PG_MODULES:
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(
        isinstance(value, str) and value in PG_PARAMETERS for value in callspec.params.values()
    )


def stored_durations() -> dict[str, float]:
    if not DURATIONS.exists():
        return {}
    found: dict[str, float] = json.loads(DURATIONS.read_text(encoding="utf-8"))
    return found


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    durations = stored_durations()
    for item in items:
        if runs_on_postgresql(item) and "pg" not in item.keywords:
            item.add_marker(pytest.mark.pg)
        if durations.get(item.nodeid, 0.0) >= SLOW_SECONDS and "slow" not in item.keywords:
            item.add_marker(pytest.mark.slow)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _measured[report.nodeid] += report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """With ``--store-durations``: this run's durations over the stored ones (tests that
    did not run keep theirs)."""
    if not session.config.getoption("--store-durations") or not _measured:
        return
    merged = {**stored_durations(), **{k: round(v, 3) for k, v in _measured.items()}}
    DURATIONS.write_text(json.dumps(dict(sorted(merged.items())), indent=0) + "\n",
                         encoding="utf-8")
