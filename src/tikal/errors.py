"""Exceptions that carry the rule a player broke."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules forbid; ``rule`` is the RULES.md id, e.g. ``MOVE-1``.

    The game is unchanged when this is raised.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message


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
