"""Recorded wire traffic: what real WebSocket clients of a real app receive, as data files.

Each fixture in ``tests/fixtures/wire/`` is one seeded game played through the HTTP API
(random legal moves, some undos and resyncs) while the WebSockets of the first two seats
and of a spectator listen.  For every connection it keeps every message received, in
order, and at checkpoints (the end; midway for the first seat) the full state that a
client connecting then would get, with its legal actions expanded into entries.  A
decoder (Python or the browser's ES module) that applies the messages must arrive at
exactly those checkpoints: the files are the protocol's contract, and
``test_wire_fixtures.py`` checks that the server still sends them message for message
(so a refactor of the server cannot change the wire unnoticed).

Regenerate after a deliberate protocol change: ``python tests/wire_fixtures.py``.
"""

from __future__ import annotations

import json
import random
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

HERE = Path(__file__).parent
FIXTURES = HERE / "fixtures" / "wire"
GAME_ID = "GAME"  # game ids are random: fixtures name every game so


@dataclass(frozen=True)
class Script:
    """One recorded game: rule set, players, seed, language and how many actions."""

    name: str
    rules: str
    players: int
    seed: int
    language: str
    steps: int
    checkpoint_every: int = 15


SCRIPTS = (
    Script("demo-2p-en", "demo", 2, 7, "en", 60, 30),
    Script("standard-4p-de", "standard", 4, 11, "de", 70, 35),
    Script("auction-3p-ja", "auction", 3, 5, "ja", 60, 30),
)


def expanded(legal: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """A state's legal tables as entries (the protocol's own expansion)."""
    from tikal.server.wire.legal import expand_legal

    return expand_legal(legal)


def normalised(value: Any, game_id: str) -> Any:
    """``value`` with the random game id written as :data:`GAME_ID`."""
    text = json.dumps(value, ensure_ascii=False)
    return json.loads(text.replace(game_id, GAME_ID))


def _choose(rng: random.Random, full: dict[str, Any]) -> dict[str, Any]:
    """The next request: mostly a random legal action, now and then an undo."""
    if full.get("can_undo") and rng.random() < 0.08:
        return {"type": "undo"}
    actions = [e["action"] for entries in expanded(full["legal"]).values() for e in entries]
    others = [a for a in actions if a != "end"]
    pick = rng.choice(others if others and rng.random() < 0.85 else actions)
    return {"type": "action", "action": pick}


def record(script: Script) -> dict[str, Any]:
    """Play ``script`` on a fresh app and return what every connection received."""
    from tikal.server import create_app
    from tikal.server.limits import LimitSettings

    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        app = create_app(Path(tmp) / "wire.sqlite3", bot_delay=0.0,
                         limit_settings=LimitSettings(enabled=False))
        client = stack.enter_context(TestClient(app))
        seats = [{"kind": "human", "name": f"P{p}"} for p in range(script.players)]
        made = client.post("/api/games", json={
            "rules": script.rules, "seats": seats, "seed": script.seed, "hotseat": True})
        made.raise_for_status()
        game = made.json()
        game_id = game["id"]
        # the first two seats (one acts first, one waits) and a spectator
        tokens: list[str | None] = [s["token"] for s in game["seats"][:2]] + [None]
        hot = {"X-Tikal-Token": game["hotseat_token"]}
        sockets = []
        for token in tokens:
            ws = stack.enter_context(
                client.websocket_connect(f"/ws/{game_id}?lang={script.language}"))
            ws.send_json({"type": "hello", "token": token})
            sockets.append(ws)
        received: list[list[Any]] = [[ws.receive_json()] for ws in sockets]
        checkpoints: list[list[dict[str, Any]]] = [[] for _ in sockets]

        def checkpoint(step: int, everyone: bool = True) -> None:
            for i, token in enumerate(tokens if everyone else tokens[:1]):
                headers = {"X-Tikal-Token": token} if token else {}
                full = client.get(f"/api/games/{game_id}?lang={script.language}",
                                  headers=headers).json()
                checkpoints[i].append({"after": len(received[i]), "step": step,
                                       "full": full, "legal": expanded(full["legal"])})

        rng = random.Random(script.seed ^ 0xF1C)
        full = client.get(f"/api/games/{game_id}", headers=hot).json()
        for step in range(script.steps):
            if full["over"]:
                break
            request = _choose(rng, full)
            path = "actions" if request["type"] == "action" else "undo"
            body = {k: v for k, v in request.items() if k != "type"}
            reply = client.post(f"/api/games/{game_id}/{path}?reply=state", headers=hot,
                                json={**body, "state": full["state"]})
            reply.raise_for_status()
            full = reply.json()
            for i, ws in enumerate(sockets):
                received[i].append(ws.receive_json())
                if step % 23 == 22 and i == 0:  # a client that asks for the whole state
                    ws.send_json({"type": "sync"})
                    received[i].append(ws.receive_json())
            if (step + 1) % script.checkpoint_every == 0 and step + 1 < script.steps:
                checkpoint(step + 1, everyone=False)
        checkpoint(script.steps)
        connections = [
            {"seats": "spectator" if token is None else str(i), "messages": received[i],
             "checkpoints": checkpoints[i]}
            for i, token in enumerate(tokens)
        ]
        return normalised({"script": script.__dict__, "connections": connections}, game_id)


def path_of(script: Script) -> Path:
    return FIXTURES / f"{script.name}.json"


def _line(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def dump(data: dict[str, Any]) -> str:
    """The file text: one message or checkpoint per line, so a change shows as a diff of
    the messages it touched."""
    parts = ['{"script":' + _line(data["script"]) + ',"connections":[']
    for n, conn in enumerate(data["connections"]):
        parts.append('{"seats":' + _line(conn["seats"]) + ',"messages":[')
        parts.append(",\n".join(_line(m) for m in conn["messages"]))
        parts.append('],"checkpoints":[')
        parts.append(",\n".join(_line(c) for c in conn["checkpoints"]))
        parts.append("]}" + ("," if n + 1 < len(data["connections"]) else ""))
    parts.append("]}")
    return "\n".join(parts) + "\n"


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for script in SCRIPTS:
        path_of(script).write_text(dump(record(script)), encoding="utf-8")
        print(f"wrote {path_of(script)}")


if __name__ == "__main__":
    main()
