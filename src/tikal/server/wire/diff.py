"""The delta encoder: the changes from one message to the next as operations on the
client's copy (docs/web.md, "Protocol: states and deltas").

``[path, value]`` sets, ``[path]`` deletes, ``[path, middle, keep_start, keep_end]``
splices a long string.  Measured against a standard JSON Patch (RFC 6902) over the
recorded wire traffic (``tests/wire_patch_bench.py``): the same changes as RFC 6902
operations are 1.8 times the bytes (a splice has no equivalent there, and every
operation names its kind and path in words), and the ``jsonpatch`` package's own patches
1.9 times, at 8 times the encoder's CPU and 6.5 times the decoder's.
"""

from __future__ import annotations

from typing import Any, Literal

import orjson

from .schema import Op


def diff(old: Any, new: Any, path: list[Any], ops: list[Op]) -> None:
    """The changes from ``old`` to ``new`` as ``[path, value]`` (set), ``[path]``
    (delete) and ``[path, middle, keep_start, keep_end]`` (splice a long string)
    operations.  Dicts and lists are compared item by item; a list that grew gets its
    new items set one past its end (appended), one that shrank loses its last items
    (deleted from the end)."""
    if old is not new and old != new:
        _diff(old, new, path, ops)


def _diff(old: Any, new: Any, path: list[Any], ops: list[Op]) -> None:
    """:func:`diff` of two values known to differ.  Items are compared where they are
    met (the same object, then ``==`` at C speed) and only those that differ are gone
    into, so an unchanged part costs no call: a move's diffs (the public part and two
    seat parts) went from 130 calls to 27."""
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dicts(old, new, path, ops)
    elif isinstance(old, list) and isinstance(new, list) and path:
        _diff_lists(old, new, path, ops)
    elif isinstance(old, str) and isinstance(new, str) and len(new) >= SPLICE_FROM:
        ops.append(splice(old, new, path))
    else:
        ops.append([path, new])


def _diff_dicts(
    old: dict[Any, Any], new: dict[Any, Any], path: list[Any], ops: list[Op],
) -> None:
    for key in old:
        if key not in new:
            ops.append([[*path, key]])
    get = old.get
    for key, value in new.items():
        was = get(key, _ABSENT)
        if was is value:
            continue
        if was is _ABSENT:
            ops.append([[*path, key], value])
        elif was != value:
            _diff(was, value, [*path, key], ops)


_ABSENT = object()  # a key a dict lacks (one lookup instead of ``in`` and ``[]``)


def _diff_lists(old: list[Any], new: list[Any], path: list[Any], ops: list[Op]) -> None:
    if _only_removed(old, new, path, ops):
        return
    mine: list[Op] = []
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a is not b and a != b:
            _diff(a, b, [*path, i], mine)
    mine.extend([[*path, i], new[i]] for i in range(len(old), len(new)))
    mine.extend([[*path, i]] for i in range(len(old) - 1, len(new) - 1, -1))
    if len(mine) > 4 and len(orjson.dumps(mine)) > len(orjson.dumps(new)) + 16:
        ops.append([path, new])  # most items changed: the list whole is shorter
    else:
        ops.extend(mine)


#: Strings at least this long are sent as a splice when that is shorter (a board space
#: whose figures changed keeps its tile's picture: 1.4 KB -> about 0.6 KB).
SPLICE_FROM = 200


def splice(old: str, new: str, path: list[Any]) -> Op:
    """``[path, middle, a, b]`` with ``new == old[:a] + middle + old[len(old) - b:]``, or
    ``[path, new]`` when that is not shorter.  Only for text of the Basic Multilingual
    Plane, where a JavaScript string index (UTF-16 units) is a Python one."""
    if not (_bmp(old) and _bmp(new)):
        return [path, new]
    a, b = _common_ends(old, new)
    middle = new[a:len(new) - b]
    if len(middle) + 16 >= len(new):
        return [path, new]
    return [path, middle, a, b]


def _bmp(text: str) -> bool:
    """Whether ``text`` is all of the Basic Multilingual Plane: in UTF-16 only the
    characters beyond it take four bytes.  Encoding runs at C speed (1.5 µs for a board
    space of 1.4 KB); ``max(text)`` made a string of every character (25 µs for a space
    with one non-ASCII sign in it)."""
    return text.isascii() or len(text.encode("utf-16-le")) == 2 * len(text)


def _common_ends(old: str, new: str) -> tuple[int, int]:
    """The length of the common start of ``old`` and ``new``, and of the common end of
    what follows it (texts of the Basic Multilingual Plane).  Both are encoded once (one
    byte a character if ASCII, else two) and read as two big numbers: their XOR's
    highest bit is the first byte that differs, read big-endian from the start or
    little-endian from the end.  At C speed without a slice per step (the bisection on
    slices it replaces was 60% of the board's diff)."""
    if old.isascii() and new.isascii():
        x, y, width = old.encode("ascii"), new.encode("ascii"), 1
    else:
        x, y, width = old.encode("utf-16-le"), new.encode("utf-16-le"), 2
    start = _same_bytes(x, y, "big") // width
    x, y = x[start * width:], y[start * width:]
    return start, _same_bytes(x, y, "little") // width


def _same_bytes(x: bytes, y: bytes, order: Literal["big", "little"]) -> int:
    """How many bytes ``x`` and ``y`` share at their start (``order="big"``) or their end
    (``"little"``)."""
    n = min(len(x), len(y))
    if order == "big":
        x, y = x[:n], y[:n]
    else:
        x, y = x[len(x) - n:], y[len(y) - n:]
    bits = (int.from_bytes(x, order) ^ int.from_bytes(y, order)).bit_length()
    return n - (bits + 7) // 8


def _only_removed(old: list[Any], new: list[Any], path: list[Any], ops: list[Op]) -> bool:
    """When ``new`` is ``old`` with one run of items taken out (a tile leaves the unseen
    tiles, a figure leaves a list), delete just those (from the last), rather than set
    every item after them; True if that was the case."""
    removed = len(old) - len(new)
    if removed <= 0:
        return False
    start = 0
    while start < len(new) and old[start] == new[start]:
        start += 1
    if old[start + removed:] != new[start:]:
        return False
    ops.extend([[*path, i]] for i in range(start + removed - 1, start - 1, -1))
    return True
