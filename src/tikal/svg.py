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
"""

from __future__ import annotations

import html
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache, partial
from typing import Final

from . import hexes
from .components import BASECAMP, JUNGLE, TEMPLE, TREASURE, VOLCANO, TileSpec, rule_set
from .messages import DEFAULT_LANGUAGE, Message, catalog, render
from .seats import seat_look
from .state import GameState, tile_message
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
.tk .val{font-size:17px;font-weight:800;fill:#1d1c18}
.tk .cnt{font-size:10px;font-weight:700}
.tk .fc{text-anchor:middle;font-weight:700}
.tk .hex{stroke:#3f3b30;stroke-width:1.2}
.tk .empty .hex{stroke:#7f9a83;stroke-dasharray:4 3;fill:#3d5c44}
.tk .frontier .hex{fill:#48684f;stroke:#9fb8a2}
.tk .hl .hex{stroke:#1a7f37;stroke-width:4}
.tk .sel .hex{stroke:#000;stroke-width:4}
.tk .halo{fill:none;stroke:none}
.tk .fig.selected .halo{stroke:#ffe14d;stroke-width:4}
"""

# ---------------------------------------------------------------- words


def _say(key: str, language: str, /, **params: str | int) -> str:
    """The catalog's text for ``key`` in ``language`` (the same few texts are drawn
    again and again, on every space of every board: remembered)."""
    return _said(key, language, tuple(params.items()))


@lru_cache(maxsize=4096)
def _said(key: str, language: str, params: tuple[tuple[str, str | int], ...]) -> str:
    return render(Message(key, dict(params)), language=language)


def _colour(seat: int, language: str) -> str:
    """A seat's colour name in ``language`` (the catalog's ``colour.*``)."""
    name = seat_look(seat).name
    key = f"colour.{name.lower()}"
    return _say(key, language) if key in catalog() else name


def _tile_name(spec: TileSpec, language: str) -> str:
    """How a tile reads ("temple 5"): the engine's own tile message."""
    message = tile_message(spec)
    return _said(message.key, language, tuple(message.params.items()))


def _list(parts: Iterable[str], language: str) -> str:
    return _say("svg.separator", language).join(parts)


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


#: Shapes made so far, by id and language (see :class:`_Defs`).
_made: dict[tuple[str, str], ET.Element] = {}
MADE_CACHE_SIZE: Final = 4096


class _Defs:
    """The shapes of one picture, each defined once under ``<defs>`` and drawn with ``<use>``.

    With a ``language``, a shape already made for another picture in that language is
    taken again (an id names everything a shape depends on but the words in it; a
    shape, once made, is never changed): the web server draws a space or two per move,
    and making their shapes afresh each time was a third of that."""

    def __init__(self, language: str | None = None) -> None:
        self.shapes: dict[str, ET.Element] = {}
        self.language = language

    def define(self, key: str, make: Callable[[], ET.Element]) -> str:
        if key not in self.shapes:
            self.shapes[key] = self._make(key, make)
        return "#" + key

    def _make(self, key: str, make: Callable[[], ET.Element]) -> ET.Element:
        found = None if self.language is None else _made.get((key, self.language))
        if found is None:
            found = make()
            found.set("id", key)
            if self.language is not None:
                if len(_made) >= MADE_CACHE_SIZE:
                    _made.clear()
                _made[key, self.language] = found
        return found

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
        _child(parent, "text", label, class_="fc", x=x, y=y + _label_offset(look.shape, r),
               font_size=r * (1.05 if len(label) < 2 else 0.85), fill=look.ink)


def chip(
    seat: int, leader: bool = False, count: int | None = None, size: float = 22, *,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """A small standalone SVG of one player's mark (for score boards and legends)."""
    defs = _Defs()
    name = _say("svg.leader" if leader else "svg.worker", language,
                colour=_colour(seat, language))
    root = _svg(class_="chip", width=float(size), height=float(size),
                viewBox=f"0 0 {_num(size)} {_num(size)}", role="img", aria_label=name)
    root.append(defs_element := ET.Element("defs"))
    half = size / 2
    _mark(defs, root, seat, leader, count, half, half, size / 2.6)
    defs_element.extend(defs.element())
    return _text(root)


# ---------------------------------------------------------------- treasures

#: treasure types are letters a-h; each has a colour *and* a glyph of its own, so that the
#: types differ for colour-blind players too
TREASURE_LOOKS: Final = {
    "a": ("#b8860b", "sun"),
    "b": ("#3f5fa8", "moon"),
    "c": ("#b03a2e", "star"),
    "d": ("#2e7d4f", "leaf"),
    "e": ("#7b3f9e", "gem"),
    "f": ("#5a4632", "mask"),
    "g": ("#b4561a", "vase"),
    "h": ("#117a80", "spiral"),
}


def _star_points(r: float, inner: float) -> str:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else inner
        angle = math.radians(-90 + 36 * i)
        points.append((radius * math.cos(angle), radius * math.sin(angle)))
    return _points(points)


def _glyph(kind: str, colour: str) -> list[ET.Element]:
    """A treasure glyph in white, in a box of 24 centred on (0, 0)."""
    white = "#ffffff"
    if kind == "sun":
        rays = "".join(
            f"M{_num(5.5 * math.cos(math.radians(a)))},{_num(5.5 * math.sin(math.radians(a)))}"
            f"L{_num(8.5 * math.cos(math.radians(a)))},{_num(8.5 * math.sin(math.radians(a)))}"
            for a in range(0, 360, 45)
        )
        return [_node("circle", r=3.8, fill=white),
                _node("path", d=rays, stroke=white, stroke_width=1.8, stroke_linecap="round")]
    if kind == "moon":
        return [_node("circle", r=7, fill=white), _node("circle", cx=3.4, cy=-2.4, r=5.6,
                                                        fill=colour)]
    if kind == "star":
        return [_node("polygon", points=_star_points(8.5, 3.6), fill=white)]
    if kind == "leaf":
        return [_node("path", d="M-7,7 C-7,-2 -1,-8 7.5,-7.5 C8,1 2,7 -7,7 Z", fill=white),
                _node("path", d="M-7,7 L3,-3", stroke=colour, stroke_width=1.3)]
    if kind == "gem":
        return [_node("polygon", points="-7,-2.5 -3.5,-7 3.5,-7 7,-2.5 0,8", fill=white),
                _node("path", d="M-7,-2.5 H7 M-3.5,-7 L0,8 L3.5,-7", stroke=colour,
                      stroke_width=1, fill="none")]
    if kind == "mask":
        return [_node("ellipse", rx=6.2, ry=8, fill=white),
                _node("ellipse", cx=-2.5, cy=-2, rx=1.7, ry=1.2, fill=colour),
                _node("ellipse", cx=2.5, cy=-2, rx=1.7, ry=1.2, fill=colour),
                _node("rect", x=-2.6, y=3, width=5.2, height=1.6, fill=colour)]
    if kind == "vase":
        return [_node("path", d="M-3,-8 H3 V-5.5 C8,-3 8.5,4 4,7.5 H-4 C-8.5,4 -8,-3 -3,-5.5 Z",
                      fill=white),
                _node("path", d="M-5.8,0 H5.8", stroke=colour, stroke_width=1.3)]
    return [_node("path", d="M0,0 a1.3,1.3 0 1 1 2.6,0 a2.9,2.9 0 1 1 -5.8,0 "
                            "a4.5,4.5 0 1 1 9,0 a6.1,6.1 0 1 1 -12.2,0",
                  stroke=white, stroke_width=1.8, fill="none", stroke_linecap="round")]


def _treasure_shape(letter: str, language: str) -> ET.Element:
    colour, kind = TREASURE_LOOKS[letter]
    group = _group(
        _node("rect", x=-11, y=-11, width=22, height=22, rx=6, fill=colour, stroke="#1b1b1b",
              stroke_width=1.2),
        *_glyph(kind, colour),
    )
    group.set("data-name", treasure_name(letter, language))
    return group


def treasure_name(letter: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A treasure type's name for screen readers and tooltips: ``"A (sun)"``."""
    glyph = TREASURE_LOOKS[letter.lower()][1]
    return _say("svg.treasure.name", language, letter=letter.upper(),
                glyph=_say(f"svg.glyph.{glyph}", language))


def _treasure_kit(defs: _Defs, types: int, language: str) -> None:
    for letter in list(TREASURE_LOOKS)[:types]:
        defs.define(_id("treasure", letter), partial(_treasure_shape, letter, language))


def treasure_icon(
    letter: str, size: float = 24, count: int | None = None, *,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """A standalone SVG of one treasure type (``"a"`` ... ``"h"``), with ``count`` beside
    it when given: each type has its own colour and glyph."""
    letter = letter.lower()
    defs = _Defs()
    name = treasure_name(letter, language)
    label = (_say("svg.treasure.icon", language, name=name) if count is None
             else _say("svg.treasure.icon_count", language, name=name, count=count))
    width = 24 + (16 if count is not None else 0)
    root = _svg(class_="treasure-icon", width=float(size * width / 24), height=float(size),
                viewBox=f"-12 -12 {width} 24", role="img", aria_label=label)
    root.append(defs_element := ET.Element("defs"))
    defs.use(root, _id("treasure", letter), partial(_treasure_shape, letter, language))
    if count is not None:
        _child(root, "text", f"\u00d7{count}", x=20, y=5, text_anchor="middle", font_size=13,
               font_weight=700, fill="#1b1b1b")
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


#: temple levels drawn as stacked bars, bottom up: at most this many (higher levels only
#: show in the value plaque)
TEMPLE_BARS: Final = 10
TEMPLE_STONE: Final = "#8d846f"  # printed levels
TEMPLE_DUG: Final = "#e2c66f"  # levels added by digging


def _temple_bar(index: int, dug: bool, size: float) -> ET.Element:
    """Level ``index`` (0 = the bottom one) of a temple's stepped pyramid."""
    s = size / 50
    width = 36 - 2.6 * index
    return _node("rect", x=(3 - width / 2) * s, y=(-4 - 3.9 * (index + 1)) * s,
                 width=width * s, height=3.6 * s, rx=0.7 * s,
                 fill=TEMPLE_DUG if dug else TEMPLE_STONE, stroke="#3f3b30", stroke_width=0.6)


def _plaque_shape(size: float, dug: bool) -> ET.Element:
    """The plaque the temple's value is written on: round when printed, square when dug."""
    s = size / 50
    if dug:
        return _node("rect", x=-11 * s, y=-11 * s, width=22 * s, height=22 * s, rx=3 * s,
                     fill="#fff6cf", stroke="#1d1c18", stroke_width=1.6)
    return _node("circle", r=11 * s, fill="#fffdf4", stroke="#1d1c18", stroke_width=1.4)


def _temple(
    defs: _Defs, parent: ET.Element, printed: int, level: int, size: float
) -> None:
    """A temple of ``level`` levels: one bar per level (printed ones in stone, dug ones in
    gold) and its value large on a plaque."""
    s = size / 50
    for index in range(min(level, TEMPLE_BARS)):
        dug = index >= printed
        defs.use(parent, _id("tlevel", index, "dug" if dug else "new", size),
                 partial(_temple_bar, index, dug, size))
    dug = level > printed
    defs.use(parent, _id("plaque", "dug" if dug else "new", size),
             partial(_plaque_shape, size, dug), -25 * s, -16 * s)
    _child(parent, "text", str(level), class_="val", x=-25 * s, y=-10 * s,
           text_anchor="middle", font_size=(17 if level < 10 else 14) * s)


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
    """A face-down treasure token (its type is hidden: only the count is public)."""
    s = size / 50
    return _group(
        _node("ellipse", rx=5.5 * s, ry=7.2 * s, fill="#6b4a12", stroke="#2b1d05",
              stroke_width=0.9),
        _node("circle", cx=-2 * s, cy=-1.8 * s, r=1.3 * s, fill="#f3d27a"),
        _node("circle", cx=2 * s, cy=-1.8 * s, r=1.3 * s, fill="#f3d27a"),
        _node("rect", x=-2 * s, y=2.5 * s, width=4 * s, height=1.3 * s, fill="#f3d27a"),
    )


def _volcano_shape(size: float) -> ET.Element:
    s = size / 50
    cone = [(-30 * s, 16 * s), (-8 * s, -22 * s), (8 * s, -22 * s), (30 * s, 16 * s)]
    lava = [(-8 * s, -22 * s), (8 * s, -22 * s), (4 * s, -10 * s), (6 * s, 2 * s),
            (0, -6 * s), (-5 * s, 4 * s), (-3 * s, -10 * s)]
    smoke = (
        f"M{_num(-3 * s)},{_num(-25 * s)} q{_num(-5 * s)},{_num(-7 * s)} "
        f"{_num(2 * s)},{_num(-13 * s)}"
    )
    return _group(
        _node("polygon", points=_points(cone), fill="#8a4b2f", stroke="#1a0c08", stroke_width=1.4),
        _node("polygon", points=_points(lava), fill="#ff6a13", stroke="#ffc23d", stroke_width=0.8),
        _node("ellipse", cy=-22 * s, rx=8 * s, ry=3 * s, fill="#ffb21f", stroke="#1a0c08",
              stroke_width=0.8),
        _node("path", d=smoke, stroke="#d9d2c5", stroke_width=2.6 * s, fill="none"),
    )


def _basecamp_shape(size: float, language: str) -> ET.Element:
    s = size / 50
    y = -16 * s
    flag = [(-6 * s, y - 14 * s), (8 * s, y - 9 * s), (-6 * s, y - 4 * s)]
    return _group(
        _node("line", x1=-6 * s, y1=y + 8 * s, x2=-6 * s, y2=y - 14 * s, stroke="#3f3b30",
              stroke_width=1.6 * s),
        _node("polygon", points=_points(flag), fill="#b3261e"),
        _node("text", _say("svg.base", language), x=4 * s, y=y + 8 * s, font_size=8 * s,
              font_weight=700, fill="#1d1c18"),
    )


def _icon(
    defs: _Defs, parent: ET.Element, spec: TileSpec, size: float, level: int | None,
    tokens: int | None, language: str,
) -> None:
    s = size / 50
    y = -16 * s
    if spec.kind == TEMPLE:
        _temple(defs, parent, spec.value, spec.value if level is None else level, size)
    elif spec.kind == JUNGLE:
        defs.use(parent, _id("jungle", size), partial(_jungle_shape, size))
    elif spec.kind == TREASURE:
        n = tokens if tokens is not None else spec.masks
        for i in range(min(n, 4)):
            defs.use(parent, _id("mask", size), partial(_mask_shape, size), (-12 + 11 * i) * s,
                     y - 6 * s)
        _child(parent, "text", f"\u00d7{n}" if n else _say("svg.no_treasures", language),
               class_="cnt", x=4 * s,
               y=y + 11 * s, text_anchor="middle", font_size=12 * s, fill="#1d1c18")
    elif spec.kind == VOLCANO:
        defs.use(parent, _id("volcano", size), partial(_volcano_shape, size))
    elif spec.kind == BASECAMP:
        defs.use(parent, _id("basecamp", size), partial(_basecamp_shape, size, language))


def _tile_kit(defs: _Defs, size: float, language: str) -> None:
    """Define every shape a fresh tile of ``size`` may use, so that :func:`tile_group`
    fragments can be laid over a board of that size (the web app's ghost tile)."""
    defs.define(_id("hex", size), partial(_hex_shape, size))
    for count in (1, 2, 3):
        defs.define(_id("stones", count, size), partial(_stone_row, count, size))
    for index in range(6):  # printed temple values go up to 6
        defs.define(_id("tlevel", index, "new", size), partial(_temple_bar, index, False, size))
    defs.define(_id("plaque", "new", size), partial(_plaque_shape, size, False))
    defs.define(_id("jungle", size), partial(_jungle_shape, size))
    defs.define(_id("mask", size), partial(_mask_shape, size))
    defs.define(_id("volcano", size), partial(_volcano_shape, size))
    defs.define(_id("basecamp", size), partial(_basecamp_shape, size, language))


def _tile(
    defs: _Defs, spec: TileSpec, rotation: int, size: float, level: int | None,
    tokens: int | None, language: str,
) -> ET.Element:
    group = _node("g", class_=f"tile {spec.kind}")
    defs.use(group, _id("hex", size), partial(_hex_shape, size), class_="hex",
             fill=KIND_FILL.get(spec.kind, EMPTY_FILL))
    for direction, count in enumerate(hexes.rotate(spec.stones, rotation)):
        if count:
            n = min(count, 3)
            defs.use(group, _id("stones", n, size), partial(_stone_row, n, size),
                     transform=f"rotate({60 * direction})" if direction else None)
    _icon(defs, group, spec, size, level, tokens, language)
    return group


def tile_group(
    spec: TileSpec, rotation: int, size: float = 50, *, level: int | None = None,
    tokens: int | None = None, language: str = DEFAULT_LANGUAGE,
) -> str:
    """The picture of one tile centred on (0, 0), as an SVG ``<g>`` fragment.

    Its ``<use>`` elements point at the ``<defs>`` of a :func:`board` drawn at the same
    ``size``, which defines every shape a fresh tile needs: lay the fragment over the board.
    """
    return _text(_tile(_Defs(), spec, rotation, size, level, tokens, language))


def tile(
    spec: TileSpec | str, rotation: int = 0, size: float = 50, rules: str = "standard", *,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """A standalone SVG of one terrain tile turned ``rotation`` sixth-turns clockwise."""
    if isinstance(spec, str):
        spec = rule_set(rules).tile(spec)
    w, h = 2 * size + 4, SQRT3 * size + 4
    defs = _Defs()
    root = _svg(class_="tk tile-svg", viewBox=" ".join(_num(v) for v in (-w / 2, -h / 2, w, h)),
                width=float(w), height=float(h), role="img",
                aria_label=_say("svg.tile.label", language, tile=_tile_name(spec, language),
                                rotation=rotation))
    _child(root, "style", STYLE)
    root.append(defs_element := ET.Element("defs"))
    root.append(_tile(defs, spec, rotation, size, None, None, language))
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


def _figure_layer(
    defs: _Defs, parent: ET.Element, game: GameState, cell: int, size: float, language: str,
) -> None:
    figures = _figures(game, cell)
    if not figures:
        return
    s = size / 50
    r, slots = _figure_slots(len(figures))
    for (p, leader, n), (x, y) in zip(figures, slots, strict=False):
        group = _child(parent, "g", class_="fig", data_seat=p, data_fig="L" if leader else "W",
                       data_cell=hexes.label(cell), data_count=n)
        colour = _colour(p, language)
        who = (_say("svg.leader", language, colour=colour) if leader
               else _say("svg.workers", language, colour=colour, count=n))
        _child(group, "title", who)
        _mark(defs, group, p, leader, n, x * s, y * s, r * s)


def _camp_shape(owner: int, size: float) -> ET.Element:
    s = size / 50
    look = seat_look(owner)
    tent = [(-12 * s, 9 * s), (0, -12 * s), (12 * s, 9 * s)]
    door = [(-3.5 * s, 9 * s), (0, 1 * s), (3.5 * s, 9 * s)]
    return _group(
        _node("polygon", points=_points(tent), fill=look.colour, stroke=OUTLINE, stroke_width=1.6),
        _node("polygon", points=_points(door), fill=OUTLINE),
        _shape(look.shape, 0, -3 * s, 3.2 * s, fill="#ffffff", stroke=OUTLINE, stroke_width=0.7),
    )


def _camp(defs: _Defs, parent: ET.Element, owner: int, size: float, language: str) -> None:
    s = size / 50
    group = _child(parent, "g", class_="camp", data_seat=owner)
    _child(group, "title", _say("svg.camp", language, colour=_colour(owner, language)))
    defs.use(group, _id("camp", owner, size), partial(_camp_shape, owner, size), -29 * s, -10 * s)


def _guard_shape(owner: int, leader: bool, size: float) -> ET.Element:
    s = size / 50
    look = seat_look(owner)
    shield = (
        f"M{_num(-10 * s)},{_num(-11 * s)} h{_num(20 * s)} v{_num(10 * s)} "
        f"q0,{_num(10 * s)} {_num(-10 * s)},{_num(13 * s)} q{_num(-10 * s)},{_num(-3 * s)} "
        f"{_num(-10 * s)},{_num(-13 * s)} z"
    )
    return _group(
        _node("path", d=shield, fill=look.colour, stroke=OUTLINE, stroke_width=2),
        _node("path", d=shield, fill="none", stroke="#ffffff", stroke_width=0.8,
              transform="scale(0.78)"),
        _node("text", "GL" if leader else "G", y=3 * s, text_anchor="middle", font_size=10 * s,
              font_weight=800, fill=look.ink),
    )


def _guard(
    defs: _Defs, parent: ET.Element, owner: int, leader: bool, size: float, language: str,
) -> None:
    s = size / 50
    group = _child(parent, "g", class_="guard", data_seat=owner)
    _child(group, "title", _say("svg.guard.leader" if leader else "svg.guard.worker", language,
                                colour=_colour(owner, language)))
    defs.use(group, _id("guard", owner, "L" if leader else "W", size),
             partial(_guard_shape, owner, leader, size), 28 * s, -14 * s)


def _tile_title(game: GameState, cell: int, language: str) -> str:
    """A placed tile's space for screen readers: "A4, temple 1, value 3 (printed 1)"."""
    spec = game.tiles[cell].spec
    words = [hexes.label(cell), _tile_name(spec, language)]
    if spec.kind == TEMPLE:
        value = game.levels[cell]
        words.append(_say("svg.value", language, value=value) if value == spec.value
                     else _say("svg.value_printed", language, value=value, printed=spec.value))
    if spec.kind == TREASURE:
        words.append(_say("svg.treasures_left", language,
                          count=len(game.tokens.get(cell, ()))))
    if cell in game.camps:
        words.append(_say("svg.camp", language, colour=_colour(game.camps[cell], language)))
    if cell in game.guards:
        words.append(_say("svg.guarded", language,
                          colour=_colour(game.guards[cell][0], language)))
    return _list(words, language)


def _cells_to_draw(game: GameState) -> list[int]:
    if game.rules.bounded_board:
        return list(hexes.STANDARD_CELLS)
    return sorted(set(game.tiles) | game.frontier)


def _space(
    defs: _Defs, game: GameState, cell: int, x: float, y: float, size: float,
    marks: Mapping[int, str | None], chosen: int | None, coordinates: bool, language: str,
    pieces: _Pieces | None = None,
) -> ET.Element:
    """One space's ``<g>``: its tile (or empty hex), camp, guard, figures and label (the
    tile and the figures through ``pieces``, when given)."""
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
        _child(space, "title", _say("svg.empty", language, cell=name))
        defs.use(space, _id("hex", size * 0.96), partial(_hex_shape, size * 0.96), class_="hex")
    else:
        _child(space, "title", _tile_title(game, cell, language))
        tile = (_tile if pieces is None else pieces.tile)(
            defs, placed.spec, placed.rotation, size, game.levels.get(cell),
            len(game.tokens.get(cell, ())), language)
        space.append(tile)
        if cell in game.camps:
            _camp(defs, space, game.camps[cell], size, language)
        if cell in game.guards:
            owner, leader = game.guards[cell]
            _guard(defs, space, owner, leader, size, language)
        (_figure_layer if pieces is None else pieces.figures)(
            defs, space, game, cell, size, language)
    if coordinates:
        _child(space, "text", name, class_="lbl", x=-size * 0.9, y=size * 0.06)
    text = marks.get(cell)
    if text:
        _child(space, "circle", cx=0, cy=size * 0.55, r=size * 0.2, fill="#1a7f37")
        _child(space, "text", text, x=0, y=size * 0.55 + 4, text_anchor="middle",
               font_size=11, font_weight=700, fill="#fff")
    return space


#: Drawn pieces of spaces by what they show (see :class:`_Pieces`): their text and the
#: shapes they use, in the order they define them.
_drawn: dict[tuple[object, ...], tuple[str, dict[str, ET.Element]]] = {}
DRAWN_CACHE_SIZE: Final = 20_000
SLOT: Final = "tk-slot"
SLOT_TEXT: Final = f"<{SLOT} />"  # how ElementTree writes an empty element
FIGURES: Final = "tk-figures"
FIGURES_TEXT: Final = f"<{FIGURES} />"


class _Pieces:
    """A space for :func:`board_spaces` in pieces, each drawn and serialised once per
    look and language: the space without its figures, its tile's picture (the larger
    part of its text, shared by the spaces of the same tile, turn and level) and its
    figures.

    A space's figures and the rest change apart (a figure comes or goes; a temple
    grows), so the web server, which asks for one or two changed spaces a move, mostly
    finds the one that did not change drawn before.  A piece is drawn as an empty
    element (``<tk-slot />``, ``<tk-figures />``) in its place, then its text is
    written in: ElementTree writes a subtree the same alone as inside its parent, so the
    text is the same as the whole space serialised at once.  The pieces' shapes are
    defined where the pieces stand, in their order (the figures come last in a space),
    so ``defs`` ends up as it would have."""

    def __init__(self, defs: _Defs) -> None:
        self.defs = defs
        self.texts: list[str] = []

    def space(self, game: GameState, cell: int, size: float, language: str) -> str:
        """The space's text, as ``_text(_space(...))`` with coordinates and no marks."""
        key = ("space", _space_key(game, cell), size, language)

        def draw(own: _Defs) -> list[ET.Element]:
            x, y = hexes.pixel(cell, size)
            return [_space(own, game, cell, x, y, size, {}, None, True, language, self)]
        text = self._piece(key, draw, fill=True)
        if FIGURES_TEXT not in text:  # an empty space: no figures drawn
            return text
        found = tuple(_figures(game, cell))
        if found:
            def figures(own: _Defs) -> list[ET.Element]:
                group = ET.Element("g")
                _figure_layer(own, group, game, cell, size, language)
                return list(group)
            return text.replace(FIGURES_TEXT, self._piece(
                ("figures", found, cell, size, language), figures), 1)
        return text.replace(FIGURES_TEXT, "", 1)

    def tile(
        self, defs: _Defs, spec: TileSpec, rotation: int, size: float, level: int | None,
        tokens: int | None, language: str,
    ) -> ET.Element:
        def draw(own: _Defs) -> list[ET.Element]:
            return [_tile(own, spec, rotation, size, level, tokens, language)]
        self.texts.append(self._piece(("tile", spec, rotation, size, level, tokens, language),
                                      draw, into=defs))
        return ET.Element(SLOT)

    def figures(
        self, defs: _Defs, parent: ET.Element, game: GameState, cell: int, size: float,
        language: str,
    ) -> None:
        """A place for the figures (drawn apart by :meth:`space`), whether or not the
        space has any."""
        parent.append(ET.Element(FIGURES))

    def _piece(
        self, key: tuple[object, ...], draw: Callable[[_Defs], list[ET.Element]],
        fill: bool = False, into: _Defs | None = None,
    ) -> str:
        """The text of the piece ``key`` (``draw`` makes its elements the first time),
        its shapes defined in ``into`` (else this space's ``<defs>``); ``fill``: the
        tiles it holds are written into it first."""
        found = _drawn.get(key)
        if found is None:
            own = _Defs(self.defs.language)
            text = "".join(_text(element) for element in draw(own))
            if fill:
                for piece in self.texts:
                    text = text.replace(SLOT_TEXT, piece, 1)
                self.texts = []
            if len(_drawn) >= DRAWN_CACHE_SIZE:
                _drawn.clear()
            found = _drawn[key] = (text, dict(own.shapes))
        text, shapes = found
        target = (into or self.defs).shapes
        for name, shape in shapes.items():
            target.setdefault(name, shape)
        return text


def _space_key(game: GameState, cell: int) -> tuple[object, ...]:
    """Everything :func:`_space` draws of ``cell`` but its figures (with coordinates, no
    marks, no selection): equal keys, equal pictures."""
    placed = game.tiles.get(cell)
    if placed is None:
        return (cell, None, cell in game.frontier)
    return (cell, placed.spec, placed.rotation, game.levels.get(cell),
            len(game.tokens.get(cell, ())), game.camps.get(cell), game.guards.get(cell))


def board_spaces(
    position: GameState | View, cells: Iterable[int], *, size: float = 50,
    language: str = DEFAULT_LANGUAGE,
) -> tuple[dict[str, str], dict[str, str]]:
    """Some spaces of :func:`board` (with coordinates, no highlight): each space's
    ``<g>`` by label, exactly as the whole board draws it, and the ``<defs>`` shapes they
    use by id.  For clients that patch a board space by space (the web server re-sends
    only the spaces a move changed instead of the whole picture)."""
    game = _state(position)
    defs = _Defs(language)
    spaces = {hexes.label(cell): _Pieces(defs).space(game, cell, size, language)
              for cell in cells}
    return spaces, {key: _shape_text(key, shape, language) for key, shape in defs.shapes.items()}


#: Shapes' texts by id and language (see :func:`_shape_text`).
_shape_texts: dict[tuple[str, str], str] = {}
SHAPE_CACHE_SIZE: Final = 4096


def _shape_text(key: str, shape: ET.Element, language: str) -> str:
    """A ``<defs>`` shape as text, serialised once per id and language: an id names
    everything its shape depends on but the language (the words in it), so the text
    is the same each time (serialising the shapes was a quarter of
    :func:`board_spaces`' time, the web server asking for one or two spaces a move)."""
    found = _shape_texts.get((key, language))
    if found is None:
        if len(_shape_texts) >= SHAPE_CACHE_SIZE:
            _shape_texts.clear()
        found = _shape_texts[key, language] = _text(shape)
    return found


def board_label(tiles: int, language: str = DEFAULT_LANGUAGE) -> str:
    """The board's accessible name: "Tikal board, 12 tiles"."""
    return _say("svg.board", language, count=tiles)


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
    _tile_kit(defs, size, language)
    _treasure_kit(defs, game.rules.token_types, language)
    root = _svg(
        class_="tk board", data_rules=game.rules.name,
        viewBox=" ".join(_num(v) for v in (min_x, min_y, vw, vh)),
        width=width, height=width * vh / vw if width else None,
        role="img", aria_label=board_label(len(game.tiles), language),
    )
    _child(root, "style", STYLE)
    root.append(defs_element := ET.Element("defs"))
    _child(root, "rect", x=min_x, y=min_y, width=vw, height=vh, rx=size * 0.3, fill="#33503a")
    for cell in cells:
        x, y = centres[cell]
        root.append(_space(defs, game, cell, x, y, size, marks, chosen, coordinates, language))
    _child(root, "g", class_="overlay")
    defs_element.extend(defs.element())
    return _text(root)
