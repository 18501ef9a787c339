"""The HTML pages: start page, game, replay, rulebook, in the visitor's language.

Every page is served with ``<html lang>`` set and its texts from the catalogs
(:mod:`tikal.server.i18n`); the language is ``?lang=``, the ``tikal_lang`` cookie, the
browser's ``Accept-Language``, else English.  A ``?lang=`` is remembered in the cookie.
"""

from __future__ import annotations

import asyncio
import re
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response

from ..messages import LANGUAGES, normalize_language
from .i18n import COOKIE, LANGUAGE_NAMES, fill, page_html, request_language
from .sprites import with_sprite

router = APIRouter(include_in_schema=False)

#: A year: the picker's choice is kept.
COOKIE_AGE = 365 * 24 * 3600


def static_dir() -> Path:
    return Path(str(resources.files("tikal").joinpath("static")))


def page(name: str, language: str = "en") -> str:
    """A static page's HTML in ``language`` (used for the 404 page), with the icons'
    sprite where it asks for it (:mod:`tikal.server.sprites`)."""
    path = static_dir() / name
    if not path.is_file():
        return "<h1>Not found</h1>"
    return with_sprite(page_html(name, language), language)


def render_rules(language: str = "en") -> tuple[str, dict[str, str]]:
    """(HTML body, rule id -> plain text) of the rulebook in ``language``, with an anchor
    per rule id."""
    from markdown_it import MarkdownIt

    from ..rulebook import rule_texts, rulebook_text

    source = rulebook_text(language)
    summaries = rule_texts(language)
    body = MarkdownIt("commonmark", {"html": True}).enable("table").render(source)
    seen: set[str] = set(re.findall(r'id="([A-Z]+-\d+)"', body))

    def anchor(m: re.Match[str]) -> str:
        rule = m.group(1)
        if rule in seen:
            return f'<a class="rule-id" href="#{rule}">[{rule}]</a>'
        seen.add(rule)
        return f'<a class="rule-id" id="{rule}" href="#{rule}">[{rule}]</a>'

    body = re.sub(r"\[([A-Z]+-\d+)\](?![^<]*</a>)", anchor, body)
    return body, summaries


RULES_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{web.rules.title}}</title><link rel="stylesheet" href="/static/app.css"></head>
<body class="rules-page"><header class="top"><a class="brand" href="/">Tikal</a>
<nav><a href="/">{{web.nav.new_game}}</a><a href="/learn">{{web.nav.learn}}</a>
<a href="/rules">{{web.nav.rules}}</a>
<a href="/docs">{{web.nav.api}}</a></nav></header>
<div class="rules-search"><input type="search" id="rule-search"
 placeholder="{{web.rules.search}}" aria-label="{{web.rules.search}}">
<span id="rule-count" class="hint-text" aria-live="polite"></span></div>
<main class="rules">__BODY__</main>
<script src="/static/common.js"></script>
<script src="/static/rules.js"></script></body></html>"""


def rules_html(language: str) -> str:
    body, _ = render_rules(language)
    return fill(RULES_PAGE, language).replace("__BODY__", body, 1)


def remember(request: Request, response: Response) -> Response:
    """Keep an explicit ``?lang=`` in the cookie, as the picker does."""
    chosen = normalize_language(request.query_params.get("lang"))
    if chosen is not None:
        response.set_cookie(COOKIE, chosen, max_age=COOKIE_AGE, samesite="lax")
    return response


def html_page(request: Request, name: str) -> Response:
    language = request_language(request)
    response = HTMLResponse(page(name, language), headers={"Vary": "Cookie, Accept-Language"})
    return remember(request, response)


@router.get("/")
async def index(request: Request) -> Response:
    return html_page(request, "index.html")


@router.get("/account")
async def account_page(request: Request) -> Response:
    """Sign in or up; signed in, the account's seats, password and deletion."""
    return html_page(request, "account.html")


@router.get("/lobby")
async def lobby_page(request: Request) -> Response:
    """Open tables to meet at, live; the player's own tables; games to watch."""
    return html_page(request, "lobby.html")


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    """Browsers ask for /favicon.ico on every page: the SVG icon answers."""
    return FileResponse(static_dir() / "favicon.svg", media_type="image/svg+xml")


@router.get("/play/{game_id}")
async def play(request: Request, game_id: str) -> Response:
    return html_page(request, "game.html")


@router.get("/replay/{replay_id}")
async def replay_page(request: Request, replay_id: str) -> Response:
    return html_page(request, "replay.html")


@router.get("/rules")
async def rules_page(request: Request) -> Response:
    """The rulebook in the visitor's language (``?lang=``, cookie, browser)."""
    language = request_language(request)
    body = await asyncio.to_thread(rules_html, language)
    response = HTMLResponse(body, headers={"Vary": "Cookie, Accept-Language"})
    return remember(request, response)


@router.get("/rules/{language}")
async def rules_in(request: Request, language: str) -> Response:
    """The rulebook in one language (``/rules/de#MOVE-2``); an unknown one goes to /rules."""
    found = normalize_language(language)
    if found is None or found not in LANGUAGES:
        return RedirectResponse("/rules", status_code=307)
    body = await asyncio.to_thread(rules_html, found)
    return HTMLResponse(body)


__all__ = ["LANGUAGE_NAMES", "page", "render_rules", "router", "static_dir"]
