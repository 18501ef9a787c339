"""The web app's HTTP API and WebSocket against the real app and a temporary SQLite file."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tikal import Game
from tikal.server import create_app
from tikal.server.session import rebuild
from tikal.server.store import SqliteStorage, StorageUnavailable
from tikal.server.wire.client import apply_message
from wire_oracles import readable

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0.0)) as c:
        yield c


def create(client: TestClient, rules: str = "standard", seats: list[dict[str, Any]] | None = None,
           **extra: Any) -> dict[str, Any]:
    body = {"rules": rules, "seats": seats or [{"kind": "human"}, {"kind": "human"}], **extra}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def tok(game: dict[str, Any], seat: int) -> dict[str, str]:
    return {"X-Tikal-Token": game["seats"][seat]["token"]}


def get(client: TestClient, game: dict[str, Any], seat: int | None) -> dict[str, Any]:
    headers = tok(game, seat) if seat is not None else {}
    r = client.get(f"/api/games/{game['id']}", headers=headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = readable(r.json())
    return data


def post(client: TestClient, game: dict[str, Any], seat: int | None, action: str,
         state: int) -> Any:
    headers = tok(game, seat) if seat is not None else {}
    return client.post(f"/api/games/{game['id']}/actions", headers=headers,
                       params={"reply": "state"}, json={"action": action, "state": state})


def first(msg: dict[str, Any], verb: str) -> str:
    action: str = readable(msg)["legal"][verb][0]["action"]
    return action


# ------------------------------------------------------------------ basics


def test_meta_lists_rule_sets_and_bots(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert set(meta["rulesets"]) == {"standard", "auction", "demo"}
    assert meta["rulesets"]["demo"]["players"] == [2]
    assert "random" in meta["bots"] and meta["hint_bot"] in meta["bots"]


def test_openapi_documents_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions",
                 "/api/games/{game_id}/undo", "/api/games/{game_id}/hint",
                 "/api/games/{game_id}/record", "/api/replays"):
        assert path in paths


def test_pages_are_served(client: TestClient) -> None:
    game = create(client)
    for path in ("/", f"/play/{game['id']}", f"/replay/{game['id']}", "/static/game/main.js",
                 "/static/app.css"):
        assert client.get(path).status_code == 200, path
    rules = client.get("/rules").text
    for rule in ("MOVE-2", "TILE-3", "HIDDEN-1", "AUC-3", "DEMO-3"):
        assert f'id="{rule}"' in rules
    texts = client.get("/api/rules").json()
    assert "stone" in texts["MOVE-2"]


def test_create_gives_each_human_seat_its_own_secret_token(client: TestClient) -> None:
    game = create(client, seats=[{"kind": "human", "name": "Ann"}, {"kind": "human"},
                                 {"kind": "bot", "level": "random"}])
    tokens = [s["token"] for s in game["seats"]]
    assert tokens[0] and tokens[1] and tokens[0] != tokens[1] and tokens[2] is None
    assert all(len(t) >= 20 for t in tokens[:2])
    assert game["seats"][0]["url"].endswith(f"/play/{game['id']}#t={tokens[0]}")
    listing = client.get("/api/games").json()
    assert listing[0]["id"] == game["id"]
    assert "token" not in json.dumps(listing)


@pytest.mark.parametrize(
    "body",
    [
        {"rules": "chess", "seats": [{}, {}]},
        {"rules": "demo", "seats": [{}, {}, {}]},
        {"rules": "standard", "seats": [{}]},
        {"rules": "standard", "seats": [{"kind": "alien"}, {}]},
        {"rules": "standard", "seats": [{"kind": "bot", "level": "godlike"}, {}]},
        {"rules": "standard", "seats": [{}, {}], "options": {"nope": True}},
    ],
)
def test_bad_create_requests_are_refused_clearly(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code in (400, 422)
    assert r.json()["type"] == "error" and r.json()["message"]


# ------------------------------------------------------------------ playing over HTTP


def test_a_legal_action_is_stored_and_advances_the_state_counter(
    client: TestClient, db: Path
) -> None:
    game = create(client, seed=5)
    msg = get(client, game, 0)
    assert msg["state"] == 0 and msg["your_turn"] and msg["phase"] == "tile"
    action = first(msg, "tile")
    r = post(client, game, 0, action, 0)
    assert r.status_code == 200
    after = r.json()
    assert after["state"] == 1 and after["phase"] == "turn" and after["ap"] == 10
    stored = SqliteStorage(db).load(game["id"])
    assert stored is not None
    assert [e.action for e in stored[1]] == [None, action]


def test_illegal_action_explains_the_rule_and_changes_nothing(client: TestClient) -> None:
    game = create(client, seed=5)
    r = post(client, game, 0, first(get(client, game, 0), "tile"), 0)
    before = get(client, game, 0)
    r = post(client, game, 0, "dig A4", 1)  # no own figure there
    assert r.status_code == 422
    err = r.json()
    assert err["code"] == "illegal" and err["rule"] == "DIG-2"
    assert err["rule_url"] == "/rules#DIG-2" and "figure" in err["message"]
    r = post(client, game, 0, "move W A5 A4", 1)
    assert r.status_code == 422 and r.json()["rule"] == "MOVE-4"
    r = post(client, game, 0, "fly A5", 1)
    assert r.status_code == 422 and r.json()["code"] == "bad_action"
    assert get(client, game, 0) == before


def test_stale_and_replayed_moves_are_rejected(client: TestClient) -> None:
    game = create(client, seed=5)
    action = first(get(client, game, 0), "tile")
    assert post(client, game, 0, action, 0).status_code == 200
    replay = post(client, game, 0, action, 0)
    assert replay.status_code == 409 and replay.json()["code"] == "stale"
    assert replay.json()["state"] == 1
    assert post(client, game, 0, "put W A5", 7).status_code == 409
    assert post(client, game, 0, "put W A5", "1").status_code == 400  # type: ignore[arg-type]
    assert get(client, game, 0)["state"] == 1


def test_a_seat_token_cannot_act_for_another_seat(client: TestClient) -> None:
    game = create(client, seed=5)
    action = first(get(client, game, 0), "tile")
    r = post(client, game, 1, action, 0)
    assert r.status_code == 403 and r.json()["code"] == "not_your_turn"
    r = post(client, game, None, action, 0)
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    r = client.post(f"/api/games/{game['id']}/actions", headers={"X-Tikal-Token": "guess"},
                    json={"action": action, "state": 0})
    assert r.status_code == 403 and r.json()["code"] == "bad_token"
    other = create(client, seed=5)
    r = client.post(f"/api/games/{game['id']}/actions", headers=tok(other, 0),
                    json={"action": action, "state": 0})
    assert r.status_code == 403
    assert get(client, game, 0)["state"] == 0


def test_hotseat_token_plays_every_human_seat_but_seat_tokens_only_their_own(
    client: TestClient,
) -> None:
    game = create(client, seed=5, hotseat=True)
    hot = {"X-Tikal-Token": game["hotseat_token"]}
    url = f"/api/games/{game['id']}/actions?reply=state"
    msg = client.get(f"/api/games/{game['id']}", headers=hot).json()
    assert msg["you"] == [0, 1]
    state = 0
    for _ in range(2):  # seat 0's turn, then seat 1's
        tile = first(msg, "tile")
        msg = client.post(url, headers=hot, json={"action": tile, "state": state}).json()
        msg = client.post(url, headers=hot, json={"action": "end", "state": msg["state"]}).json()
        state = msg["state"]
    assert msg["current"] == 0 and msg["state"] == 4
    assert post(client, game, 1, first(msg, "tile"), 4).status_code == 403


def test_malformed_and_oversized_requests_get_clear_errors(client: TestClient) -> None:
    game = create(client, seed=5)
    url = f"/api/games/{game['id']}/actions"
    r = client.post(url, content=b"{not json", headers={**tok(game, 0),
                                                        "content-type": "application/json"})
    assert r.status_code == 400 and "malformed JSON" in r.json()["message"]
    r = client.post(url, json={"state": 0}, headers=tok(game, 0))
    assert r.status_code == 400 and "action" in r.json()["message"]
    r = client.post(url, content=b"x" * 100_000, headers={**tok(game, 0),
                                                          "content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    r = client.post(url, json={"action": "end " * 40, "state": 0}, headers=tok(game, 0))
    assert r.status_code == 400
    for blank in ("", "   "):  # the schema says so too (schemathesis sends what it allows)
        r = client.post(url, json={"action": blank, "state": 0}, headers=tok(game, 0))
        assert r.status_code == 400 and "action" in r.json()["message"], blank
    assert get(client, game, 0)["state"] == 0
    schema = client.get("/openapi.json").json()["components"]["schemas"]["ActionIn"]
    assert schema["properties"]["action"]["minLength"] == 1


def test_unknown_games_are_404(client: TestClient) -> None:
    for path in ("/api/games/nope", "/api/games/nope/record", "/api/replays/nope",
                 "/api/games/..%2F..%2Fetc/record"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.json()["type"] == "error"
    r = client.post("/api/games/nope/actions", json={"action": "end", "state": 0})
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"


def test_undo_within_the_turn_but_never_across_a_reveal(client: TestClient) -> None:
    game = create(client, rules="demo", seed=2)
    msg = get(client, game, 0)
    url = f"/api/games/{game['id']}/undo?reply=state"
    assert not msg["can_undo"]
    r = client.post(url, headers=tok(game, 0), json={"state": 0})
    assert r.status_code == 422 and r.json()["rule"] == "HIDDEN-1"
    msg = post(client, game, 0, first(msg, "tile"), 0).json()
    msg = post(client, game, 0, "put W 0", msg["state"]).json()
    assert msg["can_undo"]
    msg = client.post(url, headers=tok(game, 0), json={"state": msg["state"]}).json()
    assert msg["state"] == 3 and msg["position"]["figures"][0]["workers"] == {}
    assert msg["ap"] == 5
    # undo the tile placement too: the tile comes back to the hand
    msg = client.post(url, headers=tok(game, 0), json={"state": 3}).json()
    assert msg["phase"] == "tile" and msg["state"] == 4
    # another seat cannot undo
    r = client.post(url, headers=tok(game, 1), json={"state": 4})
    assert r.status_code == 403


def test_bots_play_their_turns_on_the_server(client: TestClient) -> None:
    game = create(client, rules="demo", seed=3,
                  seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}])
    msg = get(client, game, 0)
    msg = post(client, game, 0, first(msg, "tile"), 0).json()
    msg = post(client, game, 0, "end", msg["state"]).json()
    deadline = time.monotonic() + 30
    while not (msg["current"] == 0 and msg["phase"] == "tile"):
        assert time.monotonic() < deadline, "the bot did not play"
        time.sleep(0.05)
        msg = get(client, game, 0)
    assert any(line["seat"] == 1 and line.get("notation") == "end" for line in msg["log"])
    r = post(client, game, 0, "end", msg["state"])  # humans cannot act for the bot either
    assert r.status_code == 422  # it is the tile phase: placing comes first


def test_hint_suggests_a_legal_action(client: TestClient) -> None:
    game = create(client, rules="demo", seed=3)
    msg = get(client, game, 0)
    r = client.post(f"/api/games/{game['id']}/hint", headers=tok(game, 0), json={})
    assert r.status_code == 200
    hint = r.json()
    legal = {e["action"] for entries in msg["legal"].values() for e in entries}
    assert hint["action"] in legal and hint["text"]
    r = client.post(f"/api/games/{game['id']}/hint", headers=tok(game, 1), json={})
    assert r.status_code == 403


def play_random(client: TestClient, game: dict[str, Any], seats: int, steps: int,
                seed: int = 0) -> dict[str, Any]:
    import random

    rng = random.Random(seed)
    msg = get(client, game, 0)
    for _ in range(steps):
        if msg["over"]:
            break
        seat = msg["current"]
        msg = get(client, game, seat)
        actions = [e["action"] for entries in msg["legal"].values() for e in entries]
        non_end = [a for a in actions if a != "end"]
        action = rng.choice(non_end) if non_end and rng.random() < 0.85 else rng.choice(actions)
        r = post(client, game, seat, action, msg["state"])
        assert r.status_code == 200, r.text
        msg = r.json()
    return msg


def test_record_download_replays_and_keeps_the_seed_secret(client: TestClient) -> None:
    game = create(client, rules="demo", seed=4)
    msg = play_random(client, game, 2, 2000)
    assert msg["over"]
    r = client.get(f"/api/games/{game['id']}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert record["seed"] is None
    assert Game.from_record(record).scores == msg["scores"]
    summary = client.get(f"/api/replays/{game['id']}").json()
    assert summary["total"] == len(summary["steps"]) > 10
    assert summary["scores"] == msg["scores"]
    frame0 = client.get(f"/api/replays/{game['id']}/frames/0").json()
    last = client.get(f"/api/replays/{game['id']}/frames/{summary['total']}").json()
    assert frame0["step"] == 0 and frame0["svg"].startswith("<svg")
    assert last["over"] and last["scores"] == msg["scores"]
    # upload the record and view it as a replay
    r = client.post("/api/replays", json=record)
    assert r.status_code == 201
    uploaded = client.get(f"/api/replays/{r.json()['id']}").json()
    assert uploaded["steps"] == summary["steps"]
    # a broken record is refused with the reason
    bad = dict(record, log=[*record["log"][:5], "dig 0", *record["log"][5:]])
    r = client.post("/api/replays", json=bad)
    assert r.status_code == 422 and "record entry" in r.json()["message"]
    r = client.post("/api/replays", content=b"[", headers={"content-type": "application/json"})
    assert r.status_code == 400


def test_restarting_the_app_resumes_games_exactly(db: Path) -> None:
    with TestClient(create_app(db, bot_delay=0.0)) as client:
        game = create(client, rules="standard", seed=9)
        msg = play_random(client, game, 2, 60, seed=3)
        before = {seat: get(client, game, seat) for seat in (0, 1, None)}
    with TestClient(create_app(db, bot_delay=0.0)) as client:
        after = {seat: get(client, game, seat) for seat in (0, 1, None)}
        assert after == before
        seat = msg["current"]
        action = first(after[seat], next(iter(after[seat]["legal"])))
        assert post(client, game, seat, action, msg["state"]).status_code == 200
    # hidden parts too: the rebuilt game equals the one the server held
    storage = SqliteStorage(db)
    loaded = storage.load(game["id"])
    assert loaded is not None
    rebuilt = rebuild(*loaded)
    assert rebuilt.seed == 9
    assert len(loaded[1]) == msg["state"] + 2


# ------------------------------------------------------------------ WebSocket


def ws_hello(ws: Any, token: str | None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": token})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def receive_until(ws: Any, test: Any, limit: int = 20) -> dict[str, Any]:
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if test(msg):
            return msg
    raise AssertionError("expected message not received")


def test_websocket_play_and_broadcast(client: TestClient) -> None:
    game = create(client, seed=5)
    gid = game["id"]
    with client.websocket_connect(f"/ws/{gid}") as a, client.websocket_connect(f"/ws/{gid}") as b, \
            client.websocket_connect(f"/ws/{gid}") as watcher:
        sa = ws_hello(a, game["seats"][0]["token"])
        sb = ws_hello(b, game["seats"][1]["token"])
        sw = ws_hello(watcher, None)
        assert sa["your_turn"] and not sb["your_turn"] and sw["spectator"]
        assert sa["legal"] and sb["legal"] == {} and sw["legal"] == {}
        a.send_json({"type": "action", "action": first(sa, "tile"), "state": 0})
        assert receive_until(a, lambda m: m["type"] == "ack")["state"] == 1
        for ws, seen in ((b, sb), (watcher, sw)):
            update = receive_until(ws, lambda m: m["type"] == "delta")
            assert update["base"] == 0 and apply_message(seen, update)
            assert seen["state"] == 1 and seen["phase"] == "turn"
        # the watcher cannot act, seat 1 cannot act for seat 0
        watcher.send_json({"type": "action", "action": "end", "state": 1})
        assert receive_until(watcher, lambda m: m["type"] == "error")["code"] == "forbidden"
        b.send_json({"type": "action", "action": "end", "state": 1})
        assert receive_until(b, lambda m: m["type"] == "error")["code"] == "not_your_turn"
        # malformed, oversized, unknown, illegal, stale
        a.send_text("{oops")
        assert receive_until(a, lambda m: m["type"] == "error")["code"] == "bad_request"
        a.send_text(json.dumps({"type": "action", "action": "end", "state": 1, "pad": "x" * 9000}))
        assert receive_until(a, lambda m: m["type"] == "error")["code"] == "too_large"
        a.send_json({"type": "teleport"})
        assert receive_until(a, lambda m: m["type"] == "error")["code"] == "bad_request"
        a.send_json({"type": "action", "action": "dig B2", "state": 1})
        err = receive_until(a, lambda m: m["type"] == "error")
        assert err["code"] == "illegal" and err["rule"]
        a.send_json({"type": "action", "action": "end", "state": 0})
        assert receive_until(a, lambda m: m["type"] == "error")["code"] == "stale"
        assert receive_until(a, lambda m: m["type"] == "state")["state"] == 1
        a.send_json({"type": "hint"})
        assert receive_until(a, lambda m: m["type"] == "hint")["action"]
        a.send_json({"type": "ping"})
        assert receive_until(a, lambda m: m["type"] == "pong")["state"] == 1
    assert get(client, game, 0)["state"] == 1


def test_websocket_refuses_bad_tokens_and_unknown_games(client: TestClient) -> None:
    game = create(client, seed=5)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": "forged"})
        assert ws.receive_json()["code"] == "bad_token"
    with client.websocket_connect("/ws/missing") as ws:
        assert ws.receive_json()["code"] == "unknown_game"
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text("[]")
        assert ws.receive_json()["code"] == "bad_request"


def test_games_with_a_chosen_seed_say_so_to_everyone(client: TestClient) -> None:
    seeded = create(client, seed=5)
    unseeded = create(client)
    assert get(client, seeded, 1)["seeded"] and get(client, seeded, None)["seeded"]
    assert not get(client, unseeded, 0)["seeded"]


def test_old_database_files_gain_new_columns(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT NOT NULL DEFAULT 'game', "
                    "rules TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL, "
                    "seed INTEGER NOT NULL, seats TEXT NOT NULL, tokens TEXT NOT NULL, "
                    "record TEXT, status TEXT NOT NULL DEFAULT 'playing', created REAL NOT NULL, "
                    "updated REAL NOT NULL)")
    storage = SqliteStorage(path)
    assert storage.game_ids() == []
    storage.close()


def test_a_database_out_of_reach_answers_503_and_changes_nothing(client: TestClient) -> None:
    """When storage cannot be reached, the move is refused with 503 + Retry-After (not a 500),
    and the game stays as it was: the move can be sent again once the database is back."""
    game = create(client, seed=5)
    action = first(get(client, game, 0), "tile")
    storage = client.app.state.manager.storage  # type: ignore[attr-defined]
    append, append_many = storage.append, storage.append_many

    def unreachable(*args: Any) -> None:
        raise StorageUnavailable("PostgreSQL is not reachable: connection refused")

    storage.append = storage.append_many = unreachable  # one move, or a batch of them
    try:
        refused = post(client, game, 0, action, 0)
    finally:
        storage.append, storage.append_many = append, append_many
    assert refused.status_code == 503
    assert refused.json()["code"] == "unavailable" and refused.headers["Retry-After"] == "5"
    assert get(client, game, 0)["state"] == 0
    assert post(client, game, 0, action, 0).status_code == 200
    assert get(client, game, 0)["state"] == 1


def test_a_serving_process_freezes_its_start_up_objects_and_collects_only_the_young() -> None:
    """``tikal serve`` tunes the cyclic collector (fewer, shorter pauses: see
    ``tune_gc_for_serving``); run in a child process so this test process keeps its own."""
    import subprocess
    import sys

    code = ("import gc; from tikal.server.app import tune_gc_for_serving; "
            "before = gc.get_freeze_count(); tune_gc_for_serving(); "
            "print(gc.get_threshold(), before, gc.get_freeze_count())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split(")")
    assert out[0] + ")" == "(1000, 1000000, 1000000)"  # young collections only
    before, after = map(int, out[1].split())
    assert before == 0 and after > 10_000  # the modules, catalogs and rule sets


def test_only_a_tuned_process_runs_the_full_collection_timer(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An app in a process with Python's own thresholds (tests, embedders) leaves the
    collecting to Python; after ``tune_gc_for_serving`` the server starts its own timer."""
    import gc

    from tikal.server import app as server_app

    started: list[float] = []

    async def timer(period: float = 300.0) -> None:
        started.append(period)

    monkeypatch.setattr(server_app, "collect_now_and_then", timer)
    thresholds = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)  # Python's own
        with TestClient(create_app(db, bot_delay=0.0)):
            pass
        assert started == []
        gc.set_threshold(1000, server_app.OLD_COLLECTIONS_NEVER, server_app.OLD_COLLECTIONS_NEVER)
        with TestClient(create_app(db, bot_delay=0.0)):
            pass
    finally:
        gc.set_threshold(*thresholds)
    assert started == [300.0]


def test_the_server_runs_full_collections_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """The older generations' cyclic garbage is collected by the server's own timer."""
    import asyncio
    import gc

    from tikal.server.app import collect_now_and_then

    full: list[tuple[object, ...]] = []
    monkeypatch.setattr(gc, "collect", lambda *args: full.append(args) or 0)

    async def a_while() -> None:
        task = asyncio.create_task(collect_now_and_then(period=0.01))
        await asyncio.sleep(0.1)
        task.cancel()

    asyncio.run(a_while())
    assert len(full) >= 3 and all(args == () for args in full)  # whole collections
