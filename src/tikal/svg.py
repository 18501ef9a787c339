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
"""

from __future__ import annotations

import html
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Final

from . import hexes
from .components import BASECAMP, JUNGLE, TEMPLE, TREASURE, VOLCANO, TileSpec, rule_set
from .seats import seat_look
from .state import GameState
from .view import View

SQRT3: Final = math.sqrt(3)
SVG_NS: Final = "http://www.w3.org/2000/svg"

KIND_FILL: Final = {
    BASECAMP: "#d8c48f",
    TEMPLE: "#c9c1ae",
    JUNGLE: "#6ea35a",
    TREASURE: "#d9a441",
    VOLCANO: "#5b3a33",
}
EMPTY_FILL: Final = "#efe9d2"
STONE_FILL: Final = "#8a8578"
OUTLINE: Final = "#1b1b1b"  # the outline of every player mark

STYLE: Final = """
.tk{font-family:system-ui,-apple-system,'Segoe UI','Noto Sans CJK JP','Hiragino Sans',sans-serif}
.tk .lbl{font-size:8.5px;fill:#2b2a23;opacity:.8}
.tk .empty .lbl{fill:#e9f0e4;opacity:.7}
.tk .val{font-size:17px;font-weight:700;fill:#1d1c18}
.tk .cnt{font-size:10px;font-weight:700}
.tk .hex{stroke:#3f3b30;stroke-width:1.2}
.tk .empty .hex{stroke:#7f9a83;stroke-dasharray:4 3;fill:#3d5c44}
.tk .frontier .hex{fill:#48684f;stroke:#9fb8a2}
.tk .hl .hex{stroke:#1a7f37;stroke-width:4}
.tk .sel .hex{stroke:#000;stroke-width:4}
"""


# ---------------------------------------------------------------- building blocks


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _attrs(values: Mapping[str, object]) -> dict[str, str]:
    """Keyword arguments as SVG attributes: ``stroke_width`` -> ``stroke-width``,
    ``class_`` -> ``class``; numbers rounded to two decimals; ``None`` left out."""
    out = {}
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        out[name] = _num(value) if isinstance(value, float) else str(value)
    return out


def _node(tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    element = ET.Element(tag, _attrs(attrs))
    element.text = text
    return element


def _child(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    element = ET.SubElement(parent, tag, _attrs(attrs))
    element.text = text
    return element


def _group(*children: ET.Element) -> ET.Element:
    group = ET.Element("g")
    group.extend(children)
    return group


def _id(*parts: object) -> str:
    """A definition's id, naming everything its content depends on: ``tk-hex-50``."""
    words = [_num(p) if isinstance(p, (int, float)) else str(p) for p in parts]
    return "-".join(["tk", *words]).replace(".", "_")


def _svg(**attrs: object) -> ET.Element:
    return _node("svg", xmlns=SVG_NS, **attrs)


def _text(element: ET.Element) -> str:
    return ET.tostring(element, encoding="unicode")


class _Defs:
    """The shapes of one picture, each defined once under ``<defs>`` and drawn with ``<use>``."""

    def __init__(self) -> None:
        self.shapes: dict[str, ET.Element] = {}

    def define(self, key: str, make: Callable[[], ET.Element]) -> str:
        if key not in self.shapes:
            shape = make()
            shape.set("id", key)
            self.shapes[key] = shape
        return "#" + key

    def use(
        self, parent: ET.Element, key: str, make: Callable[[], ET.Element], x: float = 0,
        y: float = 0, **attrs: object,
    ) -> ET.Element:
        """Draw shape ``key`` (made by ``make`` the first time) with its origin at (x, y)."""
        href = self.define(key, make)
        return _child(parent, "use", href=href, x=x or None, y=y or None, **attrs)

    def element(self) -> ET.Element:
        defs = ET.Element("defs")
        defs.extend(self.shapes.values())
        return defs


# ---------------------------------------------------------------- geometry and marks


def hex_corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hex, starting at the right and turning clockwise on screen."""
    return [
        (cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def _edge_corners(direction: int, size: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners bounding edge ``direction`` (0 = N ... 5 = NW) of a hex at the origin."""
    a = math.radians(240 + 60 * direction)
    b = math.radians(300 + 60 * direction)
    return (size * math.cos(a), size * math.sin(a)), (size * math.cos(b), size * math.sin(b))


def _shape(kind: str, x: float, y: float, r: float, /, **attrs: object) -> ET.Element:
    """One player mark: circle, square, triangle or diamond of 'radius' ``r`` at (x, y)."""
    if kind == "square":
        s = r * 0.9
        return _node("rect", x=x - s, y=y - s, width=2 * s, height=2 * s, rx=1.5, **attrs)
    if kind == "triangle":
        pts = [(x, y - r * 1.15), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
        return _node("polygon", points=_points(pts), **attrs)
    if kind == "diamond":
        pts = [(x, y - r * 1.2), (x + r * 1.05, y), (x, y + r * 1.2), (x - r * 1.05, y)]
        return _node("polygon", points=_points(pts), **attrs)
    return _node("circle", cx=x, cy=y, r=r, **attrs)


def shape(
    kind: str, x: float, y: float, r: float, fill: str, stroke: str = OUTLINE,
    width: float = 1.2, extra: str = "",
) -> str:
    """One player mark as an SVG element string; ``extra`` holds more attributes
    (``name="value" ...``)."""
    element = _shape(kind, x, y, r, fill=fill, stroke=stroke, stroke_width=float(width))
    for name, value in re.findall(r'([\w:.-]+)\s*=\s*"([^"]*)"', extra):
        element.set(name, html.unescape(value))
    return _text(element)


def _label_offset(kind: str, r: float) -> float:
    return r * (0.38 if kind == "triangle" else 0.36)


def _worker_shape(seat: int, r: float) -> ET.Element:
    look = seat_look(seat)
    return _shape(look.shape, 0, 0, r, fill=look.colour, stroke=OUTLINE, stroke_width=1.1)


def _leader_shape(seat: int, r: float) -> ET.Element:
    look = seat_look(seat)
    return _group(
        _shape(look.shape, 0, 0, r * 1.28, fill="#ffffff", stroke=OUTLINE, stroke_width=1.4),
        _shape(look.shape, 0, 0, r, fill=look.colour, stroke=OUTLINE, stroke_width=1.1),
        _node("text", "L", y=_label_offset(look.shape, r), text_anchor="middle",
              font_size=r * 1.05, font_weight=700, fill=look.ink),
    )


def _mark(
    defs: _Defs, parent: ET.Element, seat: int, leader: bool, count: int | None, x: float,
    y: float, r: float,
) -> None:
    """A worker (with ``count`` written on it) or the leader of ``seat``, centred on (x, y)."""
    if leader:
        defs.use(parent, _id("leader", seat, r), partial(_leader_shape, seat, r), x, y)
        return
    defs.use(parent, _id("worker", seat, r), partial(_worker_shape, seat, r), x, y)
    if count is not None:
        look = seat_look(seat)
        label = str(count)
        _child(parent, "text", label, x=x, y=y + _label_offset(look.shape, r),
               text_anchor="middle", font_size=r * (1.05 if len(label) < 2 else 0.85),
               font_weight=700, fill=look.ink)


def chip(seat: int, leader: bool = False, count: int | None = None, size: float = 22) -> str:
    """A small standalone SVG of one player's mark (for score boards and legends)."""
    defs = _Defs()
    root = _svg(class_="chip", width=float(size), height=float(size),
                viewBox=f"0 0 {_num(size)} {_num(size)}", role="img",
                aria_label=f"{seat_look(seat).name} {'leader' if leader else 'worker'}")
    root.append(defs_element := ET.Element("defs"))
    half = size / 2
    _mark(defs, root, seat, leader, count, half, half, size / 2.6)
    defs_element.extend(defs.element())
    return _text(root)


# ---------------------------------------------------------------- tiles


def _hex_shape(size: float) -> ET.Element:
    # no fill or stroke of its own: the <use class="hex"> (and the page's CSS) gives them
    return _node("polygon", points=_points(hex_corners(0, 0, size)))


def _stone_row(count: int, size: float) -> ET.Element:
    """``count`` stones along the north edge; other edges are this row turned."""
    spots = {1: (0.5,), 2: (0.33, 0.67), 3: (0.2, 0.5, 0.8)}[count]
    (ax, ay), (bx, by) = _edge_corners(0, size)
    return _group(*(
        _node("circle", cx=(ax + (bx - ax) * t) * 0.88, cy=(ay + (by - ay) * t) * 0.88,
              r=size * 0.075, fill=STONE_FILL, stroke="#2e2b25", stroke_width=0.9)
        for t in spots
    ))


def _temple_shape(size: float, dug: bool) -> ET.Element:
    s = size / 50
    y = -16 * s
    steps = [
        _node("rect", x=-13 * s - w * s / 2, y=y + (4 - 5 * i) * s, width=w * s, height=5 * s,
              fill="#8d846f", stroke="#3f3b30", stroke_width=0.6)
        for i, w in enumerate((16, 11, 6))
    ]
    plaque = (
        _node("rect", x=-1 * s, y=y - 11 * s, width=22 * s, height=20 * s, rx=2,
              fill="#fffdf4", stroke="#3f3b30", stroke_width=1)
        if dug
        else _node("circle", cx=10 * s, cy=y - 1 * s, r=10.5 * s, fill="#f4efe0",
                   stroke="#3f3b30", stroke_width=1)
    )
    return _group(*steps, plaque)


def _jungle_shape(size: float) -> ET.Element:
    s = size / 50
    y = -16 * s
    trees = []
    for tx, th in ((-10, 13), (2, 17), (13, 12)):
        trees.append(_node("rect", x=(tx - 1) * s, y=y, width=2 * s, height=8 * s, fill="#5a3d22"))
        trees.append(_node("circle", cx=tx * s, cy=y - th * s / 3, r=th * s / 2.2,
                           fill="#2f6b2a", stroke="#1d3f1a", stroke_width=0.8))
    return _group(*trees)


def _mask_shape(size: float) -> ET.Element:
    s = size / 50
    return _group(
        _node("ellipse", rx=4.5 * s, ry=6 * s, fill="#6b4a12", stroke="#2b1d05", stroke_width=0.8),
        _node("circle", cx=-1.6 * s, cy=-1.5 * s, r=1 * s, fill="#f3d27a"),
        _node("circle", cx=1.6 * s, cy=-1.5 * s, r=1 * s, fill="#f3d27a"),
    )


def _volcano_shape(size: float) -> ET.Element:
    s = size / 50
    cone = [(-22 * s, 10 * s), (-6 * s, -18 * s), (6 * s, -18 * s), (22 * s, 10 * s)]
    smoke = (
        f"M{_num(-3 * s)},{_num(-20 * s)} q{_num(-4 * s)},{_num(-8 * s)} "
        f"{_num(2 * s)},{_num(-12 * s)}"
    )
    return _group(
        _node("polygon", points=_points(cone), fill="#8a4b2f", stroke="#2a1510", stroke_width=1),
        _node("ellipse", cy=-18 * s, rx=6 * s, ry=2.5 * s, fill="#ff8a1f"),
        _node("path", d=smoke, stroke="#ff8a1f", stroke_width=2 * s, fill="none"),
    )


def _basecamp_shape(size: float) -> ET.Element:
    s = size / 50
    y = -16 * s
    flag = [(-6 * s, y - 14 * s), (8 * s, y - 9 * s), (-6 * s, y - 4 * s)]
    return _group(
        _node("line", x1=-6 * s, y1=y + 8 * s, x2=-6 * s, y2=y - 14 * s, stroke="#3f3b30",
              stroke_width=1.6 * s),
        _node("polygon", points=_points(flag), fill="#b3261e"),
        _node("text", "BASE", x=4 * s, y=y + 8 * s, font_size=8 * s, font_weight=700,
              fill="#1d1c18"),
    )


def _icon(
    defs: _Defs, parent: ET.Element, spec: TileSpec, size: float, level: int | None,
    tokens: int | None,
) -> None:
    s = size / 50
    y = -16 * s
    if spec.kind == TEMPLE:
        dug = level is not None and level > spec.value
        defs.use(parent, _id("temple", "dug" if dug else "new", size),
                 partial(_temple_shape, size, dug))
        value = spec.value if level is None else level
        _child(parent, "text", str(value), class_="val", x=10 * s, y=y + 5 * s,
               text_anchor="middle", font_size=16 * s)
    elif spec.kind == JUNGLE:
        defs.use(parent, _id("jungle", size), partial(_jungle_shape, size))
    elif spec.kind == TREASURE:
        n = tokens if tokens is not None else spec.masks
        for i in range(min(n, 4)):
            defs.use(parent, _id("mask", size), partial(_mask_shape, size), (-22 + 8 * i) * s, y)
        _child(parent, "text", f"\u00d7{n}" if n else "empty", class_="cnt", x=20 * s,
               y=y + 4 * s, text_anchor="middle", font_size=11 * s, fill="#1d1c18")
    elif spec.kind == VOLCANO:
        defs.use(parent, _id("volcano", size), partial(_volcano_shape, size))
    elif spec.kind == BASECAMP:
        defs.use(parent, _id("basecamp", size), partial(_basecamp_shape, size))


def _tile_kit(defs: _Defs, size: float) -> None:
    """Define every shape a fresh tile of ``size`` may use, so that :func:`tile_group`
    fragments can be laid over a board of that size (the web app's ghost tile)."""
    defs.define(_id("hex", size), partial(_hex_shape, size))
    for count in (1, 2, 3):
        defs.define(_id("stones", count, size), partial(_stone_row, count, size))
    defs.define(_id("temple", "new", size), partial(_temple_shape, size, False))
    defs.define(_id("jungle", size), partial(_jungle_shape, size))
    defs.define(_id("mask", size), partial(_mask_shape, size))
    defs.define(_id("volcano", size), partial(_volcano_shape, size))
    defs.define(_id("basecamp", size), partial(_basecamp_shape, size))


def _tile(
    defs: _Defs, spec: TileSpec, rotation: int, size: float, level: int | None,
    tokens: int | None,
) -> ET.Element:
    group = _node("g", class_=f"tile {spec.kind}")
    defs.use(group, _id("hex", size), partial(_hex_shape, size), class_="hex",
             fill=KIND_FILL.get(spec.kind, EMPTY_FILL))
    for direction, count in enumerate(hexes.rotate(spec.stones, rotation)):
        if count:
            n = min(count, 3)
            defs.use(group, _id("stones", n, size), partial(_stone_row, n, size),
                     transform=f"rotate({60 * direction})" if direction else None)
    _icon(defs, group, spec, size, level, tokens)
    return group


def tile_group(
    spec: TileSpec, rotation: int, size: float = 50, *, level: int | None = None,
    tokens: int | None = None,
) -> str:
    """The picture of one tile centred on (0, 0), as an SVG ``<g>`` fragment.

    Its ``<use>`` elements point at the ``<defs>`` of a :func:`board` drawn at the same
    ``size``, which defines every shape a fresh tile needs: lay the fragment over the board.
    """
    return _text(_tile(_Defs(), spec, rotation, size, level, tokens))


def tile(spec: TileSpec | str, rotation: int = 0, size: float = 50, rules: str = "standard") -> str:
    """A standalone SVG of one terrain tile turned ``rotation`` sixth-turns clockwise."""
    if isinstance(spec, str):
        spec = rule_set(rules).tile(spec)
    w, h = 2 * size + 4, SQRT3 * size + 4
    defs = _Defs()
    root = _svg(class_="tk tile-svg", viewBox=" ".join(_num(v) for v in (-w / 2, -h / 2, w, h)),
                width=float(w), height=float(h), role="img",
                aria_label=f"{spec.describe()}, turned {rotation}")
    _child(root, "style", STYLE)
    root.append(defs_element := ET.Element("defs"))
    root.append(_tile(defs, spec, rotation, size, None, None))
    defs_element.extend(defs.element())
    return _text(root)


# ---------------------------------------------------------------- board


def _state(position: GameState | View) -> GameState:
    return position.state if isinstance(position, View) else position


def _cell_key(value: int | str) -> int:
    return hexes.parse_label(value) if isinstance(value, str) else value


def _figures(game: GameState, cell: int) -> list[tuple[int, bool, int]]:
    found = []
    for p in range(game.players):
        n = game.workers[p].get(cell, 0)
        if n:
            found.append((p, False, n))
        if game.leader[p] == cell:
            found.append((p, True, 1))
    return found


def _figure_layer(defs: _Defs, parent: ET.Element, game: GameState, cell: int, size: float) -> None:
    figures = _figures(game, cell)
    s = size / 50
    for row_index, row in enumerate((figures[:4], figures[4:])):
        y = (8 + 18 * row_index) * s
        width = 19 * s
        x0 = -width * (len(row) - 1) / 2
        for i, (p, leader, n) in enumerate(row):
            group = _child(parent, "g", class_="fig", data_seat=p, data_fig="L" if leader else "W",
                           data_cell=hexes.label(cell), data_count=n)
            who = "leader" if leader else f"workers: {n}"
            _child(group, "title", f"{seat_look(p).name} {who}")
            _mark(defs, group, p, leader, n, x0 + i * width, y, 7.4 * s)


def _camp_shape(owner: int, size: float) -> ET.Element:
    s = size / 50
    look = seat_look(owner)
    tent = [(-9 * s, 7 * s), (0, -9 * s), (9 * s, 7 * s)]
    return _group(
        _node("polygon", points=_points(tent), fill=look.colour, stroke=OUTLINE, stroke_width=1.2),
        _shape(look.shape, 0, 2 * s, 2.6 * s, fill="#ffffff", stroke=OUTLINE, stroke_width=0.6),
    )


def _camp(defs: _Defs, parent: ET.Element, owner: int, size: float) -> None:
    s = size / 50
    group = _child(parent, "g", class_="camp", data_seat=owner)
    _child(group, "title", f"{seat_look(owner).name} camp")
    defs.use(group, _id("camp", owner, size), partial(_camp_shape, owner, size), -27 * s, -12 * s)


def _guard_shape(owner: int, leader: bool, size: float) -> ET.Element:
    s = size / 50
    look = seat_look(owner)
    shield = (
        f"M{_num(-8 * s)},{_num(-9 * s)} h{_num(16 * s)} v{_num(8 * s)} "
        f"q0,{_num(8 * s)} {_num(-8 * s)},{_num(11 * s)} q{_num(-8 * s)},{_num(-3 * s)} "
        f"{_num(-8 * s)},{_num(-11 * s)} z"
    )
    return _group(
        _node("path", d=shield, fill=look.colour, stroke=OUTLINE, stroke_width=1.6),
        _node("text", "GL" if leader else "G", y=2 * s, text_anchor="middle", font_size=8 * s,
              font_weight=800, fill=look.ink),
    )


def _guard(defs: _Defs, parent: ET.Element, owner: int, leader: bool, size: float) -> None:
    s = size / 50
    group = _child(parent, "g", class_="guard", data_seat=owner)
    _child(group, "title", f"guarded by {seat_look(owner).name} {'leader' if leader else 'worker'}")
    defs.use(group, _id("guard", owner, "L" if leader else "W", size),
             partial(_guard_shape, owner, leader, size), 27 * s, -12 * s)


def _tile_title(game: GameState, cell: int) -> str:
    t = game.tiles[cell]
    spec = t.spec
    words = [hexes.label(cell), spec.describe()]
    if spec.kind == TEMPLE:
        value = game.levels[cell]
        words.append(f"value {value}" + (f" (printed {spec.value})" if value != spec.value else ""))
    if spec.kind == TREASURE:
        words.append(f"{len(game.tokens.get(cell, ()))} treasure(s) left")
    if cell in game.camps:
        words.append(f"{seat_look(game.camps[cell]).name} camp")
    if cell in game.guards:
        words.append(f"guarded by {seat_look(game.guards[cell][0]).name}")
    return ", ".join(words)


def _cells_to_draw(game: GameState) -> list[int]:
    if game.rules.bounded_board:
        return list(hexes.STANDARD_CELLS)
    return sorted(set(game.tiles) | game.frontier)


def _space(
    defs: _Defs, game: GameState, cell: int, x: float, y: float, size: float,
    marks: Mapping[int, str | None], chosen: int | None, coordinates: bool,
) -> ET.Element:
    """One space's ``<g>``: its tile (or empty hex), camp, guard, figures and label."""
    name = hexes.label(cell)
    placed = game.tiles.get(cell)
    classes = ["space"]
    if placed is None:
        classes.append("empty")
        if cell in game.frontier:
            classes.append("frontier")
    else:
        classes.append(placed.kind)
    if cell in marks:
        classes.append("hl")
    if cell == chosen:
        classes.append("sel")
    space = _node("g", class_=" ".join(classes), data_cell=name, data_x=x, data_y=y,
                  transform=f"translate({_num(x)},{_num(y)})")
    if placed is None:
        _child(space, "title", f"{name}: empty space")
        defs.use(space, _id("hex", size * 0.96), partial(_hex_shape, size * 0.96), class_="hex")
    else:
        _child(space, "title", _tile_title(game, cell))
        space.append(_tile(defs, placed.spec, placed.rotation, size,
                           game.levels.get(cell), len(game.tokens.get(cell, ()))))
        if cell in game.camps:
            _camp(defs, space, game.camps[cell], size)
        if cell in game.guards:
            owner, leader = game.guards[cell]
            _guard(defs, space, owner, leader, size)
        _figure_layer(defs, space, game, cell, size)
    if coordinates:
        _child(space, "text", name, class_="lbl", x=-size * 0.9, y=size * 0.06)
    text = marks.get(cell)
    if text:
        _child(space, "circle", cx=0, cy=size * 0.55, r=size * 0.2, fill="#1a7f37")
        _child(space, "text", text, x=0, y=size * 0.55 + 4, text_anchor="middle",
               font_size=11, font_weight=700, fill="#fff")
    return space


def board_spaces(
    position: GameState | View, cells: Iterable[int], *, size: float = 50
) -> tuple[dict[str, str], dict[str, str]]:
    """Some spaces of :func:`board` (with coordinates, no highlight): each space's
    ``<g>`` by label, exactly as the whole board draws it, and the ``<defs>`` shapes they
    use by id.  For clients that patch a board space by space (the web server re-sends
    only the spaces a move changed instead of the whole picture)."""
    game = _state(position)
    defs = _Defs()
    spaces = {}
    for cell in cells:
        x, y = hexes.pixel(cell, size)
        spaces[hexes.label(cell)] = _text(_space(defs, game, cell, x, y, size, {}, None, True))
    return spaces, {key: _text(shape) for key, shape in defs.shapes.items()}


def board(
    position: GameState | View,
    *,
    size: float = 50,
    highlight: Mapping[int | str, str | None] | Iterable[int | str] | None = None,
    selected: int | str | None = None,
    coordinates: bool = True,
    width: int | None = None,
) -> str:
    """The board (or the demo's growing plane) as an SVG string.

    ``highlight`` marks spaces (cells or labels such as ``"F3"``), optionally with
    a short text each (e.g. an AP cost); ``selected`` outlines one space.
    """
    game = _state(position)
    marks: dict[int, str | None] = {}
    if isinstance(highlight, Mapping):
        marks = {_cell_key(k): v for k, v in highlight.items()}
    elif highlight is not None:
        marks = {_cell_key(k): None for k in highlight}
    chosen = _cell_key(selected) if selected is not None else None
    cells = _cells_to_draw(game)
    centres = {c: hexes.pixel(c, size) for c in cells}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    if not game.rules.bounded_board:  # the demo plane: never zoom in closer than 7 x 5 hexes
        ox, oy = hexes.pixel(game.basecamp, size)
        xs += [ox - 4.5 * size, ox + 4.5 * size]
        ys += [oy - 2 * SQRT3 * size, oy + 2 * SQRT3 * size]
    pad = size * 0.25
    min_x, max_x = min(xs) - size - pad, max(xs) + size + pad
    min_y, max_y = min(ys) - size * SQRT3 / 2 - pad, max(ys) + size * SQRT3 / 2 + pad
    vw, vh = max_x - min_x, max_y - min_y

    defs = _Defs()
    _tile_kit(defs, size)
    root = _svg(
        class_="tk board", data_rules=game.rules.name,
        viewBox=" ".join(_num(v) for v in (min_x, min_y, vw, vh)),
        width=width, height=width * vh / vw if width else None,
        role="img", aria_label=f"Tikal board, {len(game.tiles)} tiles",
    )
    _child(root, "style", STYLE)
    root.append(defs_element := ET.Element("defs"))
    _child(root, "rect", x=min_x, y=min_y, width=vw, height=vh, rx=size * 0.3, fill="#33503a")
    for cell in cells:
        x, y = centres[cell]
        root.append(_space(defs, game, cell, x, y, size, marks, chosen, coordinates))
    _child(root, "g", class_="overlay")
    defs_element.extend(defs.element())
    return _text(root)
