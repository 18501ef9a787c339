"""Storage faults never brick the server (issue 34): a full disk (a real 3 MB tmpfs),
half-created games, games whose log does not replay, damaged and foreign database files,
a lock held by another program, and on PostgreSQL a dropped connection, a read-only database
and a server that is not there; each cause told apart from the errors SQLite really raises.

Each fault is answered (503 ``unavailable`` with a cause and ``Retry-After``, 410
``damaged_game``, or one line and exit status 2 at start-up), nothing half-written is
left, and the server recovers by itself when the cause goes away.

The full disk needs ``mount -t tmpfs`` (root): without it the tests skip locally and fail
in CI (``CI`` set), as the PostgreSQL tests do.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient

from pg_helpers import base_url, fresh_database, wait_for
from test_analysis import blunder_record
from tikal.server import create_app
from tikal.server.errors import ServerError
from tikal.server.manager import Manager
from tikal.server.store import SqliteStorage, open_storage
from tikal.server.store.protocol import DAMAGED
from web_helpers import ROOT, ServerProcess
from wire_oracles import readable

HUMANS = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


# ------------------------------------------------------------------ a small disk


def mount_small_disk(folder: Path, size: str = "3m") -> None:
    """A tmpfs of ``size`` at ``folder``; skip (fail in CI) where mounting is impossible."""
    folder.mkdir(parents=True, exist_ok=True)
    why = "mounting a tmpfs needs root" if os.geteuid() != 0 else ""
    if not why:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                               str(folder)], capture_output=True, text=True)
        why = done.stderr.strip() if done.returncode else ""
    if why:
        if IN_CI:
            pytest.fail(f"CI must run the full-disk tests on a tmpfs: {why}")
        pytest.skip(f"no tmpfs for the full-disk tests: {why}")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "disk"
    mount_small_disk(folder)
    try:
        yield folder
    finally:
        unmount(folder)


def unmount(folder: Path) -> None:
    for _ in range(50):  # a server process may still be letting go of its files
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode == 0:
            return
        time.sleep(0.1)
    subprocess.run(["umount", "--lazy", str(folder)], check=True)
    pytest.fail(f"{folder} was still in use after the test")


def fill(disk: Path) -> None:
    """Fill ``disk`` to its last byte."""
    with open(disk / "filler", "wb", buffering=0) as out:
        for chunk in (1 << 16, 1 << 12, 1 << 9, 1):
            try:
                while True:
                    out.write(b"\0" * chunk)
            except OSError:
                pass


def free(disk: Path) -> None:
    (disk / "filler").unlink()


# ------------------------------------------------------------------ helpers


def create(base: str | TestClient, seed: int = 5) -> httpx.Response:
    body = {"rules": "standard", "seed": seed, "seats": HUMANS}
    if isinstance(base, TestClient):
        return base.post("/api/games", json=body)
    return httpx.post(f"{base}/api/games", json=body, timeout=30)


def get(base: str | TestClient, path: str, token: str | None = None) -> httpx.Response:
    headers = {"X-Tikal-Token": token} if token else {}
    if isinstance(base, TestClient):
        return base.get(path, headers=headers)
    return httpx.get(f"{base}{path}", headers=headers, timeout=30)


def post(base: str | TestClient, path: str, body: Any = None,
         token: str | None = None) -> httpx.Response:
    headers = {"X-Tikal-Token": token} if token else {}
    if isinstance(base, TestClient):
        return base.post(path, json=body, headers=headers)
    return httpx.post(f"{base}{path}", json=body, headers=headers, timeout=30)


def move(base: str | TestClient, game: dict[str, Any]) -> httpx.Response:
    """The first legal action of the seat to act in ``game`` (as created)."""
    tokens = [s["token"] for s in game["seats"]]
    public = readable(get(base, f"/api/games/{game['id']}").json())
    seat = public["current"]
    state = readable(get(base, f"/api/games/{game['id']}", tokens[seat]).json())
    action = next(e["action"] for v in state["legal"].values() for e in v)
    return post(base, f"/api/games/{game['id']}/actions",
                {"action": action, "state": state["state"]}, tokens[seat])


def state_of(base: str | TestClient, game_id: str) -> int:
    found: int = readable(get(base, f"/api/games/{game_id}").json())["state"]
    return found


def analysis(base: str, replay_id: str, status: str) -> dict[str, Any] | None:
    """The analysis of ``replay_id`` if its status is ``status``."""
    found: dict[str, Any] = get(base, f"/api/replays/{replay_id}/analysis").json()
    return found if found["status"] == status else None


def execute(url: str, sql: str, *params: Any) -> None:
    """One statement on the database at ``url`` (``?`` for parameters), committed."""
    if url.startswith("postgresql://"):
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
    else:
        with sqlite3.connect(url) as lite:
            lite.execute(sql, params)
        lite.close()


def refused_for(response: httpx.Response, cause: str) -> bool:
    body = response.json()
    return (response.status_code == 503 and body["code"] == "unavailable"
            and body["cause"] == cause and response.headers["Retry-After"] == "5")


def tikal(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from tikal.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, "COLUMNS": "400"})


# ------------------------------------------------------------------ a full disk


def test_a_full_disk_answers_503_stores_nothing_and_recovers_once_freed(
    small_disk: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A real server with its SQLite file on a 3 MB tmpfs filled to the last byte: create,
    move, upload and analysis are refused (503 ``unavailable``, cause ``full``), nothing
    of them is stored (no game without its start), the fault is logged once; after space
    is freed the very next requests succeed, and a restart finds everything whole."""
    monkeypatch.setenv("TIKAL_ANALYSIS_BUDGET", "1")
    monkeypatch.setenv("TIKAL_ANALYSIS_CANDIDATES", "2")
    server = ServerProcess(small_disk / "games.sqlite3")
    server.log = small_disk.parent / "server.log"
    server.start()
    record = blunder_record(seed=6)
    try:
        base = server.url
        game = create(base).json()
        for _ in range(2):
            assert move(base, game).status_code == 200
        listed = get(base, "/api/games").json()
        upload = post(base, "/api/replays", record).json()["id"]

        fill(small_disk)
        assert refused_for(create(base, seed=6), "full")
        assert refused_for(move(base, game), "full")
        assert state_of(base, game["id"]) == 2
        renamed = {**record, "seats": [{"name": "Ana"}, {"name": "Bo"}]}  # a new upload
        assert refused_for(post(base, "/api/replays", renamed), "full")
        started = post(base, f"/api/replays/{upload}/analysis")
        assert started.status_code == 202  # the job's first write (its claim) fails:
        failed = wait_for(lambda: analysis(base, upload, "failed"), 60, "no failure")
        assert "StorageUnavailable" in failed["message"]
        assert get(base, "/api/games").json() == listed  # no half-created game

        free(small_disk)
        assert move(base, game).status_code == 200
        assert state_of(base, game["id"]) == 3
        assert create(base, seed=6).status_code == 201
        assert post(base, "/api/replays", renamed).status_code == 201
        assert post(base, f"/api/replays/{upload}/analysis").status_code == 202
        wait_for(lambda: analysis(base, upload, "done"), 120, "the analysis did not finish")

        server.kill()
        server.start()
        assert state_of(base, game["id"]) == 3
        assert move(base, game).status_code == 200
    finally:
        server.stop()
    logged = server.log.read_text()
    assert logged.count("storage fault (full)") == 1
    assert "storage works again" in logged and "Traceback" not in logged


def test_a_full_disk_refuses_moves_over_the_websocket_and_the_game_stays(
    small_disk: Path,
) -> None:
    """Moves applied on the event loop (their commits batched) are refused alike: the
    WebSocket gets the 503 error as a message (not a closed socket), the game in memory is
    the stored one, and the same move is accepted once the disk has room again."""
    with TestClient(create_app(small_disk / "games.sqlite3", bot_delay=0.0)) as client:
        game = create(client).json()
        token = game["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.send_json({"type": "hello", "token": token})
            hello = readable(ws.receive_json())
            action = next(e["action"] for v in hello["legal"].values() for e in v)
            fill(small_disk)
            ws.send_json({"type": "action", "action": action, "state": 0})
            refused = ws.receive_json()
            assert (refused["code"], refused["cause"]) == ("unavailable", "full")
            assert refused["retry_after"] == 5
            assert state_of(client, game["id"]) == 0
            free(small_disk)
            ws.send_json({"type": "action", "action": action, "state": 0})
            while (reply := ws.receive_json())["type"] != "ack":
                assert reply["type"] in ("state", "delta"), reply
            assert reply["state"] == 1
        storage = client.app.state.storage  # type: ignore[attr-defined]
    try:
        stored = storage.load(game["id"])
        assert [e.action for e in stored[1]] == [None, action]
    finally:
        storage.close()


# ------------------------------------------------------------------ games that do not load


def plant_damaged_games(db: Path) -> tuple[dict[str, Any], list[str]]:
    """A database with one good game (created through the app) and two that do not load,
    written with plain SQL: a game row without its log's start entry (what a full disk
    left behind before), and a game whose log holds an action the engine refuses."""
    with TestClient(create_app(db, bot_delay=0.0)) as client:
        good = create(client).json()
        assert move(client, good).status_code == 200
    row = ("INSERT INTO games (id, kind, rules, players, options, seed, seats, tokens, "
           "created, updated) VALUES (?, 'game', 'standard', 2, '{}', 7, ?, '{}', ?, ?)")
    seats = json.dumps([{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}])
    now = time.time()
    with sqlite3.connect(db) as conn:
        conn.execute(row, ("orphanGame1", seats, now, now))
        conn.execute(row, ("badReplay01", seats, now, now))
        conn.execute("INSERT INTO log VALUES ('badReplay01', 0, 'start', -1, NULL, '[]', ?)",
                     (now,))
        conn.execute("INSERT INTO log VALUES ('badReplay01', 1, 'action', 0, 'move W A9 B9', "
                     "'[]', ?)", (now,))
    conn.close()
    return good, ["badReplay01", "orphanGame1"]


def test_games_that_do_not_load_are_set_aside_and_the_server_starts_and_serves(
    tmp_path: Path,
) -> None:
    db = tmp_path / "games.sqlite3"
    good, damaged = plant_damaged_games(db)
    server = ServerProcess(db).start()  # before, this start failed (RecordError, exit 3)
    try:
        base = server.url
        for game_id in damaged:
            r = get(base, f"/api/games/{game_id}")
            assert r.status_code == 410 and r.json()["code"] == "damaged_game"
            assert game_id in r.json()["message"]
            assert get(base, f"/api/games/{game_id}?lang=de").json()["message"] != \
                r.json()["message"]
        assert [g["id"] for g in get(base, "/api/games").json()] == [good["id"]]
        assert move(base, good).status_code == 200  # the other games play on
        assert create(base).status_code == 201
        server.stop()
        server.start()  # again: the damaged games are tried again, still set aside
        assert get(base, f"/api/games/{damaged[0]}").status_code == 410
    finally:
        server.stop()
    said = server.log.read_text()
    assert "2 stored games do not load and are set aside" in said
    assert all(game_id in said for game_id in damaged) and "Traceback" not in said
    with sqlite3.connect(db) as conn:
        statuses = dict(conn.execute("SELECT id, status FROM games").fetchall())
    conn.close()
    assert [statuses[g] for g in damaged] == [DAMAGED, DAMAGED]

    checked = tikal("db", "check", "--db", str(db))
    assert checked.returncode == 1, checked.stderr
    assert "integrity check finds nothing wrong" in checked.stdout
    assert "4 games and 0 uploads replayed: 2 do not replay" in checked.stdout
    assert "orphanGame1 (game): RecordError" in checked.stdout
    assert "badReplay01 (game)" in checked.stdout


@pytest.fixture(params=["sqlite", "postgresql"])
def storage_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
    else:
        yield from fresh_database()


def test_a_game_set_aside_is_tried_again_at_start_and_comes_back_once_it_replays(
    storage_url: str,
) -> None:
    """Both databases: a game whose log does not replay answers 410 and leaves the
    listing; mended (here: the bad entry deleted), the next start loads it again."""
    manager = Manager(open_storage(storage_url), bot_delay=0.0)
    session, _ = manager.create("standard", HUMANS, seed=3)
    game_id = session.game_id
    manager.close()
    manager.storage.close()
    execute(storage_url, "INSERT INTO log VALUES (?, 1, 'action', 0, 'move W A9 B9', '[]', 0)",
            game_id)
    again = Manager(open_storage(storage_url), bot_delay=0.0)
    try:
        assert again.resume_all() == 0 and set(again.quarantined) == {game_id}
        assert again.storage.listing() == []
        with pytest.raises(ServerError) as refused:
            again.get(game_id)
        assert (refused.value.status, refused.value.code) == (410, "damaged_game")
    finally:
        again.close()
        again.storage.close()
    checked = tikal("db", "check", "--db", storage_url)
    assert checked.returncode == 1 and f"{game_id} (game): NotationError" in checked.stdout
    execute(storage_url, "DELETE FROM log WHERE seq = 1")
    mended = Manager(open_storage(storage_url), bot_delay=0.0)
    try:
        assert mended.resume_all() == 1 and mended.quarantined == {}
        assert [g["id"] for g in mended.storage.listing()] == [game_id]
        assert [g["status"] for g in mended.storage.listing()] == ["playing"]
    finally:
        mended.close()
        mended.storage.close()


# ------------------------------------------------------------------ damaged files at start


@pytest.fixture(scope="module")
def good_file(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a database with 20 games of 10 moves each."""
    db = tmp_path_factory.mktemp("good") / "games.sqlite3"
    manager = Manager(SqliteStorage(db), bot_delay=0.0)
    for seed in range(20):
        session, links = manager.create("standard", HUMANS, seed=seed)
        tokens = [s["token"] for s in links["seats"]]
        for _ in range(10):
            action = str(session.game.legal_actions()[0])
            manager.act_blocking(session.game_id, tokens[session.game.current], action,
                                 session.state)
    manager.close()
    manager.storage.close()
    return db.read_bytes()


def foreign_file(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.close()


def newer_file(path: Path) -> None:
    SqliteStorage(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    conn.close()


@pytest.mark.parametrize(("damage", "said"), [
    ("half", "is damaged (database disk image is malformed)"),
    ("100 bytes", "is damaged (database disk image is malformed)"),
    ("garbage", "is damaged (file is not a database)"),
    ("foreign", "is not a tikal database (tables invoices)"),
    ("newer", "was written by a newer tikal (schema 99, this version knows up to"),
])
def test_a_damaged_or_foreign_file_stops_start_up_with_one_line_and_status_2(
    tmp_path: Path, good_file: bytes, damage: str, said: str,
) -> None:
    db = tmp_path / "games.sqlite3"
    if damage == "half":
        db.write_bytes(good_file[: len(good_file) // 2])
    elif damage == "100 bytes":
        db.write_bytes(good_file[:100])
    elif damage == "garbage":
        db.write_bytes(os.urandom(len(good_file)))
    elif damage == "foreign":
        foreign_file(db)
    else:
        newer_file(db)
    before = db.read_bytes()
    started = tikal("serve", "--db", str(db), "--port", "1", timeout=60)
    assert started.returncode == 2
    lines = [line for line in started.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in started.stderr, started.stderr
    assert lines[0].startswith(f"error: {db.resolve()} {said}")
    assert "restore a backup" in lines[0].lower()
    assert db.read_bytes() == before  # nothing written into it


def test_db_check_describes_a_truncated_file_without_a_traceback(
    tmp_path: Path, good_file: bytes,
) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(good_file[: len(good_file) // 2])
    checked = tikal("db", "check", "--db", str(db))
    assert checked.returncode == 2 and "Traceback" not in checked.stderr + checked.stdout
    assert "is damaged (database disk image is malformed)" in checked.stderr


def test_db_check_on_a_whole_file_replays_every_game(tmp_path: Path, good_file: bytes) -> None:
    db = tmp_path / "games.sqlite3"
    db.write_bytes(good_file)
    checked = tikal("db", "check", "--db", str(db))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "integrity check finds nothing wrong" in checked.stdout
    assert "20 games and 0 uploads replayed: all of them replay" in checked.stdout


# ------------------------------------------------------------------ backups


def test_db_backup_copies_the_file_while_the_server_plays_on(tmp_path: Path) -> None:
    db, copy = tmp_path / "games.sqlite3", tmp_path / "copy.sqlite3"
    server = ServerProcess(db).start()
    try:
        game = create(server.url).json()
        for _ in range(3):
            assert move(server.url, game).status_code == 200
        made = tikal("db", "backup", str(copy), "--db", str(db))
        assert made.returncode == 0, made.stderr
        assert f"{copy}: a copy of {db.resolve()}" in made.stdout
        assert move(server.url, game).status_code == 200  # the server went on
        again = tikal("db", "backup", str(copy), "--db", str(db))
        assert again.returncode == 1 and "exists already" in again.stderr
    finally:
        server.stop()
    copied = SqliteStorage(copy).load(game["id"])
    assert copied is not None and [e.seq for e in copied[1]] == [0, 1, 2, 3]
    assert tikal("db", "check", "--db", str(copy)).returncode == 0
    refused = tikal("db", "backup", str(tmp_path / "pg.sql"), "--db", "postgresql://x@h/db")
    assert refused.returncode == 1 and "pg_dump" in refused.stderr


# ------------------------------------------------------------------ PostgreSQL


def on_admin(sql: str) -> None:
    """Run ``sql`` on the test server's own database (not the one under test)."""
    with psycopg.connect(base_url(), autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


def cut_connections(url: str) -> int:
    name = url.rpartition("/")[2]
    with psycopg.connect(base_url(), autocommit=True) as conn:
        rows = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                            "WHERE datname = %s AND pid <> pg_backend_pid()", (name,)).fetchall()
    return len(rows)


@pytest.fixture
def pg_client() -> Iterator[tuple[TestClient, str]]:
    for url in fresh_database():
        with TestClient(create_app(url, bot_delay=0.0)) as client:
            yield client, url


def test_postgres_dropped_connections_are_opened_again_and_nothing_is_lost(
    pg_client: tuple[TestClient, str],
) -> None:
    client, url = pg_client
    game = create(client).json()
    assert move(client, game).status_code == 200
    assert cut_connections(url) >= 1  # the storage's pooled connections and the listener
    assert move(client, game).status_code == 200
    assert create(client, seed=9).status_code == 201
    assert state_of(client, game["id"]) == 2


def test_postgres_read_only_answers_503_and_writes_again_once_writable(
    pg_client: tuple[TestClient, str],
) -> None:
    client, url = pg_client
    name = url.rpartition("/")[2]
    game = create(client).json()
    record = blunder_record(seed=6)
    listed = get(client, "/api/games").json()
    on_admin(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    cut_connections(url)  # the setting applies to new sessions
    try:
        assert refused_for(move(client, game), "read_only")
        assert refused_for(create(client, seed=9), "read_only")
        assert refused_for(post(client, "/api/replays", record), "read_only")
        assert state_of(client, game["id"]) == 0  # reads still work
        assert get(client, "/api/games").json() == listed
    finally:
        on_admin(f"ALTER DATABASE {name} RESET default_transaction_read_only")
    # no restart, no cut: the pool's read-only sessions are replaced on the first fault
    assert move(client, game).status_code == 200
    assert create(client, seed=9).status_code == 201
    assert post(client, "/api/replays", record).status_code == 201
    assert state_of(client, game["id"]) == 1


# ------------------------------------------------------------------ each cause


@pytest.mark.slow  # the write waits out SQLite's 5 s busy timeout
def test_a_locked_database_answers_503_busy_and_the_next_create_succeeds(
    tmp_path: Path,
) -> None:
    """Another program holds the SQLite file's write lock (a backup tool, a second server
    by mistake): a create waits SQLite's busy timeout, then is refused 503 ``busy`` with
    ``Retry-After`` and stores nothing; once the lock is gone the next one succeeds."""
    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(path, bot_delay=0.0)) as client:
        assert create(client).status_code == 201
        listed = get(client, "/api/games").json()
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            assert refused_for(create(client, seed=6), "busy")
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert get(client, "/api/games").json() == listed
        assert create(client, seed=6).status_code == 201


def driver_error(path: Path, statement: str, **connect: Any) -> sqlite3.Error:
    """The error SQLite itself raises for ``statement`` on ``path``."""
    try:
        db = sqlite3.connect(path, isolation_level=None, **connect)
        db.execute(statement)
        db.close()
    except sqlite3.Error as exc:
        return exc
    raise AssertionError(f"{statement} worked on {path}")


def test_real_sqlite_errors_are_told_apart_by_their_cause(tmp_path: Path) -> None:
    """The causes of issue 34 from the errors SQLite really raises: a lock held elsewhere
    (busy), a file opened read-only (read_only), a file whose pages were overwritten
    (damaged), a file that is no database (damaged), a path that cannot be opened
    (unreachable). A plain bug (a bad statement) is no storage fault."""
    from tikal.server.store.faults import sqlite_fault

    good = tmp_path / "good.sqlite3"
    SqliteStorage(good).close()
    holder = sqlite3.connect(good, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    busy = driver_error(good, "INSERT INTO meta VALUES ('x', 'y')", timeout=0)
    holder.execute("ROLLBACK")
    holder.close()
    read_only = _read_only_error(good)
    damaged = tmp_path / "damaged.sqlite3"
    data = bytearray(good.read_bytes())
    data[100:len(data) - 100] = b"\xa5" * (len(data) - 200)  # the header kept, pages gone
    damaged.write_bytes(bytes(data))
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all, just words " * 200)
    folder = tmp_path / "a-folder.sqlite3"
    folder.mkdir()
    found = {
        "busy": busy,
        "read_only": read_only,
        "damaged": driver_error(damaged, "SELECT * FROM games"),
        "not a database": driver_error(garbage, "SELECT * FROM games"),
        "unreachable": driver_error(folder, "SELECT 1"),
        "a bug": driver_error(good, "SELECT * FROM no_such_table"),
    }
    causes = {name: getattr(sqlite_fault(exc, "x"), "cause", None) for name, exc in found.items()}
    assert causes == {"busy": "busy", "read_only": "read_only", "damaged": "damaged",
                      "not a database": "damaged", "unreachable": "unreachable", "a bug": None}


def _read_only_error(path: Path) -> sqlite3.Error:
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        db.execute("INSERT INTO meta VALUES ('x', 'y')")
    except sqlite3.Error as exc:
        return exc
    raise AssertionError("a read-only connection wrote")


def test_an_unreachable_postgresql_is_a_503_unreachable_not_a_traceback() -> None:
    """Nothing listens where the URL points (the database server is down or the URL is
    wrong): after its retries the storage says so as the fault ``unreachable``, the
    message every client gets (503 with ``Retry-After``), naming no password."""
    from tikal.server.store.faults import StorageUnavailable
    from tikal.server.store.postgres import PostgresStorage
    from web_helpers import free_port

    url = f"postgresql://tikal:secret@127.0.0.1:{free_port()}/tikal"
    with pytest.raises(StorageUnavailable) as refused:
        PostgresStorage(url, retry_for=0.3)
    fault = refused.value
    assert fault.cause == "unreachable" and fault.status == 503 and fault.retry_after == 5
    assert fault.to_json()["code"] == "unavailable" and "secret" not in fault.where
