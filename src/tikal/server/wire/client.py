"""The protocol's decoder, a client's side: a copy of the state kept up to date from
``state`` and ``delta`` messages (what the browser's decoder does too; the load test,
the tests and the recorded wire fixtures use this one)."""

from __future__ import annotations

from typing import Any

from .legal import legal_notations
from .schema import DeltaMessage, Op, StateMessage


def apply_patch(
    target: Any, path: list[Any], value: Any = None, delete: bool = False,
    keep: tuple[int, int] | None = None,
) -> None:
    """Set (or delete) the value at ``path`` in nested dicts and lists (a delta's ``set``);
    with ``keep = (a, b)`` the string there keeps its first ``a`` and last ``b``
    characters around ``value``."""
    for key in path[:-1]:
        target = target[key]
    last = path[-1]
    if keep is not None:
        old = target[last]
        target[last] = old[:keep[0]] + value + old[len(old) - keep[1]:]
    elif delete:
        if isinstance(target, dict):
            target.pop(last, None)
        else:
            del target[last]
    elif isinstance(target, list) and last == len(target):
        target.append(value)
    else:
        target[last] = value


def apply_op(state: dict[str, Any], op: Op) -> None:
    """One operation of a delta's ``set``: ``[path]``, ``[path, value]`` or
    ``[path, middle, a, b]``."""
    keep = (op[2], op[3]) if len(op) == 4 else None
    apply_patch(state, op[0], op[1] if len(op) > 1 else None, delete=len(op) == 1, keep=keep)


def apply_message(state: dict[str, Any], msg: StateMessage | DeltaMessage) -> bool:
    """Bring ``state`` up to date with a ``state`` or ``delta`` message; False if a delta
    does not follow on from ``state`` (the client must ask for a full state)."""
    if msg["type"] == "state":
        state.clear()
        state.update(msg)
        return True
    if msg["base"] != state.get("state"):
        return False
    for op in msg.get("set", ()):
        apply_op(state, op)
    log = msg.get("log")
    if log is not None:
        lines = state.setdefault("log", [])
        del lines[log["from"]:]
        lines.extend(log["lines"])
    state["state"] = msg["state"]
    return True


def legal_actions(state: dict[str, Any]) -> list[str]:
    """The notations of the legal actions in a client's copy of the state."""
    return legal_notations(state.get("legal") or {})
