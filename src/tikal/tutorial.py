"""The "Learn to play" tutorial: scripted steps, each a position, a goal and a rule.

The scripts are data (``tikal/data/tutorial/``): one file per part with the positions,
goals, highlighted spaces and rule ids (``demo.json``, ``standard.json``), and one file
per part and language with the words (``demo.en.json``, ``demo.de.json`` ...), plus the
page's own words (``ui.en.json`` ...).  This module knows no rule: a step's position is
built through the public snapshot format (:meth:`tikal.Game.from_json`), and whether an
action is allowed, what it costs and how it reads are asked of the engine.

A step's ``setup`` edits a fresh game's snapshot (seed 0, seat 0 to act with full AP):

``tiles``        ``[{"at", "tile", "rotation", "level", "tokens", "camp", "guard"}]``
``figures``      per seat ``{"workers": {space: n}, "leader": space, "treasures", "score"}``
``drawn``        the tile seat 0 has just drawn (the tile phase)
``scoring``      a scoring round under way: ``{"queue", "final", "volcano", "rounds"}``
``auction``      an auction under way: ``{"display", "order", "high_bid", "high_bidder"}``
``empty_stack``  every tile not on the board goes to the discard pile (the last turn)
``set``          snapshot fields set as given (``ap``, ``current``, ``tiles_placed`` ...)

A ``goal`` is ``{"action": "<notation>"}`` (exactly that action) or ``{"kind": verb,
field: value ...}`` matched against :meth:`tikal.Action.to_json` (``{"kind": "move",
"dst": "1"}``).  ``wrong`` lists actions a learner might try instead; each must be
refused by the engine or miss the goal (the tests check it).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from typing import Any

from . import rulebook
from .actions import Action, parse_action
from .describe import tile_message
from .errors import IllegalAction
from .game import Game
from .hexes import label
from .messages import LANGUAGES, Message, render
from .packaged import data_json
from .state import ScoreEvent

#: The parts in the order they are taught.
PARTS: tuple[str, ...] = ("demo", "standard")
#: Texts every step has in every language.
STEP_TEXTS: tuple[str, ...] = ("title", "text", "hint", "done")


@dataclass(frozen=True)
class Step:
    """One scripted step: where it starts, what it teaches, what it waits for."""

    id: str
    rules: str
    players: int
    rule: str
    setup: dict[str, Any]
    goal: dict[str, Any]
    highlight: tuple[str, ...]
    wrong: tuple[str, ...]


@dataclass(frozen=True)
class Part:
    id: str
    rules: str
    steps: tuple[Step, ...]

    def step(self, step_id: str) -> Step:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(step_id)


@dataclass(frozen=True)
class Verdict:
    """What the engine made of an action tried in a step.

    ``refusal`` is set when the engine refused it; ``done`` when it was legal and met the
    step's goal; a legal action that misses the goal has neither (the step's hint applies).
    ``after`` is the game after a successful action (else None), ``events`` the scorings it
    caused.
    """

    action: Action
    refusal: IllegalAction | None
    done: bool
    after: Game | None
    events: tuple[ScoreEvent, ...]


def _read(name: str) -> Any:
    return data_json("tutorial", name)


@cache
def load_part(part_id: str) -> Part:
    """A part's script; KeyError for a part that does not exist."""
    if part_id not in PARTS:
        raise KeyError(part_id)
    data = _read(f"{part_id}.json")
    rules = str(data["rules"])
    steps = tuple(
        Step(
            id=str(s["id"]),
            rules=str(s.get("rules", rules)),
            players=int(s.get("players", data.get("players", 2))),
            rule=str(s["rule"]),
            setup=dict(s.get("setup", {})),
            goal=dict(s["goal"]),
            highlight=tuple(str(c) for c in s.get("highlight", ())),
            wrong=tuple(str(a) for a in s.get("wrong", ())),
        )
        for s in data["steps"]
    )
    return Part(part_id, rules, steps)


@cache
def part_texts(part_id: str, language: str) -> dict[str, Any]:
    """The words of a part in ``language``: ``{"title", "intro", "steps": {id: texts}}``."""
    if language not in LANGUAGES:
        raise KeyError(language)
    load_part(part_id)
    texts: dict[str, Any] = _read(f"{part_id}.{language}.json")
    return texts


@cache
def ui_texts(language: str) -> dict[str, str]:
    """The tutorial page's own words (buttons, headings) in ``language``."""
    if language not in LANGUAGES:
        raise KeyError(language)
    texts: dict[str, str] = _read(f"ui.{language}.json")
    return texts


def step_texts(part_id: str, step_id: str, language: str) -> dict[str, str]:
    texts: dict[str, str] = part_texts(part_id, language)["steps"][step_id]
    return texts


# ---------------------------------------------------------------- positions


def _take_tokens(data: dict[str, Any], letters: str, where: str) -> None:
    pool = data["token_pool"]
    for letter in letters:
        if letter not in pool:
            raise ValueError(f"{where}: no hidden treasure {letter!r} left")
        pool = pool.replace(letter, "", 1)
    data["token_pool"] = pool


def _take_tile(data: dict[str, Any], tile_id: str, where: str) -> None:
    if tile_id not in data["stack"]:
        raise ValueError(f"{where}: tile {tile_id} is not in the stack")
    data["stack"].remove(tile_id)


def _letter_key(tile_id: str) -> tuple[str, str]:
    return tile_id.split(".")[0], tile_id


def snapshot(step: Step) -> dict[str, Any]:
    """The step's start as a position snapshot (the public format of docs/records.md)."""
    game = Game.new(step.rules, step.players, seed=0)
    data = game.to_json()
    rules = game.rules
    setup = step.setup
    # Whatever the setup drew goes back; seat 0 starts a normal turn with full AP.
    drawn = [t for t in [data["drawn"], *data["display"]] if t]
    data["stack"] = sorted(drawn + data["stack"], key=_letter_key)
    data.update(drawn=None, display=[], phase="turn", current=0, ap=rules.action_points)
    data["auction"] = {"order": [], "passed": [], "high_bid": -1, "high_bidder": None}
    data["markers"] = [True] * step.players
    for entry in setup.get("tiles", []):
        tile_id = str(entry["tile"])
        _take_tile(data, tile_id, step.id)
        spec = rules.tile(tile_id)
        placed: dict[str, Any] = {
            "at": entry["at"], "tile": tile_id, "rotation": int(entry.get("rotation", 0)),
        }
        if spec.kind == "temple":
            level = int(entry.get("level", spec.value))
            placed["level"] = level
            for v in range(spec.value + 1, level + 1):
                data["level_supply"][str(v)] -= 1
        if spec.kind == "treasure":
            tokens = str(entry.get("tokens", data["token_pool"][: spec.masks]))
            _take_tokens(data, tokens, step.id)
            placed["tokens"] = tokens
        if "camp" in entry:
            placed["camp"] = int(entry["camp"])
        if "guard" in entry:
            guard = dict(entry["guard"])
            placed["guard"] = guard
            fig = data["figures"][int(guard["player"])]
            if guard.get("figure") == "L":
                fig["leader"] = "guard"
            else:
                fig["supply"] -= 1
        data["board"].append(placed)
        data["tiles_placed"] += 1
    for seat, wanted in enumerate(setup.get("figures", [])):
        fig = data["figures"][seat]
        total = sum(fig["workers"].values()) + fig["supply"]
        fig["workers"] = {str(k): int(v) for k, v in wanted.get("workers", {}).items()}
        fig["supply"] = total - sum(fig["workers"].values())
        if "leader" in wanted:
            fig["leader"] = str(wanted["leader"])
        if "treasures" in wanted:
            _take_tokens(data, str(wanted["treasures"]), step.id)
            fig["treasures"] = "".join(sorted(str(wanted["treasures"])))
        if "score" in wanted:
            fig["score"] = int(wanted["score"])
    if "drawn" in setup:
        _take_tile(data, str(setup["drawn"]), step.id)
        data.update(drawn=str(setup["drawn"]), phase="tile", ap=0)
    if "scoring" in setup:
        scoring = dict(setup["scoring"])
        volcano = scoring.get("volcano")
        if volcano is not None:
            _take_tile(data, str(volcano), step.id)
        queue = [int(p) for p in scoring["queue"]]
        data["scoring"] = {
            "queue": queue, "final": bool(scoring.get("final", False)), "volcano": volcano,
            "holder": queue[0] if volcano is not None else None,
            "rounds": int(scoring.get("rounds", 1)),
        }
        data.update(phase="scoring", current=queue[0])
    if "auction" in setup:
        auction = dict(setup["auction"])
        for tile_id in auction.get("display", []):
            _take_tile(data, str(tile_id), step.id)
        data["display"] = list(auction.get("display", []))
        order = [int(p) for p in auction["order"]]
        data["auction"] = {
            "order": order, "passed": [int(p) for p in auction.get("passed", [])],
            "high_bid": int(auction.get("high_bid", -1)),
            "high_bidder": auction.get("high_bidder"),
        }
        data.update(phase="auction", current=int(auction.get("current", order[0])), ap=0)
    if setup.get("empty_stack"):
        data["discarded"] = sorted(data["stack"], key=_letter_key)
        data["stack"] = []
    data.update(copy.deepcopy(setup.get("set", {})))
    return data


def start(step: Step) -> Game:
    """The step's game, loaded through :meth:`Game.from_json`, undo off."""
    game = Game.from_json(snapshot(step))
    game.undo_enabled = False
    return game


# ---------------------------------------------------------------- goals


def goal_met(goal: dict[str, Any], action: Action) -> bool:
    """Whether ``action`` is what the step asks for (see the module docstring)."""
    if "action" in goal:
        return str(parse_action(str(goal["action"]))) == str(action)
    fields = action.to_json()
    if goal.get("kind") != fields["verb"]:
        return False
    return all(fields.get(key) == value for key, value in goal.items() if key != "kind")


def judge(step: Step, action: Action | str) -> Verdict:
    """Try ``action`` in the step's position: refused, a miss, or the step done.

    A notation error (text that is no action) propagates as
    :class:`~tikal.errors.NotationError`; the step's position is never changed.
    """
    if isinstance(action, str):
        action = parse_action(action)
    game = start(step)
    refusal = game.check(action)
    if refusal is not None:
        return Verdict(action, refusal, False, None, ())
    if not goal_met(step.goal, action):
        return Verdict(action, None, False, None, ())
    before = len(game.score_events)
    game.apply(action)
    return Verdict(action, None, True, game, tuple(game.score_events[before:]))


def goal_actions(step: Step) -> list[Action]:
    """The legal actions of the step's position that reach its goal."""
    game = start(step)
    return [a for a in game.legal_actions() if goal_met(step.goal, a)]


# ---------------------------------------------------------------- words


def rule_url(rule: str, language: str) -> str:
    return f"/rules?lang={language}#{rule}"


def reason_json(refusal: IllegalAction, language: str) -> dict[str, Any]:
    """The engine's refusal in ``language`` with its rule (id, link, the rule's text)."""
    return {
        "rule": refusal.rule,
        "text": render(refusal.reason, language=language),
        "url": rule_url(refusal.rule, language),
        "rule_text": rulebook.rule_section(refusal.rule, language) or "",
    }


def names(language: str) -> list[str]:
    """How the two seats are called in the tutorial ("You", "Rival")."""
    ui = ui_texts(language)
    return [ui["you"], ui["rival"]]


def action_entry(game: Game, action: Action, language: str) -> dict[str, Any]:
    """A legal action as the page offers it: notation, words, cost, spaces."""
    return {
        "action": str(action),
        "verb": action.verb,
        "text": render(game.describe(action), "action", names(language), language),
        "cost": game.cost(action),
        "cells": [label(c) for c in action.cells],
    }


def tried_text(game: Game, action: Action, language: str) -> str:
    """What the learner tried, in words.  A tile placement names the drawn tile: the
    engine's description, made for the actions offered and those in the history, names
    the tile that lies on the space, so a click on the basecamp with "temple 3" drawn
    read "place basecamp on 0"."""
    message = game.describe(action)
    drawn = game.tile_to_place()
    if action.verb == "tile" and drawn is not None:
        message = Message(message.key, {**message.params, "tile": tile_message(drawn)})
    return render(message, "action", names(language), language)


def played_lines(verdict: Verdict, before: Game, language: str) -> list[str]:
    """What happened, in words: the action (past tense) and any scorings it caused."""
    who = names(language)
    after = verdict.after if verdict.after is not None else before
    steps = after.history[len(before.history):] or [verdict.action]
    lines = [render(after.describe(step), "log", who, language) for step in steps]
    lines += [render(event.describe(), "log", who, language) for event in verdict.events]
    return lines
