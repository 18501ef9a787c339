"""The bot levels' stored ratings, as the bot list and ``tikal ratings show`` read them.

Apart from :mod:`.calibrate`, which plays the games that write them: the web app only reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bots import bot_names
from .model import is_provisional
from .result import rated_rule_sets
from .store import RatingStore, Standing, bot_player


def bot_standings(store: RatingStore, levels: Sequence[str] | None = None,
                  ) -> dict[str, dict[str, Standing]]:
    """Per level (default: the levels the web app offers) its standing in each rated rule
    set it has a rating in."""
    rated = rated_rule_sets()
    found = {}
    for level in bot_names() if levels is None else levels:
        standings = store.standings_of(bot_player(level))
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
