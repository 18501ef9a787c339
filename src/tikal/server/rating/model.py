"""Ratings as values and their update after one game, through OpenSkill's Plackett-Luce model
(Weng & Lin 2011, Algorithm 4): each seat is a team of one, a free-for-all of 2 to 4.

Pure functions only: the storage layer reads the seats' ratings, calls :func:`update` and
writes the results in the transaction that stores the game's end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

from .params import rating_params


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's skill in one rule set: a belief (mean ``mu``, spread ``sigma``) and the
    number of rated games behind it (what 'provisional' is counted in)."""

    mu: float
    sigma: float
    games: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.mu) and math.isfinite(self.sigma) and self.sigma > 0):
            raise ValueError(f"a rating needs a finite mu and a positive sigma, not {self!r}")
        if self.games < 0:
            raise ValueError(f"a rating cannot have played {self.games} games")


def initial() -> Rating:
    """The rating of a player with no rated game in a rule set (the model's prior)."""
    model = rating_params().model
    return Rating(model.mu, model.sigma)


def display(rating: Rating) -> int:
    """The number a player is shown: ``round(offset + scale * (mu - sigmas * sigma))``.

    Conservative (skill the player very likely has at least, here mu - 2 sigma), so one
    lucky game cannot put a newcomer above the regulars; with the shipped parameters a new
    player shows 1000 and a perfectly known average player 1500 (``data/ratings.json``).
    """
    shown = rating_params().display
    return round(shown.offset + shown.scale * (rating.mu - shown.sigmas * rating.sigma))


def is_provisional(rating: Rating) -> bool:
    """Whether the rating rests on too few games to be trusted yet (shown as 'provisional')."""
    return rating.games < rating_params().provisional_games


def ranks_from_scores(scores: Sequence[int]) -> list[int]:
    """Each seat's place by [END-2]: 1 + the number of seats that scored more.

    No tie-break: tied seats share the place and the next one is skipped (competition
    ranking, as a results table reads: 50, 70, 70, 10 -> 3, 1, 1, 4); lower is better,
    which is the form OpenSkill's ``ranks`` takes.
    """
    return [1 + sum(other > score for other in scores) for score in scores]


@cache
def _model() -> PlackettLuce:
    model = rating_params().model
    return PlackettLuce(
        mu=model.mu,
        sigma=model.sigma,
        beta=model.beta,
        kappa=model.kappa,
        tau=model.tau,
        limit_sigma=model.limit_sigma,
    )


def check_players(count: int) -> None:
    """Refuse a player count no rated free-for-all has (raises :class:`ValueError`)."""
    params = rating_params()
    if not params.min_players <= count <= params.max_players:
        raise ValueError(
            f"a rated game has {params.min_players} to {params.max_players} players, not {count}"
        )


def check_game(ratings: Sequence[Rating], scores: Sequence[int]) -> None:
    """Refuse a result that is not one rated free-for-all (raises :class:`ValueError`)."""
    if len(ratings) != len(scores):
        raise ValueError(f"{len(ratings)} ratings but {len(scores)} scores: one of each a seat")
    check_players(len(scores))


def update(ratings: Sequence[Rating], scores: Sequence[int]) -> list[Rating]:
    """The seats' ratings after one game with these final scores (seat order kept, one more
    game each); the players tied by [END-2] share a rank and OpenSkill's tie handling."""
    check_game(ratings, scores)
    model = _model()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    ranks = [float(rank) for rank in ranks_from_scores(scores)]
    rated = model.rate(teams, ranks=ranks)
    return [
        Rating(team[0].mu, team[0].sigma, old.games + 1)
        for team, old in zip(rated, ratings, strict=True)
    ]
