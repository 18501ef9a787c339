"""Exceptions that say what was wrong: refusals carry the rule broken and a message key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .messages import Message, render


class IllegalAction(ValueError):
    """An action the rules forbid; ``rule`` is the RULES.md id, e.g. ``MOVE-1``.

    ``reason`` is the refusal as a :class:`~tikal.messages.Message` (key and parameters)
    for any language; ``message`` is its English text.  The game is unchanged when this
    is raised.
    """

    def __init__(self, rule: str, key: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(rule, key, dict(params or {}))
        self.rule = rule
        self.reason = Message(key, dict(params or {}))

    @property
    def message(self) -> str:
        """The English text, rendered only when asked: planners check many actions."""
        return render(self.reason)

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}"

    @property
    def key(self) -> str:
        return self.reason.key

    @property
    def params(self) -> Mapping[str, Any]:
        return self.reason.params


class NotationError(ValueError):
    """Text that is not an action in the notation of docs/notation.md."""

    def __init__(self, key: str, params: Mapping[str, Any] | None = None) -> None:
        self.reason = Message(key, dict(params or {}))
        super().__init__(render(self.reason))


class ChanceError(ValueError):
    """Chance outcomes given to :meth:`~tikal.game.Game.apply` that the game cannot produce;
    ``offset`` is the index of the first bad one in the list given."""

    def __init__(self, offset: int, reason: str) -> None:
        super().__init__(reason)
        self.offset = offset
        self.reason = reason


class RecordError(ValueError):
    """A game record that does not replay; ``index`` is the bad entry (0-based)."""

    def __init__(self, index: int, reason: str, rule: str | None = None) -> None:
        super().__init__(f"record entry {index}: {reason}")
        self.index = index
        self.reason = reason
        self.rule = rule


class PositionError(ValueError):
    """A position snapshot that is malformed or not consistent; names the field."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
