"""Players' marks (a worker, a leader, told apart by colour *and* shape) and the eight
treasure types (each a colour and a glyph of its own), alone or drawn into a picture."""

from __future__ import annotations

import html
import math
import re
import xml.etree.ElementTree as ET
from functools import partial
from typing import Final

from ..messages import DEFAULT_LANGUAGE
from ..seats import seat_look
from .draw import (
    OUTLINE,
    Defs,
    child,
    colour,
    group,
    ident,
    node,
    num,
    points,
    say,
    svg_root,
    text_of,
)

# ---------------------------------------------------------------- player marks


def mark_shape(kind: str, x: float, y: float, r: float, /, **attrs: object) -> ET.Element:
    """One player mark: circle, square, triangle or diamond of 'radius' ``r`` at (x, y)."""
    if kind == "square":
        s = r * 0.9
        return node("rect", x=x - s, y=y - s, width=2 * s, height=2 * s, rx=1.5, **attrs)
    if kind == "triangle":
        pts = [(x, y - r * 1.15), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
        return node("polygon", points=points(pts), **attrs)
    if kind == "diamond":
        pts = [(x, y - r * 1.2), (x + r * 1.05, y), (x, y + r * 1.2), (x - r * 1.05, y)]
        return node("polygon", points=points(pts), **attrs)
    return node("circle", cx=x, cy=y, r=r, **attrs)


def shape(
    kind: str, x: float, y: float, r: float, fill: str, stroke: str = OUTLINE,
    width: float = 1.2, extra: str = "",
) -> str:
    """One player mark as an SVG element string; ``extra`` holds more attributes
    (``name="value" ...``)."""
    element = mark_shape(kind, x, y, r, fill=fill, stroke=stroke, stroke_width=float(width))
    for name, value in re.findall(r'([\w:.-]+)\s*=\s*"([^"]*)"', extra):
        element.set(name, html.unescape(value))
    return text_of(element)


def label_offset(kind: str, r: float) -> float:
    return r * (0.38 if kind == "triangle" else 0.36)


def _worker_shape(seat: int, r: float) -> ET.Element:
    look = seat_look(seat)
    return mark_shape(look.shape, 0, 0, r, fill=look.colour, stroke=OUTLINE, stroke_width=1.1)


def _leader_shape(seat: int, r: float) -> ET.Element:
    look = seat_look(seat)
    return group(
        mark_shape(look.shape, 0, 0, r * 1.28, fill="#ffffff", stroke=OUTLINE, stroke_width=1.4),
        mark_shape(look.shape, 0, 0, r, fill=look.colour, stroke=OUTLINE, stroke_width=1.1),
        node("text", "L", y=label_offset(look.shape, r), text_anchor="middle",
             font_size=r * 1.05, font_weight=700, fill=look.ink),
    )


def mark(
    defs: Defs, parent: ET.Element, seat: int, leader: bool, count: int | None, x: float,
    y: float, r: float,
) -> None:
    """A worker (with ``count`` written on it) or the leader of ``seat``, centred on (x, y)."""
    if leader:
        defs.use(parent, ident("leader", seat, r), partial(_leader_shape, seat, r), x, y)
        return
    defs.use(parent, ident("worker", seat, r), partial(_worker_shape, seat, r), x, y)
    if count is not None:
        look = seat_look(seat)
        label = str(count)
        child(parent, "text", label, class_="fc", x=x, y=y + label_offset(look.shape, r),
              font_size=r * (1.05 if len(label) < 2 else 0.85), fill=look.ink)


def chip(
    seat: int, leader: bool = False, count: int | None = None, size: float = 22, *,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """A small standalone SVG of one player's mark (for score boards and legends)."""
    defs = Defs()
    name = say("svg.leader" if leader else "svg.worker", language,
               colour=colour(seat, language))
    root = svg_root(class_="chip", width=float(size), height=float(size),
                    viewBox=f"0 0 {num(size)} {num(size)}", role="img", aria_label=name)
    root.append(defs_element := ET.Element("defs"))
    half = size / 2
    mark(defs, root, seat, leader, count, half, half, size / 2.6)
    defs_element.extend(defs.element())
    return text_of(root)


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
WHITE: Final = "#ffffff"


def _star_points(r: float, inner: float) -> str:
    corners = []
    for i in range(10):
        radius = r if i % 2 == 0 else inner
        angle = math.radians(-90 + 36 * i)
        corners.append((radius * math.cos(angle), radius * math.sin(angle)))
    return points(corners)


def _sun() -> list[ET.Element]:
    rays = "".join(
        f"M{num(5.5 * math.cos(math.radians(a)))},{num(5.5 * math.sin(math.radians(a)))}"
        f"L{num(8.5 * math.cos(math.radians(a)))},{num(8.5 * math.sin(math.radians(a)))}"
        for a in range(0, 360, 45)
    )
    return [node("circle", r=3.8, fill=WHITE),
            node("path", d=rays, stroke=WHITE, stroke_width=1.8, stroke_linecap="round")]


def _glyph(kind: str, ink: str) -> list[ET.Element]:
    """A treasure glyph in white, in a box of 24 centred on (0, 0)."""
    if kind == "sun":
        return _sun()
    if kind == "moon":
        return [node("circle", r=7, fill=WHITE), node("circle", cx=3.4, cy=-2.4, r=5.6,
                                                      fill=ink)]
    if kind == "star":
        return [node("polygon", points=_star_points(8.5, 3.6), fill=WHITE)]
    if kind == "leaf":
        return [node("path", d="M-7,7 C-7,-2 -1,-8 7.5,-7.5 C8,1 2,7 -7,7 Z", fill=WHITE),
                node("path", d="M-7,7 L3,-3", stroke=ink, stroke_width=1.3)]
    if kind == "gem":
        return [node("polygon", points="-7,-2.5 -3.5,-7 3.5,-7 7,-2.5 0,8", fill=WHITE),
                node("path", d="M-7,-2.5 H7 M-3.5,-7 L0,8 L3.5,-7", stroke=ink,
                     stroke_width=1, fill="none")]
    if kind == "mask":
        return [node("ellipse", rx=6.2, ry=8, fill=WHITE),
                node("ellipse", cx=-2.5, cy=-2, rx=1.7, ry=1.2, fill=ink),
                node("ellipse", cx=2.5, cy=-2, rx=1.7, ry=1.2, fill=ink),
                node("rect", x=-2.6, y=3, width=5.2, height=1.6, fill=ink)]
    if kind == "vase":
        return [node("path", d="M-3,-8 H3 V-5.5 C8,-3 8.5,4 4,7.5 H-4 C-8.5,4 -8,-3 -3,-5.5 Z",
                     fill=WHITE),
                node("path", d="M-5.8,0 H5.8", stroke=ink, stroke_width=1.3)]
    return [node("path", d="M0,0 a1.3,1.3 0 1 1 2.6,0 a2.9,2.9 0 1 1 -5.8,0 "
                           "a4.5,4.5 0 1 1 9,0 a6.1,6.1 0 1 1 -12.2,0",
                 stroke=WHITE, stroke_width=1.8, fill="none", stroke_linecap="round")]


def _treasure_shape(letter: str, language: str) -> ET.Element:
    ink, kind = TREASURE_LOOKS[letter]
    made = group(
        node("rect", x=-11, y=-11, width=22, height=22, rx=6, fill=ink, stroke="#1b1b1b",
             stroke_width=1.2),
        *_glyph(kind, ink),
    )
    made.set("data-name", treasure_name(letter, language))
    return made


def treasure_name(letter: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A treasure type's name for screen readers and tooltips: ``"A (sun)"``."""
    glyph = TREASURE_LOOKS[letter.lower()][1]
    return say("svg.treasure.name", language, letter=letter.upper(),
               glyph=say(f"svg.glyph.{glyph}", language))


def treasure_kit(defs: Defs, types: int, language: str) -> None:
    """Define the icons of the first ``types`` treasure types (``#tk-treasure-a`` ...)."""
    for letter in list(TREASURE_LOOKS)[:types]:
        defs.define(ident("treasure", letter), partial(_treasure_shape, letter, language))


def treasure_icon(
    letter: str, size: float = 24, count: int | None = None, *,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """A standalone SVG of one treasure type (``"a"`` ... ``"h"``), with ``count`` beside
    it when given: each type has its own colour and glyph."""
    letter = letter.lower()
    defs = Defs()
    name = treasure_name(letter, language)
    label = (say("svg.treasure.icon", language, name=name) if count is None
             else say("svg.treasure.icon_count", language, name=name, count=count))
    width = 24 + (16 if count is not None else 0)
    root = svg_root(class_="treasure-icon", width=float(size * width / 24), height=float(size),
                    viewBox=f"-12 -12 {width} 24", role="img", aria_label=label)
    root.append(defs_element := ET.Element("defs"))
    defs.use(root, ident("treasure", letter), partial(_treasure_shape, letter, language))
    if count is not None:
        child(root, "text", f"\u00d7{count}", x=20, y=5, text_anchor="middle", font_size=13,
              font_weight=700, fill="#1b1b1b")
    defs_element.extend(defs.element())
    return text_of(root)
