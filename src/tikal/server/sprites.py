"""Shapes the pages draw outside the board picture: one hidden sprite per page.

The board picture defines only the shapes it uses, and a treasure's type is never on
it (face-down tokens hide it [HIDDEN-1]), so a ``<use href="#tk-treasure-a">`` in the
players card, the log or the final scores pointed at nothing: the icons were blank.
The pages that show treasures (game, replay) carry this sprite instead: every type's
shape from :func:`tikal.svg.treasure_icon`, under ids of its own
(``tk-icon-treasure-a``), so that the board's patching never touches them and no id is
defined twice.  Its name for people is in ``data-name`` (the page's language).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import cache

from ..svg import TREASURE_LOOKS, treasure_icon

#: Where a page wants the sprite (right after ``<body>``).
SPRITE_MARK = "<!--tk-sprite-->"
SVG_NS = "http://www.w3.org/2000/svg"
ICON_PREFIX = "tk-icon-"


def _treasure_shape(letter: str, language: str) -> ET.Element:
    """The shape inside a treasure icon's ``<defs>``, renamed for the sprite."""
    icon = ET.fromstring(treasure_icon(letter, language=language))
    defs = icon.find(f"{{{SVG_NS}}}defs")
    assert defs is not None and len(defs) == 1, "a treasure icon defines one shape"
    shape = defs[0]
    shape.set("id", ICON_PREFIX + shape.get("id", "").removeprefix("tk-"))
    return shape


@cache
def treasure_sprite(language: str) -> str:
    """A hidden ``<svg>`` that defines every treasure type's icon (``tk-icon-treasure-a``
    ... ``-h``, each with its ``data-name``) in ``language``."""
    ET.register_namespace("", SVG_NS)
    root = ET.Element(f"{{{SVG_NS}}}svg", {
        "class": "tk-sprite", "width": "0", "height": "0", "aria-hidden": "true",
        "focusable": "false",
    })
    defs = ET.SubElement(root, f"{{{SVG_NS}}}defs")
    defs.extend(_treasure_shape(letter, language) for letter in TREASURE_LOOKS)
    return ET.tostring(root, encoding="unicode", short_empty_elements=True)


def with_sprite(html: str, language: str) -> str:
    """``html`` with the sprite where the page asks for it (:data:`SPRITE_MARK`)."""
    if SPRITE_MARK not in html:
        return html
    return html.replace(SPRITE_MARK, treasure_sprite(language), 1)
