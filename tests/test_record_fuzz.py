"""Uploaded records that are broken never crash a request: a seeded mutation fuzz.

Real records of every rule set (``record_mutations.py``) are mutated and posted to
``POST /api/replays`` of an in-process app on a real SQLite file.  Every answer is
either 201 (the record still replays; its replay and first frame then load) or 422
``bad_record`` naming the field at fault, and a refused upload stores nothing.  Before
the header checks of ``tikal.record``, 138 of the first 2,574 cases were 500
``internal`` (options named like ``setup``'s parameters, a missing ``options``); the
fast lane runs 300 cases, the slow lane (``-m slow``) 2,600.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from record_mutations import cases
from tikal.server import create_app
from tikal.server.limits import LimitSettings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

FAST_CASES = 300
SLOW_CASES = 2_600


@pytest.fixture(scope="module")
def app_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"
    app = create_app(db, bot_delay=0.0, limit_settings=LimitSettings(enabled=False))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, db


def stored(db: Path) -> int:
    return len(stored_ids(db))


def stored_ids(db: Path) -> set[str]:
    with sqlite3.connect(db) as conn:
        return {row[0] for row in conn.execute("SELECT id FROM games")}


def fuzz(client: TestClient, db: Path, count: int, start: int = 0) -> Counter[str]:
    """Post ``count`` mutated records; what each got (asserting the rules above)."""
    seen: Counter[str] = Counter()
    logging.disable(logging.ERROR)  # a 500 would log its traceback; the assert names it
    try:
        for case, record in cases(count, start):
            ids = stored_ids(db)
            before = len(ids)
            answer = client.post("/api/replays", json=record)
            body: dict[str, Any] = answer.json()
            assert answer.status_code in (201, 422), (case, answer.status_code, body)
            if answer.status_code == 422:
                assert body["code"] == "bad_record", (case, body)
                assert body.get("field") and body["message"], (case, body)
                assert stored(db) == before, case
                seen[body["field"].partition("[")[0].partition(".")[0]] += 1
                continue
            # stored once: an identical upload (mutations repeat) gets the first one's id
            again = body["id"] in ids
            assert stored_ids(db) == ids | {body["id"]} and stored(db) == before + (not again), case
            replay = client.get(f"/api/replays/{body['id']}")
            assert replay.status_code == 200, (case, replay.text)
            frame = client.get(f"/api/replays/{body['id']}/frames/{replay.json()['total']}")
            assert frame.status_code == 200, (case, frame.text)
            seen["accepted"] += 1
    finally:
        logging.disable(logging.NOTSET)
    return seen


def test_mutated_records_get_201_or_a_422_naming_the_field(
    app_db: tuple[TestClient, Path],
) -> None:
    seen = fuzz(*app_db, FAST_CASES)
    # the mutations reach the log, the header and the seats, and some records survive
    assert {"log", "players", "options", "seats", "accepted"} <= set(seen), seen


@pytest.mark.slow
def test_thousands_of_mutated_records_never_get_a_server_error(
    app_db: tuple[TestClient, Path],
) -> None:
    seen = fuzz(*app_db, SLOW_CASES, start=FAST_CASES)
    assert sum(seen.values()) == SLOW_CASES
    assert {"log", "rules", "players", "seed", "options", "version", "scoring", "result",
            "seats", "accepted"} <= set(seen), seen


RECORD_FIXTURE = sorted(Path(__file__).parent.joinpath("fixtures", "records").glob("*.json"))[0]

#: (field changed, its value, the field the refusal names); the first ones were 500s.
BROKEN_FIELDS = [
    ("options", {"players": 3}, "options.players"),
    ("options", {"seed": 1}, "options.seed"),
    ("options", {"camp_needs_own_figure": 1}, "options.camp_needs_own_figure"),
    ("options", [], "options"),
    ("players", True, "players"),
    ("players", 2.0, "players"),
    ("seed", False, "seed"),
    ("version", 2, "version"),
    ("rules", ["demo"], "rules"),
    ("result", "won", "result"),
    ("seats", [{"name": 7}], "seats[0].name"),
    ("seats", [{}, {}, {}, {}, {}], "seats"),
]


@pytest.mark.parametrize(("key", "value", "field"), BROKEN_FIELDS,
                         ids=[f"{k}={v!r}" for k, v, _ in BROKEN_FIELDS])
def test_each_broken_field_is_named(app_db: tuple[TestClient, Path], key: str, value: Any,
                                    field: str) -> None:
    client, db = app_db
    record = json.loads(RECORD_FIXTURE.read_text())
    assert client.post("/api/replays", json=record).status_code == 201
    before = stored(db)
    record[key] = value
    for language in ("en", "de", "ja"):
        answer = client.post("/api/replays", json=record, params={"lang": language})
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert body["code"] == "bad_record" and body["field"] == field, body
        assert field in body["message"] or field.startswith("seats"), body
    assert stored(db) == before


def test_a_changed_result_names_what_differs(app_db: tuple[TestClient, Path]) -> None:
    client, _ = app_db
    record = json.loads(RECORD_FIXTURE.read_text())
    for name, value in (("over", not record["result"]["over"]), ("winners", [5])):
        answer = client.post("/api/replays", json={
            **record, "result": {**record["result"], name: value}})
        assert answer.status_code == 422 and answer.json()["field"] == f"result.{name}"
    optional = {k: v for k, v in record.items() if k not in ("options", "seed", "scoring",
                                                             "result", "version")}
    assert client.post("/api/replays", json=optional).status_code == 201
