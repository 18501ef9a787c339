"""Ratings with OpenSkill (issue 28).  Pure logic: a rating per player and rule set
(:mod:`.model`), which games count and their checked results (:mod:`.result`), the
parameters (:mod:`.params`, from ``data/ratings.json``); beside it the storage
(:mod:`.store`) and the server's side (:mod:`.service`)."""

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
    "update",
]
