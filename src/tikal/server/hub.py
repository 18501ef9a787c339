"""Live connections: the WebSockets of each game, and broadcasting after every change.

The manager's change notices (from any thread: a request, a bot, another process) end
up in :meth:`Hub.notify`.  Per game at most one broadcast runs at a time (a notice that
comes meanwhile makes it run once more): it takes the game's latest
:class:`~tikal.server.round.snapshot.Snapshot` (built off the event loop, once for every
connection) and queues to each connection a ``delta`` if that connection holds the
previous snapshot, else the full ``state``.  Messages are encoded by
:func:`tikal.server.wire.codec.encode`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from .manager import Manager
from .round.snapshot import Publisher, Snapshot
from .session import Session
from .wire.codec import encode
from .wire.schema import DeltaMessage, SeatPart, StateMessage

log = logging.getLogger("tikal.server")


#: Bytes of messages one connection may have waiting for its reader.  Past it the states
#: and deltas waiting are dropped (a fresh full state follows once the reader has caught
#: up); if the other replies alone are past it, the connection is closed with
#: :data:`TOO_FAR_BEHIND`.  A full state is 17-40 KB, a delta 2-4 KB.
MAX_QUEUED = 512 * 1024
#: Close code of a connection whose reader fell too far behind (docs/web.md, Limits).
TOO_FAR_BEHIND = 4429


@dataclass(eq=False)
class Connection:
    """One WebSocket and what it was sent last (the snapshot and its seat part).

    What waits to be sent is bounded (:data:`MAX_QUEUED`): a reader that does not keep
    up never holds more than that in this process's memory.  Before the bound, three
    sockets that sent 10,000 ``sync`` each and never read raised the server's RSS by
    488 MB in 11 s."""

    websocket: WebSocket
    seats: tuple[int, ...]
    language: str = "en"
    queue: deque[tuple[bool, str]] = field(default_factory=deque)  # (a state?, text)
    rev: int = -1
    had: SeatPart | None = None
    #: asks the hub for a fresh full state (set by the WebSocket route)
    resync: Callable[[], Awaitable[None]] | None = None
    #: states were dropped for this slow reader: it gets a full one when it catches up
    behind: bool = False
    #: its reader fell too far behind even without states: the route closes it
    overflowed: bool = False
    queued: int = 0
    _ready: asyncio.Event = field(default_factory=asyncio.Event)

    def put(self, message: Mapping[str, Any]) -> None:
        """Queue a message (:mod:`tikal.server.wire.schema`), encoded."""
        self._push(False, encode(message))

    def put_text(self, text: str) -> None:
        """Queue a message encoded already (one encoding for every connection of a fan-out:
        the lobby's)."""
        self._push(False, text)

    def put_snapshot(self, snap: Snapshot, full: bool = False) -> None:
        """Queue ``snap`` as a delta when this connection holds the one before, else whole
        (always whole if ``full``); nothing if it holds a newer one already."""
        if snap.rev < self.rev or (snap.rev == self.rev and not full):
            return  # it holds this snapshot or a newer one (sent while this one was built)
        message: StateMessage | DeltaMessage
        if not full and self.rev == snap.previous_rev and self.rev >= 0:
            message = snap.delta(self.seats, self.had)
        else:
            message = snap.full(self.seats)
            self.behind = False
        self.rev = max(self.rev, snap.rev)
        self.had = snap.seat(self.seats)
        self._push(True, encode(message))

    def _push(self, state: bool, text: str) -> None:
        if self.overflowed:
            return
        self.queue.append((state, text))
        self.queued += len(text)
        if self.queued > MAX_QUEUED:
            self._shed()
        self._ready.set()

    def _shed(self) -> None:
        """Drop the waiting states and deltas of a slow reader; it holds no snapshot now,
        so the next one it gets is whole.  Replies alone past the bound: overflowed."""
        replies = deque(item for item in self.queue if not item[0])
        if len(replies) < len(self.queue):
            self.behind, self.rev, self.had = True, -1, None
        self.queue = replies
        self.queued = sum(len(text) for _, text in replies)
        if self.queued > MAX_QUEUED:
            self.overflowed = True
            self.queue.clear()
            self.queued = 0

    async def send_queued(self) -> None:
        """Send queued messages in order until the connection closes; a reader that had
        states dropped gets one fresh full state once everything else has gone out."""
        with contextlib.suppress(Exception):
            while True:
                if not self.queue:
                    if self.behind and self.resync is not None:
                        self.behind = False
                        await self.resync()
                        continue
                    self._ready.clear()
                    await self._ready.wait()
                    continue
                _, text = self.queue.popleft()
                self.queued -= len(text)
                await self.websocket.send_text(text)


class Hub:
    """WebSocket connections per game; the manager's change notices end up here."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager
        self.publisher = Publisher()
        self.games: dict[str, set[Connection]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._running: set[str] = set()
        self._again: set[str] = set()

    def notify(self, game_id: str) -> None:
        """Called from any thread after a game changed."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._schedule, game_id)

    def _schedule(self, game_id: str) -> None:
        if not self.games.get(game_id):
            return
        if game_id in self._running:
            self._again.add(game_id)
            return
        self._running.add(game_id)
        asyncio.get_running_loop().create_task(self._broadcast(game_id))

    async def snapshot(
        self, session: Session, seat_sets: set[tuple[int, ...]], language: str = "en",
    ) -> Snapshot:
        """The latest snapshot in ``language`` with the seat parts of ``seat_sets`` (only
        languages somebody is connected with are built).

        A snapshot that follows one of the same game and language costs about half a
        millisecond, and is built right here on the event loop if nobody holds the game:
        a hand-off to a thread cost about 80 µs of CPU (a tenth of a move), and the GIL
        would keep the loop waiting all the same.  A first snapshot (a whole board to
        draw) or a game that a move or a bot holds is built in a thread, so the loop
        never waits for them.  The loop lets the callbacks already due run first (a
        move's ``ack`` before its delta, as with the thread)."""
        def build() -> Snapshot:
            snap = self.publisher.snapshot(session, language)
            for seats in seat_sets:
                snap.seat(seats)
            return snap
        await asyncio.sleep(0)
        if self.publisher.follows(session, language) and session.lock.acquire(blocking=False):
            try:
                return build()
            finally:
                session.lock.release()
        return await asyncio.to_thread(build)

    async def _broadcast(self, game_id: str) -> None:
        try:
            while True:
                self._again.discard(game_id)
                conns = list(self.games.get(game_id, ()))
                if not conns:
                    return
                session = self.manager.get(game_id)
                for language in sorted({c.language for c in conns}):
                    speakers = [c for c in conns if c.language == language]
                    snap = await self.snapshot(session, {c.seats for c in speakers}, language)
                    for conn in speakers:
                        conn.put_snapshot(snap)
                if game_id not in self._again:
                    return
        except Exception:
            log.exception("broadcast failed in %s", game_id)
        finally:
            self._running.discard(game_id)

    async def send_full(self, session: Session, conn: Connection) -> None:
        """The whole state to one connection (on connect, and when it asks)."""
        snap = await self.snapshot(session, {conn.seats}, conn.language)
        conn.put_snapshot(snap, full=True)

    def add(self, game_id: str, conn: Connection) -> None:
        self.games.setdefault(game_id, set()).add(conn)

    def remove(self, game_id: str, conn: Connection) -> None:
        conns = self.games.get(game_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.games[game_id]
