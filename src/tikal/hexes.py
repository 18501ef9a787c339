"""Hex geometry: one integer per space, axial coordinates inside.

A cell is ``(q + BIAS) << 8 | (r + BIAS)`` for axial coordinates ``(q, r)`` of a
flat-topped hex grid.  Neighbours are then a constant offset away, so moving
around the board is one addition with no table lookups.

The standard board sits at its natural place (space ``A1`` is axial ``(0, 0)``);
the demo plane is centred far away at axial ``(DEMO_Q, DEMO_R)`` so that every
cell has exactly one printable label without knowing the rule set:

* standard spaces print as column letter + row number (``A1`` .. ``H5``),
* demo cells print as a number counted in a spiral from the demo basecamp (``0``): ``1``
  to ``6`` around it from north clockwise, ``7`` to ``18`` on the next ring (starting two
  spaces north), and so on, a name a person can read aloud (issue 32).  The earlier axial
  form ``q,r`` relative to the basecamp (``0,-1`` is ``1``) is still read, so records
  written before keep replaying.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from .errors import NotationError

BIAS: Final = 32
DEMO_Q: Final = 100
DEMO_R: Final = 100

#: Directions in the order of ``components.json``: N, NE, SE, S, SW, NW.
AXIAL_STEPS: Final = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
STEP: Final = tuple(dq * 256 + dr for dq, dr in AXIAL_STEPS)

STANDARD_COLUMNS: Final = 8
STANDARD_ROWS: Final = 5


def cell(q: int, r: int) -> int:
    """The cell id of axial coordinates ``(q, r)``."""
    return ((q + BIAS) << 8) | (r + BIAS)


def axial(c: int) -> tuple[int, int]:
    """The axial coordinates of cell ``c``."""
    return (c >> 8) - BIAS, (c & 0xFF) - BIAS


def neighbour(c: int, direction: int) -> int:
    return c + STEP[direction]


def offset_to_cell(col: int, row: int) -> int:
    """Standard board (col, row) in 'odd-q' offset coordinates to a cell."""
    return cell(col, row - (col - (col & 1)) // 2)


def cell_to_offset(c: int) -> tuple[int, int]:
    q, r = axial(c)
    return q, r + (q - (q & 1)) // 2


STANDARD_CELLS: Final = tuple(
    offset_to_cell(col, row) for col in range(STANDARD_COLUMNS) for row in range(STANDARD_ROWS)
)
STANDARD_CELL_SET: Final = frozenset(STANDARD_CELLS)
DEMO_ORIGIN: Final = cell(DEMO_Q, DEMO_R)

_STANDARD_LABELS: Final = {
    c: f"{chr(ord('A') + cell_to_offset(c)[0])}{cell_to_offset(c)[1] + 1}" for c in STANDARD_CELLS
}
_LABEL_TO_CELL: Final = {label: c for c, label in _STANDARD_LABELS.items()}
_AXIAL_LABEL = re.compile(r"^(-?\d+),(-?\d+)$")
_SPIRAL_LABEL = re.compile(r"^\d{1,6}$")
#: The sides of a ring walked clockwise from its north corner: SE, S, SW, NW, N, NE.
RING_SIDES: Final = AXIAL_STEPS[2:] + AXIAL_STEPS[:2]


def label(c: int) -> str:
    """Printable name of a cell: ``F3`` on the standard board, its spiral number on the
    demo plane (``0`` the basecamp, ``1`` north of it)."""
    name = _STANDARD_LABELS.get(c)
    return name if name is not None else _demo_label(c)


@cache
def _demo_label(c: int) -> str:
    """A demo cell's spiral number as text, worked out once per cell (labels are asked
    for on every action text, legal table and board space)."""
    q, r = axial(c)
    return str(spiral_number(q - DEMO_Q, r - DEMO_R))


def ring_of(q: int, r: int) -> int:
    """Hex distance of axial ``(q, r)`` from ``(0, 0)``."""
    return max(abs(q), abs(r), abs(q + r))


def spiral_number(q: int, r: int) -> int:
    """The spiral number of axial ``(q, r)`` relative to the centre (:func:`label`)."""
    ring = ring_of(q, r)
    if ring == 0:
        return 0
    corner_q, corner_r = 0, -ring
    for side, (dq, dr) in enumerate(RING_SIDES):
        steps = (q - corner_q) * dq if dq else (r - corner_r) * dr
        if 0 <= steps < ring and (corner_q + steps * dq, corner_r + steps * dr) == (q, r):
            return 1 + 3 * ring * (ring - 1) + side * ring + steps
        corner_q, corner_r = corner_q + ring * dq, corner_r + ring * dr
    raise AssertionError(f"({q}, {r}) is on no side of ring {ring}")  # pragma: no cover


def spiral_axial(number: int) -> tuple[int, int]:
    """Inverse of :func:`spiral_number`."""
    if number == 0:
        return 0, 0
    ring = 1
    while 1 + 3 * ring * (ring + 1) <= number:
        ring += 1
    side, steps = divmod(number - 1 - 3 * ring * (ring - 1), ring)
    q, r = 0, -ring
    for dq, dr in RING_SIDES[:side]:
        q, r = q + ring * dq, r + ring * dr
    dq, dr = RING_SIDES[side]
    return q + steps * dq, r + steps * dr


def parse_label(text: str) -> int:
    """Inverse of :func:`label` (and the demo's earlier ``q,r``); raises
    :class:`NotationError` (a ``ValueError``) on anything else."""
    name = text.strip().upper()
    found = _LABEL_TO_CELL.get(name)
    if found is not None:
        return found
    return _demo_cell(name, text)


def _demo_cell(name: str, text: str) -> int:
    match = _AXIAL_LABEL.match(name)
    if match is not None:
        q, r = int(match.group(1)), int(match.group(2))
    elif _SPIRAL_LABEL.match(name):
        q, r = spiral_axial(int(name))
    else:
        raise NotationError("notation.not_a_space", {"word": text})
    if not (-BIAS < q < BIAS and -BIAS < r < BIAS):
        raise NotationError("notation.too_far", {"word": text})
    return cell(q + DEMO_Q, r + DEMO_R)


def rotate(stones: tuple[int, ...], rotation: int) -> tuple[int, ...]:
    """Stones per edge after turning a tile clockwise by ``rotation`` sixth-turns."""
    k = rotation % 6
    if k == 0:
        return stones
    return stones[-k:] + stones[:-k]


def pixel(c: int, size: float = 1.0) -> tuple[float, float]:
    """Centre of a flat-topped hex in a plane where ``size`` is the corner radius."""
    q, r = axial(c)
    return size * 1.5 * q, size * 3**0.5 * (r + q / 2)
