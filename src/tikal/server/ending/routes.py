"""``POST /api/games/{id}/end`` (offer, or accept the offer) and ``/end/decline``, with
a seat's token as moves are; the game's connections see ``end_offers`` and
``ended_early`` in their next state (:class:`~.service.Ending`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Request
from starlette.requests import HTTPConnection

from ..deps import TokenIn, seats_asking
from ..openapi import errors
from ..session import Session
from .service import Ending

router = APIRouter(prefix="/api", tags=["games"])
ERRORS = errors(400, 403, 404, 408, 409, 413, 422, 429, 503)


def ending_of(conn: HTTPConnection) -> Ending:
    found: Ending = conn.app.state.ending
    return found


def answer(session: Session) -> dict[str, Any]:
    return {"state": session.state, "end_offers": session.end_offers(),
            "ended_early": session.ended_early, "winners": session.winners}


@router.post("/games/{game_id}/end", responses=ERRORS)
async def offer_end(request: Request, game_id: str, body: TokenIn,
                    x_tikal_token: str | None = Header(None, description="a seat's token")
                    ) -> dict[str, Any]:
    """Offer to end the game now with the scores as they stand, or accept the offer;
    when every player has, the game is over (``ended_early``).  Any move withdraws the
    offers (409 ``already_offered``, ``game_over``; 403 ``not_a_player``)."""
    seats = await seats_asking(request, game_id, body.token or x_tikal_token)
    return answer(await ending_of(request).offer(game_id, seats))


@router.post("/games/{game_id}/end/decline", responses=ERRORS)
async def decline_end(request: Request, game_id: str, body: TokenIn,
                      x_tikal_token: str | None = Header(None, description="a seat's token")
                      ) -> dict[str, Any]:
    """Say no to the offer to end the game: the game goes on (409 ``no_end_offer``)."""
    seats = await seats_asking(request, game_id, body.token or x_tikal_token)
    return answer(await ending_of(request).decline(game_id, seats))
