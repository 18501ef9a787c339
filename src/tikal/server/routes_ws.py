"""The WebSocket ``/ws/{game_id}``: hello, then moves, undos, hints; state on every change.

Protocol: see docs/web.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .deps import Services, services
from .errors import ServerError
from .hub import Connection, message_for
from .limits import MAX_WS_MESSAGE
from .session import Session

router = APIRouter()


def parse_ws(text: str) -> dict[str, Any]:
    if len(text) > MAX_WS_MESSAGE:
        raise ServerError("too_large", f"messages are limited to {MAX_WS_MESSAGE} characters", 413)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ServerError("bad_request", f"malformed JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ServerError("bad_request", "a message is a JSON object with a 'type'")
    return data


async def _hello(ws: WebSocket, session: Session) -> tuple[str | None, tuple[int, ...]]:
    """The first message: ``{"type": "hello", "token": ...}``; the token's seats."""
    data = parse_ws(await asyncio.wait_for(ws.receive_text(), timeout=15))
    if data.get("type") != "hello":
        raise ServerError("bad_request", "the first message must be {'type': 'hello'}")
    token = data.get("token") or None
    if token is not None and not isinstance(token, str):
        raise ServerError("bad_token", "the token must be a string", 403)
    return token, session.seats_for(token)


async def handle(
    svc: Services, session: Session, token: str | None, seats: tuple[int, ...], text: str,
) -> list[dict[str, Any]]:
    """One client message; returns direct replies (acks, errors, hints)."""
    manager, game_id = svc.manager, session.game_id
    try:
        data = parse_ws(text)
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
            return [await asyncio.to_thread(message_for, session, seats)]
        raise ServerError("bad_request", f"unknown message type {kind!r}")
    except ServerError as exc:
        replies = [exc.to_json()]
        if exc.code == "stale":
            replies.append(await asyncio.to_thread(message_for, session, seats))
        return replies


@router.websocket("/ws/{game_id}")
async def websocket(ws: WebSocket, game_id: str) -> None:
    """Protocol: see docs/web.md. First message {"type": "hello", "token": ...}."""
    svc = services(ws)
    await ws.accept()
    try:
        session = await asyncio.to_thread(svc.manager.get, game_id)
    except ServerError as exc:
        await ws.send_json(exc.to_json())
        await ws.close(code=4404)
        return
    try:
        token, seats = await _hello(ws, session)
    except ServerError as exc:
        await ws.send_json(exc.to_json())
        await ws.close(code=4403 if exc.status == 403 else 4400)
        return
    except (TimeoutError, WebSocketDisconnect):
        with contextlib.suppress(Exception):
            await ws.close(code=4408)
        return
    conn = Connection(ws, seats)
    svc.hub.add(game_id, conn)
    sender = asyncio.create_task(conn.send_queued())
    conn.queue.put_nowait(await asyncio.to_thread(message_for, session, seats))
    try:
        while True:
            text = await ws.receive_text()
            for reply in await handle(svc, session, token, seats, text):
                conn.queue.put_nowait(reply)
    except WebSocketDisconnect:
        pass
    finally:
        svc.hub.remove(game_id, conn)
        sender.cancel()
