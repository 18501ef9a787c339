"""What the routes share: the server's parts, kept on ``app.state.services``."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from .bots import Hints
from .hub import Hub
from .keeper import Keeper
from .limits import Limits
from .manager import Manager
from .replay import Replays
from .store import Storage


class TokenIn(BaseModel):
    """A request body that carries only the seat's token (or send ``X-Tikal-Token``)."""

    token: str | None = Field(None, max_length=64, description="or send X-Tikal-Token")


@dataclass(frozen=True)
class Services:
    storage: Storage
    manager: Manager
    hub: Hub
    replays: Replays
    limits: Limits
    hints: Hints
    keeper: Keeper
    #: Start the bots' worker processes with the app (``tikal serve``), not on first use.
    warm_bots: bool = False


def services(conn: HTTPConnection) -> Services:
    """The services of the app serving ``conn`` (a request or a WebSocket)."""
    found: Services = conn.app.state.services
    return found


def client_of(conn: HTTPConnection) -> str:
    """The client's address, the key of its rate limits and game caps."""
    return conn.client.host if conn.client else "?"


async def seats_asking(conn: HTTPConnection, game_id: str, token: str | None,
                       kind: str = "move") -> tuple[int, ...]:
    """The seats of ``game_id`` that ``token`` holds, the request counted against the
    client's ``kind`` rate first (a change to a game is limited as moves are)."""
    svc = services(conn)
    svc.limits.check(client_of(conn), kind)
    session = await asyncio.to_thread(svc.manager.get, game_id)
    return session.seats_for(token)
