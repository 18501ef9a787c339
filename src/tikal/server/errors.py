"""The one exception of the server: a refused request, as the client will see it."""

from __future__ import annotations

import math
from typing import Any

from ..errors import IllegalAction, NotationError
from ..messages import DEFAULT_LANGUAGE, Message, catalog, render


class ServerError(Exception):
    """A refused request: ``code`` is machine-readable, ``status`` the HTTP status.

    A refusal by the engine also carries its ``reason`` (message key and parameters), so a
    client can show it in another language; ``message`` is the English text.  The
    server's own refusals give their words as a catalog message (``server.*`` key and
    parameters) in place of a text: ``ServerError("unknown_game", Message(
    "server.unknown_game", {"game_id": game_id}), 404)``; ``message`` is then its English
    rendering.  A plain text (kept for callers that have nothing better) reads as the
    code's general text (``error.<code>``) in other languages.
    """

    def __init__(
        self, code: str, message: str | Message, status: int = 400, rule: str | None = None,
        state: int | None = None, reason: Message | None = None,
        retry_after: float | None = None, field: str | None = None,
    ) -> None:
        #: the refusal's words as a catalog message (None for a plain English text)
        self.detail = message if isinstance(message, Message) else None
        english = render(message) if isinstance(message, Message) else message
        super().__init__(english)
        self.code = code
        self.message = english
        self.status = status
        self.rule = rule
        self.state = state
        self.reason = reason
        self.retry_after = retry_after
        #: the request's field at fault (``players``, ``log[12]``), if one is
        self.field = field

    def headers(self) -> dict[str, str]:
        """HTTP headers of the refusal: ``Retry-After`` (whole seconds) when rate limited."""
        if self.retry_after is None:
            return {}
        return {"Retry-After": str(max(1, math.ceil(self.retry_after)))}

    @classmethod
    def illegal(cls, refusal: IllegalAction, state: int | None = None) -> ServerError:
        """The engine refused an action (422 ``illegal``, citing the rule)."""
        return cls("illegal", refusal.message, 422, rule=refusal.rule, state=state,
                   reason=refusal.reason)

    @classmethod
    def notation(cls, error: NotationError, state: int | None = None) -> ServerError:
        """The text is not an action in the notation (422 ``bad_action``)."""
        return cls("bad_action", str(error), 422, rule="NOTATION", state=state,
                   reason=error.reason)

    def text(self, language: str = DEFAULT_LANGUAGE) -> str:
        """The message in ``language`` (the English ``message`` for English)."""
        return error_text(self.code, self.message, language, self.reason or self.detail)

    def to_json(self, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "error", "code": self.code,
                                "message": self.text(language)}
        if self.reason is not None:
            data.update(self.reason.to_json())
        if self.field:
            data["field"] = self.field
        if self.rule:
            data["rule"] = self.rule
            data["rule_url"] = rule_url(self.rule, language)
        if self.state is not None:
            data["state"] = self.state
        if self.retry_after is not None:
            data["retry_after"] = round(self.retry_after, 3)
        return data


def rule_url(rule: str, language: str = DEFAULT_LANGUAGE) -> str:
    """Where the rulebook of ``language`` explains ``rule`` (``/rules/de#MOVE-2``)."""
    return f"/rules#{rule}" if language == DEFAULT_LANGUAGE else f"/rules/{language}#{rule}"


def error_text(
    code: str, english: str, language: str = DEFAULT_LANGUAGE, reason: Message | None = None,
) -> str:
    """An error body's ``message`` in ``language``: the reason (or the server's detail
    message) rendered when there is one, else the general text of ``code``; English keeps
    the text as given (the English rendering of that message)."""
    if language == DEFAULT_LANGUAGE:
        return english
    if reason is not None:
        return render(reason, language=language)
    key = f"error.{code}"
    if key in catalog():
        return render(Message(key), language=language)
    return render(Message("error.other"), language=language)
