""":class:`Game`: the rules core (:class:`~tikal.state.GameState`) with its conveniences.

Views, records, position snapshots and pictures live in modules of their own that know
only :class:`~tikal.state.GameState`; this module sits above them all, so every import
points one way: ``game -> view/record/position/svg -> state``.
"""

from __future__ import annotations

from typing import Any, Self

from . import svg
from .position import position_from_json, position_to_json
from .record import game_record, replay_record
from .state import (
    GUARDING,
    LEADER_PLACES,
    OUT,
    SUPPLY,
    ChanceOutcome,
    GameState,
    Phase,
    PlacedTile,
    ScoreEvent,
)
from .view import View


class Game(GameState):
    """A game of Tikal (see :class:`~tikal.state.GameState` for the rules)."""

    __slots__ = ()

    def view(self, player: int | None = None) -> View:
        """What ``player`` may see [HIDDEN-1]; ``None`` for a spectator."""
        return View.of(self, player)

    def to_json(self) -> dict[str, Any]:
        """A complete position snapshot (hidden parts included); see docs/records.md."""
        return position_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return position_from_json(data, cls)

    def record(self) -> dict[str, Any]:
        """The game record: rules, options, every action and chance outcome, scoring."""
        return game_record(self)

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Self:
        """Replay a record exactly; :class:`~tikal.errors.RecordError` names a bad entry."""
        return replay_record(record, cls)

    def _repr_svg_(self) -> str:
        """The board as SVG, so a position shows itself in Jupyter (like ``chess.Board``)."""
        return svg.board(self)


__all__ = [
    "GUARDING", "LEADER_PLACES", "OUT", "SUPPLY", "ChanceOutcome", "Game", "GameState", "Phase",
    "PlacedTile", "ScoreEvent",
]
