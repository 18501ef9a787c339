"""The WebSocket ``/ws/{game_id}``: hello, then moves, undos, hints; updates on every change.

Protocol: see docs/web.md ("Protocol").  The server answers a move with a small ``ack``;
every connection of the game then gets a ``delta`` (or a full ``state`` if it missed one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..messages import Message
from .deps import Services, services
from .errors import ServerError
from .hub import TOO_FAR_BEHIND, Connection
from .i18n import request_language
from .limits import MAX_WS_MESSAGE, parse_json
from .session import Session
from .wire.codec import ack, encode, pong

router = APIRouter()
log = logging.getLogger("tikal.server")


def parse_ws(text: str) -> dict[str, Any]:
    if len(text) > MAX_WS_MESSAGE:
        raise ServerError("too_large", Message("error.ws.too_large", {"limit": MAX_WS_MESSAGE}),
                          413)
    data = parse_json(text)
    if not isinstance(data, dict):
        raise ServerError("bad_request", Message("error.ws.not_object"))
    return data


async def receive_text(ws: WebSocket) -> str:
    """The next text frame; a binary frame is refused, a closed socket ends the loop."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        return "\0binary"
    return str(text)


async def _hello(ws: WebSocket, session: Session) -> tuple[str | None, tuple[int, ...]]:
    """The first message: ``{"type": "hello", "token": ...}``; the token's seats."""
    data = parse_ws(await asyncio.wait_for(receive_text(ws), timeout=15))
    if data.get("type") != "hello":
        raise ServerError("bad_request", Message("error.ws.hello_first"))
    token = data.get("token") or None
    if token is not None and not isinstance(token, str):
        raise ServerError("bad_token", Message("error.ws.token_type"), 403)
    return token, session.seats_for(token)


async def handle(
    svc: Services, conn: Connection, game_id: str, token: str | None, text: str,
    client: str,
) -> list[Mapping[str, Any]]:
    """One client message; returns direct replies (acks, errors, hints)."""
    manager = svc.manager
    try:
        data = parse_ws(text)
        kind = data.get("type")
        if kind in ("action", "undo"):
            svc.limits.check(client, "move")
            state: Any = data.get("state")  # the session refuses anything but an int
            if kind == "action":
                session = await manager.act(game_id, token, data.get("action"), state)
            else:
                session = await manager.undo(game_id, token, state)
            return [ack(state, session.state)]
        if kind == "hint":
            svc.limits.check(client, "hint")
            return [await svc.hints.ask(manager.get(game_id), conn.seats, conn.language)]
        if kind == "ping":
            return [pong(manager.get(game_id).state)]
        if kind == "chat":  # the line reaches every connection of the game (chat/)
            svc.limits.check(client, "chat")
            chat = conn.websocket.app.state.chat
            await chat.post(game_id, conn.seats, data.get("text"), data.get("phrase"),
                            data.get("name"))
            return []
        if kind == "sync":
            svc.limits.check(client, "sync")
            await svc.hub.send_full(manager.get(game_id), conn)
            return []
        raise ServerError("bad_request", Message("error.ws.unknown_type", {"kind": kind}))
    except ServerError as exc:
        conn.put(exc.to_json(conn.language))
        if exc.code == "stale":  # then the state as it is now
            await svc.hub.send_full(manager.get(game_id), conn)
        return []


@router.websocket("/ws/{game_id}")
async def websocket(ws: WebSocket, game_id: str) -> None:
    """Protocol: see docs/web.md. First message {"type": "hello", "token": ...}."""
    svc = services(ws)
    await ws.accept()
    try:
        await _serve(svc, ws, game_id)
    except (WebSocketDisconnect, RuntimeError, ConnectionError):
        pass  # the client went away: nothing to tell anyone
    except Exception:
        log.exception("websocket of %s failed", game_id)
        with contextlib.suppress(Exception):
            await ws.close(code=1011)


async def _serve(svc: Services, ws: WebSocket, game_id: str) -> None:
    language = request_language(ws)  # ?lang=, the tikal_lang cookie, Accept-Language
    try:
        session = await asyncio.to_thread(svc.manager.get, game_id)
        token, seats = await _hello(ws, session)
    except ServerError as exc:
        await ws.send_text(encode(exc.to_json(language)))
        codes = {404: 4404, 403: 4403, 410: 4410, 503: 1013}  # 1013: try again later
        await ws.close(code=codes.get(exc.status, 4400))
        return
    except TimeoutError:
        await ws.close(code=4408)
        return
    client = ws.client.host if ws.client else "?"
    conn = Connection(ws, seats, language)
    conn.resync = lambda: svc.hub.send_full(svc.manager.get(game_id), conn)
    svc.hub.add(game_id, conn)
    sender = asyncio.create_task(conn.send_queued())
    try:
        await svc.hub.send_full(session, conn)
        while not conn.overflowed:
            text = await receive_text(ws)
            for reply in await handle(svc, conn, game_id, token, text, client):
                conn.put(reply)
        await close_soon(ws, TOO_FAR_BEHIND)  # it sent on and read nothing (hub.py)
    finally:
        svc.hub.remove(game_id, conn)
        sender.cancel()


async def close_soon(ws: WebSocket, code: int, wait: float = 1.0) -> None:
    """Close with ``code`` if the close frame can go out within ``wait`` seconds (a peer
    that reads nothing may never take it); the connection ends either way."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(ws.close(code=code), timeout=wait)
