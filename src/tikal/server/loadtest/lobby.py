"""The lobby's share of a load test (scenario ``lobby``): many open tables, many clients
on the live topic ``/ws/lobby``, and table changes at a steady pace while games are played.

Measured: how long a change takes from its request to each lobby client (fan-out; the
goal of issue 29 is p99 at most 250 ms with 1,000 tables and 2,000 clients on a 2-core
machine), whether every client got every change, and the sizes of the listing and of one
change's message.  Clients are spread over the servers like the games' seats (client
``i`` on server ``i mod processes``), so with several processes a change also crosses
PostgreSQL's NOTIFY.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import websockets

from .servers import Server

#: Tables opened and clients connected at once while setting up.
SETUP_CONCURRENCY = 32
#: How long after the last change a client's copy may still be on its way (s).
GRACE = 3.0


@dataclass
class LobbyStats:
    """What the lobby clients measured (seconds, bytes)."""

    fanout: list[float] = field(default_factory=list)
    changes: int = 0
    clients: int = 0
    tables: int = 0
    missed: int = 0
    listing_bytes: int = 0
    change_bytes: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


def guest() -> dict[str, str]:
    """A new guest: one secret per table opened or seat taken (the lobby's cap on open
    tables counts per player)."""
    return {"X-Tikal-Guest": secrets.token_urlsafe(18)}


class LobbyLoad:
    """Opens the tables, connects the clients, makes the changes, times their arrival."""

    def __init__(self, servers: list[Server], http: httpx.AsyncClient, tables: int,
                 clients: int, rate: float) -> None:
        self.servers = servers
        self.http = http
        self.want_tables = tables
        self.want_clients = clients
        self.rate = rate
        self.stats = LobbyStats()
        self.table_ids: list[str] = []
        self.sent: dict[str, float] = {}  # table id -> when its change was asked for
        self.seen: dict[str, int] = {}    # table id -> clients that got its change
        self.sockets: list[Any] = []
        self.readers: list[asyncio.Task[None]] = []

    def _url(self, n: int) -> str:
        return self.servers[n % len(self.servers)].url

    async def open_tables(self) -> None:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one(n: int) -> None:
            async with gate:
                reply = await self.http.post(
                    f"http://{self._url(n)}/api/lobby/tables", headers=guest(),
                    json={"rules": "standard", "players": 4, "name": f"Host {n}"})
            if reply.status_code == 201:
                self.table_ids.append(reply.json()["id"])
            else:
                self.stats.error(f"open {reply.status_code}")

        await asyncio.gather(*(one(n) for n in range(self.want_tables)))
        self.stats.tables = len(self.table_ids)

    async def connect(self) -> None:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one(n: int) -> None:
            async with gate:
                try:
                    ws = await websockets.connect(f"ws://{self._url(n)}/ws/lobby",
                                                  max_size=None, open_timeout=60)
                    first = await asyncio.wait_for(ws.recv(), 60)
                except (TimeoutError, OSError, websockets.WebSocketException):
                    self.stats.error("connect")
                    return
            self.stats.listing_bytes = max(self.stats.listing_bytes, len(first))
            self.sockets.append(ws)
            self.readers.append(asyncio.create_task(self._read(ws)))

        await asyncio.gather(*(one(n) for n in range(self.want_clients)))
        self.stats.clients = len(self.sockets)

    async def _read(self, ws: Any) -> None:
        with contextlib.suppress(websockets.WebSocketException, asyncio.CancelledError):
            async for raw in ws:
                now = time.perf_counter()
                data = orjson.loads(raw)
                if data.get("type") != "table":
                    continue
                table_id = data["table"]["id"]
                sent = self.sent.get(table_id)
                if sent is not None:
                    self.stats.fanout.append(now - sent)
                    self.seen[table_id] = self.seen.get(table_id, 0) + 1
                    self.stats.change_bytes = max(self.stats.change_bytes, len(raw))

    async def change(self, deadline: float) -> None:
        """A new guest sits down at the next table, ``rate`` times a second, until
        ``deadline``; each table is changed once (a table's arrival is then one change)."""
        period = 1.0 / self.rate
        at = time.perf_counter()
        for n, table_id in enumerate(self.table_ids):
            if at > deadline:
                break
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            self.sent[table_id] = time.perf_counter()
            reply = await self.http.post(
                f"http://{self._url(n)}/api/lobby/tables/{table_id}/join", headers=guest(),
                json={"name": f"Guest {n}"})
            if reply.status_code == 200:
                self.stats.changes += 1
            else:
                self.sent.pop(table_id, None)
                self.stats.error(f"join {reply.status_code}")
            at += period

    async def close(self) -> None:
        """Wait for the last changes to arrive, count what never did, disconnect."""
        await asyncio.sleep(GRACE)
        clients = len(self.sockets)
        self.stats.missed = sum(clients - self.seen.get(t, 0) for t in self.sent)
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)
