"""Live connections: the WebSockets of each game, and broadcasting after every change.

The manager's change notices (from any thread: a request, a bot) end up in
:meth:`Hub.notify`; the hub builds one state message per distinct set of seats among
the game's connections (off the event loop) and queues it to each connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from .manager import Manager
from .messages import build_message
from .session import Session


@dataclass(eq=False)
class Connection:
    websocket: WebSocket
    seats: tuple[int, ...]
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)

    async def send_queued(self) -> None:
        """Send queued messages in order; a state older than one already sent is dropped
        (two broadcasts built concurrently may finish out of order)."""
        last_state = -1
        with contextlib.suppress(Exception):
            while True:
                message = await self.queue.get()
                if message.get("type") == "state":
                    if message["state"] < last_state:
                        continue
                    last_state = message["state"]
                await self.websocket.send_text(json.dumps(message))


def message_for(session: Session, seats: tuple[int, ...]) -> dict[str, Any]:
    """The state message for ``seats``, built under the session's lock."""
    with session.lock:
        return build_message(session, seats)


def messages_for(session: Session, groups: set[tuple[int, ...]]) -> dict[tuple[int, ...], Any]:
    with session.lock:
        return {seats: build_message(session, seats) for seats in groups}


class Hub:
    """WebSocket connections per game; the manager's change notices end up here."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager
        self.games: dict[str, set[Connection]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._pending: set[str] = set()

    def notify(self, game_id: str) -> None:
        """Called from any thread after a game changed."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._schedule, game_id)

    def _schedule(self, game_id: str) -> None:
        if game_id in self._pending or not self.games.get(game_id):
            return
        self._pending.add(game_id)
        asyncio.get_running_loop().create_task(self._broadcast(game_id))

    async def _broadcast(self, game_id: str) -> None:
        await asyncio.sleep(0)
        self._pending.discard(game_id)
        conns = list(self.games.get(game_id, ()))
        if not conns:
            return
        session = self.manager.get(game_id)
        messages = await asyncio.to_thread(messages_for, session, {c.seats for c in conns})
        for conn in conns:
            conn.queue.put_nowait(messages[conn.seats])

    def add(self, game_id: str, conn: Connection) -> None:
        self.games.setdefault(game_id, set()).add(conn)

    def remove(self, game_id: str, conn: Connection) -> None:
        conns = self.games.get(game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.games[game_id]
