"""What the routes share: the server's parts, kept on ``app.state.services``."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection

from .bots import Hints
from .hub import Hub
from .keeper import Keeper
from .limits import Limits
from .manager import Manager
from .replay import Replays
from .store import Storage


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
