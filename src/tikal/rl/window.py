"""The spaces an environment can ever see, laid out on a rectangular grid.

Standard and auction play on the fixed 8 x 5 board: the window is its 40 spaces, on the
grid of columns and rows that ``A1``..``H5`` name.

The demo plane is unbounded, but every reachable position fits in the hex of radius
:data:`DEMO_RADIUS` around the basecamp: a tile may only go next to a placed tile
[DEMO-1], so the k-th tile placed lies at most k steps from the basecamp, and the demo has
14 terrain tiles.  Figures stand only on placed tiles and walk between neighbouring placed
tiles, so every action's spaces are placed tiles or the next tile's space: within radius
14.  The grid is the 29 x 29 square of axial offsets ``(q, r)`` in ``[-14, 14]``; its
631 spaces at hex distance <= 14 are the window, the other grid points are always off.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from .. import hexes
from ..components import rule_set

DEMO_RADIUS: Final = len(rule_set("demo").terrain)


@dataclass(frozen=True, slots=True)
class Window:
    """The spaces in id order, and where each sits on the ``height x width`` grid."""

    cells: tuple[int, ...]
    height: int
    width: int
    grid_index: dict[int, int]  # space -> row * width + column

    @property
    def cell_set(self) -> frozenset[int]:
        return frozenset(self.cells)


def hex_distance(a: int, b: int) -> int:
    """Steps between two spaces on the hex grid."""
    (q1, r1), (q2, r2) = hexes.axial(a), hexes.axial(b)
    dq, dr = q1 - q2, r1 - r2
    return max(abs(dq), abs(dr), abs(dq + dr))


def _standard() -> Window:
    index = {}
    for c in hexes.STANDARD_CELLS:
        col, row = hexes.cell_to_offset(c)
        index[c] = row * hexes.STANDARD_COLUMNS + col
    return Window(hexes.STANDARD_CELLS, hexes.STANDARD_ROWS, hexes.STANDARD_COLUMNS, index)


def _demo() -> Window:
    side = 2 * DEMO_RADIUS + 1
    origin = hexes.DEMO_ORIGIN
    cells, index = [], {}
    for dr in range(-DEMO_RADIUS, DEMO_RADIUS + 1):
        for dq in range(-DEMO_RADIUS, DEMO_RADIUS + 1):
            c = hexes.cell(hexes.DEMO_Q + dq, hexes.DEMO_R + dr)
            if hex_distance(c, origin) <= DEMO_RADIUS:
                cells.append(c)
                index[c] = (dr + DEMO_RADIUS) * side + dq + DEMO_RADIUS
    return Window(tuple(cells), side, side, index)


@cache
def window(rules: str) -> Window:
    """The window of a rule set (bounded board, or the demo's radius-14 hex)."""
    return _standard() if rule_set(rules).bounded_board else _demo()


__all__ = ["DEMO_RADIUS", "Window", "hex_distance", "window"]
