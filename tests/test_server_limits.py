"""Limits and bad input: every bad request gets a clear 4xx (never a 5xx), rate limits
answer 429 with Retry-After, caps on games, idle games leave memory, hints one at a
time, and the lean protocol's deltas stay small."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from tikal.messages import text
from tikal.server import bots as server_bots
from tikal.server import create_app
from tikal.server import manager as server_manager
from tikal.server.errors import ServerError
from tikal.server.limits import LimitSettings, Rate, too_deep
from tikal.server.wire.client import apply_message, legal_actions

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TWO = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "limits.sqlite3", bot_delay=0.0)) as c:
        yield c


def create(client: TestClient, **body: Any) -> Any:
    return client.post("/api/games", json={"rules": "standard", "seats": TWO, **body})


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize("seed", [2**53, 2**63, 10**40, -1])
def test_seeds_out_of_range_are_422(client: TestClient, seed: int) -> None:
    r = create(client, seed=seed)
    assert r.status_code == 422 and r.json()["code"] == "bad_request"
    assert create(client, seed=2**53 - 1).status_code == 201


@pytest.mark.parametrize("path", ["/api/games", "/api/replays"])
def test_deeply_nested_json_is_400_too_deep(client: TestClient, path: str) -> None:
    body = b"[" * 30_000 + b"]" * 30_000
    r = client.post(path, content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "too_deep"
    assert too_deep('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') is False


def test_replay_frames_out_of_range_are_404(client: TestClient) -> None:
    gid = create(client, seed=1).json()["id"]
    assert client.get(f"/api/replays/{gid}/frames/0").status_code == 200
    for step in ("99999", "-1", str(10**40)):
        r = client.get(f"/api/replays/{gid}/frames/{step}")
        assert r.status_code == 404 and r.json()["code"] == "no_frame", step


def test_long_names_are_capped_where_shown(client: TestClient) -> None:
    gid = create(client, seed=1).json()["id"]
    record = client.get(f"/api/games/{gid}/record").json()
    record["seats"] = [{"name": "x" * 3000}, {"name": "y " * 1500}]
    r = client.post("/api/replays", json=record)
    assert r.status_code == 201
    summary = client.get(f"/api/replays/{r.json()['id']}").json()
    assert [len(s["name"]) for s in summary["seats"]] == [24, 23]
    r = create(client, seats=[{"kind": "human", "name": "z" * 25}, {"kind": "human"}])
    assert r.status_code == 400


def test_a_game_whose_id_starts_with_r_is_a_game_not_an_upload(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = server_manager.secrets.token_urlsafe
    monkeypatch.setattr(server_manager.secrets, "token_urlsafe",
                        lambda n=None: "r" + real(n)[1:] if n == 8 else real(n))
    game = create(client, seed=1).json()
    gid = game["id"]
    assert gid.startswith("r")
    assert client.get(f"/api/replays/{gid}").json()["total"] == 0
    msg = client.get(f"/api/games/{gid}", headers={"X-Tikal-Token": game["seats"][0]["token"]})
    state: dict[str, Any] = {}
    apply_message(state, msg.json())
    r = client.post(f"/api/games/{gid}/actions", json={"action": legal_actions(state)[0],
                    "state": 0}, headers={"X-Tikal-Token": game["seats"][0]["token"]})
    assert r.status_code == 200 and r.json() == {"type": "ack", "base": 0, "state": 1}
    assert client.get(f"/api/replays/{gid}").json()["total"] == 1  # the replay grew
    uploaded = client.post("/api/replays", json=client.get(f"/api/games/{gid}/record").json())
    rid = uploaded.json()["id"]
    assert len(rid) != len(gid) and client.get(f"/api/replays/{rid}").json()["total"] == 1


def test_unexpected_errors_are_a_logged_500_without_internals(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(tmp_path / "boom.sqlite3")
    with TestClient(app, raise_server_exceptions=False) as client:
        def boom(game_id: str) -> Any:
            raise RuntimeError("secret internals")
        monkeypatch.setattr(app.state.manager, "get", boom)
        r = client.get("/api/games/abc")
    assert r.status_code == 500 and r.json()["code"] == "internal"
    assert "secret" not in r.text
    assert any("secret internals" in str(rec.exc_info) for rec in caplog.records)


def test_a_client_going_away_logs_no_traceback(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    game = create(client, seed=1).json()
    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            with client.websocket_connect(f"/ws/{game['id']}") as ws:
                ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
                ws.receive_json()
                ws.send_json({"type": "ping"})
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.send_bytes(b"\x00\x01")
            assert ws.receive_json()["code"] == "bad_request"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


# ------------------------------------------------------------------ rate limits and caps


def limited(tmp_path: Path, **settings: Any) -> TestClient:
    return TestClient(create_app(tmp_path / "rl.sqlite3", bot_delay=0.0,
                                 limit_settings=LimitSettings(**settings)))


def test_creating_games_too_fast_is_429_with_retry_after(tmp_path: Path) -> None:
    with limited(tmp_path, create=Rate(1, 2)) as client:
        assert create(client).status_code == 201
        assert create(client).status_code == 201
        r = create(client)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 1


def test_moves_too_fast_over_the_websocket_get_rate_limited(tmp_path: Path) -> None:
    with limited(tmp_path, move=Rate(1, 1)) as client:
        game = create(client, hotseat=True).json()
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            ws.send_json({"type": "hello", "token": game["hotseat_token"]})
            state: dict[str, Any] = {}
            apply_message(state, ws.receive_json())
            ws.send_json({"type": "action", "action": legal_actions(state)[0], "state": 0})
            ws.send_json({"type": "action", "action": "end", "state": 1})
            codes = []
            for _ in range(6):
                msg = ws.receive_json()
                if msg["type"] == "error":
                    codes.append(msg["code"])
                    assert msg["retry_after"] > 0
                    break
            assert codes == ["rate_limited"]


def test_caps_on_games_per_client_and_bot_only_games(tmp_path: Path) -> None:
    with limited(tmp_path, games_per_client=2, bot_only_games=1) as client:
        assert create(client).status_code == 201
        bots = [{"kind": "bot", "level": "random"}] * 2
        assert create(client, seats=bots).status_code == 201
        r = create(client)
        assert r.status_code == 429 and r.json()["code"] == "too_many_games"
    with limited(tmp_path, games_per_client=5, bot_only_games=1) as client:
        client.post("/api/games", json={"rules": "standard", "seats": bots})
        r = client.post("/api/games", json={"rules": "standard", "seats": bots})
        assert r.status_code == 429 and "bots only" in r.json()["message"]


@pytest.mark.parametrize("language", ["de", "ja"])
def test_limits_and_caps_say_their_numbers_in_the_language(
    tmp_path: Path, language: str
) -> None:
    """A refused request names its limit (the cap, the seconds to wait) in the language
    asked, not only the code's general text; code and status stay the same."""
    asked = {"Accept-Language": language}
    with limited(tmp_path, games_per_client=2, bot_only_games=1, create=Rate(1, 4)) as client:
        bots = [{"kind": "bot", "level": "random"}] * 2
        assert client.post("/api/games", json={"seats": bots}).status_code == 201
        r = client.post("/api/games", headers=asked, json={"seats": bots})
        assert r.status_code == 429 and r.json()["code"] == "too_many_games"
        assert r.json()["message"] == text("server.too_many_bot_games", language, max=1)
        assert create(client).status_code == 201
        r = client.post("/api/games", headers=asked, json={"seats": TWO})
        assert r.status_code == 429 and r.json()["code"] == "too_many_games"
        assert r.json()["message"] == text("server.too_many_games", language, max=2)
        assert "2" in r.json()["message"]
        english = client.post("/api/games", json={"seats": TWO}).json()
        r = client.post("/api/games", headers=asked, json={"seats": TWO})
        body = r.json()
        assert r.status_code == 429 and body["code"] == english["code"] == "rate_limited"
        assert english["message"].startswith("too many games created; try again in ")
        # the seconds as the language writes them (2,5 in German), within the rounding of
        # the message (one decimal) and of retry_after (three) from each other
        mark = "," if language == "de" else "."
        said = re.findall(rf"\d+(?:{re.escape(mark)}\d+)?", body["message"])
        assert any(abs(float(n.replace(mark, ".")) - body["retry_after"]) <= 0.051
                   for n in said), (said, body["retry_after"])
        assert body["message"] != english["message"]
        assert not any(word in body["message"] for word in ("too", "many", "again"))


def test_idle_games_leave_memory_and_come_back_from_the_log(tmp_path: Path) -> None:
    with limited(tmp_path, idle_seconds=10) as client:
        game = create(client, seed=4).json()
        token = {"X-Tikal-Token": game["seats"][0]["token"]}
        before = client.get(f"/api/games/{game['id']}", headers=token).json()
        svc = client.app.state.services  # type: ignore[attr-defined]
        now = [1000.0]
        svc.keeper.clock = lambda: now[0]
        assert svc.keeper.sweep() == 0  # first seen
        now[0] += 11
        assert svc.keeper.sweep() == 1
        assert game["id"] not in svc.manager.sessions
        after = client.get(f"/api/games/{game['id']}", headers=token).json()
        assert after == before and game["id"] in svc.manager.sessions


# ------------------------------------------------------------------ hints


def test_one_hint_at_a_time_per_seat_and_cached_per_state(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = create(client, seed=2, hotseat=True).json()
    svc = client.app.state.services  # type: ignore[attr-defined]
    session = svc.manager.get(game["id"])
    calls = []

    async def slow_choose(pool: Any, level: str, bot: Any, view: Any) -> Any:
        calls.append(level)
        await asyncio.sleep(0.05)
        return view.legal_actions()[0], bot

    monkeypatch.setattr(server_bots, "choose", slow_choose)

    async def two_at_once() -> list[Any]:
        return await asyncio.gather(svc.hints.ask(session, (0, 1)),
                                    svc.hints.ask(session, (0, 1)), return_exceptions=True)

    first, second = asyncio.run(two_at_once())
    assert isinstance(second, ServerError) and second.code == "hint_busy"
    assert second.status == 429
    assert first["type"] == "hint" and first["state"] == 0
    again = asyncio.run(svc.hints.ask(session, (0, 1)))
    assert again == first and len(calls) == 1  # from the cache


# ------------------------------------------------------------------ the lean protocol


def test_deltas_after_moves_are_small_and_do_not_grow_with_the_game(
    client: TestClient,
) -> None:
    game = create(client, seed=7, hotseat=True).json()
    rng = random.Random(7)
    with client.websocket_connect(f"/ws/{game['id']}") as ws, \
            client.websocket_connect(f"/ws/{game['id']}") as watcher:
        ws.send_json({"type": "hello", "token": game["hotseat_token"]})
        watcher.send_json({"type": "hello", "token": None})
        mine: dict[str, Any] = {}
        seen: dict[str, Any] = {}
        full = ws.receive_text()
        apply_message(mine, json.loads(full))
        apply_message(seen, watcher.receive_json())
        sizes = []
        for _ in range(150):
            if mine["over"]:
                break
            ws.send_json({"type": "action", "action": rng.choice(legal_actions(mine)),
                          "state": mine["state"]})
            while (msg := ws.receive_json())["type"] != "ack":
                apply_message(mine, msg)
            while seen["state"] != msg["state"]:
                text = watcher.receive_text()
                delta = json.loads(text)
                assert delta["type"] == "delta" and apply_message(seen, delta)
                sizes.append(len(text))
            while mine["state"] != msg["state"]:
                apply_message(mine, ws.receive_json())
    assert len(full) > 15_000 and len(sizes) > 100
    assert max(sizes) < 4096
    early, late = sorted(sizes[:50]), sorted(sizes[-50:])
    assert late[25] < 4096 and late[25] < 2 * early[25]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_board_patched_space_by_space_equals_one_drawn_afresh(language: str) -> None:
    """The server re-draws only changed spaces and adds or drops <defs> shapes as they
    come and go; after every move the pieces equal those of the whole board drawn anew
    (in the board's language)."""
    from tikal.game import Game
    from tikal.server.round.board import BoardCache

    rng = random.Random(11)
    game = Game.new("standard", 2, seed=11)
    patched = BoardCache(language)
    defs_changes = 0
    last_defs: Any = None
    for _ in range(120):
        if game.is_over:
            break
        view = game.view(None)
        parts = patched.update(view)
        assert parts == BoardCache(language).update(view)
        if last_defs is not None and parts["defs"] != last_defs:
            defs_changes += 1
        last_defs = parts["defs"]
        game.apply(rng.choice(game.legal_actions()))
    assert defs_changes > 0  # the case that once re-sent the whole board came up


@pytest.mark.parametrize(("rules", "players"), [("standard", 2), ("standard", 4), ("auction", 2),
                                                ("demo", 2)])
def test_compact_legal_tables_read_back_as_the_engines_offers(rules: str, players: int) -> None:
    """Templates, shared columns and list columns are only a shorter spelling: expanded,
    every offer is exactly the entry the server built (notation, cells, text)."""
    from tikal.game import Game
    from tikal.server.wire.legal import expand_legal
    from wire_oracles import compact_legal, legal_json

    rng = random.Random(players)
    game = Game.new(rules, players, seed=players)
    shortened = 0
    for _ in range(150):
        if game.is_over:
            break
        legal = legal_json(game, ["Ana", "Bo", "Cy", "Di"])
        table = compact_legal(legal)
        assert expand_legal(table) == {
            verb: [{"verb": verb, **entry} for entry in entries] for verb, entries in legal.items()
        }
        shortened += sum("templates" in t or "lists" in t for t in table.values())
        game.apply(rng.choice(game.legal_actions()))
    assert shortened > 0


@given(st.lists(st.integers(0, 4), max_size=8), st.data())
def test_list_deltas_rebuild_the_new_list(old: list[int], data: st.DataObject) -> None:
    """Whatever happened to a list (items removed in the middle, appended, changed), the
    delta's operations turn the old list into the new one."""
    from tikal.server.wire.client import apply_op
    from tikal.server.wire.diff import diff

    new = data.draw(st.one_of(
        st.lists(st.integers(0, 9), max_size=9),
        st.integers(0, len(old)).flatmap(lambda i: st.integers(i, len(old)).map(
            lambda j: old[:i] + old[j:])),
    ))
    ops: list[list[Any]] = []
    diff({"x": {"l": old}}, {"x": {"l": new}}, [], ops)
    target: Any = {"x": {"l": list(old)}}
    for op in ops:
        apply_op(target, op)
    assert target == {"x": {"l": new}}


_PIECES = st.sampled_from(["<g>", "</g>", "<use href='#a'/>", "A4", "寺", "🎲", "x" * 150])


@given(st.lists(_PIECES, max_size=30), st.data())
def test_string_splices_rebuild_the_new_string(old_pieces: list[str], data: st.DataObject) -> None:
    """A long string that changed in one place (a board space whose figures moved) is sent
    as a splice; applied as a client does, it gives exactly the new string, also with
    text outside the Basic Multilingual Plane (sent whole: JavaScript counts UTF-16)."""
    from tikal.server.wire.client import apply_op
    from tikal.server.wire.diff import diff

    i = data.draw(st.integers(0, len(old_pieces)))
    j = data.draw(st.integers(i, len(old_pieces)))
    middle = data.draw(st.lists(_PIECES, max_size=4))
    old, new = "".join(old_pieces), "".join(old_pieces[:i] + middle + old_pieces[j:])
    ops: list[list[Any]] = []
    diff({"s": old}, {"s": new}, [], ops)
    target = {"s": old}
    for op in ops:
        apply_op(target, op)
    assert target == {"s": new}
    if ops and len(ops[0]) == 4:
        assert "🎲" not in old + new and len(ops[0][1]) < len(new)


def test_a_space_whose_figures_moved_is_sent_as_a_short_splice() -> None:
    """After a worker moves, the two spaces it left and entered keep their tiles'
    pictures: the delta sends the changed middle of each, much less than the whole."""
    from tikal.game import Game
    from tikal.server.round.board import BoardCache
    from tikal.server.wire.client import apply_op
    from tikal.server.wire.diff import diff

    game = Game.new("standard", 2, seed=3)
    board = BoardCache()
    while not any(a.verb == "move" for a in game.legal_actions()):
        game.apply(game.legal_actions()[0])
    before = dict(board.update(game.view(None)))
    before["spaces"] = dict(before["spaces"])
    game.apply(next(a for a in game.legal_actions() if a.verb == "move"))
    after = board.update(game.view(None))
    ops: list[list[Any]] = []
    diff({"board": before}, {"board": after}, [], ops)
    spliced = [op for op in ops if op[0][:2] == ["board", "spaces"] and len(op) == 4]
    assert len(spliced) == 2
    for op in spliced:
        assert len(op[1]) < len(after["spaces"][op[0][2]]) / 2
    target: Any = {"board": before}
    for op in ops:
        apply_op(target, op)
    assert target == {"board": after}


@pytest.mark.parametrize("rules", ["standard", "demo"])
def test_the_drawn_tile_is_sent_once_with_its_turning_part_per_rotation(rules: str) -> None:
    """``head + middles[r] + tail`` is exactly the picture of rotation ``r`` for every tile,
    and the shared form is much shorter than six pictures."""
    from tikal import svg
    from tikal.components import rule_set
    from tikal.server.round.snapshot import tile_rotations

    rs = rule_set(rules)
    for tile_id in rs.tiles_by_id:
        sent = tile_rotations(rules, tile_id)
        pictures = [svg.tile_group(rs.tile(tile_id), r, 50) for r in range(6)]
        assert [sent["head"] + m + sent["tail"] for m in sent["middles"]] == pictures
        assert len(json.dumps(sent)) < len(json.dumps(pictures)) * 0.6


def test_the_bot_pool_starts_every_worker_when_warmed() -> None:
    """``tikal serve`` warms the pool at start-up: every worker is a started process
    that has made a greedy choice, and the pool then plays bots as before."""
    from tikal.bots import make_bot
    from tikal.game import Game

    pool = server_bots.SearchPool(2)

    async def warm_then_play() -> tuple[list[int], Any]:
        pids = await pool.warm()
        game = Game.new("standard", 2, seed=5)
        action, _ = await pool.run(make_bot("greedy", seed=1), game.view(game.current_player))
        return pids, action

    try:
        pids, action = asyncio.run(warm_then_play())
    finally:
        pool.close()
    assert len(set(pids)) == 2 and os.getpid() not in pids
    assert action in Game.new("standard", 2, seed=5).legal_actions()
