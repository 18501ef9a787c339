"""The board as a hex map in characters, for the terminal (what :mod:`tikal.svg` is for the web).

Each space is a box of ``BOX`` x 3 characters laid out like the printed board
(flat-topped hexes: columns of spaces, every other column half a space
lower).  A box shows the space's name and what lies there (``T5`` temple of
level 5, ``$2`` treasure tile with 2 tokens, ``jg`` jungle, ``BC`` basecamp,
``VV`` volcano), then the figures by the seat's initial (``B*2`` = Blue's leader and
two workers), camps (``cB``) and guards (``gB``), with initials and colours from
:mod:`tikal.seats`.  Between two neighbouring tiles stands what it costs in AP to walk
across their shared edge, so the map alone is enough to plan a walk [MOVE-1] [MOVE-2].

:func:`board_text` returns a :class:`rich.text.Text`; its plain text is the
same map without colours (what tests and logs see).
"""

from __future__ import annotations

from typing import Final

from rich.text import Text

from .. import hexes
from ..components import JUNGLE, TEMPLE, TREASURE, VOLCANO
from ..messages import Message, render
from ..seats import seat_look
from ..state import GameState

BOX: Final = 9  # characters per box line
INNER: Final = BOX - 2  # a blank column on each side keeps edge costs apart from the text
PITCH_X: Final = BOX + 1  # one column of gap for the diagonal edge costs
PITCH_Y: Final = 4  # three lines of box and one line for the vertical edge cost

TILE_BACKGROUND: Final = "on grey19"
KIND_CODES: Final = {JUNGLE: ("jg", "green"), VOLCANO: ("VV", "bold red"),
                     "basecamp": ("BC", "bold white")}
_FIRST: Final = seat_look(0)


def legend(language: str = "en") -> str:
    """What the codes of the map mean, in ``language`` (the codes themselves never change)."""
    colour = render(Message(f"colour_adj.{_FIRST.name.lower()}"), language=language)
    return render(Message("term.legend", {"initial": _FIRST.initial, "colour": colour}),
                  language=language)


LEGEND: Final = legend()

_Cell = tuple[str, str]  # one character and its style


def board_text(game: GameState) -> Text:
    """The hex map of ``game`` (a full game or a player's view: only public parts are drawn)."""
    spaces = _shown_spaces(game)
    if not spaces:
        return Text()
    origin = {c: _position(c) for c in spaces}
    left = min(x for x, _ in origin.values())
    top = min(y for _, y in origin.values())
    width = max(x for x, _ in origin.values()) - left + BOX
    height = max(y for _, y in origin.values()) - top + 3
    canvas: list[list[_Cell]] = [[(" ", "")] * width for _ in range(height)]
    for space, (x, y) in origin.items():
        _draw_box(canvas, x - left, y - top, _box_lines(game, space))
    for space, (x, y) in origin.items():
        if space in game.tiles:
            _draw_edge_costs(canvas, game, space, x - left, y - top)
    return _to_text(canvas)


def _position(space: int) -> tuple[int, int]:
    """Top-left character of a space's box: x by hex column, y by axial row (half steps)."""
    q, r = hexes.axial(space)
    return q * PITCH_X, (2 * r + q) * (PITCH_Y // 2)


def _shown_spaces(game: GameState) -> list[int]:
    """Tiles and open spaces; on the standard board every one of its 40 spaces."""
    shown = set(game.tiles) | set(game.frontier)
    if game.rules.bounded_board:
        shown |= hexes.STANDARD_CELL_SET
    return sorted(shown)


def _box_lines(game: GameState, space: int) -> list[list[_Cell]]:
    tile = game.tiles.get(space)
    name = hexes.label(space)
    if tile is None:
        style = "dim"
        hint = "open" if space in game.frontier else ""
        return [_padded(_styled(text, style), style) for text in (name, hint, "")]
    code, code_style = _kind_code(game, space)
    entries = _entries(game, space)
    first: list[_Cell] = _styled(name, f"bold white {TILE_BACKGROUND}")
    if len(name) + 1 + len(code) <= INNER:
        first += _styled(" " * (INNER - len(name) - len(code)), TILE_BACKGROUND)
        first += _styled(code, f"{code_style} {TILE_BACKGROUND}")
    else:  # a long demo label: the code leads the figure lines
        entries.insert(0, (code, code_style))
    return [_padded(line, TILE_BACKGROUND) for line in (first, *_pack(entries))]


def _padded(line: list[_Cell], style: str) -> list[_Cell]:
    """One blank on the left, blanks up to the box width on the right."""
    return _styled(" ", style) + line + _styled(" " * (BOX - 1 - len(line)), style)


def _kind_code(game: GameState, space: int) -> tuple[str, str]:
    kind = game.tiles[space].spec.kind
    if kind == TEMPLE:
        return f"T{game.levels[space]}", "bold white"
    if kind == TREASURE:
        return f"${len(game.tokens.get(space, ()))}", "bold magenta"
    return KIND_CODES.get(kind, (kind[:2], "white"))


def _entries(game: GameState, space: int) -> list[tuple[str, str]]:
    """Figures per colour, then camp and guard markers, each with its colour."""
    entries = []
    for q in range(game.players):
        workers = game.workers[q].get(space, 0)
        leader = game.leader[q] == space
        if workers or leader:
            text = _initial(q) + ("*" if leader else "") + (str(workers) if workers else "")
            entries.append((text, _figure_style(q)))
    owner = game.camps.get(space)
    if owner is not None:
        entries.append((f"c{_initial(owner)}", _figure_style(owner)))
    guard = game.guards.get(space)
    if guard is not None:
        guard_owner, is_leader = guard
        entries.append((f"g{_initial(guard_owner)}" + ("*" if is_leader else ""),
                        _figure_style(guard_owner)))
    return entries


def _initial(seat: int) -> str:
    return seat_look(seat).initial


def _figure_style(seat: int) -> str:
    """The seat's terminal colour, bold so it stands out on the tile background."""
    return f"bold {seat_look(seat).terminal}"


def _pack(entries: list[tuple[str, str]]) -> tuple[list[_Cell], list[_Cell]]:
    """Fill two box lines with entries; a '+' at the end marks entries that did not fit."""
    lines: list[list[_Cell]] = [[], []]
    row = 0
    for text, style in entries:
        gap = 1 if lines[row] else 0
        if len(lines[row]) + gap + len(text) > INNER:
            if row == 1:
                lines[1] = lines[1][: INNER - 1] + _styled("+", f"bold white {TILE_BACKGROUND}")
                break
            row, gap = 1, 0
        lines[row] += _styled(" " * gap, TILE_BACKGROUND)
        lines[row] += _styled(text, f"{style} {TILE_BACKGROUND}")
    return lines[0], lines[1]


def _draw_box(canvas: list[list[_Cell]], x: int, y: int, lines: list[list[_Cell]]) -> None:
    for dy, line in enumerate(lines):
        canvas[y + dy][x : x + BOX] = line


def _draw_edge_costs(
    canvas: list[list[_Cell]], game: GameState, space: int, x: int, y: int
) -> None:
    """The AP to cross towards S, NE and SE (each edge is drawn once, from one side)."""
    south, north_east, south_east = (space + hexes.STEP[d] for d in (3, 1, 2))
    for exit_ in game.exits.get(space, ()):
        if exit_.dst == south:
            at = (y + 3, x + BOX // 2)
        elif exit_.dst == north_east:
            at = (y, x + BOX)
        elif exit_.dst == south_east:
            at = (y + 2, x + BOX)
        else:
            continue
        row, col = at
        if 0 <= row < len(canvas) and col < len(canvas[row]):
            canvas[row][col] = (str(exit_.cost) if exit_.cost < 10 else "+", "bold cyan")


def _styled(text: str, style: str) -> list[_Cell]:
    return [(ch, style) for ch in text]


def _to_text(canvas: list[list[_Cell]]) -> Text:
    out = Text(no_wrap=True, overflow="crop")
    for i, row in enumerate(canvas):
        while row and row[-1][0] == " " and not row[-1][1]:
            row = row[:-1]
        for ch, style in row:
            out.append(ch, style=style or None)
        if i < len(canvas) - 1:
            out.append("\n")
    return out
