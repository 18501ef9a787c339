"""The one exception of the server: a refused request, as the client will see it."""

from __future__ import annotations

import math
from typing import Any

from ..errors import IllegalAction, NotationError
from ..messages import Message


class ServerError(Exception):
    """A refused request: ``code`` is machine-readable, ``status`` the HTTP status.

    A refusal by the engine also carries its ``reason`` (message key and parameters), so a
    client can show it in another language; ``message`` is the English text.
    """

    def __init__(
        self, code: str, message: str, status: int = 400, rule: str | None = None,
        state: int | None = None, reason: Message | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
        self.state = state
        self.reason = reason
        self.retry_after = retry_after

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

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.reason is not None:
            data.update(self.reason.to_json())
        if self.rule:
            data["rule"] = self.rule
            data["rule_url"] = f"/rules#{self.rule}"
        if self.state is not None:
            data["state"] = self.state
        if self.retry_after is not None:
            data["retry_after"] = round(self.retry_after, 3)
        return data
