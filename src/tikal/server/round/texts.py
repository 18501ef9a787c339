"""Words and small parts of the messages: texts from the catalogs, remembered (the same
offers, log lines and headings are rendered after every move), seats, scores and rule
sets as clients are told them."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ...components import RuleSet, rule_set
from ...messages import DEFAULT_LANGUAGE, Message, catalog, render
from ...seats import seat_look
from ...state import GameState, ScoreEvent
from ..wire.schema import RuleSetInfo, ScoreInfo, ScoreLine, SeatInfo

RENDER_CACHE_SIZE = 65536
_rendered: dict[tuple[Any, ...], str] = {}


def _frozen(message: Message) -> tuple[tuple[Any, ...], bool]:
    """``message`` as a key (its key and parameters, parts frozen too), and whether it
    names a player (a ``player`` seat, here or in a part): only then do the players'
    names change its text.  One plain loop for both (two generator passes were half of
    :func:`cached_render`'s time)."""
    if not message.params:  # a part such as "a worker"
        return (message.key, ()), False
    params = []
    named = False
    for name, value in message.params.items():
        if isinstance(value, Message):
            value, inner = _frozen(value)
            named = named or inner
        elif name == "player" and isinstance(value, int):
            named = True
        params.append((name, value))
    return (message.key, tuple(params)), named


def cached_render(
    message: Message, form: str, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> str:
    """:func:`tikal.messages.render`, remembered: the same offers and log lines are
    rendered again and again (every legal action after every move), and rendering
    formats every number through the locale.  The players' names are part of the key
    only for messages that name a player, so "move a worker A5 → A4" is rendered once
    for every game, not once per game."""
    try:
        frozen, named = _frozen(message)
        key = (language, form, frozen, *names) if named else (language, form, frozen)
        found = _rendered.get(key)
    except TypeError:  # a parameter that cannot be a key: render every time
        return render(message, form, names, language)
    if found is None:
        if len(_rendered) >= RENDER_CACHE_SIZE:
            _rendered.clear()
        found = _rendered[key] = render(message, form, names, language)
    return found


@functools.lru_cache(maxsize=256)
def colour_name(name: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A seat colour's name in ``language`` (the catalog's ``colour.*``), else as given
    (remembered: every snapshot names every seat's colour)."""
    key = f"colour.{name.lower()}"
    return render(Message(key), language=language) if key in catalog() else name


def seat_json(
    seat: int, name: str, kind: str | None = None, level: str | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> SeatInfo:
    """A seat as clients draw it: its name and its look from :mod:`tikal.seats`."""
    look = seat_look(seat)
    if kind is None:
        return {"seat": seat, "name": name, "colour": look.colour, "ink": look.ink,
                "shape": look.shape, "colour_name": colour_name(look.name, language)}
    return {"seat": seat, "name": name, "kind": kind, "level": level, "colour": look.colour,
            "ink": look.ink, "shape": look.shape,
            "colour_name": colour_name(look.name, language)}


def verb_titles(verbs: Sequence[str], language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """A heading per verb, where the catalog names the deed (``deed.dig``: "digging a level").
    Remembered per list of verbs and language, since every seat part after every move
    asks: callers must not change the result, it is shared."""
    return _verb_titles(tuple(verbs), language)


@functools.lru_cache(maxsize=1024)
def _verb_titles(verbs: tuple[str, ...], language: str) -> dict[str, str]:
    known = catalog()
    return {verb: render(Message(f"deed.{verb}"), language=language)
            for verb in verbs if f"deed.{verb}" in known}


def tile_text(g: GameState, tile_id: str, language: str = DEFAULT_LANGUAGE) -> str:
    """How a terrain tile reads ("temple 5"), in the catalog's words."""
    return render(g.describe_tile(tile_id), language=language)


def score_json(event: ScoreEvent) -> ScoreInfo:
    return {"round": event.round, "player": event.player, "temples": event.temples,
            "treasures": event.treasures, "at": event.at, "total": event.total}


def score_line(
    event: ScoreEvent, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> ScoreLine:
    """A log line for one player's scoring, its text from the catalog."""
    return {
        "seat": event.player, "kind": "score", "score": score_json(event),
        "text": render(event.describe(), "log", names, language),
    }


def rule_set_json(rs: RuleSet, language: str = DEFAULT_LANGUAGE) -> RuleSetInfo:
    """What a client needs to know of a rule set to lay out its screens (no rules)."""
    return {
        "players": list(rs.player_counts), "action_points": rs.action_points,
        "costs": dict(rs.costs), "auction": rs.auction, "actions": sorted(rs.actions),
        "tiles": len(rs.terrain), "options": dict(rs.default_options),
        "option_texts": {name: render(Message(f"option.{name}"), language=language)
                         for name in rs.default_options},
    }


@functools.lru_cache(maxsize=64)
def shared_rule_set_json(name: str, language: str = DEFAULT_LANGUAGE) -> RuleSetInfo:
    """:func:`rule_set_json` of the rule set ``name``, built once per language: every
    snapshot carries it, and the same object each time lets the diff pass it by
    without comparing.  Callers must not change it: it is shared."""
    return rule_set_json(rule_set(name), language)
