"""SVG pictures of Tikal positions, in the spirit of python-chess's ``chess.svg``.

>>> from tikal import Game
>>> import tikal.svg
>>> picture = tikal.svg.board(Game.new("demo", 2, seed=1))
>>> picture.startswith("<svg")
True

Everything drawn is public information [HIDDEN-1]: a treasure tile shows how
many tokens lie on it, never which.  A :class:`~tikal.game.Game` or a
:class:`~tikal.view.View` may be passed; both give the same picture.

Spaces are ``<g class="space" data-cell="F3" data-x=".." data-y="..">`` groups
and figures are ``<g class="fig" data-seat="0" data-fig="W|L" data-cell="F3">``,
so a web page can add interaction to the picture without parsing geometry.

Players are told apart by colour *and* shape (circle, square, triangle,
diamond), the leader by a bigger double-ringed mark with an ``L``, so the
pictures stay readable for colour-blind players and in black and white.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from html import escape
from typing import Final, NamedTuple

from . import hexes
from .components import BASECAMP, JUNGLE, TEMPLE, TREASURE, VOLCANO, TileSpec, rule_set
from .state import GameState
from .view import View

SQRT3: Final = math.sqrt(3)


class Seat(NamedTuple):
    name: str
    colour: str
    ink: str  # text colour on the fill
    shape: str


#: Okabe-Ito colours (safe for the common colour-vision deficiencies) plus a shape each.
SEATS: Final = (
    Seat("Blue", "#0072B2", "#ffffff", "circle"),
    Seat("Red", "#D55E00", "#ffffff", "square"),
    Seat("Yellow", "#F0E442", "#1b1b1b", "triangle"),
    Seat("Pink", "#CC79A7", "#1b1b1b", "diamond"),
)

KIND_FILL: Final = {
    BASECAMP: "#d8c48f",
    TEMPLE: "#c9c1ae",
    JUNGLE: "#6ea35a",
    TREASURE: "#d9a441",
    VOLCANO: "#5b3a33",
}
EMPTY_FILL: Final = "#efe9d2"
STONE_FILL: Final = "#8a8578"

STYLE: Final = """
.tk text{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
.tk .lbl{font-size:8.5px;fill:#2b2a23;opacity:.8}
.tk .empty .lbl{fill:#e9f0e4;opacity:.7}
.tk .val{font-size:17px;font-weight:700;fill:#1d1c18}
.tk .small{font-size:8px;fill:#1d1c18}
.tk .cnt{font-size:10px;font-weight:700}
.tk .hex{stroke:#3f3b30;stroke-width:1.2}
.tk .empty .hex{stroke:#7f9a83;stroke-dasharray:4 3;fill:#3d5c44}
.tk .frontier .hex{fill:#48684f;stroke:#9fb8a2}
.tk .hl .hex{stroke:#1a7f37;stroke-width:4}
.tk .sel .hex{stroke:#000;stroke-width:4}
"""


def seat_info(seat: int) -> Seat:
    return SEATS[seat % len(SEATS)]


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


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


def shape(
    kind: str, x: float, y: float, r: float, fill: str, stroke: str = "#1b1b1b",
    width: float = 1.2, extra: str = "",
) -> str:
    """One player mark: circle, square, triangle or diamond of 'radius' ``r`` at (x, y)."""
    common = f'fill="{fill}" stroke="{stroke}" stroke-width="{_num(width)}"{extra}'
    if kind == "square":
        s = r * 0.9
        return f'<rect x="{_num(x - s)}" y="{_num(y - s)}" width="{_num(2 * s)}" ' \
               f'height="{_num(2 * s)}" rx="1.5" {common}/>'
    if kind == "triangle":
        pts = [(x, y - r * 1.15), (x + r * 1.1, y + r * 0.8), (x - r * 1.1, y + r * 0.8)]
        return f'<polygon points="{_points(pts)}" {common}/>'
    if kind == "diamond":
        pts = [(x, y - r * 1.2), (x + r * 1.05, y), (x, y + r * 1.2), (x - r * 1.05, y)]
        return f'<polygon points="{_points(pts)}" {common}/>'
    return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}" {common}/>'


def chip(seat: int, leader: bool = False, count: int | None = None, size: float = 22) -> str:
    """A small standalone SVG of one player's mark (for score boards and legends)."""
    info = seat_info(seat)
    half = size / 2
    body = _figure_mark(seat, leader, count, half, half, size / 2.6)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chip" width="{_num(size)}" '
        f'height="{_num(size)}" viewBox="0 0 {_num(size)} {_num(size)}" role="img" '
        f'aria-label="{escape(info.name)} {"leader" if leader else "worker"}">{body}</svg>'
    )


def _figure_mark(seat: int, leader: bool, count: int | None, x: float, y: float, r: float) -> str:
    info = seat_info(seat)
    parts = []
    if leader:
        parts.append(shape(info.shape, x, y, r * 1.28, "#ffffff", "#1b1b1b", 1.4))
        parts.append(shape(info.shape, x, y, r, info.colour, "#1b1b1b", 1.1))
        label = "L"
    else:
        parts.append(shape(info.shape, x, y, r, info.colour, "#1b1b1b", 1.1))
        label = "" if count is None else str(count)
    if label:
        dy = r * 0.38 if info.shape == "triangle" else r * 0.36
        size = r * (1.05 if len(label) < 2 else 0.85)
        parts.append(
            f'<text x="{_num(x)}" y="{_num(y + dy)}" text-anchor="middle" '
            f'font-size="{_num(size)}" font-weight="700" fill="{info.ink}">{label}</text>'
        )
    return "".join(parts)


# ---------------------------------------------------------------- tiles


def _stones(stones: tuple[int, ...], size: float) -> str:
    out = []
    spots = {1: (0.5,), 2: (0.33, 0.67), 3: (0.2, 0.5, 0.8)}
    r = size * 0.075
    for d, count in enumerate(stones):
        if not count:
            continue
        (ax, ay), (bx, by) = _edge_corners(d, size)
        for t in spots[min(count, 3)]:
            px, py = ax + (bx - ax) * t, ay + (by - ay) * t
            px, py = px * 0.88, py * 0.88
            out.append(
                f'<circle cx="{_num(px)}" cy="{_num(py)}" r="{_num(r)}" fill="{STONE_FILL}" '
                f'stroke="#2e2b25" stroke-width="0.9"/>'
            )
    return "".join(out)


def _icon(spec: TileSpec, size: float, level: int | None, tokens: int | None) -> str:
    s = size / 50
    y = -16 * s
    if spec.kind == TEMPLE:
        value = spec.value if level is None else level
        steps = []
        for i, w in enumerate((16, 11, 6)):
            steps.append(
                f'<rect x="{_num(-13 * s - w * s / 2)}" y="{_num(y + (4 - 5 * i) * s)}" '
                f'width="{_num(w * s)}" height="{_num(5 * s)}" fill="#8d846f" '
                f'stroke="#3f3b30" stroke-width="0.6"/>'
            )
        dug = level is not None and level > spec.value
        plaque = (
            f'<rect x="{_num(-1 * s)}" y="{_num(y - 11 * s)}" width="{_num(22 * s)}" '
            f'height="{_num(20 * s)}" rx="2" fill="#fffdf4" stroke="#3f3b30" stroke-width="1"/>'
            if dug
            else f'<circle cx="{_num(10 * s)}" cy="{_num(y - 1 * s)}" r="{_num(10.5 * s)}" '
            f'fill="#f4efe0" stroke="#3f3b30" stroke-width="1"/>'
        )
        text = (
            f'<text class="val" x="{_num(10 * s)}" y="{_num(y + 5 * s)}" text-anchor="middle" '
            f'font-size="{_num(16 * s)}">{value}</text>'
        )
        return "".join(steps) + plaque + text
    if spec.kind == JUNGLE:
        trees = []
        for tx, th in ((-10, 13), (2, 17), (13, 12)):
            trees.append(
                f'<rect x="{_num((tx - 1) * s)}" y="{_num(y)}" width="{_num(2 * s)}" '
                f'height="{_num(8 * s)}" fill="#5a3d22"/>'
                f'<circle cx="{_num(tx * s)}" cy="{_num(y - th * s / 3)}" r="{_num(th * s / 2.2)}" '
                f'fill="#2f6b2a" stroke="#1d3f1a" stroke-width="0.8"/>'
            )
        return "".join(trees)
    if spec.kind == TREASURE:
        n = tokens if tokens is not None else spec.masks
        marks = []
        for i in range(min(n, 4)):
            mx = (-22 + 8 * i) * s
            marks.append(
                f'<ellipse cx="{_num(mx)}" cy="{_num(y)}" rx="{_num(4.5 * s)}" '
                f'ry="{_num(6 * s)}" fill="#6b4a12" stroke="#2b1d05" stroke-width="0.8"/>'
                f'<circle cx="{_num(mx - 1.6 * s)}" cy="{_num(y - 1.5 * s)}" r="{_num(1 * s)}" '
                f'fill="#f3d27a"/><circle cx="{_num(mx + 1.6 * s)}" cy="{_num(y - 1.5 * s)}" '
                f'r="{_num(1 * s)}" fill="#f3d27a"/>'
            )
        label = f"\u00d7{n}" if n else "empty"
        marks.append(
            f'<text class="cnt" x="{_num(20 * s)}" y="{_num(y + 4 * s)}" text-anchor="middle" '
            f'font-size="{_num(11 * s)}" fill="#1d1c18">{label}</text>'
        )
        return "".join(marks)
    if spec.kind == VOLCANO:
        cone = [(-22 * s, 10 * s), (-6 * s, -18 * s), (6 * s, -18 * s), (22 * s, 10 * s)]
        return (
            f'<polygon points="{_points(cone)}" fill="#8a4b2f" stroke="#2a1510" '
            f'stroke-width="1"/><ellipse cx="0" cy="{_num(-18 * s)}" rx="{_num(6 * s)}" '
            f'ry="{_num(2.5 * s)}" fill="#ff8a1f"/>'
            f'<path d="M{_num(-3 * s)},{_num(-20 * s)} q{_num(-4 * s)},{_num(-8 * s)} '
            f'{_num(2 * s)},{_num(-12 * s)}" stroke="#ff8a1f" stroke-width="{_num(2 * s)}" '
            f'fill="none"/>'
        )
    if spec.kind == BASECAMP:
        flag = [(-6 * s, y - 14 * s), (8 * s, y - 9 * s), (-6 * s, y - 4 * s)]
        return (
            f'<line x1="{_num(-6 * s)}" y1="{_num(y + 8 * s)}" x2="{_num(-6 * s)}" '
            f'y2="{_num(y - 14 * s)}" stroke="#3f3b30" stroke-width="{_num(1.6 * s)}"/>'
            f'<polygon points="{_points(flag)}" fill="#b3261e"/>'
            f'<text class="small" x="{_num(4 * s)}" y="{_num(y + 8 * s)}" '
            f'font-size="{_num(8 * s)}" font-weight="700">BASE</text>'
        )
    return ""


def tile_group(
    spec: TileSpec, rotation: int, size: float = 50, *, level: int | None = None,
    tokens: int | None = None,
) -> str:
    """The picture of one tile centred on (0, 0), as an SVG ``<g>`` fragment."""
    stones = hexes.rotate(spec.stones, rotation)
    fill = KIND_FILL.get(spec.kind, EMPTY_FILL)
    poly = _points(hex_corners(0, 0, size))
    return (
        f'<g class="tile {spec.kind}"><polygon class="hex" points="{poly}" fill="{fill}"/>'
        f"{_stones(stones, size)}{_icon(spec, size, level, tokens)}</g>"
    )


def tile(spec: TileSpec | str, rotation: int = 0, size: float = 50, rules: str = "standard") -> str:
    """A standalone SVG of one terrain tile turned ``rotation`` sixth-turns clockwise."""
    if isinstance(spec, str):
        spec = rule_set(rules).tile(spec)
    w, h = 2 * size + 4, SQRT3 * size + 4
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tk tile-svg" viewBox="{_num(-w / 2)} '
        f'{_num(-h / 2)} {_num(w)} {_num(h)}" width="{_num(w)}" height="{_num(h)}" role="img" '
        f'aria-label="{escape(spec.describe())}, turned {rotation}"><style>{STYLE}</style>'
        f"{tile_group(spec, rotation, size)}</svg>"
    )


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


def _figure_layer(game: GameState, cell: int, size: float) -> str:
    figures = _figures(game, cell)
    if not figures:
        return ""
    s = size / 50
    rows = [figures[:4], figures[4:]]
    out = []
    for row_index, row in enumerate(rows):
        if not row:
            continue
        y = (8 + 18 * row_index) * s
        width = 19 * s
        x0 = -width * (len(row) - 1) / 2
        for i, (p, leader, n) in enumerate(row):
            x = x0 + i * width
            who = f"{seat_info(p).name} {'leader' if leader else f'workers: {n}'}"
            out.append(
                f'<g class="fig" data-seat="{p}" data-fig="{"L" if leader else "W"}" '
                f'data-cell="{hexes.label(cell)}" data-count="{n}"><title>{escape(who)}</title>'
                f"{_figure_mark(p, leader, n, x, y, 7.4 * s)}</g>"
            )
    return "".join(out)


def _camp(owner: int, size: float) -> str:
    s = size / 50
    info = seat_info(owner)
    x, y = -27 * s, -12 * s
    tent = [(x - 9 * s, y + 7 * s), (x, y - 9 * s), (x + 9 * s, y + 7 * s)]
    return (
        f'<g class="camp" data-seat="{owner}"><title>{info.name} camp</title>'
        f'<polygon points="{_points(tent)}" fill="{info.colour}" stroke="#1b1b1b" '
        f'stroke-width="1.2"/>{shape(info.shape, x, y + 2 * s, 2.6 * s, "#ffffff", "#1b1b1b", 0.6)}'
        f"</g>"
    )


def _guard(owner: int, leader: bool, size: float) -> str:
    s = size / 50
    info = seat_info(owner)
    x, y = 27 * s, -12 * s
    shield = (
        f"M{_num(x - 8 * s)},{_num(y - 9 * s)} h{_num(16 * s)} v{_num(8 * s)} "
        f"q0,{_num(8 * s)} {_num(-8 * s)},{_num(11 * s)} q{_num(-8 * s)},{_num(-3 * s)} "
        f"{_num(-8 * s)},{_num(-11 * s)} z"
    )
    label = "G" + ("L" if leader else "")
    return (
        f'<g class="guard" data-seat="{owner}"><title>guarded by {info.name} '
        f'{"leader" if leader else "worker"}</title><path d="{shield}" fill="{info.colour}" '
        f'stroke="#1b1b1b" stroke-width="1.6"/>'
        f'<text x="{_num(x)}" y="{_num(y + 2 * s)}" text-anchor="middle" '
        f'font-size="{_num(8 * s)}" font-weight="800" fill="{info.ink}">{label}</text></g>'
    )


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
        words.append(f"{seat_info(game.camps[cell]).name} camp")
    if cell in game.guards:
        words.append(f"guarded by {seat_info(game.guards[cell][0]).name}")
    return ", ".join(words)


def _cells_to_draw(game: GameState) -> list[int]:
    if game.rules.bounded_board:
        return list(hexes.STANDARD_CELLS)
    return sorted(set(game.tiles) | game.frontier)


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
    dims = f' width="{width}" height="{_num(width * vh / vw)}"' if width else ""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tk board" data-rules="{game.rules.name}" '
        f'viewBox="{_num(min_x)} {_num(min_y)} {_num(vw)} {_num(vh)}"{dims} role="img" '
        f'aria-label="Tikal board, {len(game.tiles)} tiles"><style>{STYLE}</style>',
        f'<rect x="{_num(min_x)}" y="{_num(min_y)}" width="{_num(vw)}" height="{_num(vh)}" '
        f'rx="{_num(size * 0.3)}" fill="#33503a"/>',
    ]
    for cell in cells:
        x, y = centres[cell]
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
        parts.append(
            f'<g class="{" ".join(classes)}" data-cell="{name}" data-x="{_num(x)}" '
            f'data-y="{_num(y)}" transform="translate({_num(x)},{_num(y)})">'
        )
        if placed is None:
            parts.append(
                f'<title>{name}: empty space</title><polygon class="hex" '
                f'points="{_points(hex_corners(0, 0, size * 0.96))}"/>'
            )
        else:
            spec = placed.spec
            parts.append(f"<title>{escape(_tile_title(game, cell))}</title>")
            parts.append(
                tile_group(
                    spec, placed.rotation, size,
                    level=game.levels.get(cell), tokens=len(game.tokens.get(cell, ())),
                )
            )
            if cell in game.camps:
                parts.append(_camp(game.camps[cell], size))
            if cell in game.guards:
                owner, leader = game.guards[cell]
                parts.append(_guard(owner, leader, size))
            parts.append(_figure_layer(game, cell, size))
        if coordinates:
            parts.append(
                f'<text class="lbl" x="{_num(-size * 0.9)}" y="{_num(size * 0.06)}">{name}</text>'
            )
        text = marks.get(cell)
        if text:
            parts.append(
                f'<circle cx="0" cy="{_num(size * 0.55)}" r="{_num(size * 0.2)}" fill="#1a7f37"/>'
                f'<text x="0" y="{_num(size * 0.55 + 4)}" text-anchor="middle" font-size="11" '
                f'font-weight="700" fill="#fff">{escape(text)}</text>'
            )
        parts.append("</g>")
    parts.append('<g class="overlay"></g></svg>')
    return "".join(parts)
