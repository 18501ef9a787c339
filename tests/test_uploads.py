"""Uploaded records (issue 33, point 6): stored once per content, within a cap that
evicts the oldest unvisited uploads first (SQLite and PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pg_helpers import database_of_kind
from test_analysis import blunder_record
from tikal.server import create_app
from tikal.server.limits import LimitSettings
from tikal.server.store import (
    GameRecord,
    LogEntry,
    SeatRecord,
    Storage,
    UploadCap,
    open_storage,
)
from tikal.server.store.rows import upload_digest


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_of_kind(request.param, tmp_path)


@pytest.fixture
def storage(where: str) -> Iterator[Storage]:
    store = open_storage(where)
    yield store
    store.close()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return blunder_record(seed=6)


def upload_of(name: str, created: float, log: list[str] | None = None) -> GameRecord:
    seats = (SeatRecord("human", name), SeatRecord("human", "B"))
    return GameRecord(f"r-{name}", "demo", 2, {}, 0, seats, {}, created=created,
                      kind="replay", record={"format": "tikal-record", "log": log or [name]})


def store(storage: Storage, upload: GameRecord, cap: UploadCap) -> tuple[str, list[str]]:
    assert upload.record is not None
    digest = upload_digest(upload.record, [s.name for s in upload.seats])
    return storage.store_upload(upload, digest, cap)


def test_the_same_upload_is_stored_once(storage: Storage) -> None:
    first = upload_of("a", 1.0)
    again = GameRecord("r-other-id", first.rules, 2, {}, 0, first.seats, {}, created=2.0,
                       kind="replay", record=first.record)
    assert store(storage, first, UploadCap()) == ("r-a", [])
    assert store(storage, again, UploadCap()) == ("r-a", [])
    assert storage.game_ids("replay") == ["r-a"]
    assert storage.upload_totals() == (1, len(json.dumps(first.record)))


def test_over_the_count_the_oldest_unvisited_uploads_go_first(storage: Storage) -> None:
    cap = UploadCap(count=3)
    for i, name in enumerate("abc"):
        store(storage, upload_of(name, float(i)), cap)
    storage.visit("r-a", 10.0)  # the oldest, but opened
    assert store(storage, upload_of("d", 3.0), cap) == ("r-d", ["r-b"])
    assert store(storage, upload_of("e", 4.0), cap) == ("r-e", ["r-c"])
    storage.visit("r-d", 11.0)
    # unvisited first (e), then the least recently visited (a, before d)
    assert store(storage, upload_of("f", 5.0), cap) == ("r-f", ["r-e"])
    assert store(storage, upload_of("g", 6.0), cap) == ("r-g", ["r-f"])
    storage.visit("r-g", 12.0)
    assert store(storage, upload_of("h", 7.0), cap) == ("r-h", ["r-a"])
    assert sorted(storage.game_ids("replay")) == ["r-d", "r-g", "r-h"]
    assert storage.load("r-a") is None


def test_over_the_bytes_uploads_go_and_their_analyses_with_them(storage: Storage) -> None:
    big = ["x" * 1000]
    size = len(json.dumps(upload_of("a", 0.0, big).record))
    cap = UploadCap(count=100, megabytes=2.5 * size / (1024 * 1024))  # two fit
    store(storage, upload_of("a", 0.0, big), cap)
    storage.save_analysis("r-a", {"decisions": []})
    storage.claim_analysis("r-a", "someone", 3, 1e12)
    store(storage, upload_of("b", 1.0, big), cap)
    assert store(storage, upload_of("c", 2.0, big), cap) == ("r-c", ["r-a"])
    assert storage.upload_totals() == (2, 2 * size)
    assert storage.load_analysis("r-a") is None and storage.analysis_claim("r-a") is None


def test_games_are_never_evicted(storage: Storage) -> None:
    seats = (SeatRecord("human", "A"), SeatRecord("human", "B"))
    storage.create(GameRecord("g-played", "demo", 2, {}, 1, seats, {}, created=0.0),
                   LogEntry(seq=0, kind="start", seat=-1))
    cap = UploadCap(count=1)
    store(storage, upload_of("a", 1.0), cap)
    assert store(storage, upload_of("b", 2.0), cap) == ("r-b", ["r-a"])
    assert storage.game_ids() == ["g-played"]


def test_through_the_api_the_same_record_gets_the_same_id_and_the_cap_holds(
    where: str, record: dict[str, Any],
) -> None:
    """``POST /api/replays`` twice with one record: one id; with a cap of two, a third
    upload evicts the one nobody opened, not the one that was viewed."""
    unlimited = LimitSettings(enabled=False)
    app = create_app(where, bot_delay=0.0, limit_settings=unlimited, uploads=UploadCap(2))
    with TestClient(app) as client:
        def upload(names: tuple[str, str]) -> str:
            body = {**record, "seats": [{"name": n} for n in names]}
            r = client.post("/api/replays", json=body)
            assert r.status_code == 201, r.text
            found: str = r.json()["id"]
            return found

        first = upload(("Ana", "Bo"))
        assert upload(("Ana", "Bo")) == first
        second = upload(("Cy", "Di"))
        assert client.get(f"/api/replays/{first}").status_code == 200  # visited
        third = upload(("Ed", "Flo"))
        assert client.get(f"/api/replays/{second}").status_code == 404
        assert client.get(f"/api/replays/{first}").status_code == 200
        assert client.get(f"/api/replays/{third}").status_code == 200
        storage = client.app.state.storage  # type: ignore[attr-defined]
        assert storage.upload_totals()[0] == 2
