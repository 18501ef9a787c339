"""A state's fields, each named once (python-chess's ``_BoardState`` is the model).

:class:`tikal.state.GameState` declares every field once, as a dataclass field whose
metadata says how a copy gets it (:class:`Copy`) and what it holds in an empty game.
From that one list come ``__slots__`` (the dataclass's), the clone and restore functions
(written as source once at import, as dataclasses write ``__init__``, so a clone is the
straight-line code a hand-written one would be: no loop, no ``getattr``) and the empty
game's values (:func:`initialise`).  A field added to the list is copied, restored and
set up everywhere, or it is not a field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from enum import Enum
from typing import Any, Final, TypeVar

from .components import RuleSet

T = TypeVar("T")

#: How an empty game's value of a field is made: from the rule set and the player count.
Initial = Callable[[RuleSet, int], object]


class Copy(Enum):
    """How :meth:`~tikal.state.GameState.clone` gives a copy a field's value."""

    SHARE = "share"  # the same object: an immutable value, or one shared on purpose
    COPY = "copy"  # a container of immutable values, copied one level deep
    EACH = "each"  # a list of containers, each of them copied
    EMPTY = "empty"  # not copied: a copy starts with a new empty list


_COPY: Final = "copy"
_INITIAL: Final = "initial"


def _field(copy: Copy, initial: Initial | None) -> Any:
    return dataclasses.field(
        init=False, repr=False, compare=False, metadata={_COPY: copy, _INITIAL: initial}
    )


def given() -> Any:
    """A field that ``empty()`` sets from its arguments; copies share it."""
    return _field(Copy.SHARE, None)


def shared(initial: object) -> Any:
    """An immutable value (a number, a name, None): copies share it; ``initial`` when empty."""
    return _field(Copy.SHARE, lambda rules, players: initial)


def copied(initial: Initial) -> Any:
    """A container of immutable values: copies get a shallow copy; ``initial(rules,
    players)`` when empty."""
    return _field(Copy.COPY, initial)


def copied_each(initial: Initial) -> Any:
    """A list of containers (one per player): copies copy each of them."""
    return _field(Copy.EACH, initial)


def scratch() -> Any:
    """A list used only while one action is applied: never copied, empty in a copy."""
    return _field(Copy.EMPTY, lambda rules, players: [])


def copy_kind(field: dataclasses.Field[Any]) -> Copy:
    kind: Copy = field.metadata[_COPY]
    return kind


def initialise(obj: object, rules: RuleSet, players: int) -> None:
    """Give ``obj`` every field's empty value, except the :func:`given` ones."""
    for field in dataclasses.fields(obj):  # type: ignore[arg-type]
        initial: Initial | None = field.metadata[_INITIAL]
        if initial is not None:
            setattr(obj, field.name, initial(rules, players))


def _copy_expression(field: dataclasses.Field[Any]) -> str:
    """The source that gives a copy this field's value from ``self``."""
    kind, here = copy_kind(field), f"self.{field.name}"
    if kind is Copy.SHARE:
        return here
    if kind is Copy.EACH:
        return f"[each.copy() for each in {here}]"
    if kind is Copy.EMPTY:
        return "[]"
    # a list slice is a sixth faster than list.copy() (CPython 3.11); any other container
    # (and a list annotated otherwise, which only costs that sixth) uses .copy()
    return f"{here}[:]" if str(field.type).startswith("list[") else f"{here}.copy()"


def _compile(cls: type, name: str, lines: list[str], doc: str) -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), {}, namespace)  # the source is built from field names only
    function: Callable[..., Any] = namespace[name]
    function.__qualname__ = f"{cls.__qualname__}.{name}"
    function.__module__ = cls.__module__
    function.__doc__ = doc
    return function


def clone_function(cls: type[T], doc: str) -> Callable[[T], T]:
    """The clone method of dataclass ``cls``: a new object of the same class, each field
    given as its :class:`Copy` kind says, in declaration order."""
    lines = ["def clone(self):", "    cls = type(self)", "    g = cls.__new__(cls)"]
    lines += [f"    g.{f.name} = {_copy_expression(f)}" for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    lines.append("    return g")
    return _compile(cls, "clone", lines, doc)


def restore_function(cls: type[T], doc: str) -> Callable[[T, T], None]:
    """The method that makes an object of ``cls`` take every field of another (by
    reference, as it is: give it a clone to keep the other intact)."""
    lines = ["def _restore(self, other):"]
    lines += [f"    self.{f.name} = other.{f.name}" for f in dataclasses.fields(cls)]  # type: ignore[arg-type]
    return _compile(cls, "_restore", lines, doc)
