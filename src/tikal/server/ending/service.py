"""Offers to end a game early, through the manager's one path (as moves and stand-ins
go): each is a log entry that names the state it follows, so two processes never store
two ends, and a move made meanwhile wins (the offer is refused as stale)."""

from __future__ import annotations

import asyncio

from ...messages import Message
from ..errors import ServerError
from ..manager import Manager
from ..session import Session
from .model import DECLINE, ENDED, OFFER


def refused(code: str, key: str, session: Session, status: int = 409) -> ServerError:
    return ServerError(code, Message(key), status, state=session.state)


class Ending:
    def __init__(self, manager: Manager) -> None:
        self.manager = manager

    async def offer(self, game_id: str, seats: tuple[int, ...]) -> Session:
        """The token's seats offer (or accept the offer) to end the game now; the last
        player's yes ends it."""
        session = await self._open(game_id, seats)
        mine = [n for n in seats if n in session.human_seats]
        todo = [n for n in mine if n not in session.end_offers()]
        if not todo:
            raise refused("already_offered", "server.ending.already_offered", session)
        for seat in todo:
            await self.manager.note(session, OFFER, seat)
        if set(session.human_seats) <= set(session.end_offers()):
            await self.manager.note(session, ENDED, todo[-1])
        return session

    async def decline(self, game_id: str, seats: tuple[int, ...]) -> Session:
        """The token's seat says no: the offers made so far no longer stand."""
        session = await self._open(game_id, seats)
        if not session.end_offers():
            raise refused("no_end_offer", "server.ending.no_offer", session)
        await self.manager.note(session, DECLINE, seats[0])
        return session

    async def _open(self, game_id: str, seats: tuple[int, ...]) -> Session:
        session = await asyncio.to_thread(self.manager.get, game_id)
        if not [n for n in seats if n in session.human_seats]:
            raise refused("not_a_player", "server.ending.not_a_player", session, 403)
        if session.over:
            raise refused("game_over", "server.clock.over", session)
        if len(session.human_seats) < 2:  # against bots only: leaving is the way out
            raise refused("end_needs_players", "server.ending.needs_players", session)
        return session
