"""The ASGI app: pages, a JSON API (OpenAPI at /docs) and WebSockets for live games.

``create_app(db_path)`` builds everything; ``tikal serve`` runs it with uvicorn.
The API is documented in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..components import RULE_SET_NAMES, rule_set
from ..errors import RecordError
from .manager import Manager, ServerError, Session, bot_names, build_message, hint_bot_name
from .replay import Replay
from .storage import SqliteStorage, Storage

MAX_BODY = 64 * 1024
MAX_RECORD_BODY = 4 * 1024 * 1024
MAX_WS_MESSAGE = 4096

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def static_dir() -> Path:
    return Path(str(resources.files("tikal").joinpath("static")))


# ------------------------------------------------------------------ body limit


class BodyLimit:
    """Refuse request bodies over a size limit with a clear 413 JSON error."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        limit = MAX_RECORD_BODY if scope["path"].startswith("/api/replays") else MAX_BODY
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > limit:
                await _send_json(send, 413, {
                    "type": "error", "code": "too_large",
                    "message": f"request body over {limit} bytes",
                })
                return
            chunks.append(body)
            more = message.get("more_body", False)
        data = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}

        await self.app(scope, replay, send)


async def _send_json(send: Send, status: int, payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    await send({
        "type": "http.response.start", "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
    })
    await send({"type": "http.response.body", "body": body})


# ------------------------------------------------------------------ API models


class SeatIn(BaseModel):
    kind: str = Field("human", description="'human' or 'bot'")
    name: str | None = Field(None, max_length=24)
    level: str | None = Field(None, description="bot level, see GET /api/meta")


class CreateGame(BaseModel):
    rules: str = Field("standard", description="standard, auction or demo")
    seats: list[SeatIn] = Field(..., min_length=2, max_length=4)
    options: dict[str, Any] = Field(default_factory=dict)
    hotseat: bool = Field(False, description="one extra token that plays every human seat")
    seed: int | None = Field(None, description="fixed shuffle (tests); random if omitted")


class ActionIn(BaseModel):
    action: str = Field(..., max_length=64, description="an action, e.g. 'move W F3 G3'")
    state: int = Field(
        ..., strict=True, description="the state counter of the position the move is for"
    )
    token: str | None = Field(None, max_length=64, description="or send X-Tikal-Token")


class UndoIn(BaseModel):
    state: int = Field(..., strict=True)
    token: str | None = Field(None, max_length=64)


class TokenIn(BaseModel):
    token: str | None = Field(None, max_length=64)


# ------------------------------------------------------------------ live connections


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    seats: tuple[int, ...]
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)


class Hub:
    """WebSocket connections per game; the manager's change notices end up here."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager
        self.games: dict[str, set[Connection]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._pending: set[str] = set()

    def notify(self, game_id: str) -> None:
        """Called from any thread after a game changed."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._schedule, game_id)

    def _schedule(self, game_id: str) -> None:
        if game_id in self._pending or not self.games.get(game_id):
            return
        self._pending.add(game_id)
        asyncio.get_running_loop().create_task(self._broadcast(game_id))

    async def _broadcast(self, game_id: str) -> None:
        await asyncio.sleep(0)
        self._pending.discard(game_id)
        conns = list(self.games.get(game_id, ()))
        if not conns:
            return
        session = self.manager.get(game_id)
        groups = {c.seats for c in conns}
        messages = await asyncio.to_thread(_build_all, session, groups)
        for conn in conns:
            conn.queue.put_nowait(messages[conn.seats])

    def add(self, game_id: str, conn: Connection) -> None:
        self.games.setdefault(game_id, set()).add(conn)

    def remove(self, game_id: str, conn: Connection) -> None:
        conns = self.games.get(game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.games[game_id]


def _build_all(session: Session, groups: set[tuple[int, ...]]) -> dict[tuple[int, ...], Any]:
    with session.lock:
        return {seats: build_message(session, seats) for seats in groups}


# ------------------------------------------------------------------ rules page


RULE_ID = re.compile(r"\[([A-Z]+-\d+)\]")


def rules_markdown() -> tuple[str, str]:
    """The rules text: the project's docs/rules.md when present, else the bundled summary."""
    candidates = [
        Path(__file__).resolve().parents[3] / "docs" / "rules.md",
        static_dir() / "rules.md",
    ]
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8"), str(path)
    return "# Rules\n\nThe rules text is missing from this installation.\n", ""


def _plain(text: str) -> str:
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)  # markdown links
    text = text.replace("**", "").replace("`", "")
    return " ".join(text.split())


def rule_summaries(text: str) -> dict[str, str]:
    """Rule id -> its text, from paragraphs that start with the id (or its anchor)."""
    found: dict[str, str] = {}
    for block in re.split(r"\n\s*\n", text):
        items = re.split(r"\n(?=\s*[-*] )", block)
        for item in items:
            anchor = re.search(r'<a id="([A-Z]+-\d+)"', item)
            plain = _plain(item).lstrip("-* ")
            lead = re.match(r"\[?([A-Z]+-\d+)\]?[.:]?\s*", plain)
            rule = anchor.group(1) if anchor else (lead.group(1) if lead else None)
            if rule is None or rule in found:
                continue
            if lead and lead.group(1) == rule:
                plain = plain[lead.end():]
            found[rule] = plain
    return found


def render_rules() -> tuple[str, dict[str, str]]:
    """(HTML body, rule id -> plain text) with an anchor per rule id."""
    from markdown_it import MarkdownIt

    from ..rulebook import rule_texts, rulebook_text

    text = rulebook_text()
    summaries = rule_texts()
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    seen: set[str] = set(re.findall(r'id="([A-Z]+-\d+)"', html))

    def anchor(m: re.Match[str]) -> str:
        rule = m.group(1)
        if rule in seen:
            return f'<a class="rule-id" href="#{rule}">[{rule}]</a>'
        seen.add(rule)
        return f'<a class="rule-id" id="{rule}" href="#{rule}">[{rule}]</a>'

    html = re.sub(r"\[([A-Z]+-\d+)\](?![^<]*</a>)", anchor, html)
    return html, summaries


RULES_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Tikal rules</title><link rel="stylesheet" href="/static/app.css"></head>
<body class="rules-page"><header class="top"><a class="brand" href="/">Tikal</a>
<nav><a href="/">New game</a><a href="/rules">Rules</a><a href="/docs">API</a></nav></header>
<main class="rules">__BODY__</main>
<script>
const h = location.hash.slice(1);
if (h) { const el = document.getElementById(h); if (el) { const li = el.closest('li,p,h2,h3') || el;
li.classList.add('target-rule'); } }
window.addEventListener('hashchange', () => location.reload());
</script></body></html>"""


# ------------------------------------------------------------------ app


def create_app(
    db_path: str | Path = "tikal.sqlite3", *, storage: Storage | None = None,
    bot_delay: float = 0.6,
) -> FastAPI:
    """The web app; every game lives in the SQLite file ``db_path`` (or ``storage``)."""
    store: Storage = storage if storage is not None else SqliteStorage(db_path)
    manager = Manager(store, bot_delay=bot_delay)
    hub = Hub(manager)
    manager.add_listener(hub.notify)
    replays: OrderedDict[str, Replay] = OrderedDict()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        await asyncio.to_thread(manager.resume_all)
        yield
        manager.close()
        hub.loop = None

    app = FastAPI(
        title="Tikal",
        version="1",
        summary="Play Tikal in the browser: hot-seat, by invite link, against bots; replays.",
        description="A JSON API beside the WebSocket `/ws/{game_id}`; see docs/web.md.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit)
    app.state.manager = manager
    app.state.hub = hub
    app.state.storage = store

    @app.exception_handler(ServerError)
    async def server_error(request: Request, exc: ServerError) -> JSONResponse:
        return JSONResponse(exc.to_json(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors():
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            if err.get("type") == "json_invalid":
                problems.append("malformed JSON in the request body")
            else:
                problems.append(f"{where or 'body'}: {err.get('msg')}")
        return JSONResponse(
            {"type": "error", "code": "bad_request", "message": "; ".join(problems)},
            status_code=400,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse(
                {"type": "error", "code": "not_found" if exc.status_code == 404 else "http",
                 "message": str(exc.detail)},
                status_code=exc.status_code,
            )
        if exc.status_code == 404:
            return HTMLResponse(_page("404.html"), status_code=404)
        return JSONResponse({"message": str(exc.detail)}, status_code=exc.status_code)

    # -- pages ---------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(static_dir() / "index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play(game_id: str) -> FileResponse:
        return FileResponse(static_dir() / "game.html")

    @app.get("/replay/{replay_id}", include_in_schema=False)
    async def replay_page(replay_id: str) -> FileResponse:
        return FileResponse(static_dir() / "replay.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> HTMLResponse:
        body, _ = await asyncio.to_thread(render_rules)
        return HTMLResponse(RULES_PAGE.replace("__BODY__", body))

    app.mount("/static", StaticFiles(directory=static_dir()), name="static")

    # -- API -------------------------------------------------------------------

    @app.get("/api/meta", tags=["games"])
    async def meta() -> dict[str, Any]:
        """Rule sets (players, options, costs), bot levels, and the hint bot."""
        sets = {}
        for name in RULE_SET_NAMES:
            rs = rule_set(name)
            sets[name] = {
                "players": list(rs.player_counts), "options": rs.default_options,
                "action_points": rs.action_points, "costs": rs.costs,
                "actions": sorted(rs.actions), "tiles": len(rs.terrain),
            }
        return {"rulesets": sets, "bots": bot_names(), "hint_bot": hint_bot_name()}

    @app.get("/api/rules", tags=["rules"])
    async def rules_json() -> dict[str, str]:
        """Every rule id with its text (for explaining refused moves)."""
        _, summaries = await asyncio.to_thread(render_rules)
        return summaries

    @app.get("/api/games", tags=["games"])
    async def list_games() -> list[dict[str, Any]]:
        """Recent games (no tokens)."""
        return await asyncio.to_thread(store.listing)

    @app.post("/api/games", tags=["games"], status_code=201)
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        """Create a game. The answer holds each human seat's secret token (shown once)."""
        session, links = await asyncio.to_thread(
            manager.create, body.rules, [s.model_dump() for s in body.seats], body.options,
            body.hotseat, body.seed,
        )
        base = str(request.base_url).rstrip("/")
        for seat in links["seats"]:
            if seat["token"]:
                seat["url"] = f"{base}/play/{session.game_id}#t={seat['token']}"
        hot = links["hotseat_token"]
        return {
            "id": session.game_id,
            "state": session.state,
            "seats": links["seats"],
            "hotseat_token": hot,
            "hotseat_url": f"{base}/play/{session.game_id}#t={hot}" if hot else None,
            "spectator_url": f"{base}/play/{session.game_id}",
            "replay_url": f"{base}/replay/{session.game_id}",
        }

    def token_of(header: str | None, body_token: str | None = None) -> str | None:
        return body_token or header or None

    @app.get("/api/games/{game_id}", tags=["games"])
    async def get_game(
        game_id: str, x_tikal_token: str | None = Header(None, max_length=64)
    ) -> dict[str, Any]:
        """The position as this token's seat(s) see it (spectator view without a token)."""
        session = await asyncio.to_thread(manager.get, game_id)
        seats = manager.seats_for(session, x_tikal_token)
        return await asyncio.to_thread(_build_one, session, seats)

    @app.post("/api/games/{game_id}/actions", tags=["play"])
    async def post_action(
        game_id: str, body: ActionIn, x_tikal_token: str | None = Header(None, max_length=64)
    ) -> dict[str, Any]:
        """Play one action. Refused moves answer 4xx with code, message and rule id."""
        token = token_of(x_tikal_token, body.token)
        session = await asyncio.to_thread(manager.act, game_id, token, body.action, body.state)
        return await asyncio.to_thread(_build_one, session, manager.seats_for(session, token))

    @app.post("/api/games/{game_id}/undo", tags=["play"])
    async def post_undo(
        game_id: str, body: UndoIn, x_tikal_token: str | None = Header(None, max_length=64)
    ) -> dict[str, Any]:
        """Take back the last action of this turn (never across a reveal)."""
        token = token_of(x_tikal_token, body.token)
        session = await asyncio.to_thread(manager.undo, game_id, token, body.state)
        return await asyncio.to_thread(_build_one, session, manager.seats_for(session, token))

    @app.post("/api/games/{game_id}/hint", tags=["play"])
    async def post_hint(
        game_id: str, body: TokenIn, x_tikal_token: str | None = Header(None, max_length=64)
    ) -> dict[str, Any]:
        """A suggested action from the strongest available bot."""
        return await asyncio.to_thread(manager.hint, game_id, token_of(x_tikal_token, body.token))

    @app.get("/api/games/{game_id}/record", tags=["replays"])
    async def get_record(game_id: str) -> JSONResponse:
        """The game record (tikal-record JSON) as a download."""
        data = await asyncio.to_thread(manager.record, game_id)
        return JSONResponse(
            data, headers={"Content-Disposition": f'attachment; filename="tikal-{game_id}.json"'}
        )

    @app.post("/api/replays", tags=["replays"], status_code=201)
    async def upload_record(request: Request) -> dict[str, Any]:
        """Upload a record (JSON body) to view it as a replay."""
        raw = await request.body()
        try:
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ServerError("bad_request", f"malformed JSON: {exc}") from None
        replay_id = await asyncio.to_thread(manager.upload, record)
        return {"id": replay_id, "url": f"/replay/{replay_id}"}

    def load_replay(replay_id: str) -> Replay:
        found = replays.get(replay_id)
        if found is not None:
            replays.move_to_end(replay_id)
            return found
        record, names = manager.replay_source(replay_id)
        try:
            replay = Replay(replay_id, record, names)
        except RecordError as exc:
            raise ServerError("bad_record", str(exc), 422) from None
        if not replay_id.startswith("r"):
            session = manager.get(replay_id)
            if not session.game.is_over:
                return replay  # a game in progress changes; do not cache
        replays[replay_id] = replay
        while len(replays) > 32:
            replays.popitem(last=False)
        return replay

    @app.get("/api/replays/{replay_id}", tags=["replays"])
    async def get_replay(replay_id: str) -> dict[str, Any]:
        """A replay's players and every step (seat, notation, text)."""
        replay = await asyncio.to_thread(load_replay, replay_id)
        return replay.summary()

    @app.get("/api/replays/{replay_id}/frames/{step}", tags=["replays"])
    async def get_frame(replay_id: str, step: int) -> dict[str, Any]:
        """The public position after ``step`` steps (0 = the start), with its SVG."""
        replay = await asyncio.to_thread(load_replay, replay_id)
        return await asyncio.to_thread(replay.frame, step)

    # -- WebSocket -------------------------------------------------------------

    @app.websocket("/ws/{game_id}")
    async def websocket(ws: WebSocket, game_id: str) -> None:
        """Protocol: see docs/web.md. First message {"type": "hello", "token": ...}."""
        await ws.accept()
        try:
            session = await asyncio.to_thread(manager.get, game_id)
        except ServerError as exc:
            await ws.send_json(exc.to_json())
            await ws.close(code=4404)
            return
        try:
            hello = await asyncio.wait_for(ws.receive_text(), timeout=15)
            data = _parse_ws(hello)
            if data.get("type") != "hello":
                raise ServerError("bad_request", "the first message must be {'type': 'hello'}")
            token = data.get("token") or None
            if token is not None and not isinstance(token, str):
                raise ServerError("bad_token", "the token must be a string", 403)
            seats = manager.seats_for(session, token)
        except ServerError as exc:
            await ws.send_json(exc.to_json())
            await ws.close(code=4403 if exc.status == 403 else 4400)
            return
        except (TimeoutError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await ws.close(code=4408)
            return
        conn = Connection(ws, seats)
        hub.add(game_id, conn)
        sender = asyncio.create_task(_sender(ws, conn, hub, game_id))
        conn.queue.put_nowait(await asyncio.to_thread(_build_one, session, seats))
        try:
            while True:
                text = await ws.receive_text()
                for reply in await _handle_ws(manager, session, game_id, token, seats, text):
                    conn.queue.put_nowait(reply)
        except WebSocketDisconnect:
            pass
        finally:
            hub.remove(game_id, conn)
            sender.cancel()

    return app


def _build_one(session: Session, seats: tuple[int, ...]) -> dict[str, Any]:
    with session.lock:
        return build_message(session, seats)


def _page(name: str) -> str:
    path = static_dir() / name
    return path.read_text(encoding="utf-8") if path.is_file() else "<h1>Not found</h1>"


def _parse_ws(text: str) -> dict[str, Any]:
    if len(text) > MAX_WS_MESSAGE:
        raise ServerError("too_large", f"messages are limited to {MAX_WS_MESSAGE} characters", 413)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ServerError("bad_request", f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ServerError("bad_request", "a message is a JSON object with a 'type'")
    return data


async def _handle_ws(
    manager: Manager, session: Session, game_id: str, token: str | None,
    seats: tuple[int, ...], text: str,
) -> list[dict[str, Any]]:
    """One client message; returns direct replies (acks, errors, hints)."""
    try:
        data = _parse_ws(text)
        kind = data.get("type")
        if kind == "action":
            await asyncio.to_thread(
                manager.act, game_id, token, data.get("action"), data.get("state")
            )
            return [{"type": "ack", "state": session.state}]
        if kind == "undo":
            await asyncio.to_thread(manager.undo, game_id, token, data.get("state"))
            return [{"type": "ack", "state": session.state}]
        if kind == "hint":
            return [await asyncio.to_thread(manager.hint, game_id, token)]
        if kind == "ping":
            return [{"type": "pong", "state": session.state}]
        if kind == "sync":
            return [await asyncio.to_thread(_build_one, session, seats)]
        raise ServerError("bad_request", f"unknown message type {kind!r}")
    except ServerError as exc:
        replies = [exc.to_json()]
        if exc.code == "stale":
            replies.append(await asyncio.to_thread(_build_one, session, seats))
        return replies


async def _sender(ws: WebSocket, conn: Connection, hub: Hub, game_id: str) -> None:
    """Send queued messages in order; a state older than one already sent is dropped
    (two broadcasts built concurrently may finish out of order)."""
    last_state = -1
    with contextlib.suppress(Exception):
        while True:
            message = await conn.queue.get()
            if message.get("type") == "state":
                if message["state"] < last_state:
                    continue
                last_state = message["state"]
            await ws.send_text(json.dumps(message))
