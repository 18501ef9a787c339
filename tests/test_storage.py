"""The Storage protocol: the same behaviour from SQLite and from a real PostgreSQL server,
and what only several processes on one PostgreSQL database need (one move per state,
notices, catching up)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from pg_helpers import database_of_kind
from tikal.server.errors import ServerError
from tikal.server.manager import Manager
from tikal.server.store import (
    GameRecord,
    LogEntry,
    SeatRecord,
    SqliteStorage,
    Storage,
    StorageConflict,
    StorageUnavailable,
    open_storage,
)
from tikal.server.store.postgres import CHANNEL, PostgresStorage


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a storage lives: a SQLite file or a fresh PostgreSQL database."""
    yield from database_of_kind(request.param, tmp_path)


@pytest.fixture
def storage(db: str) -> Iterator[Storage]:
    store = open_storage(db)
    yield store
    store.close()


def record(game_id: str, kind: str = "game", created: float = 1.0) -> GameRecord:
    seats = (SeatRecord("human", "Ana", None, "tok-a"), SeatRecord("bot", "Bo", "easy"))
    return GameRecord(
        game_id=game_id, rules="standard", players=2, options={"guards": True}, seed=2**62 - 1,
        seats=seats, tokens={"tok-a": (0,), "hot": (0, 1)}, created=created, kind=kind,
        seeded=True, record={"format": "tikal-record"} if kind == "replay" else None,
    )


def create(storage: Storage, game_id: str, created: float = 1.0) -> None:
    """A game stored with its start entry (entries(1))."""
    storage.create(record(game_id, created=created), entries(1)[0])


def entries(n: int) -> list[LogEntry]:
    start = LogEntry(seq=0, kind="start", seat=-1, chance=("t12", "t3"), at=10.0)
    rest = [LogEntry(seq=i, kind="action" if i % 3 else "undo", seat=i % 2,
                     action="end" if i % 3 else None, chance=("t7",) if i == 4 else (),
                     at=10.0 + i) for i in range(1, n)]
    return [start, *rest]


def test_open_storage_picks_the_database_by_its_name(db: str, storage: Storage) -> None:
    expected = SqliteStorage if not db.startswith("postgresql://") else PostgresStorage
    assert isinstance(storage, expected)
    # what the server asks of it instead of probing its attributes
    assert (storage.kind, storage.shared) == (
        ("sqlite", False) if expected is SqliteStorage else ("postgresql", True))


def test_a_game_and_its_log_come_back_exactly(storage: Storage) -> None:
    create(storage, "g1")
    for entry in entries(6)[1:]:
        storage.append("g1", entry)
    loaded = storage.load("g1")
    assert loaded == (record("g1"), entries(6))
    assert storage.load("nope") is None


def test_an_entry_is_stored_once(storage: Storage) -> None:
    create(storage, "g1")
    for entry in entries(3)[1:]:
        storage.append("g1", entry)
    with pytest.raises(StorageConflict):
        storage.append("g1", LogEntry(seq=2, kind="action", seat=0, action="end"))
    assert storage.load("g1") == (record("g1"), entries(3))


def test_log_since_gives_the_entries_after_a_state(storage: Storage) -> None:
    create(storage, "g1")
    for entry in entries(6)[1:]:
        storage.append("g1", entry)
    assert storage.log_since("g1", 3) == entries(6)[4:]
    assert storage.log_since("g1", 5) == []
    assert storage.log_since("g1", -1) == entries(6)


def test_ids_by_kind_oldest_first_and_the_listing(storage: Storage) -> None:
    create(storage, "late", created=3.0)
    create(storage, "early", created=2.0)
    storage.create(record("rec", kind="replay", created=1.0))
    storage.append("late", entries(2)[1])
    assert storage.game_ids() == ["early", "late"]
    assert storage.game_ids("replay") == ["rec"]
    storage.set_status("late", "over")
    listing = storage.listing()
    assert [g["id"] for g in listing] == ["late", "early"]  # most recently updated first
    assert listing[0]["status"] == "over" and listing[0]["moves"] == 2
    assert listing[0]["seats"] == [{"kind": "human", "name": "Ana", "level": None},
                                   {"kind": "bot", "name": "Bo", "level": "easy"}]
    assert "token" not in str(listing)
    assert len(storage.listing(limit=1)) == 1


def test_sqlite_stores_appends_from_many_threads_exactly(tmp_path: Path) -> None:
    """12 threads appending at once are stored exactly (every entry once, in order, a
    duplicate refused on its own, one transaction each: the server batches its moves
    through the commit thread instead, test_server_commits)."""
    store = SqliteStorage(tmp_path / "games.sqlite3")
    games = [f"g{i}" for i in range(12)]
    for game_id in games:
        create(store, game_id)
    log = entries(30)[1:]
    conflicts: list[str] = []
    gate = threading.Barrier(len(games))

    def play(game_id: str) -> None:
        gate.wait()
        for entry in log:
            store.append(game_id, entry)
        try:
            store.append(game_id, log[-1])
        except StorageConflict:
            conflicts.append(game_id)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for game_id in games:
        loaded = store.load(game_id)
        assert loaded is not None and loaded[1] == entries(30)
    assert sorted(conflicts) == sorted(games)
    assert store.commits == len(games) * (len(log) + 1)  # the refused duplicates too
    store.close()


def test_a_new_storage_on_the_same_database_sees_everything(db: str, storage: Storage) -> None:
    create(storage, "g1")
    for entry in entries(4)[1:]:
        storage.append("g1", entry)
    again = open_storage(db)
    try:
        assert again.load("g1") == (record("g1"), entries(4))
    finally:
        again.close()


# ------------------------------------------------------------------ PostgreSQL only


def race(stores: list[PostgresStorage], seq: int) -> list[str]:
    """Each storage appends its own entry ``seq`` of g1 at the same moment."""
    barrier = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def store(i: int) -> None:
        entry = LogEntry(seq=seq, kind="action", seat=i, action=f"end{i}")
        barrier.wait()
        try:
            stores[i].append("g1", entry)
            outcomes.append("stored")
        except StorageConflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=store, args=(i,)) for i in range(len(stores))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(outcomes)


def test_two_storages_storing_the_same_state_at_once_one_wins(pg_url: str) -> None:
    stores = [PostgresStorage(pg_url), PostgresStorage(pg_url)]
    create(stores[0], "g1")
    try:
        for seq in range(1, 21):
            assert race(stores, seq) == ["conflict", "stored"]
        loaded = stores[1].load("g1")
        assert loaded is not None and [e.seq for e in loaded[1]] == list(range(21))
    finally:
        for s in stores:
            s.close()


def test_a_stored_entry_is_announced_to_listeners(pg_url: str) -> None:
    store = PostgresStorage(pg_url)
    try:
        create(store, "g1")
        with psycopg.connect(pg_url, autocommit=True) as listener:
            listener.execute(f"LISTEN {CHANNEL}")
            store.append("g1", entries(2)[1])
            notices = list(listener.notifies(timeout=10, stop_after=1))
        assert [n.payload for n in notices] == [f"g1 1 {store.origin}"]
    finally:
        store.close()


def test_a_process_catches_up_with_moves_another_one_stored(pg_url: str) -> None:
    here, there = Manager(PostgresStorage(pg_url)), Manager(PostgresStorage(pg_url))
    try:
        session, links = here.create("standard", [{"kind": "human"}, {"kind": "human"}], seed=5)
        tokens = [s["token"] for s in links["seats"]]
        gid = session.game_id
        seen: list[str] = []
        there.add_listener(seen.append)
        mirror = there.get(gid)
        for _ in range(12):
            game = session.game
            moves = [str(a) for a in game.legal_actions()]
            action = next((m for m in moves if m != "end"), "end")
            here.act_blocking(gid, tokens[game.current], action, session.state)
        there.refresh(gid)
        assert mirror.state == session.state == 12
        assert mirror.game.to_json() == session.game.to_json()
        assert seen == [gid]  # its clients are told
    finally:
        here.close()
        there.close()


def test_a_move_refused_as_stale_brings_the_process_up_to_date(pg_url: str) -> None:
    here, there = Manager(PostgresStorage(pg_url)), Manager(PostgresStorage(pg_url))
    try:
        session, links = here.create("standard", [{"kind": "human"}, {"kind": "human"}], seed=9)
        tokens = [s["token"] for s in links["seats"]]
        gid = session.game_id
        mirror = there.get(gid)
        seat = session.game.current
        first, second = (str(a) for a in session.game.legal_actions()[:2])
        here.act_blocking(gid, tokens[seat], first, 0)
        assert mirror.state == 0  # the other process has not heard of it yet
        with pytest.raises(ServerError) as refused:
            there.act_blocking(gid, tokens[seat], second, 0)
        assert refused.value.code == "stale" and refused.value.status == 409
        assert refused.value.state == 1 and mirror.state == 1
        assert mirror.game.to_json() == session.game.to_json()
    finally:
        here.close()
        there.close()


def test_serve_shows_where_games_are_stored_without_the_password() -> None:
    from tikal.cli.web import where_stored

    assert where_stored("postgresql://tikal:s3cret@db.example:5432/games") == \
        "postgresql://tikal@db.example:5432/games"
    assert where_stored("postgresql://db.example/games") == "postgresql://db.example/games"
    assert where_stored("games.sqlite3").endswith("/games.sqlite3")


def test_notices_name_game_entry_and_origin() -> None:
    from tikal.server.cluster import parse_notice

    assert parse_notice("g-1_x 12 ab12") == ("g-1_x", 12, "ab12")
    assert parse_notice("not a notice at all") is None
    assert parse_notice("g1 twelve ab") is None


def test_a_notice_of_an_entry_already_held_is_skipped(pg_url: str) -> None:
    here, there = Manager(PostgresStorage(pg_url)), Manager(PostgresStorage(pg_url))
    try:
        session, links = here.create("standard", [{"kind": "human"}, {"kind": "human"}], seed=3)
        gid, seat = session.game_id, session.game.current
        mirror = there.get(gid)
        first = str(session.game.legal_actions()[0])
        here.act_blocking(gid, links["seats"][seat]["token"], first, 0)
        seen: list[str] = []
        there.add_listener(seen.append)
        there.refresh("not-in-memory", 1)  # read from storage when asked for, not now
        there.refresh(gid, 1)
        there.refresh(gid, 1)  # the same notice again: nothing new to tell
        assert mirror.state == 1 and seen == [gid]
    finally:
        here.close()
        there.close()


def test_postgres_out_of_reach_gives_up_with_storage_unavailable() -> None:
    """No database at the address: after its retry window the storage says so in a way the
    server answers with 503 (not an internal error)."""
    with pytest.raises(StorageUnavailable, match="not reachable"):
        PostgresStorage("postgresql://nobody@127.0.0.1:1/none", retry_for=0.3)
