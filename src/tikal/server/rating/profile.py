"""Leaderboards and profiles as the API sends them (plain JSON values), from the stores:
the logic behind ``/api/ratings/{rules}``, ``/api/players/{name}`` and their pages, testable
without a server.

A player is named by its account's name (case-free: the handle is looked up) or as
``bot:<level>``.  A profile of the signed-in account itself (``mine``) lists its games in
progress first, so that it is where a player finds the games they are in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from ...bots import BOT_NAMES
from ..accounts.names import handle_of
from .lookup import GAMES_LISTED, GameRow, PlayerLookup, Seat
from .model import is_provisional
from .result import rated_rule_sets
from .store import BOT_PREFIX, HistoryPoint, RatingStore, Standing, bot_player


@dataclass(frozen=True)
class Player:
    """Whom a profile is of: an account or a bot level, and its id in the ratings."""

    player: str
    name: str
    account_id: str | None = None

    @property
    def level(self) -> str | None:
        return None if self.account_id else self.name.removeprefix(BOT_PREFIX)


def profile_url(name: str) -> str:
    return "/players/" + quote(name, safe=":")


def find_player(lookup: PlayerLookup, store: RatingStore, name: str) -> Player | None:
    """The account of this name (case-free), or the bot ``bot:<level>`` (a level this
    server has, or one with ratings); None when there is no such player."""
    if name.startswith(BOT_PREFIX):
        player = bot_player(name.removeprefix(BOT_PREFIX))
        known = name.removeprefix(BOT_PREFIX) in BOT_NAMES or store.standings_of(player)
        return Player(player, name) if known else None
    found = lookup.account(handle_of(name))
    return Player(found[0], found[1], found[0]) if found else None


def is_rule_set(rules: str) -> bool:
    return rules in rated_rule_sets()


def board_entry(rank: int, standing: Standing) -> dict[str, Any]:
    """One line of a leaderboard (``name`` is what ``/api/players/{name}`` takes)."""
    name = standing.player if standing.is_bot else str(standing.name)
    return {
        "rank": rank, "name": name, "bot": standing.is_bot,
        "level": standing.name if standing.is_bot else None,
        "rating": standing.shown, "provisional": is_provisional(standing.rating),
        "games": standing.rating.games, "wins": standing.wins, "profile": profile_url(name),
    }


def leaderboard(lookup: PlayerLookup, rules: str, limit: int, offset: int) -> dict[str, Any]:
    """A page of the rule set's board (ranks count from 1 at the top, one per player);
    ``more`` says whether another page follows."""
    rows = lookup.board(rules, limit + 1, offset)
    return {
        "rules": rules, "limit": limit, "offset": offset, "more": len(rows) > limit,
        "players": [board_entry(offset + i + 1, s) for i, s in enumerate(rows[:limit])],
    }


def history_entry(point: HistoryPoint) -> dict[str, Any]:
    return {"game": point.game_id, "at": point.at, "rating": point.shown}


def rating_entry(rules: str, standing: Standing, history: list[HistoryPoint]) -> dict[str, Any]:
    return {
        "rules": rules, "rating": standing.shown,
        "provisional": is_provisional(standing.rating), "games": standing.rating.games,
        "wins": standing.wins, "history": [history_entry(p) for p in history],
    }


def seat_entry(seat: Seat, claimed: bool, account: str | None) -> dict[str, Any]:
    """A seat as the list shows it: the account on it (linked to its profile), a deleted
    account, or the name typed at creation (a guest's, a bot's)."""
    bot = seat.kind == "bot"
    return {"name": seat.name, "bot": bot, "level": seat.level, "account": account,
            "deleted": claimed and account is None, "profile": seat_profile(seat, account)}


def seat_profile(seat: Seat, account: str | None) -> str | None:
    """The seat's profile page: its account's, its bot level's, or none (a guest)."""
    if account:
        return profile_url(account)
    if seat.kind == "bot" and seat.level:
        return profile_url(BOT_PREFIX + seat.level)
    return None


def game_entry(game: GameRow, accounts: dict[int, str | None] | None = None) -> dict[str, Any]:
    """A game of the list, with its links: watched while in progress, its replay, and
    the replay's analysis panel once finished (replay.html's ``#analysis``);
    ``accounts``: the accounts on its claimed seats (seat -> name, None when deleted)."""
    claimed = accounts or {}
    replay = f"/replay/{quote(game.game_id)}"
    return {
        "id": game.game_id, "rules": game.rules, "status": game.status,
        "in_progress": game.in_progress, "created": game.created, "updated": game.updated,
        "seats": list(game.seats),
        "players": [seat_entry(s, i in claimed, claimed.get(i))
                    for i, s in enumerate(game.players)],
        "play_url": f"/play/{quote(game.game_id)}" if game.in_progress else None,
        "replay_url": replay,
        "analysis_url": None if game.in_progress else replay + "#analysis",
    }


def ordered_rules(found: dict[str, Standing]) -> list[str]:
    """The rule sets in the order they are offered, any other after them."""
    offered = [rules for rules in rated_rule_sets() if rules in found]
    return offered + sorted(set(found) - set(offered))


def games_of(lookup: PlayerLookup, player: Player, mine: bool) -> list[GameRow]:
    """Others see the latest games first; the player itself its games in progress first."""
    if player.account_id is None:
        return lookup.bot_games(player.level or "")
    games = lookup.account_games(player.account_id)
    if not mine:
        games = sorted(games, key=lambda g: g.updated, reverse=True)[:GAMES_LISTED]
    return games


def profile(lookup: PlayerLookup, store: RatingStore, player: Player,
            viewer: str | None = None) -> dict[str, Any]:
    """The player's rating, games and wins per rule set with the history behind each, and
    the games they sat in; ``viewer`` is the signed-in account asking (or None)."""
    standings = store.standings_of(player.player)
    ratings = [rating_entry(rules, standings[rules], store.history(player.player, rules))
               for rules in ordered_rules(standings)]
    mine = viewer is not None and viewer == player.account_id
    games = games_of(lookup, player, mine)
    accounts = lookup.seat_accounts([g.game_id for g in games])
    return {
        "name": player.name, "bot": player.account_id is None, "level": player.level,
        "mine": mine, "ratings": ratings,
        "games_rated": sum(r["games"] for r in ratings),
        "games_won": sum(r["wins"] for r in ratings),
        "games": [game_entry(g, accounts.get(g.game_id)) for g in games],
    }
