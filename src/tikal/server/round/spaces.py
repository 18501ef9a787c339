"""Board spaces drawn once per look: the server's caches of :mod:`tikal.svg`'s pieces.

The same space looks the same in every game of a language, and most spaces a move
changes (a figure leaving, a tile drawn again) were drawn before somewhere, so a move
seldom draws anything (drawing and writing a space was about a third of the server's
CPU per move).  A space is remembered whole by its signature (everything its picture
depends on, :func:`~tikal.server.round.board.space_signatures`), and, for the spaces
not seen before, in the parts that change apart (:class:`tikal.svg.Space`): the space
without its figures, its tile (the larger part of its text, the same on every cell),
its figures.  Shapes are written once per id and language (an id names everything its
shape depends on but the words in it).  Without these part caches a move's board
pieces took 2.2 times as long (290 against 130 µs, 24 random standard games from cold
caches).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from ... import svg
from ...hexes import label
from ...messages import DEFAULT_LANGUAGE
from ...state import GameState
from ...view import View

#: A space's text and the texts of the shapes it draws, by id.
Drawn = tuple[str, dict[str, str]]
#: A space's parts but its figures: head, tile, marks, tail.
Frame = tuple[svg.Piece, svg.Piece, svg.Piece, svg.Piece]

FRAGMENT_CACHE_SIZE = 50_000
PIECE_CACHE_SIZE = 20_000
SHAPE_CACHE_SIZE = 4096

_fragments: dict[tuple[Any, ...], Drawn] = {}
_frames: dict[tuple[Any, ...], Frame] = {}
_tiles: dict[tuple[Any, ...], svg.Piece] = {}
_figures: dict[tuple[Any, ...], svg.Piece] = {}
_shape_texts: dict[tuple[str, str], str] = {}

NO_FIGURES = svg.Piece("")


def _remember(cache: dict[Any, Any], size: int, key: Any, value: Any) -> None:
    """Keep ``value`` under ``key``, the whole cache cleared when it is full (a cache of
    pictures that only ever fills up: what mattered was a bound, not an order)."""
    if len(cache) >= size:
        cache.clear()
    cache[key] = value


def drawn_spaces(
    view: View, cells: list[int], signatures: dict[int, tuple[Any, ...]],
    language: str = DEFAULT_LANGUAGE,
) -> dict[str, Drawn]:
    """Each of ``cells`` as :func:`tikal.svg.board_spaces` draws it in ``language``, by
    label: its text and the shapes it draws (``signatures``: each cell's
    :func:`~tikal.server.round.board.space_signatures`), each drawn once per signature
    and language.  Callers must not change what they get: it is shared."""
    g = view.state
    spaces: dict[str, Drawn] = {}
    for cell in cells:
        key = (g.rules.name, g.players, cell, signatures[cell], language)
        found = _fragments.get(key)
        if found is None:
            found = _draw(g, cell, signatures[cell], language)
            _remember(_fragments, FRAGMENT_CACHE_SIZE, key, found)
        spaces[label(cell)] = found
    return spaces


def _draw(g: GameState, cell: int, signature: tuple[Any, ...], language: str) -> Drawn:
    """One space from its parts, each drawn once per look and language."""
    head, tile, marks, tail = _frame(g, cell, signature, language)
    space = svg.Space(label(cell), head, tile, marks,
                      _figures_of(g, cell, signature, language), tail)
    return space.text, {key: shape_text(key, shape, language)
                        for key, shape in space.shapes.items()}


def _frame(g: GameState, cell: int, signature: tuple[Any, ...], language: str) -> Frame:
    """The space's parts but its figures, by all the signature says but the figures."""
    key = (g.rules.name, cell, signature[:-1], language)
    found = _frames.get(key)
    if found is None:
        found = (svg.space_head(g, cell, language=language),
                 _tile_of(g, cell, signature, language),
                 svg.space_marks(g, cell, language=language), svg.space_tail(cell))
        _remember(_frames, PIECE_CACHE_SIZE, key, found)
    return found


def _tile_of(g: GameState, cell: int, signature: tuple[Any, ...], language: str) -> svg.Piece:
    """The space's tile (or empty hex), the same on every cell: by the tile, its turn,
    level and tokens left."""
    key = (g.rules.name, *signature[:3], language)
    found = _tiles.get(key)
    if found is None:
        found = svg.space_tile(g, cell, language=language)
        _remember(_tiles, PIECE_CACHE_SIZE, key, found)
    return found


def _figures_of(
    g: GameState, cell: int, signature: tuple[Any, ...], language: str,
) -> svg.Piece:
    """The space's figures, by each seat's figures there (none on an empty space)."""
    if signature[0] is None or signature[-1] is None:
        return NO_FIGURES
    key = (cell, signature[-1], language)
    found = _figures.get(key)
    if found is None:
        found = svg.space_figures(g, cell, language=language)
        _remember(_figures, PIECE_CACHE_SIZE, key, found)
    return found


def shape_text(key: str, shape: ET.Element, language: str) -> str:
    """A ``<defs>`` shape as text, written once per id and language (writing the shapes
    was a quarter of a space's drawing)."""
    found = _shape_texts.get((key, language))
    if found is None:
        found = svg.shape_texts({key: shape})[key]
        _remember(_shape_texts, SHAPE_CACHE_SIZE, (key, language), found)
    return found

