"""The rematch's routes: an offer seen, offered or accepted, declined, each with a seat's
token as moves are (the game's connections are told by :mod:`.service`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Request
from starlette.requests import HTTPConnection

from ..deps import TokenIn, client_of, services
from ..openapi import errors
from .service import Rematch

router = APIRouter(prefix="/api", tags=["rematch"])
CHANGE_ERRORS = errors(400, 403, 404, 408, 409, 413, 422, 429, 503)
Token = Header(None, max_length=64, description="a seat's token")


def rematch_of(conn: HTTPConnection) -> Rematch:
    found: Rematch = conn.app.state.rematch
    return found


@router.get("/games/{game_id}/rematch", responses=errors(400, 403, 404, 422, 503))
async def get_rematch(request: Request, game_id: str,
                      x_tikal_token: str | None = Token) -> dict[str, Any]:
    """The game's rematch offer (``status`` null: none yet), with the asker's own seat's
    token of the new game once it started."""
    return await rematch_of(request).view(game_id, x_tikal_token)


@router.post("/games/{game_id}/rematch", responses=CHANGE_ERRORS)
async def offer_rematch(request: Request, game_id: str, body: TokenIn,
                        x_tikal_token: str | None = Token) -> dict[str, Any]:
    """Offer a rematch of this finished game, or accept the one offered; once every
    player accepted, the new game starts (seats rotated) and ``token`` is the asker's."""
    services(request).limits.check(client_of(request), "lobby")
    return await rematch_of(request).accept(game_id, body.token or x_tikal_token,
                                            client_of(request))


@router.post("/games/{game_id}/rematch/decline", responses=CHANGE_ERRORS)
async def decline_rematch(request: Request, game_id: str, body: TokenIn,
                          x_tikal_token: str | None = Token) -> dict[str, Any]:
    """Decline the offered rematch: it ends, and is not offered again."""
    services(request).limits.check(client_of(request), "lobby")
    return await rematch_of(request).decline(game_id, body.token or x_tikal_token)
