"""The rating parameters, read once from ``data/ratings.json`` so that tuning them is a change
of data, reviewed as such, and never a constant hidden in the code."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from ...packaged import data_json


@dataclass(frozen=True, slots=True)
class ModelParams:
    """OpenSkill's Plackett-Luce settings (its names): the prior (mu, sigma), the performance
    spread (beta), the floor of a variance update (kappa), the drift added before each game
    (tau) and whether a game may leave sigma larger than it found it (limit_sigma)."""

    mu: float
    sigma: float
    beta: float
    kappa: float
    tau: float
    limit_sigma: bool


@dataclass(frozen=True, slots=True)
class DisplayParams:
    """shown = round(offset + scale * (mu - sigmas * sigma)): skill the player very likely has
    at least, on a familiar scale."""

    sigmas: float
    scale: float
    offset: float


@dataclass(frozen=True, slots=True)
class RatingParams:
    """Everything tunable about ratings, as one value."""

    model: ModelParams
    display: DisplayParams
    provisional_games: int
    min_players: int
    max_players: int
    rule_sets: tuple[str, ...]


def _read() -> dict[str, Any]:
    data: dict[str, Any] = data_json("ratings.json")
    return data


@cache
def rating_params() -> RatingParams:
    """The parameters of ``data/ratings.json`` (read once)."""
    data = _read()
    model, display = data["model"], data["display"]
    low, high = data["players"]
    return RatingParams(
        model=ModelParams(
            mu=float(model["mu"]),
            sigma=float(model["sigma"]),
            beta=float(model["beta"]),
            kappa=float(model["kappa"]),
            tau=float(model["tau"]),
            limit_sigma=bool(model["limit_sigma"]),
        ),
        display=DisplayParams(
            sigmas=float(display["sigmas"]),
            scale=float(display["scale"]),
            offset=float(display["offset"]),
        ),
        provisional_games=int(data["provisional_games"]),
        min_players=int(low),
        max_players=int(high),
        rule_sets=tuple(data["rule_sets"]),
    )
