"""Terrain tiles: the hex, its stones, and the tile's icon (a temple's stacked levels and
value, jungle, treasure masks, volcano, the basecamp), alone or laid on a board."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import partial
from typing import Final

from .. import hexes
from ..components import BASECAMP, JUNGLE, TEMPLE, TREASURE, VOLCANO, TileSpec, rule_set
from ..messages import DEFAULT_LANGUAGE
from .draw import (
    EMPTY_FILL,
    KIND_FILL,
    SQRT3,
    STONE_FILL,
    STYLE,
    Defs,
    child,
    edge_corners,
    group,
    hex_corners,
    ident,
    node,
    num,
    points,
    say,
    svg_root,
    text_of,
    tile_name,
)


def hex_shape(size: float) -> ET.Element:
    # no fill or stroke of its own: the <use class="hex"> (and the page's CSS) gives them
    return node("polygon", points=points(hex_corners(0, 0, size)))


def _stone_row(count: int, size: float) -> ET.Element:
    """``count`` stones along the north edge; other edges are this row turned."""
    spots = {1: (0.5,), 2: (0.33, 0.67), 3: (0.2, 0.5, 0.8)}[count]
    (ax, ay), (bx, by) = edge_corners(0, size)
    return group(*(
        node("circle", cx=(ax + (bx - ax) * t) * 0.88, cy=(ay + (by - ay) * t) * 0.88,
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
    return node("rect", x=(3 - width / 2) * s, y=(-4 - 3.9 * (index + 1)) * s,
                width=width * s, height=3.6 * s, rx=0.7 * s,
                fill=TEMPLE_DUG if dug else TEMPLE_STONE, stroke="#3f3b30", stroke_width=0.6)


def _plaque_shape(size: float, dug: bool) -> ET.Element:
    """The plaque the temple's value is written on: round when printed, square when dug."""
    s = size / 50
    if dug:
        return node("rect", x=-11 * s, y=-11 * s, width=22 * s, height=22 * s, rx=3 * s,
                    fill="#fff6cf", stroke="#1d1c18", stroke_width=1.6)
    return node("circle", r=11 * s, fill="#fffdf4", stroke="#1d1c18", stroke_width=1.4)


def _temple(defs: Defs, parent: ET.Element, printed: int, level: int, size: float) -> None:
    """A temple of ``level`` levels: one bar per level (printed ones in stone, dug ones in
    gold) and its value large on a plaque."""
    s = size / 50
    for index in range(min(level, TEMPLE_BARS)):
        dug = index >= printed
        defs.use(parent, ident("tlevel", index, "dug" if dug else "new", size),
                 partial(_temple_bar, index, dug, size))
    dug = level > printed
    defs.use(parent, ident("plaque", "dug" if dug else "new", size),
             partial(_plaque_shape, size, dug), -25 * s, -16 * s)
    child(parent, "text", str(level), class_="val", x=-25 * s, y=-10 * s,
          text_anchor="middle", font_size=(17 if level < 10 else 14) * s)


def _jungle_shape(size: float) -> ET.Element:
    s = size / 50
    y = -16 * s
    trees = []
    for tx, th in ((-10, 13), (2, 17), (13, 12)):
        trees.append(node("rect", x=(tx - 1) * s, y=y, width=2 * s, height=8 * s, fill="#5a3d22"))
        trees.append(node("circle", cx=tx * s, cy=y - th * s / 3, r=th * s / 2.2,
                          fill="#2f6b2a", stroke="#1d3f1a", stroke_width=0.8))
    return group(*trees)


def _mask_shape(size: float) -> ET.Element:
    """A face-down treasure token (its type is hidden: only the count is public)."""
    s = size / 50
    return group(
        node("ellipse", rx=5.5 * s, ry=7.2 * s, fill="#6b4a12", stroke="#2b1d05",
             stroke_width=0.9),
        node("circle", cx=-2 * s, cy=-1.8 * s, r=1.3 * s, fill="#f3d27a"),
        node("circle", cx=2 * s, cy=-1.8 * s, r=1.3 * s, fill="#f3d27a"),
        node("rect", x=-2 * s, y=2.5 * s, width=4 * s, height=1.3 * s, fill="#f3d27a"),
    )


def _volcano_shape(size: float) -> ET.Element:
    s = size / 50
    cone = [(-30 * s, 16 * s), (-8 * s, -22 * s), (8 * s, -22 * s), (30 * s, 16 * s)]
    lava = [(-8 * s, -22 * s), (8 * s, -22 * s), (4 * s, -10 * s), (6 * s, 2 * s),
            (0, -6 * s), (-5 * s, 4 * s), (-3 * s, -10 * s)]
    smoke = (
        f"M{num(-3 * s)},{num(-25 * s)} q{num(-5 * s)},{num(-7 * s)} "
        f"{num(2 * s)},{num(-13 * s)}"
    )
    return group(
        node("polygon", points=points(cone), fill="#8a4b2f", stroke="#1a0c08", stroke_width=1.4),
        node("polygon", points=points(lava), fill="#ff6a13", stroke="#ffc23d", stroke_width=0.8),
        node("ellipse", cy=-22 * s, rx=8 * s, ry=3 * s, fill="#ffb21f", stroke="#1a0c08",
             stroke_width=0.8),
        node("path", d=smoke, stroke="#d9d2c5", stroke_width=2.6 * s, fill="none"),
    )


def _basecamp_shape(size: float, language: str) -> ET.Element:
    s = size / 50
    y = -16 * s
    flag = [(-6 * s, y - 14 * s), (8 * s, y - 9 * s), (-6 * s, y - 4 * s)]
    return group(
        node("line", x1=-6 * s, y1=y + 8 * s, x2=-6 * s, y2=y - 14 * s, stroke="#3f3b30",
             stroke_width=1.6 * s),
        node("polygon", points=points(flag), fill="#b3261e"),
        node("text", say("svg.base", language), x=4 * s, y=y + 8 * s, font_size=8 * s,
             font_weight=700, fill="#1d1c18"),
    )


def _treasure_icon(
    defs: Defs, parent: ET.Element, spec: TileSpec, size: float, tokens: int | None,
    language: str,
) -> None:
    """The masks (up to four) and the count of the tokens left on a treasure tile."""
    s = size / 50
    y = -16 * s
    n = tokens if tokens is not None else spec.masks
    for i in range(min(n, 4)):
        defs.use(parent, ident("mask", size), partial(_mask_shape, size), (-12 + 11 * i) * s,
                 y - 6 * s)
    child(parent, "text", f"\u00d7{n}" if n else say("svg.no_treasures", language),
          class_="cnt", x=4 * s, y=y + 11 * s, text_anchor="middle", font_size=12 * s,
          fill="#1d1c18")


def _icon(
    defs: Defs, parent: ET.Element, spec: TileSpec, size: float, level: int | None,
    tokens: int | None, language: str,
) -> None:
    if spec.kind == TEMPLE:
        _temple(defs, parent, spec.value, spec.value if level is None else level, size)
    elif spec.kind == JUNGLE:
        defs.use(parent, ident("jungle", size), partial(_jungle_shape, size))
    elif spec.kind == TREASURE:
        _treasure_icon(defs, parent, spec, size, tokens, language)
    elif spec.kind == VOLCANO:
        defs.use(parent, ident("volcano", size), partial(_volcano_shape, size))
    elif spec.kind == BASECAMP:
        defs.use(parent, ident("basecamp", size), partial(_basecamp_shape, size, language))


def tile_kit(defs: Defs, size: float, language: str) -> None:
    """Define every shape a fresh tile of ``size`` may use, so that :func:`tile_group`
    fragments can be laid over a board of that size (the web app's ghost tile)."""
    defs.define(ident("hex", size), partial(hex_shape, size))
    for count in (1, 2, 3):
        defs.define(ident("stones", count, size), partial(_stone_row, count, size))
    for index in range(6):  # printed temple values go up to 6
        defs.define(ident("tlevel", index, "new", size), partial(_temple_bar, index, False, size))
    defs.define(ident("plaque", "new", size), partial(_plaque_shape, size, False))
    defs.define(ident("jungle", size), partial(_jungle_shape, size))
    defs.define(ident("mask", size), partial(_mask_shape, size))
    defs.define(ident("volcano", size), partial(_volcano_shape, size))
    defs.define(ident("basecamp", size), partial(_basecamp_shape, size, language))


def tile_element(
    defs: Defs, spec: TileSpec, rotation: int, size: float, level: int | None,
    tokens: int | None, language: str,
) -> ET.Element:
    """A tile's ``<g>``, centred on (0, 0), its shapes drawn from ``defs``."""
    made = node("g", class_=f"tile {spec.kind}")
    defs.use(made, ident("hex", size), partial(hex_shape, size), class_="hex",
             fill=KIND_FILL.get(spec.kind, EMPTY_FILL))
    for direction, count in enumerate(hexes.rotate(spec.stones, rotation)):
        if count:
            n = min(count, 3)
            defs.use(made, ident("stones", n, size), partial(_stone_row, n, size),
                     transform=f"rotate({60 * direction})" if direction else None)
    _icon(defs, made, spec, size, level, tokens, language)
    return made


def tile_group(
    spec: TileSpec, rotation: int, size: float = 50, *, level: int | None = None,
    tokens: int | None = None, language: str = DEFAULT_LANGUAGE,
) -> str:
    """The picture of one tile centred on (0, 0), as an SVG ``<g>`` fragment.

    Its ``<use>`` elements point at the ``<defs>`` of a :func:`~tikal.svg.board` drawn at
    the same ``size``, which defines every shape a fresh tile needs: lay the fragment over
    the board.
    """
    return text_of(tile_element(Defs(), spec, rotation, size, level, tokens, language))


def tile(
    spec: TileSpec | str, rotation: int = 0, size: float = 50, rules: str = "standard", *,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """A standalone SVG of one terrain tile turned ``rotation`` sixth-turns clockwise."""
    if isinstance(spec, str):
        spec = rule_set(rules).tile(spec)
    w, h = 2 * size + 4, SQRT3 * size + 4
    defs = Defs()
    root = svg_root(class_="tk tile-svg", viewBox=" ".join(num(v) for v in (-w / 2, -h / 2, w, h)),
                    width=float(w), height=float(h), role="img",
                    aria_label=say("svg.tile.label", language, tile=tile_name(spec, language),
                                   rotation=rotation))
    child(root, "style", STYLE)
    root.append(defs_element := ET.Element("defs"))
    root.append(tile_element(defs, spec, rotation, size, None, None, language))
    defs_element.extend(defs.element())
    return text_of(root)
