"""Security headers on every answer, trusted hosts, the WebSocket's Origin and the public
URL of invite links (``tikal.server.security``), in-process and on a real ``tikal serve``.

Before these layers no answer carried any of the headers, a WebSocket from any Origin
was accepted and ``Host: evil.example`` gave invite links on evil.example.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tikal.server import create_app
from tikal.server.security import ORIGIN_REFUSED, SecuritySettings, default_hosts
from web_helpers import ServerProcess

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TWO = [{"kind": "human"}, {"kind": "human"}]
#: Headers every answer has, and a part of each value that matters.
EVERY_ANSWER = {
    "content-security-policy": "frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "permissions-policy": "camera=()",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(tmp_path / "sec.sqlite3", bot_delay=0.0, security=SecuritySettings(
        allowed_hosts=("testserver", "play.example"), allowed_origins=("https://friend.example",)))


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def assert_hardened(response: httpx.Response) -> None:
    for name, part in EVERY_ANSWER.items():
        assert part in response.headers.get(name, ""), (response.url, name, response.headers)


def test_every_kind_of_answer_carries_the_headers(
    client: TestClient, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = client.post("/api/games", json={"seats": TWO}).json()
    gid = game["id"]
    answers = [client.get(path) for path in (
        "/", f"/play/{gid}", f"/replay/{gid}", "/rules", "/rules/de", "/learn", "/nope",
        "/api/meta", "/api/games", f"/api/games/{gid}", "/api/games/nope",
        "/static/app.css", "/static/game/main.js", "/favicon.ico", "/openapi.json", "/docs")]
    answers.append(client.post("/api/replays", content=b"x" * (5 * 1024 * 1024),
                               headers={"content-type": "application/json"}))  # 413
    answers.append(client.post("/api/games", json={"seats": []}))  # 400
    answers.append(client.get("/", headers={"Host": "evil.example"}))  # 400 host
    monkeypatch.setattr(app.state.manager, "get", lambda game_id: 1 / 0)
    answers.append(client.get(f"/api/games/{gid}"))  # 500 from the framework's error layer
    assert {r.status_code for r in answers} >= {200, 400, 404, 413, 500}
    assert answers[12].status_code == 200  # a static script of the game page
    for response in answers:
        assert_hardened(response)


def test_the_pages_policy_allows_only_the_servers_own_scripts(client: TestClient) -> None:
    policy = client.get("/").headers["content-security-policy"]
    rules = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert rules["default-src"] == "'none'" and rules["script-src"] == "'self'"
    assert rules["frame-ancestors"] == "'none'" and rules["base-uri"] == "'none'"
    assert "unsafe-inline" not in rules["style-src"] and "'sha256-" in rules["style-src"]
    docs = client.get("/docs").headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in docs and "https://cdn.jsdelivr.net" not in policy


def test_hsts_only_over_https(app: Any) -> None:
    with TestClient(app, base_url="https://testserver") as secure:
        assert secure.get("/api/meta").headers["strict-transport-security"].startswith(
            "max-age=")
    with TestClient(app) as plain:
        assert "strict-transport-security" not in plain.get("/api/meta").headers


def test_a_foreign_host_is_refused_and_invite_links_use_an_allowed_one(
    client: TestClient,
) -> None:
    assert client.get("/api/meta", headers={"Host": "evil.example"}).status_code == 400
    made = client.post("/api/games", json={"seats": TWO}, headers={"Host": "evil.example"})
    assert made.status_code == 400
    made = client.post("/api/games", json={"seats": TWO}, headers={"Host": "play.example"})
    assert made.json()["seats"][0]["url"].startswith("http://play.example/play/")


def test_invite_links_use_the_public_url_whatever_the_host(tmp_path: Path) -> None:
    app = create_app(tmp_path / "pub.sqlite3", security=SecuritySettings(
        public_url="https://tikal.example/"))
    with TestClient(app) as client:
        game = client.post("/api/games", json={"seats": TWO, "hotseat": True},
                           headers={"Host": "evil.example"}).json()
    links = [s["url"] for s in game["seats"]] + [
        game["hotseat_url"], game["spectator_url"], game["replay_url"]]
    assert all(link.startswith(f"https://tikal.example/{kind}/{game['id']}")
               for link, kind in zip(links, ["play"] * 3 + ["play", "replay"], strict=True))


def hello(client: TestClient, gid: str, origin: str | None) -> str:
    headers = {"origin": origin} if origin else {}
    with client.websocket_connect(f"/ws/{gid}", headers=headers) as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        kind: str = ws.receive_json()["type"]
        return kind


def test_a_websocket_from_another_site_is_refused(client: TestClient) -> None:
    gid = client.post("/api/games", json={"seats": TWO}).json()["id"]
    for origin in (None, "http://testserver", "https://friend.example", "HTTPS://Friend.Example"):
        assert hello(client, gid, origin) == "state", origin
    for origin in ("https://evil.example", "http://testserver.evil.example", "null",
                   "http://play.example"):
        with pytest.raises(WebSocketDisconnect) as refused:
            hello(client, gid, origin)
        assert refused.value.code == ORIGIN_REFUSED, origin


def test_default_hosts_of_tikal_serve() -> None:
    assert "evil.example" not in default_hosts("127.0.0.1", None)
    assert "localhost" in default_hosts("127.0.0.1", None)
    assert default_hosts("0.0.0.0", None) == ("*",)
    assert default_hosts("0.0.0.0", "https://tikal.example")[0] == "tikal.example"


# ------------------------------------------------------------------ a real tikal serve


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("sec") / "sec.sqlite3").start()
    yield proc
    proc.stop()


def test_tikal_serve_on_loopback_answers_only_loopback_names(served: ServerProcess) -> None:
    evil = httpx.post(f"{served.url}/api/games", json={"seats": TWO},
                      headers={"Host": "evil.example"})
    assert evil.status_code == 400
    made = httpx.post(f"{served.url}/api/games", json={"seats": TWO})
    assert made.json()["seats"][0]["url"].startswith(f"{served.url}/play/")
    assert_hardened(made)
    assert httpx.get(f"http://localhost:{served.port}/api/meta").status_code == 200


async def ws_status(url: str, origin: str | None) -> str:
    headers = {"Origin": origin} if origin else {}
    try:
        async with websockets.connect(url, additional_headers=headers, open_timeout=5) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            return str(json.loads(await ws.recv())["type"])
    except websockets.InvalidStatus as exc:
        return str(exc.response.status_code)


@pytest.mark.slow  # a real tikal serve (about 4 s with its start and stop)
def test_tikal_serve_refuses_a_foreign_origin_at_the_handshake(served: ServerProcess) -> None:
    gid = httpx.post(f"{served.url}/api/games", json={"seats": TWO}).json()["id"]
    url = f"ws://127.0.0.1:{served.port}/ws/{gid}"
    assert asyncio.run(ws_status(url, f"http://127.0.0.1:{served.port}")) == "state"
    assert asyncio.run(ws_status(url, None)) == "state"
    assert asyncio.run(ws_status(url, "https://evil.example")) == "403"


def test_a_public_url_that_is_not_one_is_refused(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tikal.cli import app

    result = CliRunner().invoke(app, ["serve", "--public-url", "https://x.example/tikal",
                                      "--db", str(tmp_path / "x.sqlite3")])
    assert result.exit_code != 0 and "--public-url" in result.output
