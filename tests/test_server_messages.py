"""What the server sends is the engine's: seat looks from tikal.seats, legal actions with
their cost, spaces and text from game.cost / action.cells / game.describe, refusals with the
engine's message key and parameters, hints and log lines in the catalog's words."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tikal import __version__
from tikal.actions import log_steps, parse_action
from tikal.components import RULE_SET_NAMES, rule_set
from tikal.game import Game
from tikal.hexes import label
from tikal.messages import Message, render
from tikal.seats import seat_table
from tikal.server import create_app
from wire_oracles import readable

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "messages.sqlite3", bot_delay=0.0)) as c:
        yield c


def create(client: TestClient, rules: str, players: int, seed: int) -> dict[str, Any]:
    seats = [{"kind": "human", "name": f"P{p}"} for p in range(players)]
    r = client.post("/api/games", json={"rules": rules, "seats": seats, "seed": seed,
                                        "hotseat": True})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def engine_game(client: TestClient, game_id: str) -> Game:
    game: Game = client.app.state.manager.get(game_id).game  # type: ignore[attr-defined]
    return game


def hot(game: dict[str, Any]) -> dict[str, str]:
    return {"X-Tikal-Token": game["hotseat_token"]}


def play(client: TestClient, game: dict[str, Any], steps: int, seed: int) -> dict[str, Any]:
    """Random legal moves (as offered in the messages) for ``steps`` actions."""
    rng = random.Random(seed)
    msg: dict[str, Any] = readable(
        client.get(f"/api/games/{game['id']}", headers=hot(game)).json())
    for _ in range(steps):
        if msg["over"]:
            break
        actions = [e["action"] for entries in msg["legal"].values() for e in entries]
        others = [a for a in actions if a != "end"]
        action = rng.choice(others if others and rng.random() < 0.85 else actions)
        r = client.post(f"/api/games/{game['id']}/actions", headers=hot(game),
                        params={"reply": "state"},
                        json={"action": action, "state": msg["state"]})
        assert r.status_code == 200, r.text
        msg = readable(r.json())
    return msg


# ------------------------------------------------------------------ /api/meta


def test_meta_gives_the_seat_table_rule_sets_bots_and_version(client: TestClient) -> None:
    meta = client.get("/api/meta").json()
    assert meta["seats"] == [seat.to_json() for seat in seat_table()]
    assert meta["version"] == __version__
    assert list(meta["rulesets"]) == list(RULE_SET_NAMES)
    for name, data in meta["rulesets"].items():
        rs = rule_set(name)
        assert data["players"] == list(rs.player_counts)
        assert data["action_points"] == rs.action_points and data["auction"] == rs.auction
        assert data["actions"] == sorted(rs.actions)
        assert set(data["option_texts"]) == set(rs.default_options)
        for option, text in data["option_texts"].items():
            assert text == render(Message(f"option.{option}")) != option
    assert meta["hint_bot"] in meta["bots"]


def test_state_message_seats_look_as_the_seat_table_says(client: TestClient) -> None:
    game = create(client, "standard", 4, 1)
    msg = client.get(f"/api/games/{game['id']}").json()
    for p, seat in enumerate(msg["seats"]):
        look = seat_table()[p]
        assert (seat["colour"], seat["ink"], seat["shape"], seat["colour_name"]) == (
            look.colour, look.ink, look.shape, look.name)


# ------------------------------------------------------------------ legal entries


@pytest.mark.parametrize(("rules", "players", "steps"), [
    ("standard", 2, 0), ("standard", 3, 40), ("standard", 2, 90), ("demo", 2, 25),
    ("auction", 3, 0), ("auction", 2, 6),
])
def test_legal_entries_are_the_engines_actions_with_cost_cells_and_text(
    client: TestClient, rules: str, players: int, steps: int
) -> None:
    game = create(client, rules, players, seed=players + steps)
    msg = play(client, game, steps, seed=steps)
    engine = engine_game(client, game["id"])
    names = [s["name"] for s in msg["seats"]]
    entries = [e for group in msg["legal"].values() for e in group]
    assert [e["action"] for e in entries] == [str(a) for a in engine.legal_actions()]
    for verb, group in msg["legal"].items():
        for entry in group:
            action = parse_action(entry["action"])
            assert entry["verb"] == verb == action.verb
            assert entry["cost"] == engine.cost(action)
            assert entry["cells"] == [label(c) for c in action.cells]
            assert entry["text"] == render(engine.describe(action), "action", names)
            assert {k: entry[k] for k in action.to_json()} == action.to_json()
    for verb, title in msg["verbs"].items():
        assert verb in msg["legal"] and title == render(Message(f"deed.{verb}"))


def test_only_the_seat_to_act_gets_legal_actions(client: TestClient) -> None:
    game = create(client, "standard", 2, 5)
    seat1 = readable(client.get(f"/api/games/{game['id']}",
                                headers={"X-Tikal-Token": game["seats"][1]["token"]}).json())
    spectator = readable(client.get(f"/api/games/{game['id']}").json())
    assert seat1["legal"] == {} == spectator["legal"]


# ------------------------------------------------------------------ refusals


def test_refusals_carry_the_engines_message_key_and_parameters(client: TestClient) -> None:
    game = create(client, "standard", 2, 5)
    msg = play(client, game, 1, seed=1)  # the tile is placed: a normal turn
    engine = engine_game(client, game["id"])
    url = f"/api/games/{game['id']}/actions"
    for text in ("dig A4", "move W A5 A4", "take A5"):
        refusal = engine.check(parse_action(text))
        assert refusal is not None
        r = client.post(url, headers=hot(game), json={"action": text, "state": msg["state"]})
        err = r.json()
        assert r.status_code == 422 and err["code"] == "illegal"
        assert err["rule"] == refusal.rule and err["message"] == refusal.message
        assert err["key"] == refusal.key
        assert {"key": err["key"], "params": err["params"]} == refusal.reason.to_json()
        assert render(Message.from_json(err)) == err["message"]
    r = client.post(url, headers=hot(game), json={"action": "fly A5", "state": msg["state"]})
    err = r.json()
    assert err["code"] == "bad_action" and err["key"] == "notation.unknown_verb"
    assert err["params"]["word"] == "fly"
    r = client.post(f"/api/games/{game['id']}/undo", headers=hot(game), json={"state": 0})
    assert r.status_code == 409  # stale: no key, a protocol error
    assert "key" not in r.json()


def test_refusals_over_the_websocket_carry_keys_too(client: TestClient) -> None:
    game = create(client, "standard", 2, 5)
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": game["hotseat_token"]})
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "undo", "state": 0})
        err = ws.receive_json()
        assert err["code"] == "illegal" and err["rule"] == "HIDDEN-1"
        assert err["key"] == "refuse.nothing_to_undo" and err["params"] == {}


# ------------------------------------------------------------------ hints, log, replays


def test_hint_text_comes_from_the_catalog(client: TestClient) -> None:
    game = create(client, "demo", 2, 3)
    msg = play(client, game, 3, seed=2)
    r = client.post(f"/api/games/{game['id']}/hint", headers=hot(game), json={})
    assert r.status_code == 200
    hint = r.json()
    engine = engine_game(client, game["id"])
    action = parse_action(hint["action"])
    names = [s["name"] for s in msg["seats"]]
    assert hint["text"] == render(engine.describe(action), "action", names)
    assert hint["cost"] == engine.cost(action)
    assert hint["cells"] == [label(c) for c in action.cells]
    assert hint["verb"] == action.verb and hint["state"] == msg["state"]


def test_log_lines_are_the_history_in_the_catalogs_words(client: TestClient) -> None:
    game = create(client, "demo", 2, 4)
    msg = play(client, game, 400, seed=4)
    engine = engine_game(client, game["id"])
    names = [s["name"] for s in msg["seats"]]
    lines = [line for line in msg["log"] if line["kind"] != "score"]
    history = [a for step in log_steps(engine.history)
               for a in (step.action, *step.chance) if a is not None]
    assert [line["notation"] for line in lines] == [str(a) for a in history]
    for line, action in zip(lines, history, strict=True):
        assert line["kind"] == ("chance" if action.is_chance else "action")
        assert line["text"] == render(engine.describe(action), "log", names)
    score_lines = [line for line in msg["log"] if line["kind"] == "score"]
    scores = [line["score"] for line in score_lines]
    assert scores == [e.to_json() | {"total": e.total} for e in engine.score_events]
    assert [line["text"] for line in score_lines] == [
        render(e.describe(), "log", names) for e in engine.score_events
    ]
    assert scores, "a demo game of 400 actions has scored"
    assert msg["rule_set"]["actions"] == sorted(engine.rules.actions)


def test_replay_steps_are_described_from_the_catalog(client: TestClient) -> None:
    game = create(client, "demo", 2, 6)
    play(client, game, 60, seed=6)
    engine = engine_game(client, game["id"])
    summary = client.get(f"/api/replays/{game['id']}").json()
    steps = log_steps(engine.history)[1:]
    names = [s["name"] for s in summary["seats"]]
    assert len(summary["steps"]) == len(steps)
    for shown, step in zip(summary["steps"], steps, strict=True):
        assert step.action is not None
        assert shown["notation"] == str(step.action)
        assert shown["text"] == render(engine.describe(step.action), "log", names)
        assert shown["chance"] == [render(engine.describe(c), "log", names) for c in step.chance]
    for p, seat in enumerate(summary["seats"]):
        assert seat["shape"] == seat_table()[p].shape
