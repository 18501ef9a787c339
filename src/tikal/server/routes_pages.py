"""The HTML pages: start page, game, replay, rulebook (static files plus the rules page)."""

from __future__ import annotations

import asyncio
import re
from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, HTMLResponse

router = APIRouter(include_in_schema=False)


def static_dir() -> Path:
    return Path(str(resources.files("tikal").joinpath("static")))


def page(name: str) -> str:
    """A static page's HTML (used for the 404 page)."""
    path = static_dir() / name
    return path.read_text(encoding="utf-8") if path.is_file() else "<h1>Not found</h1>"


def render_rules() -> tuple[str, dict[str, str]]:
    """(HTML body, rule id -> plain text) with an anchor per rule id."""
    from markdown_it import MarkdownIt

    from ..rulebook import rule_texts, rulebook_text

    text = rulebook_text()
    summaries = rule_texts()
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(text)
    seen: set[str] = set(re.findall(r'id="([A-Z]+-\d+)"', html))

    def anchor(m: re.Match[str]) -> str:
        rule = m.group(1)
        if rule in seen:
            return f'<a class="rule-id" href="#{rule}">[{rule}]</a>'
        seen.add(rule)
        return f'<a class="rule-id" id="{rule}" href="#{rule}">[{rule}]</a>'

    html = re.sub(r"\[([A-Z]+-\d+)\](?![^<]*</a>)", anchor, html)
    return html, summaries


RULES_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Tikal rules</title><link rel="stylesheet" href="/static/app.css"></head>
<body class="rules-page"><header class="top"><a class="brand" href="/">Tikal</a>
<nav><a href="/">New game</a><a href="/learn">Learn to play</a><a href="/rules">Rules</a>
<a href="/docs">API</a></nav></header>
<main class="rules">__BODY__</main>
<script>
const h = location.hash.slice(1);
if (h) { const el = document.getElementById(h); if (el) { const li = el.closest('li,p,h2,h3') || el;
li.classList.add('target-rule'); } }
window.addEventListener('hashchange', () => location.reload());
</script></body></html>"""


@router.get("/")
async def index() -> FileResponse:
    return FileResponse(static_dir() / "index.html")


@router.get("/favicon.ico")
async def favicon() -> FileResponse:
    """Browsers ask for /favicon.ico on every page: the SVG icon answers."""
    return FileResponse(static_dir() / "favicon.svg", media_type="image/svg+xml")


@router.get("/play/{game_id}")
async def play(game_id: str) -> FileResponse:
    return FileResponse(static_dir() / "game.html")


@router.get("/replay/{replay_id}")
async def replay_page(replay_id: str) -> FileResponse:
    return FileResponse(static_dir() / "replay.html")


@router.get("/rules")
async def rules_page() -> HTMLResponse:
    body, _ = await asyncio.to_thread(render_rules)
    return HTMLResponse(RULES_PAGE.replace("__BODY__", body))
