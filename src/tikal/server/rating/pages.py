"""The leaderboard and profile pages, rendered on the server from what the API sends
(:mod:`.profile`), so that they read without a script; ``leaderboard.js`` and
``profile.js`` only add arrow keys to the rule-set switcher and a seat's own link.

Every word is a catalog's, in the page's language; the parts that change are built as an
:mod:`xml.etree.ElementTree` tree and serialised as HTML, so every name and attribute is
escaped by construction (a player may be called ``<script>``).  The static frame is
``static/leaderboard.html`` / ``profile.html`` with ``{{web.*}}`` markers (:mod:`..i18n`).
"""

from __future__ import annotations

import datetime as dt
import html
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from babel.dates import format_datetime
from babel.lists import format_list
from babel.numbers import format_decimal

from ...messages import catalog, text
from ..i18n import page_html
from .graph import rating_graph
from .params import rating_params
from .result import rated_rule_sets
from .store import HistoryPoint

Child = ET.Element | str | None
CONTENT = "__CONTENT__"


def h(tag: str, attrs: dict[str, str | None] | None = None, *children: Child) -> ET.Element:
    """An element with its attributes (None left out) and children, text or elements."""
    element = ET.Element(tag, {k: v for k, v in (attrs or {}).items() if v is not None})
    last: ET.Element | None = None
    for item in children:
        if item is None:
            continue
        if isinstance(item, str):
            if last is None:
                element.text = (element.text or "") + item
            else:
                last.tail = (last.tail or "") + item
        else:
            element.append(item)
            last = item
    return element


def serialised(parts: Sequence[ET.Element]) -> str:
    return "\n".join(ET.tostring(part, encoding="unicode", method="html") for part in parts)


def framed(name: str, language: str, parts: Sequence[ET.Element], title: str | None = None,
           ) -> str:
    """The static page ``name`` in ``language`` with ``parts`` as its content."""
    out = page_html(name, language)
    if title is not None:  # before the content, which may hold any text
        out = out.replace("__TITLE__", html.escape(title), 1)
    return out.replace(CONTENT, serialised(parts), 1)


# ---------------------------------------------------------------- words


def rules_name(rules: str, language: str) -> str:
    key = f"web.ruleset.{rules}"
    return text(key, language) if key in catalog() else rules


def level_name(level: str, language: str) -> str:
    key = f"web.level.{level}"
    return text(key, language) if key in catalog() else level


def shown_name(name: str, bot: bool, level: str | None, language: str) -> str:
    """A player as people read it: an account's name, or "Bot: greedy" in the language."""
    return text("web.index.bot", language, level=level_name(level or "", language)) if bot \
        else name


def number(value: int, language: str) -> str:
    return format_decimal(value, locale=language)


def when(at: float, language: str) -> ET.Element:
    moment = dt.datetime.fromtimestamp(at, dt.UTC)
    return h("time", {"datetime": moment.isoformat(timespec="seconds")},
             format_datetime(moment, "short", tzinfo=dt.UTC, locale=language))


def provisional_pill(language: str) -> ET.Element:
    games = rating_params().provisional_games
    return h("span", {"class": "pill provisional",
                      "title": text("web.ratings.provisional_hint", language, games=games)},
             text("web.ratings.provisional", language))


# ---------------------------------------------------------------- the leaderboard


def board_link(rules: str, offset: int = 0) -> str:
    query = {"rules": rules} | ({"offset": str(offset)} if offset else {})
    return "/leaderboard?" + urlencode(query)


def switcher(current: str, language: str) -> ET.Element:
    """One link per rule set, the current one marked (``aria-current``): Tab reaches
    them, the arrow keys go along them (leaderboard.js), Enter opens one."""
    links = [h("a", {"href": board_link(rules), "class": "tab",
                     "aria-current": "page" if rules == current else None},
               rules_name(rules, language)) for rules in rated_rule_sets()]
    return h("nav", {"class": "tabs", "id": "rule-sets",
                     "aria-label": text("web.ratings.rule_sets", language)}, *links)


def board_row(entry: dict[str, Any], language: str) -> ET.Element:
    name = shown_name(entry["name"], entry["bot"], entry["level"], language)
    player = h("td", {}, h("a", {"href": entry["profile"]}, name),
               " " if entry["provisional"] else None,
               provisional_pill(language) if entry["provisional"] else None)
    figures = [h("td", {"class": "num"}, number(entry[k], language))
               for k in ("rating", "games", "wins")]
    rank = h("td", {"class": "num"}, number(entry["rank"], language))
    return h("tr", {"class": "bot" if entry["bot"] else None}, rank, player, *figures)


def board_table(board: dict[str, Any], language: str) -> ET.Element:
    heads = [("col_rank", "num"), ("col_player", None), ("col_rating", "num"),
             ("col_games", "num"), ("col_wins", "num")]
    head = h("tr", {}, *[h("th", {"scope": "col", "class": cls},
                           text(f"web.ratings.{key}", language)) for key, cls in heads])
    caption = text("web.ratings.caption", language, rules=rules_name(board["rules"], language))
    rows = [board_row(entry, language) for entry in board["players"]]
    table = h("table", {"class": "scores ratings-table", "id": "ratings-table"},
              h("caption", {}, caption), h("thead", {}, head), h("tbody", {}, *rows))
    return h("div", {"class": "table-scroll"}, table)


def pager(board: dict[str, Any], language: str) -> ET.Element | None:
    offset, limit = board["offset"], board["limit"]
    links = []
    if offset > 0:
        links.append(h("a", {"href": board_link(board["rules"], max(0, offset - limit)),
                             "rel": "prev", "class": "btn small"},
                       text("web.ratings.previous", language)))
    if board["more"]:
        links.append(h("a", {"href": board_link(board["rules"], offset + limit),
                             "rel": "next", "class": "btn small"},
                       text("web.ratings.next", language)))
    if not links:
        return None
    return h("nav", {"class": "row pager", "aria-label": text("web.ratings.pages", language)},
             *links)


def leaderboard_page(board: dict[str, Any], language: str, me: str | None = None) -> str:
    """The board's page; ``me``: the signed-in account's profile link (or None)."""
    games = rating_params().provisional_games
    parts = [h("p", {"class": "lead"}, text("web.ratings.lead", language, games=games))]
    if me is not None:
        parts.append(h("p", {}, h("a", {"href": me, "id": "my-profile"},
                                  text("web.ratings.you", language))))
    parts.append(switcher(board["rules"], language))
    if board["players"]:
        parts.append(board_table(board, language))
    else:
        parts.append(h("p", {"class": "hint-text", "id": "ratings-empty"},
                       text("web.ratings.empty", language)))
    more = pager(board, language)
    if more is not None:
        parts.append(more)
    return framed("leaderboard.html", language, parts)


# ---------------------------------------------------------------- the profile


def rating_card(name: str, entry: dict[str, Any], language: str) -> ET.Element:
    """A rule set's rating: the number, whether provisional, games and wins, the graph."""
    rules = entry["rules"]
    heading = f"rating-{rules}"
    figure = h("p", {"class": "rating-figure"},
               h("strong", {}, number(entry["rating"], language)),
               " " if entry["provisional"] else None,
               provisional_pill(language) if entry["provisional"] else None)
    facts = h("p", {"class": "hint-text"}, text("web.profile.summary", language,
                                                games=entry["games"], wins=entry["wins"]))
    card = h("section", {"class": "card rating-card", "aria-labelledby": heading},
             h("h2", {"id": heading}, rules_name(rules, language)), figure, facts)
    points = [HistoryPoint(p["game"], p["at"], p["rating"]) for p in entry["history"]]
    if points:
        card.append(rating_graph(points, language, name=name, rules=rules))
    return card


def seat_name(seat: dict[str, Any], language: str) -> str:
    if seat["deleted"]:
        return text("web.profile.deleted_player", language)
    return seat["account"] or shown_name(seat["name"], seat["bot"], seat["level"], language)


def players_line(game: dict[str, Any], language: str) -> ET.Element:
    """"Players: A, B and Bot: easy" with each account and bot linked to its profile: the
    list is formatted with placeholders, then each placeholder becomes its link (a name is
    never parsed as markup)."""
    seats = game["players"]
    marks = [f"\x00{i}\x00" for i in range(len(seats))]
    line = text("web.profile.players", language, names=format_list(marks, locale=language))
    out = h("span", {"class": "meta"})
    pieces = line.split("\x00")
    out.text = pieces[0]
    last: ET.Element | None = None
    for index, piece in enumerate(pieces[1:]):
        if index % 2 == 0:  # a seat's number
            seat = seats[int(piece)]
            name = seat_name(seat, language)
            last = h("a", {"href": seat["profile"]}, name) if seat["profile"] else \
                h("span", {"class": "seat-name"}, name)
            out.append(last)
        elif last is not None:
            last.tail = piece
    return out


def game_links(game: dict[str, Any], language: str) -> list[ET.Element]:
    links = []
    if game["play_url"]:
        links.append(h("a", {"href": game["play_url"], "class": "play-link",
                             "data-game": game["id"]}, text("web.index.watch", language)))
    links.append(h("a", {"href": game["replay_url"]}, text("web.index.replay", language)))
    if game["analysis_url"]:
        links.append(h("a", {"href": game["analysis_url"]},
                       text("web.profile.analysis", language)))
    return links


def game_item(game: dict[str, Any], language: str) -> ET.Element:
    playing = game["in_progress"]
    status = h("span", {"class": "pill" if playing else "pill over"},
               text("web.status.playing" if playing else "web.status.over", language))
    return h("li", {"class": "playing" if playing else "over", "data-game": game["id"]},
             status, " ", h("strong", {}, rules_name(game["rules"], language)), " ",
             when(game["updated"], language), " ",
             players_line(game, language),
             *game_links(game, language))


def games_card(data: dict[str, Any], language: str) -> ET.Element:
    key = "web.profile.your_games" if data["mine"] else "web.profile.games"
    items = [game_item(game, language) for game in data["games"]]
    listed = h("ul", {"class": "game-list", "id": "profile-games"}, *items) if items else \
        h("p", {"class": "hint-text"}, text("web.profile.no_games", language))
    return h("section", {"class": "card games-card", "aria-labelledby": "games-heading"},
             h("h2", {"id": "games-heading"}, text(key, language)), listed)


def profile_page(data: dict[str, Any], language: str) -> str:
    """A player's page: the rating of each rule set with its graph, then the games."""
    name = shown_name(data["name"], data["bot"], data["level"], language)
    summary = text("web.profile.summary", language, games=data["games_rated"],
                   wins=data["games_won"])
    parts = [h("h1", {"id": "profile-name"}, name)]
    if data["bot"]:
        parts.append(h("p", {"class": "lead"}, text("web.profile.bot_lead", language)))
    parts.append(h("p", {"class": "lead", "id": "profile-summary"}, summary))
    cards = [rating_card(name, entry, language) for entry in data["ratings"]]
    parts.append(h("div", {"class": "grid-even ratings-cards"}, *cards) if cards else
                 h("p", {"class": "hint-text", "id": "no-ratings"},
                   text("web.profile.no_ratings", language)))
    parts.append(games_card(data, language))
    title = text("web.profile.page_title", language, name=name)
    return framed("profile.html", language, parts, title)
