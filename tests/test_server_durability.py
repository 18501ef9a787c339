"""Durability: the real server process is killed with SIGKILL mid-game and restarted;
every game is found exactly as it was (public views, records, hidden parts)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import websockets.sync.client as ws_client

from tikal import Game
from tikal.server.session import rebuild
from tikal.server.store import SqliteStorage
from web_helpers import ServerProcess, children, command_line, running, wait_until
from wire_oracles import readable


def _state(base: str, gid: str, token: str | None) -> dict[str, Any]:
    headers = {"X-Tikal-Token": token} if token else {}
    r = httpx.get(f"{base}/api/games/{gid}", headers=headers, timeout=10)
    r.raise_for_status()
    data: dict[str, Any] = readable(r.json())
    data.pop("bot_thinking", None)
    return data


def test_sigkill_and_restart_resumes_every_game_exactly(tmp_path: Path) -> None:
    db = tmp_path / "durable.sqlite3"
    server = ServerProcess(db).start()
    rng = random.Random(1)
    try:
        base = server.url
        body = {"rules": "standard", "seed": 77,
                "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]}
        game = httpx.post(f"{base}/api/games", json=body, timeout=10).json()
        gid = game["id"]
        tokens = [s["token"] for s in game["seats"]]
        demo = httpx.post(f"{base}/api/games", timeout=10, json={
            "rules": "demo", "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
        played: list[tuple[str, str]] = []  # (kind, action) as sent
        state = 0
        # play over the WebSocket: every move is acknowledged only after it is stored
        with ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{gid}") as ws0, \
                ws_client.connect(f"ws://127.0.0.1:{server.port}/ws/{gid}") as ws1:
            sockets = [ws0, ws1]
            msgs: list[dict[str, Any]] = []
            for ws, token in zip(sockets, tokens, strict=True):
                ws.send(json.dumps({"type": "hello", "token": token}))
                msgs.append(json.loads(ws.recv(timeout=10)))
            for _ in range(40):
                seat = msgs[0]["current"]
                msg = _state(base, gid, tokens[seat])
                legal = [e["action"] for v in msg["legal"].values() for e in v]
                if msg["can_undo"] and rng.random() < 0.15:
                    sockets[seat].send(json.dumps({"type": "undo", "state": state}))
                    played.append(("undo", ""))
                else:
                    non_end = [a for a in legal if a != "end"]
                    action = rng.choice(non_end if non_end and rng.random() < 0.85 else legal)
                    sockets[seat].send(json.dumps({"type": "action", "action": action,
                                                   "state": state}))
                    played.append(("action", action))
                while True:
                    reply = json.loads(sockets[seat].recv(timeout=10))
                    if reply["type"] == "ack":
                        break
                    assert reply["type"] in ("state", "delta"), reply
                state += 1
                msgs[0] = _state(base, gid, None)
        before = {t: _state(base, gid, t) for t in [*tokens, None]}
        before_demo = _state(base, demo["id"], demo["seats"][0]["token"])
        record = httpx.get(f"{base}/api/games/{gid}/record", timeout=10).json()
        assert before[None]["state"] == 40 and any(k == "undo" for k, _ in played)

        server.kill()  # no clean shutdown
        server.start()

        after = {t: _state(base, gid, t) for t in [*tokens, None]}
        assert after == before
        assert _state(base, demo["id"], demo["seats"][0]["token"]) == before_demo
        assert httpx.get(f"{base}/api/games/{gid}/record", timeout=10).json() == record
        # play on from where it stopped
        seat = after[None]["current"]
        resumed = next(e["action"] for v in after[tokens[seat]]["legal"].values() for e in v)
        r = httpx.post(f"{base}/api/games/{gid}/actions", timeout=10,
                       headers={"X-Tikal-Token": tokens[seat]},
                       json={"action": resumed, "state": 40})
        assert r.status_code == 200 and r.json()["state"] == 41
    finally:
        server.stop()

    # the hidden parts too: replaying what was sent on a fresh game gives the same game
    expected = Game.new("standard", 2, seed=77)
    for kind, action in played:
        if kind == "undo":
            expected.undo()
        else:
            expected.apply(action)
    expected.apply(resumed)  # the move after the restart
    loaded = SqliteStorage(db).load(gid)
    assert loaded is not None
    assert rebuild(*loaded).to_json() == expected.to_json()


def test_a_server_killed_with_sigkill_leaves_no_process_behind(tmp_path: Path) -> None:
    """No shutdown code runs on SIGKILL, yet the bots' worker processes (started a second
    after start-up) and everything else the server started must end with it: before the
    workers watched their parent, each killed server left its workers waiting forever."""
    server = ServerProcess(tmp_path / "killed.sqlite3").start()
    try:
        assert server.proc is not None
        pid = server.proc.pid

        def workers() -> set[int]:
            return {c for c in children(pid) if "spawn_main" in command_line(c)}

        assert wait_until(workers, timeout=20), "the bot pool's workers never started"
        time.sleep(1.0)  # every worker of the pool has started by now (warm-up is 0.3 s)
        started = children(pid)
        assert workers() <= started
        server.kill()
        all_ended = wait_until(lambda: not any(running(c) for c in started), timeout=15)
        assert all_ended, [(c, command_line(c)) for c in started if running(c)]
    finally:
        server.stop()
