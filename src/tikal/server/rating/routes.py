"""The ratings' HTTP face: ``GET /api/ratings/{rules}`` (a leaderboard), ``GET
/api/players/{name}`` (a profile) and their pages ``/leaderboard`` and ``/players/{name}``.
Thin: the answers are :mod:`.profile`'s, the pages :mod:`.pages`'; the database is read in
a worker thread, as the accounts' routes do.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from ...messages import Message
from ..accounts.routes import accounts_of, cookie_name
from ..errors import ServerError
from ..i18n import request_language
from ..openapi import errors
from ..routes_pages import page, remember
from .lookup import PlayerLookup
from .pages import leaderboard_page, profile_page
from .profile import Player, find_player, is_rule_set, leaderboard, profile, profile_url
from .result import rated_rule_sets
from .store import RatingStore

router = APIRouter(tags=["ratings"])

#: The most players one page of a leaderboard lists.
MAX_LIMIT = 100
MAX_OFFSET = 1_000_000


class BoardEntryOut(BaseModel):
    rank: int = Field(..., description="1 at the top; one rank per player")
    name: str = Field(..., description="what /api/players/{name} takes: an account's name "
                                       "or bot:<level>")
    bot: bool
    level: str | None = Field(None, description="the bot's level (bots only)")
    rating: int = Field(..., description="the display rating")
    provisional: bool = Field(..., description="too few rated games to be trusted yet")
    games: int = Field(..., description="rated games in this rule set")
    wins: int
    profile: str = Field(..., description="the profile page's path")


class LeaderboardOut(BaseModel):
    rules: str
    limit: int
    offset: int
    more: bool = Field(..., description="another page follows")
    players: list[BoardEntryOut] = Field(..., description="deleted accounts left out")


class HistoryOut(BaseModel):
    game: str = Field(..., description="the rated game's id")
    at: float = Field(..., description="when it was rated (Unix time)")
    rating: int = Field(..., description="the display rating after it")


class RatingOut(BaseModel):
    rules: str
    rating: int
    provisional: bool
    games: int
    wins: int
    history: list[HistoryOut] = Field(..., description="oldest first (the latest 500)")


class SeatOut(BaseModel):
    name: str = Field(..., description="the seat's name as typed at creation")
    bot: bool
    level: str | None = None
    account: str | None = Field(None, description="the account on the seat, if one claimed it")
    deleted: bool = Field(..., description="claimed by an account since deleted")
    profile: str | None = Field(None, description="the profile page of the account or bot")


class GameOut(BaseModel):
    id: str
    rules: str
    status: str = Field(..., description="'playing' or 'over'")
    in_progress: bool
    created: float
    updated: float
    seats: list[int] = Field(..., description="the player's own seats (0-based)")
    players: list[SeatOut]
    play_url: str | None = Field(None, description="to watch (or play) a game in progress")
    replay_url: str
    analysis_url: str | None = Field(None, description="the replay's analysis (finished)")


class ProfileOut(BaseModel):
    name: str
    bot: bool
    level: str | None = None
    mine: bool = Field(..., description="the signed-in account's own profile: its games in "
                                        "progress come first")
    ratings: list[RatingOut]
    games_rated: int
    games_won: int
    games: list[GameOut]


RulesPath = Path(..., min_length=1, max_length=32, description="standard, auction or demo")
NamePath = Path(..., min_length=1, max_length=64,
                description="an account's name (any case) or bot:<level>")


def lookup_of(request: Request) -> PlayerLookup:
    return PlayerLookup(request.app.state.storage)


def store_of(request: Request) -> RatingStore:
    found: RatingStore = request.app.state.ratings.store
    return found


async def viewer_of(request: Request) -> tuple[str, str] | None:
    """(account id, name) of the signed-in account asking, or None."""
    current = await accounts_of(request).current(request.cookies.get(cookie_name(request)))
    return None if current is None else (current.account.account_id, current.account.name)


def no_rule_set(rules: str) -> ServerError:
    return ServerError("not_found", Message("ratings.rule_set_unrated", {"rules": rules}), 404)


def no_player(name: str) -> ServerError:
    return ServerError("not_found", Message("ratings.no_player", {"name": name}), 404)


async def profile_of(request: Request, name: str) -> dict[str, Any] | None:
    viewer = await viewer_of(request)
    lookup, store = lookup_of(request), store_of(request)

    def read() -> dict[str, Any] | None:
        player: Player | None = find_player(lookup, store, name)
        if player is None:
            return None
        return profile(lookup, store, player, viewer[0] if viewer else None)

    return await asyncio.to_thread(read)


# ---------------------------------------------------------------- the API


@router.get("/api/ratings/{rules}", response_model=LeaderboardOut,
            responses=errors(400, 404, 422, 503))
async def get_leaderboard(request: Request, rules: str = RulesPath,
                          limit: int = Query(50, ge=1, le=MAX_LIMIT),
                          offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> dict[str, Any]:
    """A rule set's players, highest display rating first (404 ``not_found`` for a rule
    set that keeps no ratings)."""
    if not is_rule_set(rules):
        raise no_rule_set(rules)
    return await asyncio.to_thread(leaderboard, lookup_of(request), rules, limit, offset)


@router.get("/api/players/{name}", response_model=ProfileOut, responses=errors(400, 404, 503))
async def get_player(request: Request, response: Response,
                     name: str = NamePath) -> dict[str, Any]:
    """A player's rating per rule set with its history, and the games they sat in (404
    ``not_found`` for no such account or bot)."""
    found = await profile_of(request, name)
    if found is None:
        raise no_player(name)
    response.headers["Vary"] = "Cookie"
    return found


# ---------------------------------------------------------------- the pages


def _html(request: Request, body: str, status: int = 200) -> Response:
    response = HTMLResponse(body, status_code=status,
                            headers={"Vary": "Cookie, Accept-Language"})
    return remember(request, response)


def _offset(text: str | None) -> int:
    return min(MAX_OFFSET, int(text)) if text and text.isdigit() else 0


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_html(request: Request) -> Response:
    """The leaderboard page (``?rules=``, ``?offset=``: the switcher's and pager's links)."""
    rules = request.query_params.get("rules") or rated_rule_sets()[0]
    language = request_language(request)
    if not is_rule_set(rules):
        return _html(request, page("404.html", language), 404)
    viewer = await viewer_of(request)
    board = await asyncio.to_thread(leaderboard, lookup_of(request), rules, 50,
                                    _offset(request.query_params.get("offset")))
    me = profile_url(viewer[1]) if viewer else None
    return _html(request, leaderboard_page(board, language, me))


@router.get("/players/{name}", include_in_schema=False)
async def profile_html(request: Request, name: str) -> Response:
    """A player's page; the signed-in account's own lists its games in progress first."""
    language = request_language(request)
    found = await profile_of(request, name) if len(name) <= 64 else None
    if found is None:
        return _html(request, page("404.html", language), 404)
    return _html(request, profile_page(found, language))
