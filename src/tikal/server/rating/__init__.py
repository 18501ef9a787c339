"""Ratings with OpenSkill (issue 28): the pure logic, no storage.  A rating per player and
rule set (:mod:`.model`), which games count and the key that makes a result count once
(:mod:`.result`), the parameters (:mod:`.params`, from ``data/ratings.json``)."""

from .model import (
    Rating,
    check_game,
    check_players,
    display,
    initial,
    is_provisional,
    ranks_from_scores,
    update,
)
from .params import DisplayParams, ModelParams, RatingParams, rating_params
from .result import (
    ACCOUNT,
    BOT,
    GUEST,
    SEAT_KINDS,
    RatedResult,
    is_rated,
    rated_rule_sets,
    result_key,
)

__all__ = [
    "ACCOUNT",
    "BOT",
    "GUEST",
    "SEAT_KINDS",
    "DisplayParams",
    "ModelParams",
    "RatedResult",
    "Rating",
    "RatingParams",
    "check_game",
    "check_players",
    "display",
    "initial",
    "is_provisional",
    "is_rated",
    "ranks_from_scores",
    "rated_rule_sets",
    "rating_params",
    "result_key",
    "update",
]
