"""A WebSocket reader that does not keep up holds a bounded amount of memory, ``sync`` is
rate limited, and a slow reader that had states dropped gets one fresh full state.

Before the bound (hub.py, ``MAX_QUEUED``) three sockets that sent 10,000 ``{"type":
"sync"}`` each and never read raised a real server's RSS from 63 to 552 MB in 11 s.
The bound tested here is the one docs/web.md states: such a flood raises the RSS by at
most :data:`FLOOD_RSS_BOUND_MB` (measured: 11.6 MB).
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tikal.server import create_app
from tikal.server.hub import MAX_QUEUED, Connection
from web_helpers import ServerProcess, rss_mb

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TWO = [{"kind": "human"}, {"kind": "human"}]
#: What 3 sockets x 10,000 unread syncs may add to the server's RSS (docs/web.md, Limits).
FLOOD_RSS_BOUND_MB = 40
SOCKETS, SYNCS = 3, 10_000


def frame(text: str) -> bytes:
    """A masked text frame (a client's), payload under 126 bytes."""
    data, mask = text.encode(), os.urandom(4)
    return bytes([0x81, 0x80 | len(data)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(data))


async def open_socket(port: int, game_id: str) -> tuple[Any, Any]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await reader.readuntil(b"\r\n\r\n")
    assert b" 101 " in head, head
    writer.write(frame('{"type":"hello"}'))
    return reader, writer


async def flood(port: int, game_id: str, pid: int) -> tuple[float, float]:
    """(RSS before, highest RSS) while the sockets send their syncs and never read."""
    before = rss_mb(pid)
    sockets = [await open_socket(port, game_id) for _ in range(SOCKETS)]
    sync = frame('{"type":"sync"}')
    peak = before
    for i in range(SYNCS):
        for _, writer in sockets:
            writer.write(sync)
        if i % 500 == 0:
            await asyncio.gather(*(writer.drain() for _, writer in sockets))
            peak = max(peak, rss_mb(pid))
    await asyncio.gather(*(writer.drain() for _, writer in sockets))
    for _ in range(20):  # the server works through what it was sent
        await asyncio.sleep(0.25)
        peak = max(peak, rss_mb(pid))
    for _, writer in sockets:
        writer.transport.abort()
    return before, peak


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("flood") / "flood.sqlite3").start()
    yield proc
    proc.stop()


def test_an_unread_sync_flood_keeps_the_servers_memory_bounded(server: ServerProcess) -> None:
    game = httpx.post(f"{server.url}/api/games", json={"seats": TWO}).json()
    assert server.proc is not None
    before, peak = asyncio.run(flood(server.port, game["id"], server.proc.pid))
    print(f"RSS {before:.1f} -> {peak:.1f} MB (+{peak - before:.1f})")
    assert peak - before <= FLOOD_RSS_BOUND_MB
    # still serving (the flood's frames may still be read off the aborted sockets: on a
    # busy machine that takes longer than httpx's default 5 s)
    assert httpx.get(f"{server.url}/api/games/{game['id']}", timeout=60).status_code == 200


def test_sync_is_rate_limited(tmp_path: Path) -> None:
    app = create_app(tmp_path / "sync.sqlite3", bot_delay=0.0)
    burst = app.state.services.limits.settings.sync.burst
    with TestClient(app) as client:
        gid = client.post("/api/games", json={"seats": TWO}).json()["id"]
        with client.websocket_connect(f"/ws/{gid}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "state"
            for _ in range(burst + 1):
                ws.send_json({"type": "sync"})
            answers = [ws.receive_json() for _ in range(burst + 1)]
    assert [a["type"] for a in answers[:burst]] == ["state"] * burst
    assert answers[-1]["code"] == "rate_limited" and answers[-1]["retry_after"] > 0


# ------------------------------------------------------------------ the queue itself


class StalledSocket:
    """The sending side of a WebSocket whose reader has stopped: every send waits until
    ``reading`` is set (as uvicorn's does when the socket's buffers are full)."""

    def __init__(self) -> None:
        self.reading = asyncio.Event()
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        await self.reading.wait()
        self.sent.append(text)


def test_a_slow_reader_has_states_dropped_and_gets_one_fresh_state(tmp_path: Path) -> None:
    import json

    app = create_app(tmp_path / "queue.sqlite3", bot_delay=0.0)
    with TestClient(app) as client:
        game = client.post("/api/games", json={"seats": TWO, "hotseat": True}).json()
    hub, manager = app.state.hub, app.state.manager
    session = manager.get(game["id"])

    async def run() -> tuple[Connection, StalledSocket, int]:
        socket = StalledSocket()
        conn = Connection(socket, (), "en")  # type: ignore[arg-type]
        resyncs = 0

        async def resync() -> None:
            nonlocal resyncs
            resyncs += 1
            await hub.send_full(session, conn)

        conn.resync = resync
        sender = asyncio.create_task(conn.send_queued())
        for _ in range(200):  # whole states until the bound drops them
            await hub.send_full(session, conn)
            assert conn.queued <= MAX_QUEUED
            if conn.behind:
                break
        assert conn.behind and not conn.overflowed and not conn.queue
        socket.reading.set()  # the reader catches up
        for _ in range(100):
            await asyncio.sleep(0.01)
        sender.cancel()
        return conn, socket, resyncs

    conn, socket, resyncs = asyncio.run(run())
    kinds = [json.loads(text)["type"] for text in socket.sent]
    # the one already handed to the socket when it stalled, then only the fresh one
    assert kinds == ["state", "state"] and resyncs == 1
    assert not conn.behind and not conn.queue


def test_a_reader_behind_on_replies_alone_is_closed(tmp_path: Path) -> None:
    async def run() -> Connection:
        conn = Connection(StalledSocket(), ())  # type: ignore[arg-type]
        pong = {"type": "pong", "state": 0, "pad": "x" * 100}
        for _ in range(MAX_QUEUED // 100 + 10):
            conn.put(pong)
        return conn

    conn = asyncio.run(run())
    assert conn.overflowed and conn.queued == 0 and not conn.queue
