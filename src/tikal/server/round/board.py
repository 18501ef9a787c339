"""A game's board in the pieces a delta patches one by one (:class:`BoardCache`), and
what a space's picture depends on (:func:`space_signatures`)."""

from __future__ import annotations

from typing import Any

from ... import svg
from ...messages import DEFAULT_LANGUAGE
from ...state import GameState
from ...view import View
from ..wire.schema import BoardParts
from .spaces import drawn_spaces


def space_signatures(g: GameState, cells: list[int]) -> dict[int, tuple[Any, ...]]:
    """Everything the picture of each of ``cells`` depends on: equal signatures, equal
    pictures.  The lookups are hoisted, and the figures looked up only for the spaces that
    hold any (this was 8% of the server's CPU per move)."""
    tiles, levels, tokens, camps, guards, frontier = (
        g.tiles, g.levels, g.tokens, g.camps, g.guards, g.frontier)
    figures = _figures_by_cell(g)
    out: dict[int, tuple[Any, ...]] = {}
    for cell in cells:
        placed = tiles.get(cell)
        out[cell] = (
            None if placed is None else (placed.spec.tile_id, placed.rotation, placed.stones),
            levels.get(cell), len(tokens.get(cell, ())), camps.get(cell), guards.get(cell),
            cell in frontier, figures.get(cell),
        )
    return out


def _figures_by_cell(g: GameState) -> dict[int, tuple[tuple[int, bool], ...]]:
    """Each space that holds a figure: every seat's workers there and whether its leader
    is (spaces without figures are left out)."""
    seats = list(zip(g.workers, g.leader, strict=True))
    occupied = {cell for workers, leader in seats for cell in (*workers, leader)}
    return {cell: tuple((workers.get(cell, 0), leader == cell) for workers, leader in seats)
            for cell in occupied}


def touched_cells(old: GameState, new: GameState) -> set[int]:
    """The cells where anything a space's picture depends on (its
    :func:`space_signatures`' parts) differs between two positions of one game: a
    superset of the spaces that look different.  Each part is compared whole first (at
    C speed; the same objects mostly, a view's copy being shallow) and gone into only
    if it differs, instead of making every space's signature after every move."""
    cells: set[int] = set(old.frontier ^ new.frontier)
    parts: list[tuple[dict[int, Any], dict[int, Any]]] = [
        (old.tiles, new.tiles), (old.levels, new.levels), (old.tokens, new.tokens),
        (old.camps, new.camps), (old.guards, new.guards),
        *zip(old.workers, new.workers, strict=True)]
    for before, after in parts:
        if before != after:
            cells.update(key for key in before.keys() | after.keys()
                         if before.get(key) != after.get(key))
    for before_cell, after_cell in zip(old.leader, new.leader, strict=True):
        if before_cell != after_cell:
            cells.update((before_cell, after_cell))
    return cells


class BoardCache:
    """A game's board in pieces (:class:`~tikal.server.wire.schema.BoardParts`) in one
    language, re-drawn space by space.

    Each update compares the :func:`space_signatures` of every space where something
    changed since the last update (:func:`touched_cells`) with their last ones and draws
    only the spaces that changed (:func:`~tikal.server.round.spaces.drawn_spaces`).  The
    whole board is drawn again only when the cells drawn change (the demo's growing
    plane); a shape drawn for the first or the last time only enters or leaves ``defs``
    (the shapes the spaces draw, kept sorted by id), so the pieces always equal those of
    a whole board drawn afresh.
    Before, a new shape redrew and re-sent the whole board: 18% of moves.

    The words drawn (the spaces' and figures' titles, the board's name, the basecamp's
    label) are ``language``'s, so each language of a game has its own cache; a space is
    still drawn once per signature and language.  Each update makes new ``parts`` (the
    snapshot before holds the old ones, and the delta is their difference).
    """

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language
        self.parts: BoardParts | None = None
        self.cells: list[int] = []
        self.signatures: dict[int, tuple[Any, ...]] = {}
        self.refs: dict[str, frozenset[str]] = {}  # the shapes each space draws
        self.shapes: dict[str, str] = {}
        self.in_use: frozenset[str] = frozenset()
        self.roots: dict[int, str] = {}  # the <svg> tag by the number of tiles
        self.state: GameState | None = None  # the position last drawn

    def update(self, view: View) -> BoardParts:
        g = view.state
        cells = svg.drawn_cells(g)
        if self.parts is None or cells != self.cells or self.state is None:
            return self._whole(view, cells)
        touched = touched_cells(self.state, g)
        self.state = g
        signatures = space_signatures(g, [cell for cell in cells if cell in touched])
        changed = [cell for cell in cells
                   if cell in signatures and signatures[cell] != self.signatures[cell]]
        if not changed:
            return self.parts
        drawn = drawn_spaces(view, changed, signatures, self.language)
        spaces = {name: text for name, (text, _) in drawn.items()}
        refs = dict(self.refs)
        for name, (_, shapes) in drawn.items():
            self.shapes.update(shapes)
            refs[name] = frozenset(shapes)
        in_use = frozenset().union(*refs.values())
        self.signatures = {**self.signatures, **signatures}
        self.refs = refs
        parts: BoardParts = {**self.parts, "root": self._root(view),
                             "spaces": {**self.parts["spaces"], **spaces}}
        if in_use != self.in_use:  # a shape drawn first or last: defs gains or loses it
            self.in_use = in_use
            parts["defs"] = {key: self.shapes[key] for key in sorted(in_use)}
        self.parts = parts
        return parts

    def _root(self, view: View) -> str:
        """The ``<svg>`` tag, whose accessible name counts the tiles (the cells drawn,
        and so its view box, are those of the whole board drawn last)."""
        tiles = len(view.state.tiles)
        found = self.roots.get(tiles)
        if found is None:
            found = self.roots[tiles] = svg.board_root(view, language=self.language)
        return found

    def _whole(self, view: View, cells: list[int]) -> BoardParts:
        g = view.state
        drawn = svg.board_pieces(view, language=self.language)
        spaces = {name: space.text for name, space in drawn.spaces.items()}
        self.cells = cells
        self.state = g
        self.signatures = space_signatures(g, cells)
        self.refs = {name: frozenset(space.shapes) for name, space in drawn.spaces.items()}
        self.shapes.update(drawn.defs)
        self.in_use = frozenset().union(*self.refs.values())
        self.roots = {len(g.tiles): drawn.root}
        self.parts = {"root": drawn.root, "head": drawn.head,
                      "defs": {key: self.shapes[key] for key in sorted(self.in_use)},
                      "mid": drawn.mid, "order": list(spaces), "spaces": spaces,
                      "tail": drawn.tail}
        return self.parts
