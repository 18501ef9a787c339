"""Rated games on the server: asked for at creation, rated when they end, mended at start.

A game is rated (:func:`~.result.is_rated`) when its creator, signed in, asked for it,
every seat is an account or a bot (two seats of one account are not a rated game), and it
ended normally.  The result is applied when the game's last move is stored; if the
server stops in between, the next start-up applies it (``rated_games`` rows not yet
applied), and the store's applied mark makes a second attempt change nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from ...messages import Message
from ..accounts.store import AccountStore
from ..clock.model import forfeits
from ..errors import ServerError
from ..session import Session
from ..store.protocol import TableStorage
from .model import Rating
from .result import ACCOUNT, BOT, GUEST, RatedResult, is_rated, rated_rule_sets
from .store import RatingStore, bot_player

log = logging.getLogger(__name__)


class Games(Protocol):
    def get(self, game_id: str) -> Session: ...


class Ratings:
    """The ratings of one database."""

    def __init__(self, storage: TableStorage) -> None:
        self.store = RatingStore(storage)
        self.accounts = AccountStore(storage)

    def check_rated_game(self, rules: str, seat_kinds: list[str], hotseat: bool,
                         seeded: bool) -> None:
        """Refuse a rated game that could never be rated, or not fairly (a seed chosen by
        its creator tells them the shuffle): 422 ``unrated`` with the field."""
        if rules not in rated_rule_sets():
            raise _unrated("ratings.rule_set_unrated", "rules", rules=rules)
        if seeded:
            raise _unrated("ratings.seeded_unrated", "seed")
        if hotseat:
            raise _unrated("ratings.hotseat_unrated", "hotseat")
        if seat_kinds[0] != "human":
            raise _unrated("ratings.first_seat_human", "seats")

    def seat_players(self, session: Session) -> list[tuple[str, str]]:
        """(kind, rating player) of each seat: a bot level, a bound account, or a guest."""
        bound = self.accounts.accounts_of(session.game_id)
        out = []
        for index, seat in enumerate(session.record.seats):
            if seat.kind == "bot":
                out.append((BOT, bot_player(seat.level or "")))
            elif index in bound:
                out.append((ACCOUNT, bound[index]))
            else:
                out.append((GUEST, ""))
        return out

    def game_over(self, session: Session) -> list[Rating] | None:
        """Rate a finished game if it was asked to be and can be; its new ratings."""
        game = session.game
        if not session.over or not self.store.asked(session.game_id):
            return None
        seats = self.seat_players(session)
        kinds = [kind for kind, _ in seats]
        players = [player for _, player in seats]
        accounts = [p for kind, p in seats if kind == ACCOUNT]
        if not is_rated(kinds, True, True) or len(set(accounts)) != len(accounts):
            self.store.settle(session.game_id)  # never to be rated: a guest, a double seat
            return None
        result = RatedResult(session.game_id, session.record.rules,
                             rated_scores(game.scores, forfeits(session.log)))
        return self.store.apply(result, players)

    def mend(self, games: Games) -> int:
        """Rate the finished rated games whose result did not get applied; how many."""
        done = 0
        for game_id in self.store.waiting():
            try:
                session = games.get(game_id)
            except ServerError:
                continue
            if session.over:
                try:
                    done += self.game_over(session) is not None
                except Exception:  # one game's trouble must not stop the start
                    log.exception("rating game %s failed", game_id)
        return done


def rated_scores(scores: Sequence[int], forfeited: set[int]) -> tuple[int, ...]:
    """The scores a rated game is ranked by: a seat that a stand-in bot played for most
    of its actions ranks below every other (tied with the other such seats), whatever
    it scored (docs/web.md, Time controls)."""
    if not forfeited:
        return tuple(scores)
    below = min(scores) - 1
    return tuple(below if seat in forfeited else score for seat, score in enumerate(scores))


def _unrated(key: str, field: str, **params: str) -> ServerError:
    return ServerError("unrated", Message(key, params), 422, field=field)
