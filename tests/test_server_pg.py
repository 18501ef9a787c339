"""Several ``tikal serve`` processes on one real PostgreSQL server.

Each test starts real server processes on 127.0.0.1 sharing a fresh database: a move made
through one reaches WebSocket clients of the other; two processes taking the same state at
once accept exactly one move; ``kill -9`` of one process under load loses no acknowledged
move and the other keeps serving every game; a restart of PostgreSQL during play is
survived.  Each game is mirrored locally (same seed) to pick legal moves.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import websockets.sync.client as ws_client

from pg_helpers import (
    PgServerProcess,
    new_game,
    require_restartable_postgres,
    restart_postgres,
    wait_for,
)
from tikal import Game
from tikal.server.session import rebuild
from tikal.server.store.postgres import PostgresStorage

#: A bound for a broken server, not a timing assertion.
PATIENCE = 60.0


class Table:
    """One two-player game played through the HTTP API, mirrored locally (same seed)."""

    def __init__(self, base: str, seed: int) -> None:
        data = new_game(base, seed)
        self.gid: str = data["id"]
        self.tokens = [s["token"] for s in data["seats"]]
        self.seed = seed
        self.game = Game.new("standard", 2, seed=seed)
        self.state = 0
        self.acknowledged: dict[int, str] = {}  # state counter -> action, as acknowledged

    def pick(self, rng: random.Random) -> str:
        legal = [str(a) for a in self.game.legal_actions()]
        others = [a for a in legal if a != "end"]
        return rng.choice(others if others and rng.random() < 0.85 else legal)

    def send(self, base: str, action: str, state: int | None = None) -> httpx.Response:
        return httpx.post(
            f"{base}/api/games/{self.gid}/actions", timeout=PATIENCE,
            headers={"X-Tikal-Token": self.tokens[self.game.current]},
            json={"action": action, "state": self.state if state is None else state},
        )

    def play(self, base: str, rng: random.Random) -> httpx.Response:
        """One move through ``base``; mirrored if the server acknowledged it."""
        action = self.pick(rng)
        reply = self.send(base, action)
        if reply.status_code == 200:
            self.accepted(action, reply.json()["state"])
        return reply

    def accepted(self, action: str, state: int) -> None:
        self.game.apply(action)
        self.state = state
        self.acknowledged[state] = action

    def resync(self, storage: PostgresStorage) -> None:
        """After a move whose answer was lost: the game as stored."""
        loaded = storage.load(self.gid)
        assert loaded is not None
        self.game = rebuild(*loaded)
        self.state = loaded[1][-1].seq


@contextmanager
def listen(port: int, gid: str, token: str | None) -> Iterator[Any]:
    """A WebSocket client of ``gid`` on the server at ``port``, past its first state."""
    with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{gid}", open_timeout=PATIENCE) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        first = json.loads(ws.recv(timeout=PATIENCE))
        assert first["type"] == "state", first
        yield ws


def wait_for_state(ws: Any, state: int) -> dict[str, Any]:
    """The first message from ``ws`` that reports the state counter ``state`` or later."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=PATIENCE))
        if isinstance(message.get("state"), int) and message["state"] >= state:
            return message


def stored_actions(storage: PostgresStorage, gid: str) -> dict[int, str]:
    loaded = storage.load(gid)
    assert loaded is not None
    return {e.seq: e.action for e in loaded[1] if e.kind == "action" and e.action is not None}


def test_a_move_through_one_process_reaches_clients_of_the_other(
    servers: list[PgServerProcess],
) -> None:
    a, b = servers
    table = Table(a.url, seed=11)
    rng = random.Random(11)
    with listen(a.port, table.gid, table.tokens[0]) as on_a, \
            listen(b.port, table.gid, None) as on_b:
        for n in range(1, 9):
            through = (a, b)[n % 2]
            assert table.play(through.url, rng).status_code == 200
            for ws in (on_a, on_b):
                assert wait_for_state(ws, n)["state"] == n
    for server in servers:  # both serve the same game
        seen = httpx.get(f"{server.url}/api/games/{table.gid}", timeout=PATIENCE).json()
        assert seen["state"] == 8


def race(table: Table, urls: list[str], action: str) -> list[httpx.Response]:
    """The same move for the same state sent through each of ``urls`` at once."""
    barrier = threading.Barrier(len(urls))
    replies: dict[int, httpx.Response] = {}

    def send(i: int) -> None:
        barrier.wait()
        replies[i] = table.send(urls[i], action)

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(urls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [replies[i] for i in range(len(urls))]


def test_the_same_state_played_through_two_processes_at_once_is_accepted_once(
    servers: list[PgServerProcess], pg_url: str,
) -> None:
    table = Table(servers[0].url, seed=21)
    rng = random.Random(21)
    for _ in range(12):
        action = table.pick(rng)
        replies = race(table, [s.url for s in servers], action)
        assert sorted(r.status_code for r in replies) == [200, 409], [r.json() for r in replies]
        loser = next(r for r in replies if r.status_code == 409).json()
        assert loser["code"] == "stale" and loser["state"] == table.state + 1
        table.accepted(action, table.state + 1)
    storage = PostgresStorage(pg_url)
    try:
        assert stored_actions(storage, table.gid) == table.acknowledged
    finally:
        storage.close()
    for server in servers:  # the loser's process is up to date as well
        seen = httpx.get(f"{server.url}/api/games/{table.gid}", timeout=PATIENCE).json()
        assert seen["state"] == 12


def _drive(table: Table, urls: list[str], storage: PostgresStorage, seed: int,
           stop: threading.Event, errors: list[str]) -> None:
    """Play ``table`` through the servers in ``urls`` (round robin) until ``stop``; a
    server that is gone is skipped and the move's fate read from storage."""
    rng = random.Random(seed)
    turn = 0
    try:
        while not stop.is_set() and not table.game.is_over:
            base = urls[turn % len(urls)]
            turn += 1
            try:
                reply = table.play(base, rng)
            except httpx.HTTPError:
                table.resync(storage)
                continue
            if reply.status_code == 409:
                table.resync(storage)
            elif reply.status_code == 429:  # rate limits are not under test here
                stop.wait(float(reply.headers.get("Retry-After", "1")))
            elif reply.status_code != 200:
                errors.append(f"{table.gid}: {reply.status_code} {reply.text[:300]}")
                return
    except Exception as exc:  # reported by the test, not lost in a thread
        errors.append(f"{table.gid}: {exc!r}")


def test_kill_9_of_one_process_under_load_loses_no_acknowledged_move(
    servers: list[PgServerProcess], pg_url: str,
) -> None:
    a, b = servers
    storage = PostgresStorage(pg_url)
    tables = [Table((a, b)[i % 2].url, seed=100 + i) for i in range(6)]
    stop = threading.Event()
    errors: list[str] = []
    drivers = [
        threading.Thread(target=_drive, args=(t, [a.url, b.url], storage, i, stop, errors))
        for i, t in enumerate(tables)
    ]
    try:
        for d in drivers:
            d.start()
        wait_for(lambda: sum(t.state for t in tables) >= 60, PATIENCE, "no load reached")
        a.kill()
        at_kill = [t.state for t in tables]
        # b keeps serving every game: each one moves on by several moves after the kill
        wait_for(lambda: errors or all(t.state >= s + 5 or t.game.is_over
                                       for t, s in zip(tables, at_kill, strict=True)),
                 PATIENCE, f"the surviving process did not keep every game going "
                 f"(states at the kill: {at_kill})")
    finally:
        stop.set()
        for d in drivers:
            d.join(timeout=PATIENCE)
    try:
        assert errors == []
        for table in tables:
            stored = stored_actions(storage, table.gid)
            lost = {s: m for s, m in table.acknowledged.items() if stored.get(s) != m}
            assert lost == {}, f"acknowledged but not stored in {table.gid}: {lost}"
            seen = httpx.get(f"{b.url}/api/games/{table.gid}", timeout=PATIENCE).json()
            assert seen["state"] == table.state == max(stored), (table.gid, seen["state"],
                                                                 table.state, max(stored))
    finally:
        storage.close()


def test_play_continues_across_a_postgresql_restart(servers: list[PgServerProcess]) -> None:
    require_restartable_postgres()
    a, b = servers
    table = Table(a.url, seed=31)
    rng = random.Random(31)
    for _ in range(4):
        assert table.play(a.url, rng).status_code == 200
    with listen(b.port, table.gid, None) as on_b:
        restart_postgres()
        # the first moves may wait for the reconnection; none is refused or lost
        for n in range(5, 11):
            through = (a, b)[n % 2]
            reply = table.play(through.url, rng)
            assert reply.status_code == 200, reply.text
            assert wait_for_state(on_b, n)["state"] == n
        # notices flow again: a move through a reaches b's client
        assert table.play(a.url, rng).status_code == 200
        assert wait_for_state(on_b, 11)["state"] == 11


def test_a_bot_game_goes_on_with_both_processes_holding_it(
    servers: list[PgServerProcess], pg_url: str,
) -> None:
    """Both processes have the game in memory, so both may find the bot's turn: the bot
    still plays each of its actions once, and the human's moves through either process go
    through."""
    a, b = servers
    body = {"rules": "standard", "seed": 41,
            "seats": [{"kind": "human", "name": "H"}, {"kind": "bot", "level": "random"}]}
    created = httpx.post(f"{a.url}/api/games", json=body, timeout=PATIENCE)
    created.raise_for_status()
    gid, token = created.json()["id"], created.json()["seats"][0]["token"]
    storage = PostgresStorage(pg_url)
    rng = random.Random(41)
    try:
        with listen(b.port, gid, token):  # b holds the game too
            for turn in range(6):
                game, state = wait_for(lambda: _human_to_move(storage, gid), PATIENCE,
                                       "the bot did not finish its turn")
                if game.is_over:
                    break
                through = (a, b)[turn % 2]
                for action in _a_turn(game, rng):
                    reply = httpx.post(f"{through.url}/api/games/{gid}/actions",
                                       headers={"X-Tikal-Token": token}, timeout=PATIENCE,
                                       json={"action": action, "state": state})
                    assert reply.status_code == 200, reply.text
                    state = reply.json()["state"]
        loaded = storage.load(gid)
        assert loaded is not None
        rebuild(*loaded)  # the stored log is one consistent game
        assert any(e.seat == 1 for e in loaded[1])  # the bot played
        last = loaded[1][-1].seq
        for server in servers:  # and both processes show it
            wait_for(lambda s=server: _state_of(s, gid) >= last, PATIENCE, "out of step")
    finally:
        storage.close()


def _human_to_move(storage: PostgresStorage, gid: str) -> tuple[Game, int] | None:
    loaded = storage.load(gid)
    assert loaded is not None
    game = rebuild(*loaded)
    return (game, loaded[1][-1].seq) if game.is_over or game.current == 0 else None


def _a_turn(game: Game, rng: random.Random) -> list[str]:
    """A few actions, then ``end``, picked on a copy of ``game``."""
    copy = game.clone()
    actions: list[str] = []
    while copy.current == 0 and not copy.is_over and len(actions) < 3:
        legal = [str(a) for a in copy.legal_actions()]
        others = [a for a in legal if a != "end" and not a.startswith("*")]
        if not others:
            break
        actions.append(rng.choice(others))
        copy.apply(actions[-1])
    if copy.current == 0 and not copy.is_over and "end" in [str(a) for a in copy.legal_actions()]:
        actions.append("end")
    return actions


def _state_of(server: PgServerProcess, gid: str) -> int:
    state: int = httpx.get(f"{server.url}/api/games/{gid}", timeout=PATIENCE).json()["state"]
    return state


def test_a_chat_line_said_through_one_process_reaches_clients_of_the_other(
    servers: list[PgServerProcess],
) -> None:
    """Chat (issue 29) crosses processes as moves do: NOTIFY tikal_chat, then the lines
    the other process has not sent yet."""
    a, b = servers
    table = Table(a.url, seed=12)
    with listen(b.port, table.gid, table.tokens[1]) as on_b:
        said = httpx.post(f"{a.url}/api/games/{table.gid}/chat", timeout=PATIENCE,
                          json={"token": table.tokens[0], "text": "hello from A"})
        assert said.status_code == 201, said.text
        while True:
            message = json.loads(on_b.recv(timeout=PATIENCE))
            if message["type"] == "chat":
                break
        assert (message["line"]["seq"], message["line"]["text"]) == (1, "hello from A")
        on_b.send(json.dumps({"type": "chat", "phrase": "thanks"}))  # and back through B
        while json.loads(on_b.recv(timeout=PATIENCE))["type"] != "chat":
            pass  # B's own line, sent back to it once stored
    lines = httpx.get(f"{a.url}/api/games/{table.gid}/chat", timeout=PATIENCE).json()["lines"]
    assert [(x["seat"], x["text"] or x["phrase"]) for x in lines] == [
        (0, "hello from A"), (1, "thanks")]


def test_a_seat_whose_time_ran_out_is_handed_to_a_bot_once_by_two_processes(
    servers: list[PgServerProcess], pg_url: str,
) -> None:
    """Both processes watch the game's clocks (each holds it in memory: a client on
    each); the hand-over is one log entry, stored by whichever came first."""
    a, b = servers
    created = httpx.post(f"{a.url}/api/games", timeout=PATIENCE, json={
        "rules": "demo", "seats": [{"kind": "human"}, {"kind": "human"}],
        "clock": {"kind": "realtime", "bank": 1, "increment": 0, "standin": "random"}})
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    with listen(a.port, gid, None), listen(b.port, gid, None):
        def handed_over() -> bool:
            state = httpx.get(f"{b.url}/api/games/{gid}", timeout=PATIENCE).json()
            return bool(state["standins"][0]) and state["current"] == 1
        wait_for(handed_over, PATIENCE, "seat 0 handed to its bot and played")
    storage = PostgresStorage(pg_url)
    try:
        loaded = storage.load(gid)
        assert loaded is not None
        standins = [e for e in loaded[1] if e.kind == "standin"]
        assert [(e.seat, e.action) for e in standins][:1] == [(0, "random")]
        assert len([e for e in standins if e.seat == 0]) == 1
    finally:
        storage.close()
