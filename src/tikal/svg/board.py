"""The board (or the demo's growing plane): spaces with their tiles, camps, guards and
figures, drawn as structured pieces (:class:`Space`, :class:`BoardPieces`) that
:func:`board` joins into the SVG text.

A space is drawn in the parts that change apart (its tag and title, its tile, its camp
and guard, its figures, its label), each a :class:`~tikal.svg.draw.Piece` with the shapes
it draws, so a client that patches a board space by space (the web server) can keep each
part drawn once.  ElementTree writes a subtree the same alone as inside its parent, so
the parts joined are exactly the text of the whole picture written at once.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Final

from .. import hexes
from ..components import TEMPLE, TREASURE
from ..messages import DEFAULT_LANGUAGE
from ..seats import seat_look
from ..state import GameState
from ..view import View
from .draw import (
    OUTLINE,
    SQRT3,
    STYLE,
    Defs,
    Piece,
    child,
    colour,
    group,
    ident,
    listed,
    node,
    num,
    points,
    say,
    shape_texts,
    start_tag,
    svg_root,
    text_of,
    tile_name,
)
from .marks import mark, mark_shape, treasure_kit
from .tiles import hex_shape, tile_element, tile_kit

SPACE_END: Final = "</g>"

# ---------------------------------------------------------------- figures, camps, guards


def figures_on(game: GameState, cell: int) -> list[tuple[int, bool, int]]:
    """The figures on ``cell``: (seat, leader?, count), in seat order, workers first."""
    found = []
    for p in range(game.players):
        n = game.workers[p].get(cell, 0)
        if n:
            found.append((p, False, n))
        if game.leader[p] == cell:
            found.append((p, True, 1))
    return found


#: where the figure marks of a space go (in units of size / 50), and their radius, by how
#: many marks the space holds
FIGURE_SLOTS: Final = {
    1: (15.0, ((0.0, 15.0),)),
    2: (13.0, ((-14.0, 15.0), (14.0, 15.0))),
    3: (11.0, ((-13.0, 7.0), (13.0, 7.0), (0.0, 28.0))),
    4: (11.0, ((-13.0, 7.0), (13.0, 7.0), (-13.0, 28.0), (13.0, 28.0))),
}


def _figure_slots(n: int) -> tuple[float, list[tuple[float, float]]]:
    if n in FIGURE_SLOTS:
        r, fixed = FIGURE_SLOTS[n]
        return r, list(fixed)
    slots: list[tuple[float, float]] = []
    for row_index, row in enumerate((range(min(n, 4)), range(4, n))):
        width = 17.0
        x0 = -width * (len(row) - 1) / 2
        slots += [(x0 + i * width, 8.0 + 18.0 * row_index) for i in range(len(row))]
    return 8.0, slots


def _figures(
    defs: Defs, game: GameState, cell: int, size: float, language: str,
) -> list[ET.Element]:
    """Each figure's ``<g class="fig">`` on ``cell``."""
    figures = figures_on(game, cell)
    if not figures:
        return []
    s = size / 50
    r, slots = _figure_slots(len(figures))
    made = []
    for (p, leader, n), (x, y) in zip(figures, slots, strict=False):
        fig = node("g", class_="fig", data_seat=p, data_fig="L" if leader else "W",
                   data_cell=hexes.label(cell), data_count=n)
        name = colour(p, language)
        who = (say("svg.leader", language, colour=name) if leader
               else say("svg.workers", language, colour=name, count=n))
        child(fig, "title", who)
        mark(defs, fig, p, leader, n, x * s, y * s, r * s)
        made.append(fig)
    return made


def _camp_shape(owner: int, size: float) -> ET.Element:
    s = size / 50
    look = seat_look(owner)
    tent = [(-12 * s, 9 * s), (0, -12 * s), (12 * s, 9 * s)]
    door = [(-3.5 * s, 9 * s), (0, 1 * s), (3.5 * s, 9 * s)]
    return group(
        node("polygon", points=points(tent), fill=look.colour, stroke=OUTLINE, stroke_width=1.6),
        node("polygon", points=points(door), fill=OUTLINE),
        mark_shape(look.shape, 0, -3 * s, 3.2 * s, fill="#ffffff", stroke=OUTLINE,
                   stroke_width=0.7),
    )


def _camp(defs: Defs, owner: int, size: float, language: str) -> ET.Element:
    s = size / 50
    camp = node("g", class_="camp", data_seat=owner)
    child(camp, "title", say("svg.camp", language, colour=colour(owner, language)))
    defs.use(camp, ident("camp", owner, size), partial(_camp_shape, owner, size), -29 * s,
             -10 * s)
    return camp


def _guard_shape(owner: int, leader: bool, size: float) -> ET.Element:
    s = size / 50
    look = seat_look(owner)
    shield = (
        f"M{num(-10 * s)},{num(-11 * s)} h{num(20 * s)} v{num(10 * s)} "
        f"q0,{num(10 * s)} {num(-10 * s)},{num(13 * s)} q{num(-10 * s)},{num(-3 * s)} "
        f"{num(-10 * s)},{num(-13 * s)} z"
    )
    return group(
        node("path", d=shield, fill=look.colour, stroke=OUTLINE, stroke_width=2),
        node("path", d=shield, fill="none", stroke="#ffffff", stroke_width=0.8,
             transform="scale(0.78)"),
        node("text", "GL" if leader else "G", y=3 * s, text_anchor="middle", font_size=10 * s,
             font_weight=800, fill=look.ink),
    )


def _guard(defs: Defs, owner: int, leader: bool, size: float, language: str) -> ET.Element:
    s = size / 50
    guard = node("g", class_="guard", data_seat=owner)
    child(guard, "title", say("svg.guard.leader" if leader else "svg.guard.worker", language,
                              colour=colour(owner, language)))
    defs.use(guard, ident("guard", owner, "L" if leader else "W", size),
             partial(_guard_shape, owner, leader, size), 28 * s, -14 * s)
    return guard


# ---------------------------------------------------------------- a space in parts


@dataclass(frozen=True, eq=False)
class Space:
    """One space of a board in the parts that change apart, in drawing order: ``head``
    (the space's ``<g>`` tag and title), ``tile`` (the tile's picture or the empty hex),
    ``marks`` (camp and guard), ``figures``, ``tail`` (the label, a highlight's note,
    ``</g>``).  :attr:`text` joins them."""

    label: str
    head: Piece
    tile: Piece
    marks: Piece
    figures: Piece
    tail: Piece

    @property
    def parts(self) -> tuple[Piece, Piece, Piece, Piece, Piece]:
        return self.head, self.tile, self.marks, self.figures, self.tail

    @property
    def text(self) -> str:
        return "".join(part.text for part in self.parts)

    @property
    def shapes(self) -> dict[str, ET.Element]:
        """The shapes the space draws, by id, in the order it first draws them."""
        found: dict[str, ET.Element] = {}
        for part in self.parts:
            for key, shape in part.shapes.items():
                found.setdefault(key, shape)
        return found


def _tile_title(game: GameState, cell: int, language: str) -> str:
    """A placed tile's space for screen readers: "A4, temple 1, value 3 (printed 1)"."""
    spec = game.tiles[cell].spec
    words = [hexes.label(cell), tile_name(spec, language)]
    if spec.kind == TEMPLE:
        value = game.levels[cell]
        words.append(say("svg.value", language, value=value) if value == spec.value
                     else say("svg.value_printed", language, value=value, printed=spec.value))
    if spec.kind == TREASURE:
        words.append(say("svg.treasures_left", language,
                         count=len(game.tokens.get(cell, ()))))
    if cell in game.camps:
        words.append(say("svg.camp", language, colour=colour(game.camps[cell], language)))
    if cell in game.guards:
        words.append(say("svg.guarded", language,
                         colour=colour(game.guards[cell][0], language)))
    return listed(words, language)


def _head(
    game: GameState, cell: int, size: float, highlighted: bool, selected: bool, language: str,
) -> Piece:
    name = hexes.label(cell)
    placed = game.tiles.get(cell)
    classes = ["space"]
    if placed is None:
        classes.append("empty")
        if cell in game.frontier:
            classes.append("frontier")
    else:
        classes.append(placed.kind)
    if highlighted:
        classes.append("hl")
    if selected:
        classes.append("sel")
    x, y = hexes.pixel(cell, size)
    tag = node("g", class_=" ".join(classes), data_cell=name, data_x=x, data_y=y,
               transform=f"translate({num(x)},{num(y)})")
    title = (say("svg.empty", language, cell=name) if placed is None
             else _tile_title(game, cell, language))
    return Piece(start_tag(tag) + text_of(node("title", title)))


def _tile(defs: Defs, game: GameState, cell: int, size: float, language: str) -> Piece:
    placed = game.tiles.get(cell)
    if placed is None:
        holder = ET.Element("g")
        defs.use(holder, ident("hex", size * 0.96), partial(hex_shape, size * 0.96),
                 class_="hex")
        return defs.piece(holder)
    return defs.piece([tile_element(defs, placed.spec, placed.rotation, size,
                                    game.levels.get(cell), len(game.tokens.get(cell, ())),
                                    language)])


def _marks(defs: Defs, game: GameState, cell: int, size: float, language: str) -> Piece:
    made = []
    if cell in game.tiles and cell in game.camps:
        made.append(_camp(defs, game.camps[cell], size, language))
    if cell in game.tiles and cell in game.guards:
        owner, leader = game.guards[cell]
        made.append(_guard(defs, owner, leader, size, language))
    return defs.piece(made)


def _tail(cell: int, size: float, coordinates: bool, note: str | None) -> Piece:
    holder = ET.Element("g")  # a list of elements, not drawn itself
    if coordinates:
        # inset from the corner, clear of the outlines the page draws round a space
        child(holder, "text", hexes.label(cell), class_="lbl", x=-size * 0.64, y=size * 0.08)
    if note:
        child(holder, "circle", cx=0, cy=size * 0.55, r=size * 0.2, fill="#1a7f37")
        child(holder, "text", note, x=0, y=size * 0.55 + 4, text_anchor="middle",
              font_size=11, font_weight=700, fill="#fff")
    return Piece("".join(text_of(element) for element in holder) + SPACE_END)


def _space(
    defs: Defs, game: GameState, cell: int, size: float, marks: Mapping[int, str | None],
    chosen: int | None, coordinates: bool, language: str,
) -> Space:
    placed = cell in game.tiles
    return Space(
        hexes.label(cell),
        _head(game, cell, size, cell in marks, cell == chosen, language),
        _tile(defs, game, cell, size, language),
        _marks(defs, game, cell, size, language),
        defs.piece(_figures(defs, game, cell, size, language) if placed else []),
        _tail(cell, size, coordinates, marks.get(cell)),
    )


# ---------------------------------------------------------------- the parts one by one


def _state(position: GameState | View) -> GameState:
    return position.state if isinstance(position, View) else position


def space(
    position: GameState | View, cell: int, *, size: float = 50, highlighted: bool = False,
    note: str | None = None, selected: bool = False, coordinates: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> Space:
    """One space of :func:`board` in parts, exactly as the board draws it (``note``: a
    highlighted space's short text)."""
    marks = {cell: note} if highlighted or note else {}
    return _space(Defs(), _state(position), cell, size, marks, cell if selected else None,
                  coordinates, language)


def space_head(
    position: GameState | View, cell: int, *, size: float = 50, highlighted: bool = False,
    selected: bool = False, language: str = DEFAULT_LANGUAGE,
) -> Piece:
    """:attr:`Space.head`: the space's ``<g>`` tag (its classes and place) and title."""
    return _head(_state(position), cell, size, highlighted, selected, language)


def space_tile(
    position: GameState | View, cell: int, *, size: float = 50,
    language: str = DEFAULT_LANGUAGE,
) -> Piece:
    """:attr:`Space.tile`: the tile on ``cell`` (its turn, level and tokens left), or the
    empty hex."""
    return _tile(Defs(), _state(position), cell, size, language)


def space_marks(
    position: GameState | View, cell: int, *, size: float = 50,
    language: str = DEFAULT_LANGUAGE,
) -> Piece:
    """:attr:`Space.marks`: the camp and the guard on ``cell``."""
    return _marks(Defs(), _state(position), cell, size, language)


def space_figures(
    position: GameState | View, cell: int, *, size: float = 50,
    language: str = DEFAULT_LANGUAGE,
) -> Piece:
    """:attr:`Space.figures`: the figures on ``cell`` (none on an empty space)."""
    game = _state(position)
    defs = Defs()
    return defs.piece(_figures(defs, game, cell, size, language) if cell in game.tiles else [])


def space_tail(
    cell: int, *, size: float = 50, coordinates: bool = True, note: str | None = None,
) -> Piece:
    """:attr:`Space.tail`: the space's label, a highlight's note, and its end tag."""
    return _tail(cell, size, coordinates, note)


def board_spaces(
    position: GameState | View, cells: Iterable[int], *, size: float = 50,
    language: str = DEFAULT_LANGUAGE,
) -> tuple[dict[str, str], dict[str, str]]:
    """Some spaces of :func:`board` (with coordinates, no highlight): each space's
    ``<g>`` by label, exactly as the whole board draws it, and the ``<defs>`` shapes they
    use by id (in the order first drawn)."""
    game = _state(position)
    defs = Defs()
    spaces = {}
    shapes: dict[str, ET.Element] = {}
    for cell in cells:
        drawn = _space(defs, game, cell, size, {}, None, True, language)
        spaces[drawn.label] = drawn.text
        for key, shape in drawn.shapes.items():
            shapes.setdefault(key, shape)
    return spaces, shape_texts(shapes)


# ---------------------------------------------------------------- the board


@dataclass(frozen=True, eq=False)
class BoardPieces:
    """The board's SVG in the pieces a client may patch one by one: ``root`` (the
    ``<svg>`` tag; its accessible name counts the tiles), ``head`` (the style and
    ``<defs>``), the shapes in ``defs`` (by id, in the order defined), ``mid``
    (``</defs>`` and the background), the ``spaces`` (by label, in drawing order) and
    ``tail`` (the overlay group and ``</svg>``).  :meth:`svg` joins them."""

    root: str
    head: str
    defs: dict[str, str]
    mid: str
    spaces: dict[str, Space]
    tail: str

    def svg(self) -> str:
        return "".join([self.root, self.head, *self.defs.values(), self.mid,
                        *(space.text for space in self.spaces.values()), self.tail])


def board_label(tiles: int, language: str = DEFAULT_LANGUAGE) -> str:
    """The board's accessible name: "Tikal board, 12 tiles"."""
    return say("svg.board", language, count=tiles)


def drawn_cells(game: GameState) -> list[int]:
    """The cells :func:`board` draws, in its order: the standard board's, or the demo's
    tiles and the spaces beside them."""
    if game.rules.bounded_board:
        return list(hexes.STANDARD_CELLS)
    return sorted(set(game.tiles) | game.frontier)


def _view_box(game: GameState, cells: list[int], size: float) -> tuple[float, float, float,
                                                                      float]:
    centres = [hexes.pixel(c, size) for c in cells]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    if not game.rules.bounded_board:  # the demo plane: never zoom in closer than 7 x 5 hexes
        ox, oy = hexes.pixel(game.basecamp, size)
        xs += [ox - 4.5 * size, ox + 4.5 * size]
        ys += [oy - 2 * SQRT3 * size, oy + 2 * SQRT3 * size]
    pad = size * 0.25
    min_x, max_x = min(xs) - size - pad, max(xs) + size + pad
    min_y, max_y = min(ys) - size * SQRT3 / 2 - pad, max(ys) + size * SQRT3 / 2 + pad
    return min_x, min_y, max_x - min_x, max_y - min_y


def _root(game: GameState, box: tuple[float, float, float, float], width: int | None,
          language: str) -> ET.Element:
    _, _, vw, vh = box
    return svg_root(
        class_="tk board", data_rules=game.rules.name,
        viewBox=" ".join(num(v) for v in box),
        width=width, height=width * vh / vw if width else None,
        role="img", aria_label=board_label(len(game.tiles), language),
    )


def board_root(
    position: GameState | View, *, size: float = 50, width: int | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """:attr:`BoardPieces.root` alone: the ``<svg>`` tag of :func:`board`."""
    game = _state(position)
    return start_tag(_root(game, _view_box(game, drawn_cells(game), size), width, language))


def _cell_key(value: int | str) -> int:
    return hexes.parse_label(value) if isinstance(value, str) else value


def _marked(highlight: Mapping[int | str, str | None] | Iterable[int | str] | None
            ) -> dict[int, str | None]:
    if isinstance(highlight, Mapping):
        return {_cell_key(k): v for k, v in highlight.items()}
    if highlight is not None:
        return {_cell_key(k): None for k in highlight}
    return {}


def board_pieces(
    position: GameState | View,
    *,
    size: float = 50,
    highlight: Mapping[int | str, str | None] | Iterable[int | str] | None = None,
    selected: int | str | None = None,
    coordinates: bool = True,
    width: int | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> BoardPieces:
    """:func:`board` in pieces (:class:`BoardPieces`); the same arguments."""
    game = _state(position)
    marks = _marked(highlight)
    chosen = _cell_key(selected) if selected is not None else None
    cells = drawn_cells(game)
    box = _view_box(game, cells, size)
    defs = Defs()
    tile_kit(defs, size, language)
    treasure_kit(defs, game.rules.token_types, language)
    spaces = {}
    for cell in cells:
        drawn = _space(defs, game, cell, size, marks, chosen, coordinates, language)
        spaces[drawn.label] = drawn
    x, y, vw, vh = box
    background = node("rect", x=x, y=y, width=vw, height=vh, rx=size * 0.3, fill="#33503a")
    return BoardPieces(
        root=start_tag(_root(game, box, width, language)),
        head=text_of(node("style", STYLE)) + "<defs>",
        defs=shape_texts(defs.shapes),
        mid="</defs>" + text_of(background),
        spaces=spaces,
        tail=text_of(node("g", class_="overlay")) + "</svg>",
    )


def board(
    position: GameState | View,
    *,
    size: float = 50,
    highlight: Mapping[int | str, str | None] | Iterable[int | str] | None = None,
    selected: int | str | None = None,
    coordinates: bool = True,
    width: int | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """The board (or the demo's growing plane) as an SVG string.

    ``highlight`` marks spaces (cells or labels such as ``"F3"``), optionally with
    a short text each (e.g. an AP cost); ``selected`` outlines one space; ``language``
    is the catalog language of its words (titles, accessible names, labels).
    """
    return board_pieces(position, size=size, highlight=highlight, selected=selected,
                        coordinates=coordinates, width=width, language=language).svg()
