"""What a chat line is and what may be said: no I/O.

A line is free text of at most ``max_length`` characters (``data/chat.json``) or one of
the quick *phrases*, sent as its key and shown in each reader's own language.  Text with
control characters or markup (``<``, ``>``, ``&``) is refused rather than mended: the
pages write lines as text, never as HTML, but a line is also kept in records and read by
other programs, so what is stored is plain by construction.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from typing import Any

from ...messages import Message
from ...packaged import data_json
from ..errors import ServerError
from ..wire.schema import ChatLine

MARKUP = frozenset("<>&")
#: line breaks and tabs (folded into spaces) and the zero-width joiner of emoji sequences;
#: every other control or format character (bidi overrides included) is refused
ALLOWED_CONTROLS = frozenset("\n\t\u200d")


@functools.cache
def settings() -> dict[str, Any]:
    """The chat's parameters, from ``data/chat.json``."""
    found: dict[str, Any] = data_json("chat.json")
    return found


@dataclass(frozen=True)
class Line:
    """One chat line of a game: who (seat and name), what (text or phrase key), when (the
    game's state counter at the time, so a replay shows it at its move; and the clock)."""

    seq: int
    seat: int
    name: str
    text: str | None
    phrase: str | None
    state: int
    at: float


def refused(code: str, key: str, status: int = 422, field: str | None = None,
            **params: int | str) -> ServerError:
    return ServerError(code, Message(f"chat.{key}", params), status, field=field)


def checked(text: Any, phrase: Any) -> tuple[str | None, str | None]:
    """(text, phrase) of a line to post, exactly one of them; ``bad_chat`` (422) names
    what is wrong."""
    if (text is None) == (phrase is None):
        raise refused("bad_chat", "text_or_phrase", field="text")
    if phrase is not None:
        if phrase not in settings()["phrases"]:
            raise refused("bad_chat", "unknown_phrase", field="phrase",
                          phrase=str(phrase)[:40])
        return None, str(phrase)
    if not isinstance(text, str):
        raise refused("bad_chat", "text_type", field="text")
    cleaned = " ".join(text.split())
    limit = settings()["max_length"]
    if not cleaned:
        raise refused("bad_chat", "empty", field="text")
    if len(cleaned) > limit:
        raise refused("bad_chat", "too_long", field="text", limit=limit, length=len(cleaned))
    if not plain(text):
        raise refused("bad_chat", "markup", field="text")
    return cleaned, None


def plain(text: str) -> bool:
    """No markup and no control or format character (but :data:`ALLOWED_CONTROLS`)."""
    return not any(ch in MARKUP or unicodedata.category(ch).startswith("C") for ch in text
                   if ch not in ALLOWED_CONTROLS)


def spectator_name(name: Any) -> str:
    """A spectator's name for a line (seat -1): plain text like a line, at most
    ``name_length`` characters."""
    if not isinstance(name, str) or not " ".join(name.split()):
        raise refused("bad_chat", "spectator_name", field="name")
    cleaned = " ".join(name.split())
    if len(cleaned) > settings()["name_length"] or not plain(cleaned):
        raise refused("bad_chat", "spectator_name", field="name")
    return cleaned


def line_json(line: Line) -> ChatLine:
    """A line as clients get it (the ``line`` of a ``chat`` message)."""
    return {"seq": line.seq, "seat": line.seat, "name": line.name, "text": line.text,
            "phrase": line.phrase, "state": line.state, "at": line.at}
