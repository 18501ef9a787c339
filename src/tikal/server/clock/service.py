"""The seats' clocks at work: a watch that hands a seat to its stand-in bot once its
time has run out, and a player's own "a bot plays for me" / "I am back".

Every change goes through the manager's one path (:meth:`~tikal.server.manager.Manager
.change`), as a move does: the entry names the state it follows, so when several
processes watch one game on PostgreSQL the first to store it wins and the others'
``stale`` refusals are dropped.  The watch only reads each game's clock, derived from
its stored log and kept per state (:meth:`~tikal.server.session.Session.clock`), so a
tick over a thousand games in play costs a comparison each.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from ...messages import Message
from ..errors import ServerError
from ..manager import Manager
from ..session import Session
from .model import BACK, STANDIN, settings

log = logging.getLogger("tikal.server")
#: Seconds between two looks at the clocks (a seat is handed over within this much of
#: its time running out; a move after that is refused anyway: ``time_out``).
TICK = 0.25


def standin_level(session: Session) -> str:
    control = session.time_control
    return control.standin if control is not None else str(settings()["standin"])


class Clocks:
    def __init__(self, manager: Manager, clock: Callable[[], float] = time.time) -> None:
        self.manager = manager
        self.clock = clock

    async def run(self, tick: float = TICK) -> None:
        """Look at the clocks of the games in memory every ``tick`` seconds."""
        while True:
            await asyncio.sleep(tick)
            try:
                await self.check_all()
            except Exception:  # one game's trouble must not stop the watch
                log.exception("clock watch failed")

    async def check_all(self) -> int:
        """Hand over every seat whose time has run out; how many."""
        now = self.clock()
        expired = []
        for session in list(self.manager.sessions.values()):
            if session.record.clock is None or session.pending is not None:
                continue
            clock = session.clock()
            if clock is not None and clock.running is not None and clock.expired(now):
                expired.append((session, clock.running))
        for session, seat in expired:
            await self._change(session, STANDIN, seat, standin_level(session))
        return len(expired)

    async def away(self, game_id: str, seats: tuple[int, ...]) -> Session:
        """The token's seats are played by a stand-in from now on (their player leaves)."""
        session = await asyncio.to_thread(self.manager.get, game_id)
        mine = self._own(session, seats)
        playing = session.standins()
        if session.over:
            raise ServerError("game_over", Message("server.clock.over"), 409,
                              state=session.state)
        todo = [seat for seat in mine if seat not in playing]
        if not todo:
            raise ServerError("already_away", Message("server.clock.already_away"), 409,
                              state=session.state)
        for seat in todo:
            await self._change(session, STANDIN, seat, standin_level(session), strict=True)
        return session

    async def back(self, game_id: str, seats: tuple[int, ...]) -> Session:
        """The token's seats played by a stand-in are their player's again."""
        session = await asyncio.to_thread(self.manager.get, game_id)
        mine = self._own(session, seats)
        playing = session.standins()
        todo = [seat for seat in mine if seat in playing]
        if not todo:
            raise ServerError("not_away", Message("server.clock.not_away"), 409,
                              state=session.state)
        for seat in todo:
            await self._change(session, BACK, seat, None, strict=True)
        return session

    @staticmethod
    def _own(session: Session, seats: tuple[int, ...]) -> list[int]:
        mine = [seat for seat in seats if seat in session.human_seats]
        if not mine:
            raise ServerError("forbidden", Message("server.spectator"), 403)
        return mine

    async def _change(self, session: Session, kind: str, seat: int, level: str | None,
                      strict: bool = False) -> None:
        try:
            await self.manager.note(session, kind, seat, level)
        except ServerError as refused:
            if strict or refused.code != "stale":
                raise
            # another process (or a move) came first: the next tick looks again
