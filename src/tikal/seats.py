"""How each seat looks: one table (``data/seats.json``) for the SVG board, the browser and the
terminal, so seat 0 is the same colour and shape everywhere."""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

from .packaged import data_json


class Seat(NamedTuple):
    """One seat's look: colour *and* shape, so colour is never the only cue."""

    name: str  # the colour's name, also the default player name
    colour: str  # fill, as #rrggbb
    ink: str  # text colour on the fill
    shape: str  # circle, square, triangle or diamond
    terminal: str  # nearest terminal colour (rich style name)
    initial: str  # one letter for the text board

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


@cache
def seat_table() -> tuple[Seat, ...]:
    """Every seat's look, in seat order (read once from the package data)."""
    return tuple(Seat(**entry) for entry in data_json("seats.json")["seats"])


def seat_look(seat: int) -> Seat:
    """The look of ``seat`` (0-based); wraps around for more seats than the table has."""
    table = seat_table()
    return table[seat % len(table)]
