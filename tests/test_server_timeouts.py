"""Incomplete requests do not hold a connection: headers must arrive within
``--header-timeout`` seconds, a body within ``--body-timeout`` (408 ``timeout``), on a
real ``tikal serve``.  Before, 400 connections sending one header line every 3 s stayed
open for all of the probe's 30 s.  Connections that are not slow keep working: a
WebSocket lives past the deadline, and so does a keep-alive connection between requests.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets

from web_helpers import ServerProcess

TWO = [{"kind": "human"}, {"kind": "human"}]
DEADLINE = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("slow") / "slow.sqlite3", options=(
        "--header-timeout", str(DEADLINE), "--body-timeout", str(DEADLINE))).start()
    yield proc
    proc.stop()


def connect(server: ServerProcess) -> socket.socket:
    conn = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    return conn


def read_all(conn: socket.socket) -> bytes:
    """Everything until the server closes (the socket's timeout fails the test if not)."""
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    return data


def read_answer(conn: socket.socket) -> tuple[bytes, dict[str, object]]:
    """(status line, JSON body) of one answer, read up to its Content-Length."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, body = data.split(b"\r\n\r\n", 1)
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        body += conn.recv(65536)
    return head.split(b"\r\n")[0], json.loads(body)


def test_headers_that_never_end_get_408_and_the_connection_closed(
    server: ServerProcess,
) -> None:
    conn = connect(server)
    conn.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    for _ in range(3):  # a line now and then, never the end of the headers
        time.sleep(DEADLINE / 3)
        try:
            conn.sendall(b"X-Slow: 1\r\n")
        except OSError:
            break
    answer = read_all(conn)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["code"] == "timeout"
    assert time.monotonic() - started < 10 * DEADLINE
    conn.close()


def test_a_connection_that_sends_nothing_is_closed(server: ServerProcess) -> None:
    conn = connect(server)
    assert read_all(conn).startswith(b"HTTP/1.1 408 ")
    conn.close()


def test_a_body_that_never_ends_gets_408(server: ServerProcess) -> None:
    conn = connect(server)
    conn.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Content-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"seats\"")
    status, body = read_answer(conn)
    assert status.startswith(b"HTTP/1.1 408 ") and body["code"] == "timeout", (status, body)
    conn.close()


def test_connections_that_are_not_slow_live_past_the_deadline(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url) as client:  # one keep-alive connection
        game = client.post("/api/games", json={"seats": TWO}).json()
        for _ in range(3):
            time.sleep(DEADLINE * 0.8)
            assert client.get("/api/meta").status_code == 200

    async def websocket() -> list[str]:
        url = f"ws://127.0.0.1:{server.port}/ws/{game['id']}"
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            kinds = [json.loads(await ws.recv())["type"]]
            await asyncio.sleep(DEADLINE * 2.5)
            await ws.send(json.dumps({"type": "ping"}))
            kinds.append(json.loads(await ws.recv())["type"])
            return kinds

    assert asyncio.run(websocket()) == ["state", "pong"]
