"""Tikal: a rules engine for the board game by Kramer & Kiesling.

>>> from tikal import Game
>>> game = Game.new("demo", players=2, seed=7)
>>> game.phase.value
'tile'
"""

from .actions import (
    END_TURN,
    PASS,
    Action,
    Bid,
    BuildCamp,
    Dig,
    Draw,
    EndTurn,
    Move,
    Pass,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    Reveal,
    SecretPath,
    Swap,
    TakeTreasure,
    log_steps,
    parse_action,
)
from .components import RULE_SET_NAMES, RuleSet, TileSpec, rule_set
from .errors import ChanceError, IllegalAction, NotationError, PositionError, RecordError
from .game import Game
from .hexes import label, parse_label
from .messages import Message, render
from .state import ChanceOutcome, GameState, Phase, ScoreEvent
from .view import View

__version__ = "0.1.0"

__all__ = [
    "END_TURN", "PASS", "RULE_SET_NAMES", "Action", "Bid", "BuildCamp", "ChanceError",
    "ChanceOutcome", "Dig",
    "Draw", "EndTurn", "Game", "GameState", "IllegalAction", "Message", "Move", "NotationError",
    "Pass", "Phase", "PickTile", "PlaceGuard", "PlaceTile", "PositionError", "PutFigure",
    "RecordError", "Reveal", "RuleSet", "ScoreEvent", "SecretPath", "Swap", "TakeTreasure",
    "TileSpec", "View", "label", "log_steps", "parse_action", "parse_label", "render", "rule_set",
]
