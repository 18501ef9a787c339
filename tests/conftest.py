"""Lanes of the suite: ``browser`` (Chromium), ``pg`` (a PostgreSQL server) and ``slow``.

The fast lane, ``pytest -m "not browser and not pg and not slow"`` (``make fast``), needs
neither a browser nor a database server.  A test is ``pg`` when its module is about
PostgreSQL alone (``test_server_pg.py``) or when it runs with a ``postgresql`` storage
parameter (the fixtures parametrized over both storages): marked here, by what the test
runs on, so that a new test on those fixtures cannot land in the fast lane by mistake.
"""

from __future__ import annotations

import pytest

PG_MODULES = frozenset({"test_server_pg.py"})
PG_PARAMETERS = frozenset({"postgresql"})  # the kind tests/pg_helpers.py knows


def runs_on_postgresql(item: pytest.Item) -> bool:
    if item.path.name in PG_MODULES:
        return True
    callspec = getattr(item, "callspec", None)
    return callspec is not None and any(
        isinstance(value, str) and value in PG_PARAMETERS for value in callspec.params.values()
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if runs_on_postgresql(item) and "pg" not in item.keywords:
            item.add_marker(pytest.mark.pg)
