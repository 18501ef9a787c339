"""SVG pictures of Tikal positions, in the spirit of python-chess's ``chess.svg``.

>>> from tikal import Game
>>> import tikal.svg
>>> game = Game.new("demo", 2, seed=1)
>>> picture = tikal.svg.board(game)
>>> picture.startswith("<svg")
True
>>> game._repr_svg_() == picture  # so a game shows its board in Jupyter
True

Everything drawn is public information [HIDDEN-1]: a treasure tile shows how
many tokens lie on it, never which.  A :class:`~tikal.game.Game` or a
:class:`~tikal.view.View` may be passed; both give the same picture.

Spaces are ``<g class="space" data-cell="F3" data-x=".." data-y="..">`` groups
and figures are ``<g class="fig" data-seat="0" data-fig="W|L" data-cell="F3">``,
so a web page can add interaction to the picture without parsing geometry.

Players are told apart by colour *and* shape (circle, square, triangle,
diamond), the leader by a bigger double-ringed mark with an ``L``, so the
pictures stay readable for colour-blind players and in black and white.  Each
seat's look comes from :mod:`tikal.seats`, the table every front end shares.

The pictures are built as :mod:`xml.etree.ElementTree` trees and serialised
once.  Every shape drawn more than once (hex outline, stones, tile icons, each
seat's worker, leader, camp and guard) is defined once under ``<defs>`` and
drawn with ``<use href="#tk-...">``.  A definition's id names everything its
content depends on (e.g. ``tk-hex-50`` for the outline of a tile of size 50),
so several pictures inlined in one page may share ids without clashing.

Every word drawn (titles, accessible names, the basecamp's label, treasure names) comes
from the message catalogs (``svg.*`` keys, the engine's ``tile.*`` and ``colour.*``):
each drawing function takes ``language`` (English by default).  Ids do not name the
language, since a page shows its pictures in one language (and a page's script finds a
treasure's icon by its id, ``tk-treasure-a``, in every language).

The pictures are pure functions of what they show (no caches: a program that draws the
same pieces again and again, like the web server, keeps them itself).  A board comes in
pieces too (:func:`board_pieces`: the ``<svg>`` tag, the shapes by id, each space in the
parts that change apart), which :func:`board` joins into its text.

Modules: :mod:`~tikal.svg.draw` (building blocks, :class:`Piece`), :mod:`~tikal.svg.marks`
(players' marks, treasures), :mod:`~tikal.svg.tiles` (terrain tiles),
:mod:`~tikal.svg.board` (spaces and the board).
"""

from .board import (
    FIGURE_SLOTS,
    BoardPieces,
    Space,
    board,
    board_label,
    board_pieces,
    board_root,
    board_spaces,
    drawn_cells,
    space,
    space_figures,
    space_head,
    space_marks,
    space_tail,
    space_tile,
)
from .draw import (
    EMPTY_FILL,
    KIND_FILL,
    OUTLINE,
    SQRT3,
    STONE_FILL,
    STYLE,
    SVG_NS,
    Piece,
    hex_corners,
    shape_texts,
)
from .marks import TREASURE_LOOKS, chip, shape, treasure_icon, treasure_name
from .tiles import TEMPLE_BARS, TEMPLE_DUG, TEMPLE_STONE, tile, tile_group

__all__ = [
    "EMPTY_FILL", "FIGURE_SLOTS", "KIND_FILL", "OUTLINE", "SQRT3", "STONE_FILL", "STYLE",
    "SVG_NS", "TEMPLE_BARS", "TEMPLE_DUG", "TEMPLE_STONE", "TREASURE_LOOKS", "BoardPieces",
    "Piece", "Space", "board", "board_label", "board_pieces", "board_root", "board_spaces",
    "chip", "drawn_cells", "hex_corners", "shape", "shape_texts", "space",
    "space_figures", "space_head", "space_marks", "space_tail", "space_tile", "tile",
    "tile_group", "treasure_icon", "treasure_name",
]
