"""Hidden information [HIDDEN-1]: over whole games, no message to any seat or spectator
depends on the stack order or on the types of face-down treasure tokens.

Every message received over the WebSocket is compared with the message the server
would build from a *twin* game whose hidden parts were shuffled: if anything about
them leaked, the two would differ.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tikal import Game
from tikal.server import create_app
from tikal.server.session import Session
from tikal.server.wire.client import apply_message
from wire_oracles import build_message, readable


def twin(game: Game, rng: random.Random) -> Game:
    """The same public position with the hidden parts dealt anew."""
    other = game.clone()
    letters = [other.rules.tile(t).letter for t in other.stack]
    by_letter: dict[str, list[str]] = {}
    for tile_id, letter in zip(other.stack, letters, strict=True):
        by_letter.setdefault(letter, []).append(tile_id)
    for group in by_letter.values():
        rng.shuffle(group)
    other.stack = [by_letter[letter].pop() for letter in letters]
    hidden = other.token_pool + [t for cell in sorted(other.tokens) for t in other.tokens[cell]]
    rng.shuffle(hidden)
    i = 0
    for cell in sorted(other.tokens):
        n = len(other.tokens[cell])
        other.tokens[cell] = tuple(hidden[i : i + n])
        i += n
    other.token_pool = hidden[i:]
    return other


def hidden_differs(a: Game, b: Game) -> bool:
    return a.stack != b.stack or a.tokens != b.tokens or a.token_pool != b.token_pool


def receive_state(ws: Any, state: int, held: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """Read full states and deltas until the client's copy ``held`` is at ``state``;
    the copy, and the texts that made it (all must be free of hidden information)."""
    texts = []
    for _ in range(30):
        text = ws.receive_text()
        msg: dict[str, Any] = json.loads(text)
        if msg["type"] in ("state", "delta"):
            texts.append(text)
            assert apply_message(held, msg), "a delta must follow on from what was sent"
            if held["state"] == state:
                return held, "".join(texts)
    raise AssertionError(f"no state {state} message")


@pytest.mark.parametrize(("rules", "players", "limit"), [
    ("standard", 2, 5000), ("demo", 2, 5000), ("auction", 3, 150), ("standard", 4, 200),
])
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.rule("HIDDEN-1")
def test_no_message_reveals_hidden_information(
    tmp_path: Path, rules: str, players: int, limit: int
) -> None:
    rng = random.Random(f"{rules}{players}")
    with TestClient(create_app(tmp_path / "hidden.sqlite3", bot_delay=0)) as client:
        seats = [{"kind": "human"} for _ in range(players)]
        created = client.post("/api/games", json={"rules": rules, "seats": seats}).json()
        gid = created["id"]
        manager = client.app.state.manager  # type: ignore[attr-defined]
        session: Session = manager.get(gid)
        seed = str(session.game.seed)
        tokens = [*(s["token"] for s in created["seats"]), None]
        conns = [client.websocket_connect(f"/ws/{gid}") for _ in tokens]
        sockets = [c.__enter__() for c in conns]
        try:
            for ws, token in zip(sockets, tokens, strict=True):
                ws.send_json({"type": "hello", "token": token})
            checked = differing = 0
            held: list[dict[str, Any]] = [{} for _ in sockets]
            for step in range(limit + 1):
                latest = []
                for i, ws in enumerate(sockets):
                    msg, text = receive_state(ws, step, held[i])
                    seat_set = (i,) if i < players else ()
                    other = twin(session.game, rng)
                    differing += hidden_differs(other, session.game)
                    shadow = replace(session, game=other)
                    assert json.loads(json.dumps(build_message(shadow, seat_set))) == msg
                    assert seed not in text
                    checked += 1
                    latest.append(msg)
                current = latest[0]["current"]
                if latest[0]["over"]:
                    break
                if step == limit:
                    break
                msg = readable(latest[current])
                actions = [e["action"] for entries in msg["legal"].values() for e in entries]
                non_end = [a for a in actions if a != "end"]
                pick = rng.choice(non_end if non_end and rng.random() < 0.8 else actions)
                sockets[current].send_json({"type": "action", "action": pick, "state": step})
            if limit > 1000:
                assert session.game.is_over
            assert checked > 3 * players and differing > checked // 2
        finally:
            for c in conns:
                c.__exit__(None, None, None)
