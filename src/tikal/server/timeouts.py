"""Deadlines for incomplete requests: a request's headers must arrive within
``header_seconds`` of its first byte (or of the connection, if nothing comes), else the
connection gets ``408 timeout`` and is closed.  (The body has its own deadline, in
:class:`~tikal.server.limits.BodyLimit`.)

uvicorn has no such deadline: 400 connections that each sent one header line every 3 s
stayed open for as long as they went on (30 s in the probe), each holding a socket.  The
deadline is kept by a subclass of uvicorn's own HTTP protocol (httptools, else h11),
which ``tikal serve`` hands to uvicorn; it only looks at whether a request is under way
(the protocol's ``cycle``), so it fits both.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from ..messages import Message, render

#: Seconds a request's headers may take (``tikal serve --header-timeout``).
HEADER_SECONDS = 10.0
#: Seconds a timed-out connection is read from (and what comes dropped) before it closes.
LINGER_SECONDS = 2.0


def timeout_answer(seconds: float) -> bytes:
    """The raw 408 answer (no request was read, so no language was asked for: English)."""
    body = orjson.dumps({"type": "error", "code": "timeout", "message": render(
        Message("server.header_timeout", {"seconds": seconds}))})
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n"
            + body)


def header_deadline_protocol(seconds: float = HEADER_SECONDS) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class with a deadline of ``seconds`` for headers."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    base: Any = AutoHTTPProtocol

    class HeaderDeadline(base):  # type: ignore[misc]
        """A connection waiting for a request's headers is closed after ``seconds``."""

        header_seconds = seconds
        _deadline: asyncio.TimerHandle | None = None
        _lingering = False
        _expiring = False

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            if self._lingering:
                return  # after the 408: read and dropped, so the client sees the answer
            before = self.cycle
            waiting = before is None or before.response_complete
            super().data_received(data)
            upgraded = self.transport.get_protocol() is not self  # now a WebSocket
            if upgraded or self.cycle is not before or self.transport.is_closing():
                self._disarm()  # its headers are in (or it is gone)
            elif waiting:
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(self.header_seconds, self._expired)

        def _disarm(self) -> None:
            self._expiring = False
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            """The deadline passed: act once what the socket already holds has been read
            (a busy loop may run this timer before the read that completes the headers)."""
            self._deadline = None
            self._expiring = True
            self.loop.call_soon(self._answer_timeout)

        def _answer_timeout(self) -> None:
            """Answer 408 and close; the connection lingers a moment half-closed, reading
            and dropping what still comes, because closing a socket with unread data
            resets it and the client would never read the answer."""
            transport = self.transport
            if not self._expiring or transport.is_closing():
                return
            transport.write(timeout_answer(self.header_seconds))
            if not transport.can_write_eof():
                transport.close()
                return
            self._lingering = True
            transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, transport.close)

    return HeaderDeadline
