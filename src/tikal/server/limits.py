"""Limits: request sizes and JSON nesting (ASGI middleware), WebSocket message sizes,
per-client rate limits and caps on games.  Defaults are in docs/web.md ("Limits").

Rate limits are token buckets per client address and kind of request (``create``,
``upload``, ``hint``, ``move``, ``sync``, ``analysis``, ``signup``, ``signin``, ``lobby``,
``chat``; and ``signin_account`` per account): a refused request gets HTTP 429
with ``Retry-After`` (over the WebSocket an error with code ``rate_limited`` and
``retry_after``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from starlette.requests import HTTPConnection

from ..messages import Message
from .errors import ServerError
from .i18n import request_language

MAX_BODY = 64 * 1024
MAX_RECORD_BODY = 4 * 1024 * 1024
MAX_WS_MESSAGE = 4096
#: Deepest nesting of arrays and objects a JSON body may have (records need 3).
MAX_DEPTH = 32
#: Longest player name shown anywhere (created games and uploaded records).
MAX_NAME = 24

Scope = MutableMapping[str, Any]
AsgiMessage = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[AsgiMessage]]
Send = Callable[[AsgiMessage], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# ------------------------------------------------------------------ JSON


def too_deep(data: bytes | str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON text nests arrays/objects deeper than ``limit`` (strings skipped).
    Only texts with that many brackets at all are scanned."""
    raw = data.encode() if isinstance(data, str) else data
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def parse_json(data: bytes | str) -> Any:
    """JSON from a client: ``too_deep`` (400) past :data:`MAX_DEPTH`, ``bad_request`` if
    malformed."""
    if too_deep(data):
        raise ServerError("too_deep", Message("server.too_deep", {"max": MAX_DEPTH}))
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise ServerError("bad_request", Message(
            "server.malformed_json", {"detail": str(exc)})) from None


# ------------------------------------------------------------------ request bodies


#: Seconds a request's body may take to arrive once its headers are in (``tikal serve
#: --body-timeout``): a 4 MiB record at 1 Mbit/s takes 34 s.
BODY_SECONDS = 60.0


class BodyLimit:
    """Refuse request bodies over a size limit (413 ``too_large``), nested too deeply
    (400 ``too_deep``) or slower than ``body_seconds`` (408 ``timeout``) with a clear
    JSON error, before any route parses them."""

    def __init__(self, app: ASGIApp, body_seconds: float = BODY_SECONDS) -> None:
        self.app = app
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        limit = MAX_RECORD_BODY if scope["path"].startswith("/api/replays") else MAX_BODY
        try:
            async with asyncio.timeout(self.body_seconds):
                data = await _read_body(receive, limit)
        except TimeoutError:
            await _send_error(scope, send, ServerError("timeout", Message(
                "server.body_timeout", {"seconds": self.body_seconds}), 408))
            return
        except ServerError as error:
            await _send_error(scope, send, error)
            return
        if data is None:
            return  # the client went away
        if too_deep(data):
            await _send_error(scope, send, ServerError(
                "too_deep", Message("server.too_deep", {"max": MAX_DEPTH})))
            return
        sent = False

        async def replay() -> AsgiMessage:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}

        await self.app(scope, replay, send)


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body (None if the client went away); 413 ``too_large`` past ``limit``."""
    chunks: list[bytes] = []
    size = 0
    more = True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body = message.get("body", b"")
        size += len(body)
        if size > limit:
            raise ServerError("too_large", Message("server.too_large", {"limit": limit}), 413)
        chunks.append(body)
        more = message.get("more_body", False)
    return b"".join(chunks)


async def _send_error(scope: Scope, send: Send, error: ServerError) -> None:
    """The error in the asker's language (chosen as for every request: docs/i18n.md)."""
    body = orjson.dumps(error.to_json(request_language(HTTPConnection(scope))))
    await send({
        "type": "http.response.start", "status": error.status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
    })
    await send({"type": "http.response.body", "body": body})


# ------------------------------------------------------------------ rate limits and caps


@dataclass(frozen=True)
class Rate:
    """``per_minute`` requests on average, up to ``burst`` at once."""

    per_minute: float
    burst: int


@dataclass
class LimitSettings:
    """What ``tikal serve`` can change (see its options); ``enabled=False`` turns rate
    limits and caps off (the load benchmark does)."""

    enabled: bool = True
    create: Rate = Rate(20, 10)
    upload: Rate = Rate(20, 5)
    hint: Rate = Rate(30, 5)
    move: Rate = Rate(6000, 300)
    #: a WebSocket's ``sync`` (each answered with a whole state, 17-40 KB)
    sync: Rate = Rate(60, 10)
    #: starting a game's analysis (a background job; polling its progress is free)
    analysis: Rate = Rate(6, 3)
    #: accounts (issue 28): new accounts per address; sign-in tries (and password
    #: proofs) per address and per account, so a guessing loop meets 429 either way
    signup: Rate = Rate(5, 3)
    signin: Rate = Rate(10, 5)
    signin_account: Rate = Rate(5, 5)
    #: lobby changes (create, join, leave, start a table: issue 29)
    lobby: Rate = Rate(60, 20)
    #: chat lines (issue 29): a few at once, then one every five seconds on average
    chat: Rate = Rate(12, 5)
    games_per_client: int = 20
    bot_only_games: int = 4
    idle_seconds: float = 1800.0
    #: seconds a request's body may take (408 ``timeout``); kept when limits are off
    body_seconds: float = BODY_SECONDS


def scaled_settings(
    enabled: bool = True, games_per_client: int = 20, bot_only_games: int = 4,
    idle_seconds: float = 1800.0, rate_scale: float = 1.0, body_seconds: float = BODY_SECONDS,
) -> LimitSettings:
    """Settings from ``tikal serve``'s options: every per-client rate times ``rate_scale``."""
    base = LimitSettings()

    def scale(rate: Rate) -> Rate:
        return Rate(rate.per_minute * rate_scale, max(1, round(rate.burst * rate_scale)))

    return LimitSettings(
        enabled=enabled, create=scale(base.create), upload=scale(base.upload),
        hint=scale(base.hint), move=scale(base.move), sync=scale(base.sync),
        analysis=scale(base.analysis), signup=scale(base.signup),
        signin=scale(base.signin), signin_account=scale(base.signin_account),
        lobby=scale(base.lobby), chat=scale(base.chat),
        games_per_client=games_per_client,
        bot_only_games=bot_only_games, idle_seconds=idle_seconds, body_seconds=body_seconds,
    )


@dataclass
class Bucket:
    tokens: float
    at: float


@dataclass
class Limits:
    """Rate limits per client address and kind, and the caps on games."""

    settings: LimitSettings = field(default_factory=LimitSettings)
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self, client: str, kind: str) -> None:
        """Take one request of ``kind`` from ``client``'s bucket; ``rate_limited`` (429,
        with the seconds until the next one is allowed) if it is empty."""
        if not self.settings.enabled:
            return
        rate: Rate = getattr(self.settings, kind)
        per_second = rate.per_minute / 60
        now = self.clock()
        with self._lock:
            if len(self._buckets) > 100_000:  # forget idle clients rather than grow
                self._buckets = {k: b for k, b in self._buckets.items() if now - b.at < 600}
            bucket = self._buckets.setdefault((client, kind), Bucket(float(rate.burst), now))
            bucket.tokens = min(rate.burst, bucket.tokens + (now - bucket.at) * per_second)
            bucket.at = now
            if bucket.tokens >= 1:
                bucket.tokens -= 1
                return
            wait = (1 - bucket.tokens) / per_second
        seconds = max(0.1, round(wait, 1))
        raise ServerError("rate_limited", Message(
            f"server.rate_limited.{kind}", {"wait": seconds}), 429, retry_after=wait)

    def check_games(self, active: int, bot_only: bool, bot_only_running: int) -> None:
        """The caps on games a client may start (``active`` ones it has running now)."""
        if not self.settings.enabled:
            return
        if active >= self.settings.games_per_client:
            raise ServerError("too_many_games", Message(
                "server.too_many_games", {"max": self.settings.games_per_client}), 429,
                retry_after=60)
        if bot_only and bot_only_running >= self.settings.bot_only_games:
            raise ServerError("too_many_games", Message(
                "server.too_many_bot_games", {"max": self.settings.bot_only_games}), 429,
                retry_after=60)
