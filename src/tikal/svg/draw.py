"""The building blocks of every picture: words from the catalogs, numbers and attributes,
ElementTree nodes, the ``<defs>`` of a picture and :class:`Piece`, a drawn part of one."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Final

from ..components import BASECAMP, JUNGLE, TEMPLE, TREASURE, VOLCANO, TileSpec
from ..describe import tile_message
from ..messages import Message, catalog, render
from ..seats import seat_look

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
.tk .lbl{font-size:10px;font-weight:600;text-anchor:middle;fill:#2b2a23;opacity:.85}
.tk .empty .lbl{fill:#e9f0e4;opacity:.8}
.tk .volcano .lbl{fill:#f3e6dc}
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


def say(key: str, language: str, /, **params: str | int) -> str:
    """The catalog's text for ``key`` in ``language``."""
    return render(Message(key, params), language=language)


def colour(seat: int, language: str) -> str:
    """A seat's colour name in ``language`` (the catalog's ``colour.*``)."""
    name = seat_look(seat).name
    key = f"colour.{name.lower()}"
    return say(key, language) if key in catalog() else name


def tile_name(spec: TileSpec, language: str) -> str:
    """How a tile reads ("temple 5"): the engine's own tile message."""
    return render(tile_message(spec), language=language)


def listed(parts: Iterable[str], language: str) -> str:
    return say("svg.separator", language).join(parts)


# ---------------------------------------------------------------- numbers and nodes


def num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def points(corners: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in corners)


def attributes(values: Mapping[str, object]) -> dict[str, str]:
    """Keyword arguments as SVG attributes: ``stroke_width`` -> ``stroke-width``,
    ``class_`` -> ``class``; numbers rounded to two decimals; ``None`` left out."""
    out = {}
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        out[name] = num(value) if isinstance(value, float) else str(value)
    return out


def node(tag: str, text: str | None = None, /, **attrs: object) -> ET.Element:
    element = ET.Element(tag, attributes(attrs))
    element.text = text
    return element


def child(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: object
          ) -> ET.Element:
    element = ET.SubElement(parent, tag, attributes(attrs))
    element.text = text
    return element


def group(*children: ET.Element) -> ET.Element:
    made = ET.Element("g")
    made.extend(children)
    return made


def ident(*parts: object) -> str:
    """A definition's id, naming everything its content depends on: ``tk-hex-50``."""
    words = [num(p) if isinstance(p, (int, float)) else str(p) for p in parts]
    return "-".join(["tk", *words]).replace(".", "_")


def svg_root(**attrs: object) -> ET.Element:
    return node("svg", xmlns=SVG_NS, **attrs)


#: What XML text escapes, as ElementTree escapes it (character data: the first three).
_ESCAPES: Final = (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"),
                   ("\r", "&#13;"), ("\n", "&#10;"), ("\t", "&#09;"))


def _escaped(text: str, escapes: tuple[tuple[str, str], ...] = _ESCAPES[:3]) -> str:
    """``text`` with ``escapes`` made (``&`` first); each looked for first, since most
    texts have none (``str.translate`` with a table cost 6 µs a text)."""
    for char, entity in escapes:
        if char in text:
            text = text.replace(char, entity)
    return text


def text_of(element: ET.Element) -> str:
    """``element`` as XML text, exactly as ``ET.tostring(element, encoding="unicode")``
    writes it (these elements have no namespaces, comments or processing instructions).
    Written here, since a board is written in many small pieces and ElementTree's setup
    for each (a scan for namespaces, a writer) cost more than the writing: a whole board
    took 9 ms instead of 5."""
    out: list[str] = []
    _write(element, out.append)
    return "".join(out)


def _write(element: ET.Element, write: Callable[[str], object]) -> None:
    write(start_tag(element)[:-1])
    text = element.text
    if text or len(element):
        write(">")
        if text:
            write(_escaped(text))
        for inner in element:
            _write(inner, write)
        write(f"</{element.tag}>")
    else:
        write(" />")
    if element.tail:
        write(_escaped(element.tail))


def start_tag(element: ET.Element) -> str:
    """The start tag of ``element`` (its attributes, none of its children), as it begins
    the element's text."""
    attrs = "".join(f' {key}="{_escaped(value, _ESCAPES)}"'
                    for key, value in element.items())
    return f"<{element.tag}{attrs}>"


# ---------------------------------------------------------------- shapes and pieces


@dataclass(frozen=True, eq=False)
class Piece:
    """A drawn part of a picture: its SVG text and the ``<defs>`` shapes it draws (by id,
    in the order it first draws them).  A shape's id names everything the shape depends
    on but the language of its words, so two pieces in one language that draw the same
    id draw the same shape."""

    text: str
    shapes: Mapping[str, ET.Element] = field(default_factory=dict)


class Defs:
    """The shapes of one picture, each defined once under ``<defs>`` and drawn with
    ``<use>``; :meth:`drawn` also tells which shapes the elements made since its last
    call draw (for a :class:`Piece`)."""

    def __init__(self) -> None:
        self.shapes: dict[str, ET.Element] = {}
        self.used: dict[str, ET.Element] = {}

    def define(self, key: str, make: Callable[[], ET.Element]) -> str:
        shape = self.shapes.get(key)
        if shape is None:
            shape = self.shapes[key] = make()
            shape.set("id", key)
        return "#" + key

    def use(
        self, parent: ET.Element, key: str, make: Callable[[], ET.Element], x: float = 0,
        y: float = 0, **attrs: object,
    ) -> ET.Element:
        """Draw shape ``key`` (made by ``make`` the first time) with its origin at (x, y)."""
        href = self.define(key, make)
        self.used.setdefault(key, self.shapes[key])
        return child(parent, "use", href=href, x=x or None, y=y or None, **attrs)

    def drawn(self) -> dict[str, ET.Element]:
        """The shapes drawn since the last call, in the order first drawn."""
        used, self.used = self.used, {}
        return used

    def piece(self, elements: Iterable[ET.Element]) -> Piece:
        """``elements`` as one piece, with the shapes drawn since :meth:`drawn` was last
        called."""
        return Piece("".join(text_of(element) for element in elements), self.drawn())

    def element(self) -> ET.Element:
        defs = ET.Element("defs")
        defs.extend(self.shapes.values())
        return defs


def shape_texts(shapes: Mapping[str, ET.Element]) -> dict[str, str]:
    """``<defs>`` shapes as text, by id."""
    return {key: text_of(shape) for key, shape in shapes.items()}


# ---------------------------------------------------------------- geometry


def hex_corners(cx: float, cy: float, size: float) -> list[tuple[float, float]]:
    """Corners of a flat-topped hex, starting at the right and turning clockwise on screen."""
    return [
        (cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def edge_corners(direction: int, size: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners bounding edge ``direction`` (0 = N ... 5 = NW) of a hex at the origin."""
    a = math.radians(240 + 60 * direction)
    b = math.radians(300 + 60 * direction)
    return (size * math.cos(a), size * math.sin(a)), (size * math.cos(b), size * math.sin(b))
