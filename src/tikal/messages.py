"""Words for people: the engine says *what* happened as a :class:`Message` (a key plus
parameters); a catalog per language says *how* to put it.

The engine never builds sentences: ``game.describe(action)`` and every
:class:`~tikal.errors.IllegalAction` carry a message, and :func:`render` turns it into
English from ``data/messages/en.json``.  Parameters may themselves be messages
(``Message("tile.temple", {"value": 5})``), rendered first, so a sentence in another
language can put them where its grammar wants them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, NamedTuple


class Message(NamedTuple):
    """A message key (``"refuse.dig_guarded"``, or a verb for actions) and its parameters."""

    key: str
    params: Mapping[str, Any] = {}

    def to_json(self) -> dict[str, Any]:
        """Key and parameters, nested messages as objects (for clients that translate)."""
        return {"key": self.key, "params": {k: _json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        params = {k: _from_json(v) for k, v in dict(data.get("params") or {}).items()}
        return cls(str(data["key"]), params)


def _json(value: Any) -> Any:
    return value.to_json() if isinstance(value, Message) else value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"key", "params"}:
        return Message.from_json(value)
    return value


def _flatten(tree: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in tree.items():
        key = f"{prefix}{name}"
        if isinstance(value, Mapping) and "count" not in value:
            flat.update(_flatten(value, f"{key}."))
        else:
            flat[key] = value
    return flat


@cache
def catalog(language: str = "en") -> dict[str, Any]:
    """Every template of ``language`` by dotted key (read once from the package data)."""
    path = resources.files("tikal").joinpath(f"data/messages/{language}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    data.pop("about", None)
    return _flatten(data)


def template(key: str, params: Mapping[str, Any], language: str = "en") -> str:
    """The template for ``key``, its plural form chosen by the parameter it names."""
    found = catalog(language).get(key)
    if found is None:
        raise KeyError(f"no text for message {key!r} in {language!r}")
    if isinstance(found, str):
        return found
    count = params.get(found["count"])
    return str(found["one" if count == 1 else "other"])


def render(
    message: Message,
    form: str | None = None,
    names: Sequence[str] | None = None,
    language: str = "en",
) -> str:
    """The text of ``message``.

    ``form`` picks how an action reads: ``"action"`` (offered, imperative) or ``"log"``
    (played, past tense); refusals and other messages have none.  ``names`` turns the
    ``player`` parameter (a seat number) into that player's name.
    """
    key = f"{form}.{message.key}" if form else message.key
    params: dict[str, Any] = {}
    for name, value in message.params.items():
        if isinstance(value, Message):
            value = render(value, names=names, language=language)
        elif name == "player" and isinstance(value, int):
            value = _seat_name(value, names, language)
        params[name] = value
    return template(key, message.params, language).format_map(params)


def _seat_name(seat: int, names: Sequence[str] | None, language: str) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return render(Message("seat", {"seat": seat}), language=language)
