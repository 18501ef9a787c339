"""The storage package: one schema for both databases, numbered migrations applied at
start (a database of the schema the server wrote before them opens, and its games load
and play on), newer and foreign databases refused, rows read by name."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from pg_helpers import database_of_kind
from tikal.server import create_app
from tikal.server.manager import Manager
from tikal.server.store import (
    GameRecord,
    LogEntry,
    SeatRecord,
    StorageUnavailable,
    UploadCap,
    open_storage,
)
from tikal.server.store.bench import build
from tikal.server.store.rows import upload_digest
from tikal.server.store.schema import LATEST, MIGRATIONS

# The schema as the server wrote it before the storage package (schema number 1): what
# databases in use today hold.  SQLite created the analyses tables on first use.
OLD_SQLITE = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL DEFAULT 'game', rules TEXT NOT NULL,
    players INTEGER NOT NULL, options TEXT NOT NULL, seed INTEGER NOT NULL,
    seeded INTEGER NOT NULL DEFAULT 0, seats TEXT NOT NULL, tokens TEXT NOT NULL,
    record TEXT, status TEXT NOT NULL DEFAULT 'playing', created REAL NOT NULL,
    updated REAL NOT NULL);
CREATE TABLE log (
    game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
    seat INTEGER NOT NULL, action TEXT, chance TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (game_id, seq));
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema', '1');
CREATE TABLE analyses (
    game_id TEXT PRIMARY KEY REFERENCES games(id), analysis TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL);
CREATE TABLE analysis_claims (
    game_id TEXT PRIMARY KEY, owner TEXT NOT NULL, done INTEGER NOT NULL,
    total INTEGER NOT NULL, until DOUBLE PRECISION NOT NULL)
"""
OLD_POSTGRES = """
CREATE TABLE games (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL DEFAULT 'game', rules TEXT NOT NULL,
    players INTEGER NOT NULL, options TEXT NOT NULL, seed BIGINT NOT NULL,
    seeded BOOLEAN NOT NULL DEFAULT FALSE, seats TEXT NOT NULL, tokens TEXT NOT NULL,
    record TEXT, status TEXT NOT NULL DEFAULT 'playing', created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL, state INTEGER NOT NULL DEFAULT -1);
CREATE TABLE log (
    game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
    seat INTEGER NOT NULL, action TEXT, chance TEXT NOT NULL, at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq));
CREATE INDEX games_updated ON games (updated);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO meta VALUES ('schema', '1')
"""
OLD_GAME = ("INSERT INTO games (id, kind, rules, players, options, seed, seeded, seats, tokens, "
            "record, status, created, updated) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)")
OLD_ENTRY = "INSERT INTO log (game_id, seq, kind, seat, action, chance, at) VALUES (?,?,?,?,?,?,?)"


class OldDatabase:
    """A database of the old schema, written with plain SQL (no code of the package)."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.postgres = where.startswith("postgresql://")

    def run(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        if self.postgres:
            with psycopg.connect(self.where, autocommit=True) as conn, conn.transaction():
                for sql, params in statements:
                    conn.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
        else:
            with sqlite3.connect(self.where) as conn:
                for sql, params in statements:
                    conn.execute(sql, params)
            conn.close()

    def create(self) -> None:
        ddl = OLD_POSTGRES if self.postgres else OLD_SQLITE
        self.run([(s, ()) for s in ddl.split(";")])

    def add_game(self, game: GameRecord, log: list[LogEntry], status: str = "playing") -> None:
        statements: list[tuple[str, tuple[Any, ...]]] = [(OLD_GAME, (
            game.game_id, game.kind, game.rules, game.players, json.dumps(game.options),
            game.seed, game.seeded, json.dumps([s.to_json() for s in game.seats]),
            json.dumps({t: list(s) for t, s in game.tokens.items()}),
            json.dumps(game.record) if game.record else None, status, game.created,
            log[-1].at if log else game.created))]
        statements += [(OLD_ENTRY, (game.game_id, e.seq, e.kind, e.seat, e.action,
                                    json.dumps(list(e.chance)), e.at)) for e in log]
        if self.postgres and log:
            statements.append(("UPDATE games SET state = ? WHERE id = ?",
                               (log[-1].seq, game.game_id)))
        self.run(statements)


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_of_kind(request.param, tmp_path)


def played_game(tmp_path: Path, moves: int) -> tuple[GameRecord, list[LogEntry], list[str]]:
    """A real game of ``moves`` actions (played by a manager on a scratch file): its
    record, log and the seats' tokens."""
    manager = Manager(open_storage(tmp_path / "scratch.sqlite3"), bot_delay=0.0)
    try:
        session, links = manager.create("standard", [{"kind": "human"}] * 2, seed=11)
        tokens = [seat["token"] for seat in links["seats"]]
        for _ in range(moves):
            action = str(session.game.legal_actions()[0])
            manager.act_blocking(session.game_id, tokens[session.game.current], action,
                                 session.state)
        return session.record, list(session.log), tokens
    finally:
        manager.close()
        manager.storage.close()


def test_a_database_of_the_old_schema_is_migrated_and_its_games_play_on(
    where: str, tmp_path: Path,
) -> None:
    record, log, tokens = played_game(tmp_path, 9)
    old = OldDatabase(where)
    old.create()
    old.add_game(record, log)
    upload = GameRecord("r-upload-1", "standard", 2, {}, 0,
                        (SeatRecord("human", "A"), SeatRecord("human", "B")), {},
                        kind="replay", record={"format": "tikal-record", "log": ["x"]})
    old.add_game(upload, [], status="replay")
    old.add_game(GameRecord("r-upload-2", "standard", 2, {}, 0, upload.seats, {},
                            created=upload.created + 1, kind="replay", record=upload.record),
                 [], status="replay")  # stored twice before uploads were deduplicated

    storage = open_storage(where)
    # the old file is schema 1: every migration since runs once, in order
    assert storage.migrated == list(range(2, LATEST + 1))  # type: ignore[attr-defined]
    manager = Manager(storage, bot_delay=0.0)
    try:
        session = manager.get(record.game_id)
        assert session.log == log and session.state == 9
        assert [g["moves"] for g in storage.listing()] == [10]  # the backfilled counter
        action = str(session.game.legal_actions()[0])
        manager.act_blocking(record.game_id, tokens[session.game.current], action, 9)
        expected = session.game.to_json()
        # the older of the two identical uploads keeps its id for the same content again
        stored = storage.store_upload(upload, digest_of(upload), UPLOAD_CAP)
        assert stored == ("r-upload-1", [])
    finally:
        manager.close()
        storage.close()
    again = open_storage(where)
    try:
        assert again.migrated == []  # type: ignore[attr-defined]
        loaded = again.load(record.game_id)
        assert loaded is not None and loaded[1][-1].action == action
        resumed = Manager(again, bot_delay=0.0)
        assert resumed.get(record.game_id).game.to_json() == expected
        resumed.close()
    finally:
        again.close()
    assert schema_number(where) == str(LATEST)


UPLOAD_CAP = UploadCap()


def digest_of(upload: GameRecord) -> str:
    assert upload.record is not None
    return upload_digest(upload.record, [s.name for s in upload.seats])


def schema_number(where: str) -> str:
    sql = "SELECT value FROM meta WHERE key = 'schema'"
    if where.startswith("postgresql://"):
        with psycopg.connect(where) as conn:
            row = conn.execute(sql).fetchone()
    else:
        with sqlite3.connect(where) as conn:
            row = conn.execute(sql).fetchone()
        conn.close()
    assert row is not None
    return str(row[0])


def test_a_fresh_database_gets_every_migration_and_the_same_columns(where: str) -> None:
    storage = open_storage(where)
    storage.close()
    assert storage.migrated == [m.number for m in MIGRATIONS]  # type: ignore[attr-defined]
    assert schema_number(where) == str(LATEST)


def test_a_database_of_a_newer_version_is_refused(where: str) -> None:
    open_storage(where).close()
    OldDatabase(where).run([("UPDATE meta SET value = ? WHERE key = 'schema'",
                             (str(LATEST + 1),))])
    with pytest.raises(StorageUnavailable) as refused:
        open_storage(where)
    assert refused.value.cause == "too_new"
    assert f"schema {LATEST + 1}, this version knows up to {LATEST}" in str(refused.value)
    assert schema_number(where) == str(LATEST + 1)  # left as it was


def test_a_database_of_something_else_is_refused_and_left_alone(where: str) -> None:
    OldDatabase(where).run([("CREATE TABLE invoices (id INTEGER PRIMARY KEY)", ())])
    with pytest.raises(StorageUnavailable) as refused:
        open_storage(where)
    assert refused.value.cause == "foreign" and "invoices" in str(refused.value)
    tables = {"invoices"}
    if not where.startswith("postgresql://"):
        with sqlite3.connect(where) as conn:
            found = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        conn.close()
        assert found == tables  # nothing of ours was added


# ------------------------------------------------------------------ start-up (issue 35)


def test_start_up_loads_the_games_in_play_and_finished_ones_only_when_asked_for(
    tmp_path: Path,
) -> None:
    """A database of 40 finished games and 3 in play (copies of real games): the server
    starts with the 3 in memory; a finished game loads when asked for, as it was."""
    path = tmp_path / "many.sqlite3"
    build(path, finished=40, playing=3)
    with TestClient(create_app(path, bot_delay=0.0)) as client:
        manager: Manager = client.app.state.manager  # type: ignore[attr-defined]
        assert manager.loads == 3 and len(manager.sessions) == 3
        listed = client.get("/api/games").json()
        assert len(listed) == 43 and {g["status"] for g in listed} == {"over", "playing"}
        finished = next(g["id"] for g in listed if g["status"] == "over")
        assert client.get(f"/api/games/{finished}").json()["phase"] == "over"
        assert manager.loads == 4


def test_a_finished_game_left_marked_in_play_is_mended_at_start(tmp_path: Path) -> None:
    """The status of a game's last move is stored after the move (a fault may keep it
    from being stored): the next start finds the game over and says so."""
    path = tmp_path / "mend.sqlite3"
    build(path, finished=2, playing=1)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET status = 'playing' WHERE id = 'b0000000000'")
    conn.close()
    manager = Manager(open_storage(path), bot_delay=0.0)
    try:
        assert manager.resume_all() == 2  # the one in play, and the one marked so
        assert {g["id"]: g["status"] for g in manager.storage.listing()}["b0000000000"] == \
            "over"
    finally:
        manager.close()
        manager.storage.close()
    again = Manager(open_storage(path), bot_delay=0.0)
    assert again.resume_all() == 1
    again.close()
    again.storage.close()


def test_the_start_up_benchmark_prints_its_figures(tmp_path: Path) -> None:
    """``tikal db bench`` builds its database and starts a real server on it (twice: a
    warm-up, then the measured starts, the median shown); figures are printed, not judged."""
    done = subprocess.run(
        [sys.executable, "-c", "from tikal.cli import main; main()", "db", "bench",
         "--finished", "3", "--playing", "1", "--starts", "3", "--folder", str(tmp_path)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.strip("│ ").startswith("3 "))
    seconds, imports, database, rss = (float(cell) for cell in row.strip("│ ").split("│")[1:5])
    assert seconds > 0 and rss > 10
    # the server's own marks split the time: both parts measured, within the whole
    assert 0 < imports < seconds and 0 < database < seconds and imports + database <= seconds
    assert (tmp_path / "bench-3.sqlite3").exists()
    assert "median of 3 starts" in done.stdout
