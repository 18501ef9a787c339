"""The "Learn to play" tutorial: its page (``/learn``) and its API (``/api/tutorial``).

Every step is scripted in ``tikal/data/tutorial`` (see :mod:`tikal.tutorial`); the page
shows the step's board and texts and sends the action the learner chose, and the engine
judges it here.  The page itself knows no rule.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from .. import rulebook, svg, tutorial
from ..actions import token_name
from ..errors import NotationError
from ..game import Game
from ..messages import LANGUAGES, Message, language_from_accept, normalize_language, render
from .deps import client_of, services
from .errors import ServerError
from .i18n import page_html

router = APIRouter(tags=["tutorial"])

#: The cookie the pages keep the chosen language in.
LANG_COOKIE = "tikal_lang"
Lang = Query("en", pattern="^(en|de|ja)$", description="en, de or ja")


class TryIn(BaseModel):
    action: str = Field(..., min_length=1, max_length=64,
                        description="the action in notation, e.g. 'move W 0 1'")
    lang: str = Field("en", pattern="^(en|de|ja)$")


def page_language(request: Request) -> str:
    """``?lang=``, else the ``tikal_lang`` cookie, else the browser's Accept-Language."""
    for candidate in (request.query_params.get("lang"), request.cookies.get(LANG_COOKIE)):
        found = normalize_language(candidate)
        if found is not None:
            return found
    return language_from_accept(request.headers.get("accept-language"))


@router.get("/learn", include_in_schema=False, response_model=None)
async def learn_page(request: Request) -> Response:
    """The tutorial page; without ``?lang=`` it redirects to the language to use."""
    if request.query_params.get("lang") not in LANGUAGES:
        return RedirectResponse(f"/learn?lang={page_language(request)}", status_code=307)
    # filled like every page: <html lang>, the picker's language, the browser's texts
    return HTMLResponse(page_html("tutorial.html", str(request.query_params["lang"])))


def _find(part_id: str, step_id: str) -> tutorial.Step:
    try:
        return tutorial.load_part(part_id).step(step_id)
    except KeyError:
        raise ServerError("not_found", Message(
            "server.no_tutorial_step", {"part": part_id, "step": step_id}), 404) from None


def outline(language: str) -> dict[str, Any]:
    """Both parts with their steps' titles and rules, and the page's words."""
    parts = []
    for part_id in tutorial.PARTS:
        part = tutorial.load_part(part_id)
        texts = tutorial.part_texts(part_id, language)
        parts.append({
            "id": part_id, "rules": part.rules, "title": texts["title"], "intro": texts["intro"],
            "steps": [{"id": s.id, "rule": s.rule, "title": texts["steps"][s.id]["title"]}
                      for s in part.steps],
        })
    return {"lang": language, "languages": list(LANGUAGES), "parts": parts,
            "ui": tutorial.ui_texts(language)}


def _board(game: Game, cells: tuple[str, ...] | list[str], language: str) -> str:
    return svg.board(game, highlight=list(cells), language=language)


def step_json(part_id: str, step: tutorial.Step, language: str) -> dict[str, Any]:
    """A step as the page shows it: texts, rule, board, legal actions, the drawn tile."""
    game = tutorial.start(step)
    texts = tutorial.step_texts(part_id, step.id, language)
    who = tutorial.names(language)
    data: dict[str, Any] = {
        "part": part_id, "step": step.id, "rules": step.rules, "lang": language,
        "title": texts["title"], "text": texts["text"],
        "rule": step.rule, "rule_url": tutorial.rule_url(step.rule, language),
        "rule_text": rulebook.rule_section(step.rule, language) or "",
        "highlight": list(step.highlight),
        "board": _board(game, step.highlight, language),
        "phase": game.phase.value, "ap": game.ap, "ap_max": game.rules.action_points,
        "seat": game.current, "player": who[game.current],
        "scores": {who[p]: game.scores[p] for p in range(game.players)},
        "treasures": [_treasure_text(game, p) for p in range(game.players)],
        "legal": [tutorial.action_entry(game, a, language) for a in game.legal_actions()],
        "tile": None,
    }
    data["display"] = [
        {"id": tile_id, "text": render(game.describe_tile(tile_id), language=language),
         "picture": svg.tile(tile_id, 0, size=40, rules=step.rules, language=language)}
        for tile_id in game.display
    ]
    spec = game.tile_to_place()
    if spec is not None:
        data["tile"] = {
            "id": spec.tile_id,
            "text": render(game.describe_tile(spec.tile_id), language=language),
            "pictures": [svg.tile(spec, r, size=40, rules=step.rules, language=language)
                         for r in range(6)],
        }
    return data


def _treasure_text(game: Game, player: int) -> str:
    counts = game.treasures[player]
    return " ".join(token_name(t).upper() * n for t, n in enumerate(counts) if n)


def try_json(part_id: str, step: tutorial.Step, action_text: str, language: str) -> dict[str, Any]:
    """The engine's verdict on ``action_text`` in ``step``, in ``language``."""
    try:
        verdict = tutorial.judge(step, action_text)
    except NotationError as error:
        raise ServerError.notation(error) from None
    texts = tutorial.step_texts(part_id, step.id, language)
    before = tutorial.start(step)
    tried = tutorial.tried_text(before, verdict.action, language)
    answer: dict[str, Any] = {
        "ok": verdict.done, "action": str(verdict.action), "tried": tried,
        "reason": None, "hint": None, "done": None, "played": [],
        "board": _board(before, step.highlight, language),
    }
    if verdict.refusal is not None:
        answer["reason"] = tutorial.reason_json(verdict.refusal, language)
        answer["hint"] = texts["hint"]
    elif not verdict.done:
        answer["hint"] = texts["hint"]
    else:
        after = verdict.after
        assert after is not None
        answer["done"] = texts["done"]
        answer["played"] = tutorial.played_lines(verdict, before, language)
        answer["board"] = _board(after, [], language)
        who = tutorial.names(language)
        answer["scores"] = {who[p]: after.scores[p] for p in range(after.players)}
        answer["over"] = after.is_over
        answer["treasures"] = [_treasure_text(after, p) for p in range(after.players)]
        if after.current == before.current and after.phase == before.phase:
            answer["ap"] = after.ap  # what is left of the turn that went on
    return answer


@router.get("/api/tutorial")
async def tutorial_outline(lang: str = Lang) -> dict[str, Any]:
    """Both parts of the tutorial: their steps (id, title, rule id) and the page's words."""
    return await asyncio.to_thread(outline, lang)


@router.get("/api/tutorial/{part}/{step}")
async def tutorial_step(part: str, step: str, lang: str = Lang) -> dict[str, Any]:
    """One step: its texts, rule (id, link, text), board (SVG with the spaces to click
    highlighted), legal actions in words, and the drawn tile if one is to be placed."""
    found = _find(part, step)
    return await asyncio.to_thread(step_json, part, found, lang)


@router.post("/api/tutorial/{part}/{step}")
async def tutorial_try(part: str, step: str, body: TryIn, request: Request) -> dict[str, Any]:
    """Try an action in a step: ``ok`` when the engine allows it and it is what the step
    teaches; else ``reason`` (the engine's refusal with its rule) or ``hint`` (allowed,
    but not this step's goal).  The step's position never changes.  Text that is not an
    action is refused with 422 ``bad_action``."""
    found = _find(part, step)
    services(request).limits.check(client_of(request), "move")
    return await asyncio.to_thread(try_json, part, found, body.action, body.lang)
