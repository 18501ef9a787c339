"""Which finished games count for ratings, and their results checked when made.

A game is rated when every seat is an account or a bot, at least one is an account, its
creator asked for a rated game and it ended normally (not abandoned or cancelled).  A game
of bots alone is never rated here: bots are placed by calibration, not by playing each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from .model import Rating, check_players, ranks_from_scores, update
from .params import rating_params

ACCOUNT: Final = "account"
BOT: Final = "bot"
GUEST: Final = "guest"
SEAT_KINDS: Final = (ACCOUNT, BOT, GUEST)
#: Seats whose rating can be stored: a guest has nowhere to keep one.
RATED_KINDS: Final = frozenset({ACCOUNT, BOT})


def is_rated(seat_kinds: Sequence[str], asked: bool, ended_normally: bool) -> bool:
    """Whether a finished game updates ratings (unknown seat kinds raise :class:`ValueError`,
    so a misspelt kind cannot silently decide)."""
    unknown = sorted(set(seat_kinds) - set(SEAT_KINDS))
    if unknown:
        raise ValueError(f"unknown seat kinds {unknown}; a seat is one of {', '.join(SEAT_KINDS)}")
    params = rating_params()
    return (
        asked
        and ended_normally
        and params.min_players <= len(seat_kinds) <= params.max_players
        and set(seat_kinds) <= RATED_KINDS
        and ACCOUNT in seat_kinds
    )


def rated_rule_sets() -> tuple[str, ...]:
    """The rule sets that keep ratings, each its own (a player has one rating per rule set)."""
    return rating_params().rule_sets


@dataclass(frozen=True, slots=True)
class RatedResult:
    """A rated game's outcome as the storage layer applies it: checked when made, so a
    stored result is always one :func:`update` accepts."""

    game_id: str
    rule_set: str
    scores: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.rule_set not in rated_rule_sets():
            raise ValueError(
                f"rule set {self.rule_set!r} is not rated; rated: {', '.join(rated_rule_sets())}"
            )
        if not self.game_id:
            raise ValueError("a rated result needs the game's id")
        check_players(len(self.scores))

    @property
    def ranks(self) -> list[int]:
        """Each seat's place by [END-2]."""
        return ranks_from_scores(self.scores)

    def rate(self, ratings: Sequence[Rating]) -> list[Rating]:
        """The seats' new ratings in this rule set, from their ratings before the game."""
        return update(ratings, self.scores)
