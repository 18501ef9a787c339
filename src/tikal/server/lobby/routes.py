"""The lobby's transport: ``/api/lobby`` (HTTP) and the WebSocket topic ``/ws/lobby``.

Who asks: a signed-in player by the session cookie (a change then needs the session's
CSRF token in ``X-CSRF-Token``, as every account change), a guest by ``X-Tikal-Guest``,
a secret the lobby page keeps in the browser (a header, not a cookie: no other site can
send it).  The logic is in :mod:`.service`; the codes are listed in docs/web.md (Lobby).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
from typing import Annotated, Any

from fastapi import APIRouter, Header, Path, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, StrictBool
from starlette.requests import HTTPConnection

from ...components import RULE_SET_NAMES
from ...messages import Message
from ..accounts.routes import accounts_of, changing, cookie_name, same_site
from ..clock.model import settings as clock_settings
from ..deps import client_of, services
from ..errors import ServerError
from ..hub import TOO_FAR_BEHIND, Connection
from ..i18n import request_language
from ..openapi import Integer, errors
from ..routes_ws import close_soon, parse_ws, receive_text
from .model import ACCOUNT_PREFIX, GUEST_PREFIX, Player, checked_spec, clean_name, settings
from .service import Lobby

router = APIRouter(tags=["lobby"])
log = logging.getLogger("tikal.server")

GUEST_PATTERN = re.compile(r"^[A-Za-z0-9_-]+$")
TableId = Annotated[str, Path(pattern="^[A-Za-z0-9_-]{1,32}$", description="a table id")]
CHANGE_ERRORS = errors(400, 401, 403, 404, 408, 409, 413, 422, 429, 503)


CLOCK_HELP = "a time control preset (GET /api/meta clock_presets); untimed if omitted"


def clock_presets() -> list[str]:
    return list(clock_settings()["presets"])


class TableIn(BaseModel):
    rules: str = Field("standard", description="standard, auction or demo",
                       json_schema_extra={"enum": list(RULE_SET_NAMES)})
    players: Integer = Field(..., ge=2, le=4, description="seats at the table")
    options: dict[str, StrictBool] = Field(default_factory=dict,
                                           description="the rule set's options")
    rated: StrictBool = Field(False, description="rated (every player signed in)")
    fill: str | None = Field(None, max_length=16, description="bot level for the seats "
                             "still free at the start: easy, medium (default) or hard")
    clock: str | None = Field(None, max_length=24, description=CLOCK_HELP,
                              json_schema_extra={"enum": [*clock_presets(), None]})
    name: str | None = Field(None, max_length=64, description="a guest's name")


class JoinIn(BaseModel):
    seat: Integer | None = Field(None, ge=0, le=3, description="a seat (0-based), or any")
    name: str | None = Field(None, max_length=64, description="a guest's name")


def lobby_of(conn: HTTPConnection) -> Lobby:
    found: Lobby = conn.app.state.lobby
    return found


def guest_id(secret: str | None) -> str | None:
    """The player id of a guest's secret (None: none, or not a well-formed one)."""
    low, high = settings()["guest_secret_min"], settings()["guest_secret_max"]
    if not secret or not low <= len(secret) <= high or not GUEST_PATTERN.match(secret):
        return None
    return GUEST_PREFIX + hashlib.sha256(secret.encode()).hexdigest()[:32]


async def asker(request: Request, name: str | None = None, *,
                change: bool = False) -> Player | None:
    """The player a request is from: the signed-in account (a change must carry the
    CSRF token), else the guest of ``X-Tikal-Guest``, else nobody."""
    if change:
        same_site(request)
    cookie = request.cookies.get(cookie_name(request))
    current = await accounts_of(request).current(cookie) if cookie else None
    if current is not None:
        if change:
            await changing(request, request.headers.get("x-csrf-token"))
        account = current.account
        return Player(ACCOUNT_PREFIX + account.account_id, account.name, account.account_id)
    player_id = guest_id(request.headers.get("x-tikal-guest"))
    if player_id is None:
        return None
    return Player(player_id, clean_name(name, "Guest"))


async def changer(request: Request, name: str | None = None) -> Player:
    """The player making a change (``no_player`` 401 without an account or guest)."""
    services(request).limits.check(client_of(request), "lobby")
    player = await asker(request, name, change=True)
    if player is None:
        raise ServerError("no_player", Message("lobby.no_player"), 401, field="X-Tikal-Guest")
    return player


Guest = Header(None, description="a guest's secret (16-64 of A-Z a-z 0-9 _ -), kept by "
               "the lobby page; signed-in players send the session cookie instead")
Csrf = Header(None, description="the session's CSRF token (signed-in changes)")


@router.get("/api/lobby", responses=errors(400, 422, 503))
async def get_lobby(request: Request, x_tikal_guest: str | None = Guest) -> dict[str, Any]:
    """Open tables (newest first), games started from the lobby to watch, and the asker's
    own tables (with its seat's invite token once started); ``you``: the asker's tag."""
    return await lobby_of(request).listing(await asker(request))


@router.post("/api/lobby/tables", status_code=201, responses=CHANGE_ERRORS)
async def create_table(request: Request, body: TableIn, x_tikal_guest: str | None = Guest,
                       x_csrf_token: str | None = Csrf) -> dict[str, Any]:
    """A new open table, the asker in its first seat."""
    player = await changer(request, body.name)
    spec = checked_spec(body.rules, body.players, body.options, body.rated, body.fill,
                        body.clock)
    lobby = lobby_of(request)
    return lobby.mine_json(await lobby.create(player, spec), player)


@router.post("/api/lobby/tables/{table_id}/join", responses=CHANGE_ERRORS)
async def join_table(request: Request, body: JoinIn, table_id: TableId,
                     x_tikal_guest: str | None = Guest,
                     x_csrf_token: str | None = Csrf) -> dict[str, Any]:
    """Take a seat (the one asked for, else the first free)."""
    player = await changer(request, body.name)
    lobby = lobby_of(request)
    return lobby.mine_json(await lobby.join(table_id, player, body.seat), player)


@router.post("/api/lobby/tables/{table_id}/leave", responses=CHANGE_ERRORS)
async def leave_table(request: Request, table_id: TableId, x_tikal_guest: str | None = Guest,
                      x_csrf_token: str | None = Csrf) -> dict[str, Any]:
    """Give the seat back; the creator leaving closes the table."""
    player = await changer(request)
    lobby = lobby_of(request)
    return lobby.mine_json(await lobby.leave(table_id, player), player)


@router.post("/api/lobby/tables/{table_id}/start", responses=CHANGE_ERRORS)
async def start_table(request: Request, table_id: TableId, x_tikal_guest: str | None = Guest,
                      x_csrf_token: str | None = Csrf) -> dict[str, Any]:
    """The creator starts the game: free seats are played by bots of the table's level."""
    player = await changer(request)
    lobby = lobby_of(request)
    return lobby.mine_json(await lobby.start(table_id, player, client_of(request)), player)


class QuickIn(BaseModel):
    rules: str = Field("standard", description="standard, auction or demo",
                       json_schema_extra={"enum": list(RULE_SET_NAMES)})
    players: Integer = Field(2, ge=2, le=4, description="players of the game")
    options: dict[str, StrictBool] = Field(default_factory=dict,
                                           description="the rule set's options")
    rated: StrictBool = Field(False, description="rated (signed in): matched by rating")
    clock: str | None = Field(None, max_length=24, description=CLOCK_HELP,
                              json_schema_extra={"enum": [*clock_presets(), None]})
    name: str | None = Field(None, max_length=64, description="a guest's name")


@router.post("/api/lobby/quick", responses=CHANGE_ERRORS)
async def quick_match(request: Request, body: QuickIn, x_tikal_guest: str | None = Guest,
                      x_csrf_token: str | None = Csrf) -> dict[str, Any]:
    """Quick match: a seat at a waiting table of the same game (rated: by rating, the
    window widening with its waiting time), else a new waiting table; the game starts
    when the table is full (``status: started``, the seat's ``token``)."""
    player = await changer(request, body.name)
    spec = checked_spec(body.rules, body.players, body.options, body.rated, None,
                        body.clock)
    lobby = lobby_of(request)
    table, started = await lobby.quick(player, spec, client_of(request))
    return {**lobby.mine_json(table, player), "matched": started}


@router.post("/api/lobby/quick/cancel", responses=CHANGE_ERRORS)
async def cancel_quick_match(request: Request, x_tikal_guest: str | None = Guest,
                             x_csrf_token: str | None = Csrf) -> dict[str, Any]:
    """Stop waiting for a quick match."""
    player = await changer(request)
    lobby = lobby_of(request)
    return lobby.mine_json(await lobby.cancel_quick(player), player)


# ------------------------------------------------------------------ the live topic


@router.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """The lobby, live: the listing at once, then a ``table`` message for every change
    of a table (on any process); ``{"type": "ping"}`` is answered with ``pong``."""
    lobby = lobby_of(ws)
    await ws.accept()
    conn = Connection(ws, (), request_language(ws))
    sender = asyncio.create_task(conn.send_queued())
    lobby.connections.add(conn)
    try:
        conn.put_text(await lobby.public_listing_text())
        while not conn.overflowed:
            text = await receive_text(ws)
            conn.put(_answer(text, conn.language))
        await close_soon(ws, TOO_FAR_BEHIND)
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass  # the client went away
    except Exception:
        log.exception("lobby websocket failed")
        with contextlib.suppress(Exception):
            await ws.close(code=1011)
    finally:
        lobby.connections.discard(conn)
        sender.cancel()


def _answer(text: str, language: str) -> dict[str, Any]:
    try:
        data = parse_ws(text)
        if data.get("type") == "ping":
            return {"type": "pong"}
        raise ServerError("bad_request", Message("error.ws.unknown_type",
                                                 {"kind": data.get("type")}))
    except ServerError as exc:
        return exc.to_json(language)
