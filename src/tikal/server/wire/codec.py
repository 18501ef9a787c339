"""The one encoder and decoder of the protocol's JSON text (orjson: several times faster
than the json module, and a state message is about 40 KB)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import orjson

from .schema import AckMessage, PongMessage, ServerMessage

#: The kinds of message a server sends.
SERVER_KINDS = frozenset({"state", "delta", "ack", "error", "hint", "pong", "chat", "rematch"})


def encode_bytes(message: Mapping[str, Any]) -> bytes:
    """A message as JSON (UTF-8): what HTTP answers carry."""
    return orjson.dumps(message)


def encode(message: Mapping[str, Any]) -> str:
    """A message as JSON text: what a WebSocket frame carries."""
    return orjson.dumps(message).decode()


def decode(text: str | bytes) -> ServerMessage:
    """A server's message read back (a client's side): a JSON object of a known
    ``type``, else ValueError."""
    data = orjson.loads(text)
    if not isinstance(data, dict) or data.get("type") not in SERVER_KINDS:
        raise ValueError(f"not a server message: {str(text)[:80]!r}")
    return cast(ServerMessage, data)


def ack(base: int, state: int) -> AckMessage:
    """A move or undo for state ``base`` accepted; the game is now at ``state``."""
    return {"type": "ack", "base": base, "state": state}


def pong(state: int) -> PongMessage:
    return {"type": "pong", "state": state}
