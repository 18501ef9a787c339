"""Exceptions that say what was wrong: refusals carry the rule broken and a message key."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .messages import Message, render


class IllegalAction(ValueError):
    """An action the rules forbid; ``rule`` is the rule id of docs/rules.md, e.g. ``MOVE-1``.

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
    ``offset`` is the index of the first bad one in the list given.

    ``message`` is the problem as a :class:`~tikal.messages.Message` (``chance.*``), for
    any language; ``reason`` its English text.
    """

    def __init__(self, offset: int, key: str, params: Mapping[str, Any] | None = None) -> None:
        self.offset = offset
        self.message = Message(key, dict(params or {}))
        super().__init__(render(self.message))

    @property
    def reason(self) -> str:
        return render(self.message)

    def text(self, language: str = "en") -> str:
        return render(self.message, language=language)


class RecordError(ValueError):
    """A game record that does not replay; ``index`` is the bad entry (0-based).

    ``reason`` is the English text of the problem; ``message`` the whole error as a
    :class:`~tikal.messages.Message` (``record.entry`` with the problem, itself a message
    such as ``record.out_of_step`` or an engine refusal; ``record.header`` for index -1),
    so it reads in any language.  A
    plain string as the problem stays as it is in every language.  ``field`` names the
    record's field at fault: ``log[12]`` for an entry, else a header field (``players``,
    ``options.camp_needs_own_figure``) or ``scoring`` / ``result.scores``.
    """

    def __init__(self, index: int, reason: str | Message, rule: str | None = None,
                 field: str | None = None) -> None:
        problem = reason if isinstance(reason, Message) else Message("record.text",
                                                                     {"text": reason})
        where = "record.entry" if index >= 0 else "record.header"  # -1: the header
        self.message = Message(where, {"index": index, "reason": problem})
        super().__init__(render(self.message))
        self.index = index
        self.reason = render(problem)
        self.rule = rule
        self.field = field if field is not None else (f"log[{index}]" if index >= 0 else "")

    def text(self, language: str = "en") -> str:
        return render(self.message, language=language)


class PositionError(ValueError):
    """A position snapshot that is malformed or not consistent; names the field.

    ``message`` is the problem as a :class:`~tikal.messages.Message` (``position.*``);
    ``reason`` its English text.  A plain string as the problem stays as it is.
    """

    def __init__(
        self, field: str, reason: str | Message, params: Mapping[str, Any] | None = None,
    ) -> None:
        if isinstance(reason, Message):
            problem = reason
        elif params is not None or reason.startswith("position."):
            problem = Message(reason, dict(params or {}))
        else:
            problem = Message("record.text", {"text": reason})
        self.field = field
        self.problem = problem
        self.message = Message("position.field", {"field": field, "reason": problem})
        super().__init__(render(self.message))
        self.reason = render(problem)

    def text(self, language: str = "en") -> str:
        return render(self.message, language=language)
