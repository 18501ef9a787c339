"""The bot levels' stored ratings, as the bot list and ``tikal ratings show`` read them.

Apart from :mod:`.calibrate`, which plays the games that write them: the web app reads them,
and at start-up gives every level that has none the shipped ones (``data/bot_ratings.json``,
a calibration exported by ``tikal ratings export``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...packaged import data_json
from ..bots import bot_names
from .model import Rating, is_provisional
from .result import rated_rule_sets
from .store import RatingStore, Standing, bot_player


def bot_standings(store: RatingStore, levels: Sequence[str] | None = None,
                  ) -> dict[str, dict[str, Standing]]:
    """Per level (default: the levels the web app offers) its standing in each rated rule
    set it has a rating in."""
    rated = rated_rule_sets()
    chosen = list(bot_names() if levels is None else levels)
    stored = store.standings_of_all([bot_player(level) for level in chosen])
    found = {}
    for level in chosen:
        standings = stored.get(bot_player(level), {})
        found[level] = {rules: standings[rules] for rules in rated if rules in standings}
    return found


def bot_ratings(store: RatingStore, levels: Sequence[str] | None = None,
                ) -> dict[str, dict[str, dict[str, int | bool]]]:
    """Per level (default: the levels on offer), per rated rule set it has a rating in,
    what the bot list shows: ``{"shown": display rating, "provisional": bool, "games": n}``;
    a level never calibrated nor played maps to ``{}``."""
    return {
        level: {rules: {"shown": standing.shown,
                        "provisional": is_provisional(standing.rating),
                        "games": standing.rating.games}
                for rules, standing in standings.items()}
        for level, standings in bot_standings(store, levels).items()
    }


# ---------------------------------------------------------------- the shipped ratings

#: The bots' ratings a new server starts with (``tikal ratings export`` of a calibration).
SHIPPED = "bot_ratings.json"


def exported(store: RatingStore, about: str, levels: Sequence[str] | None = None,
             ) -> dict[str, Any]:
    """The stored bot ratings in the shipped file's form: ``{"about": ..., "ratings":
    {rules: {level: {"mu", "sigma", "games", "wins"}}}}``."""
    ratings: dict[str, dict[str, dict[str, float | int]]] = {}
    for level, standings in bot_standings(store, levels).items():
        for rules, standing in standings.items():
            ratings.setdefault(rules, {})[level] = {
                "mu": round(standing.rating.mu, 6), "sigma": round(standing.rating.sigma, 6),
                "games": standing.rating.games, "wins": standing.wins}
    return {"about": about, "ratings": {rules: ratings[rules] for rules in sorted(ratings)}}


def shipped_ratings() -> list[tuple[str, str, Rating, int]]:
    """(player, rules, rating, wins) of the shipped file, for the rated rule sets and the
    levels this version offers (a level or rule set gone since is skipped)."""
    data = data_json(SHIPPED)
    offered, rated = set(bot_names()), set(rated_rule_sets())
    return [(bot_player(level), rules, Rating(float(v["mu"]), float(v["sigma"]),
                                              int(v["games"])), int(v["wins"]))
            for rules, levels in data["ratings"].items() if rules in rated
            for level, v in levels.items() if level in offered]


def seed_bot_ratings(store: RatingStore) -> int:
    """Give each bot level the shipped rating of every rule set it has none in, so that a
    new server's leaderboards and seat menus show the bots from the first game; ratings a
    calibration or rated games wrote are kept.  How many were added."""
    return store.seed(shipped_ratings())
