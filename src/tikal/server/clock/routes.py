"""A seat handed to a stand-in bot by its player, and taken back (``POST``, with the
seat's token as moves are); the time-out hand-over needs no request
(:class:`~.service.Clocks`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Request
from starlette.requests import HTTPConnection

from ..deps import TokenIn, seats_asking
from ..openapi import errors
from ..session import Session
from .service import Clocks

router = APIRouter(prefix="/api", tags=["games"])


def clocks_of(conn: HTTPConnection) -> Clocks:
    found: Clocks = conn.app.state.clocks
    return found


def answer(session: Session) -> dict[str, Any]:
    return {"state": session.state,
            "standins": {str(seat): level for seat, level in session.standins().items()}}


@router.post("/games/{game_id}/away", responses=errors(400, 403, 404, 408, 409, 413, 422,
                                                         429, 503))
async def away(request: Request, game_id: str, body: TokenIn,
               x_tikal_token: str | None = Header(None, description="a seat's token")
               ) -> dict[str, Any]:
    """A bot (the time control's stand-in level, else medium) plays the token's seats
    until their player comes back (409 ``already_away``, ``game_over``)."""
    seats = await seats_asking(request, game_id, body.token or x_tikal_token)
    return answer(await clocks_of(request).away(game_id, seats))


@router.post("/games/{game_id}/back", responses=errors(400, 403, 404, 408, 409, 413, 422,
                                                         429, 503))
async def back(request: Request, game_id: str, body: TokenIn,
               x_tikal_token: str | None = Header(None, description="a seat's token")
               ) -> dict[str, Any]:
    """The token's seats that a stand-in plays are their player's again (409
    ``not_away``); a real-time seat has at least a little time to move
    (docs/web.md, Time controls)."""
    seats = await seats_asking(request, game_id, body.token or x_tikal_token)
    return answer(await clocks_of(request).back(game_id, seats))
