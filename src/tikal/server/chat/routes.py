"""The chat's HTTP routes: a game's lines (``GET``, for a page opening, a reconnect and a
replay) and a line posted (``POST``, with the seat's token, as moves are).  The game's
WebSocket carries ``{"type": "chat", ...}`` too (:mod:`tikal.server.routes_ws`); both go
through :class:`~.service.Chat`."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Header, Request
from pydantic import BaseModel, Field, StrictBool
from starlette.requests import HTTPConnection

from ..deps import client_of, services
from ..openapi import errors
from .model import line_json
from .service import Chat

router = APIRouter(prefix="/api", tags=["chat"])


class ChatIn(BaseModel):
    token: str | None = Field(None, max_length=64, description="or send X-Tikal-Token")
    text: str | None = Field(None, max_length=1000,
                             description="free text (at most 300 characters once spaces "
                                         "are folded; no markup or control characters)")
    phrase: str | None = Field(None, max_length=40,
                               description="or a quick phrase's key (GET /api/meta "
                                           "chat_phrases), shown in each reader's language")
    name: str | None = Field(None, max_length=64,
                             description="a spectator's name (spectators write only if "
                                         "the creator lets them)")


class ChatRoomIn(BaseModel):
    token: str | None = Field(None, max_length=64, description="or send X-Tikal-Token")
    spectators: StrictBool = Field(..., description="whether spectators may write")


def chat_of(conn: HTTPConnection) -> Chat:
    found: Chat = conn.app.state.chat
    return found


@router.get("/games/{game_id}/chat", responses=errors(400, 404, 422, 503))
async def get_chat(request: Request, game_id: str) -> dict[str, Any]:
    """The game's chat lines, oldest first (the last 200); everyone may read them;
    ``spectators``: whether spectators may write."""
    chat = chat_of(request)
    lines = await asyncio.to_thread(chat.history, game_id)
    return {"lines": lines,
            "spectators": await asyncio.to_thread(chat.store.spectators_write, game_id)}


@router.post("/games/{game_id}/chat/room", responses=errors(400, 403, 404, 408, 413, 422,
                                                              429, 503))
async def chat_room(request: Request, game_id: str, body: ChatRoomIn,
                    x_tikal_token: str | None = Header(None, description="a seat's token")
                    ) -> dict[str, Any]:
    """The game's creator (its first human seat) lets spectators write, or not (403
    ``not_creator`` for anyone else)."""
    svc = services(request)
    svc.limits.check(client_of(request), "chat")
    session = await asyncio.to_thread(svc.manager.get, game_id)
    seats = session.seats_for(body.token or x_tikal_token)
    await chat_of(request).let_spectators_write(game_id, seats, body.spectators)
    return {"spectators": body.spectators}


@router.post("/games/{game_id}/chat", status_code=201,
             responses=errors(400, 403, 404, 408, 413, 422, 429, 503))
async def post_chat(request: Request, game_id: str, body: ChatIn,
                    x_tikal_token: str | None = Header(None, description="a seat's token")
                    ) -> dict[str, Any]:
    """A line said by the token's seat (spectators may not: 403 ``chat_spectator``)."""
    svc = services(request)
    svc.limits.check(client_of(request), "chat")
    session = await asyncio.to_thread(svc.manager.get, game_id)
    seats = session.seats_for(body.token or x_tikal_token)
    line = await chat_of(request).post(game_id, seats, body.text, body.phrase, body.name)
    return {"line": line_json(line)}
