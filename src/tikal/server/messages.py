"""What clients are sent: the state message, its deltas, legal actions, the log, seats.

Everything here is built from a :class:`~tikal.view.View` (a seat's view, or the public
view for spectators) [HIDDEN-1].  Texts come from the engine's message catalog
(:func:`tikal.messages.render` of ``game.describe(action)``); nothing here knows what
an action of a given kind means.

The lean protocol (docs/web.md, "Protocol"): a state is a :class:`Snapshot` made of a
public part, built once per change and shared by every connection, and a small part per
set of seats (``you``, the legal actions, undo).  A connection that holds the previous
snapshot gets a ``delta`` (the paths that changed, the new log lines); any other gets
the full ``state``.  The board travels as one SVG fragment per space, so a move re-sends
only the spaces it changed, and the log is extended incrementally, so building a
message costs the same early and late in a game.
"""

from __future__ import annotations

import functools
import itertools
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Any, Literal

import orjson

from .. import hexes, svg
from ..actions import Action, log_steps, token_name
from ..components import RuleSet, rule_set
from ..game import LEADER_PLACES, Phase
from ..hexes import label
from ..messages import DEFAULT_LANGUAGE, Message, catalog, render
from ..seats import seat_look
from ..state import GameState, ScoreEvent
from ..view import View
from .session import Session

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
) -> dict[str, Any]:
    """A seat as clients draw it: its name and its look from :mod:`tikal.seats`."""
    look = seat_look(seat)
    data: dict[str, Any] = {"seat": seat, "name": name}
    if kind is not None:
        data.update(kind=kind, level=level)
    data.update(colour=look.colour, ink=look.ink, shape=look.shape,
                colour_name=colour_name(look.name, language))
    return data


#: What an action shows of itself, by the action's identity: its notation, its fields
#: as :meth:`~tikal.actions.Action.to_json` writes them, its spaces' labels, and the
#: action (held, so its ``id`` stays its own).  Actions are immutable and the engine
#: offers the same few thousand objects again and again, so each is written once
#: (``str``, ``to_json`` and the labels were a quarter of the legal entries' time); by
#: identity, since a frozen dataclass hashes its fields in Python on every lookup.
#: Callers must not change what they get: it is shared.
Facts = tuple[str, dict[str, Any], tuple[str, ...], Action]
_facts: dict[int, Facts] = {}
FACTS_CACHE_SIZE = 50_000


def action_facts(action: Action) -> Facts:
    """``(str(action), action.to_json(), labels of action.cells, action)``, each action
    written once."""
    found = _facts.get(id(action))
    if found is None or found[3] is not action:
        if len(_facts) >= FACTS_CACHE_SIZE:
            _facts.clear()
        found = _facts[id(action)] = (
            str(action), action.to_json(), tuple(label(cell) for cell in action.cells), action)
    return found


def action_entry(
    g: GameState, action: Action, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    """One action for a client: its fields, notation, cost, spaces and text (imperative)."""
    return _entry(action, g.cost(action),
                  cached_render(g.describe(action), "action", names, language))


def _entry(action: Action, cost: int, text: str) -> dict[str, Any]:
    notation, fields, cells, _ = action_facts(action)
    return {"action": notation, **fields, "cost": cost, "cells": list(cells), "text": text}


def legal_json(
    g: GameState, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> dict[str, list[dict[str, Any]]]:
    """The legal actions of the player to act, grouped by verb (in the engine's order)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for action in g.legal_actions():
        grouped.setdefault(action.verb, []).append(action_entry(g, action, names, language))
    return grouped


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


def score_json(event: ScoreEvent) -> dict[str, int]:
    return event.to_json() | {"total": event.total}


def score_line(
    event: ScoreEvent, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    """A log line for one player's scoring, its text from the catalog."""
    return {
        "seat": event.player, "kind": "score", "score": score_json(event),
        "text": render(event.describe(), "log", names, language),
    }


def rule_set_json(rs: RuleSet, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """What a client needs to know of a rule set to lay out its screens (no rules)."""
    return {
        "players": list(rs.player_counts), "action_points": rs.action_points,
        "costs": dict(rs.costs), "auction": rs.auction, "actions": sorted(rs.actions),
        "tiles": len(rs.terrain), "options": dict(rs.default_options),
        "option_texts": {name: render(Message(f"option.{name}"), language=language)
                         for name in rs.default_options},
    }


@functools.lru_cache(maxsize=64)
def shared_rule_set_json(name: str, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """:func:`rule_set_json` of the rule set ``name``, built once per language: every
    snapshot carries it, and the same object each time lets the diff pass it by
    without comparing.  Callers must not change it: it is shared."""
    return rule_set_json(rule_set(name), language)


def log_lines(
    g: GameState, actors: Sequence[int], names: Sequence[str],
    language: str = DEFAULT_LANGUAGE,
) -> list[dict[str, Any]]:
    """The game so far: a line per action, per chance outcome and per scoring.

    ``actors`` is the seat that played each step after the setup (the setup's draws are
    shown as seat 0's).  Past actions are described on the present game, which the
    engine supports for every action in its history.
    """
    lines: list[dict[str, Any]] = []
    events = list(g.score_events)
    shown = 0  # history entries shown so far
    for number, step in enumerate(log_steps(g.history)):
        seat = actors[number - 1] if 0 < number <= len(actors) else 0
        for action in (step.action, *step.chance):
            if action is None:
                continue
            lines.append({
                "seat": seat, "kind": "chance" if action.is_chance else "action",
                "notation": str(action),
                "text": render(g.describe(action), "log", names, language),
                "step": number or None,
            })
            shown += 1
            while events and events[0].at < shown:
                event = events.pop(0)
                lines.append(score_line(event, names, language))
    lines.extend(score_line(e, names, language) for e in events)
    return lines


def players_json(view: View) -> list[dict[str, Any]]:
    """What changes of each player in play (the seat's name and look are in ``seats``)."""
    g = view.state
    rs = g.rules
    out = []
    for p in range(g.players):
        supply, board, gone = g.figures_total(p)
        out.append({
            "score": g.scores[p],
            "treasures": {token_name(t): n for t, n in enumerate(g.treasures[p]) if n},
            "treasure_points": g.treasure_points(p),
            "temple_points": g.temple_points(p),
            "supply_workers": g.supply[p],
            "leader": LEADER_PLACES.get(g.leader[p]) or label(g.leader[p]),
            "on_board": board, "out": gone, "in_supply": supply,
            "camps_left": rs.camps_max - len(g.own_camps(p)),
            "guards_left": rs.guards_max - g.guards_of(p),
            "bids_paid": g.bids_paid[p],
            "marker": g.markers[p],
        })
    return out


# ------------------------------------------------------------------ the board in pieces

SPACE_START = '<g class="space'
OVERLAY_START = '<g class="overlay"'
CELL_ATTR = 'data-cell="'
DEFS_START = "<defs>"
DEFS_END = "</defs>"


def board_parts(picture: str) -> dict[str, Any]:
    """The board SVG in pieces a delta can patch one by one: ``head`` (up to ``<defs>``),
    the shared shapes in ``defs`` (by id), ``mid`` (from ``</defs>`` to the first space),
    the spaces' ``<g>`` fragments in ``spaces`` (by label) drawn in ``order``, and
    ``tail``.  A move re-sends only the spaces it changed (and a shape drawn for the
    first time); :func:`board_svg` joins the pieces into the picture again."""
    first = picture.find(SPACE_START)
    end = picture.rfind(OVERLAY_START)
    defs_at = picture.find(DEFS_START)
    defs_end = picture.find(DEFS_END)
    if min(first, end, defs_at, defs_end) < 0:
        return {"root": "", "head": picture, "defs": {}, "mid": "", "order": [], "spaces": {},
                "tail": ""}
    defs_at += len(DEFS_START)
    shapes = {
        str(child.get("id")): ET.tostring(child, encoding="unicode")
        for child in ET.fromstring(f"<defs>{picture[defs_at:defs_end]}</defs>")
    }
    body = picture[first:end]
    spaces: dict[str, str] = {}
    for piece in body.split(SPACE_START)[1:]:
        at = piece.index(CELL_ATTR) + len(CELL_ATTR)
        spaces[piece[at:piece.index('"', at)]] = SPACE_START + piece
    root = picture.index(">") + 1  # the <svg> tag (its label counts the tiles) apart
    return {"root": picture[:root], "head": picture[root:defs_at], "defs": shapes,
            "mid": picture[defs_end:first],
            "order": list(spaces), "spaces": spaces, "tail": picture[end:]}


def board_svg(parts: dict[str, Any]) -> str:
    """The board SVG from its parts (what the browser does too)."""
    spaces = parts["spaces"]
    return "".join([
        parts["root"], parts["head"], *parts["defs"].values(), parts["mid"],
        *(spaces[c] for c in parts["order"]), parts["tail"],
    ])


HREF = re.compile(r'href="#([^"]+)"')
ROOT_LABEL = re.compile(r'aria-label="[^"]*"')


@functools.lru_cache(maxsize=1024)
def root_label(tiles: int, language: str = DEFAULT_LANGUAGE) -> str:
    """The board's ``aria-label`` attribute (:func:`tikal.svg.board_label`), escaped as
    the drawing escapes it."""
    tag = ET.tostring(ET.Element("g", {"aria-label": svg.board_label(tiles, language)}),
                      encoding="unicode")
    return tag[tag.index("aria-label="):tag.rindex('"') + 1]


def drawn_cells(g: GameState) -> list[int]:
    """The cells :func:`tikal.svg.board` draws, in its order."""
    if g.rules.bounded_board:
        return list(hexes.STANDARD_CELLS)
    return sorted(set(g.tiles) | g.frontier)


def space_signature(g: GameState, cell: int) -> tuple[Any, ...]:
    """Everything a space's picture depends on: equal signatures, equal fragments."""
    return space_signatures(g, [cell])[cell]


def space_signatures(g: GameState, cells: list[int]) -> dict[int, tuple[Any, ...]]:
    """:func:`space_signature` of many cells at once (after every move, for every drawn
    space: the lookups are hoisted, and the figures are looked up only for the spaces
    that hold any, since this was 8% of the server's CPU per move)."""
    tiles, levels, tokens, camps, guards, frontier = (
        g.tiles, g.levels, g.tokens, g.camps, g.guards, g.frontier)
    figures = _figures_by_cell(g)
    out: dict[int, tuple[Any, ...]] = {}
    for cell in cells:
        placed = tiles.get(cell)
        out[cell] = (
            None if placed is None else (placed.spec.tile_id, placed.rotation, placed.stones),
            levels.get(cell), len(tokens.get(cell, ())), camps.get(cell), guards.get(cell),
            cell in frontier, figures.get(cell),
        )
    return out


def _figures_by_cell(g: GameState) -> dict[int, tuple[tuple[int, bool], ...]]:
    """Each space that holds a figure: every seat's workers there and whether its leader
    is (spaces without figures are left out)."""
    seats = list(zip(g.workers, g.leader, strict=True))
    occupied = {cell for workers, leader in seats for cell in (*workers, leader)}
    return {cell: tuple((workers.get(cell, 0), leader == cell) for workers, leader in seats)
            for cell in occupied}


def touched_cells(old: GameState, new: GameState) -> set[int]:
    """The cells where anything a space's picture depends on (its
    :func:`space_signature`'s parts) differs between two positions of one game: a
    superset of the spaces that look different.  Each part is compared whole first (at
    C speed; the same objects mostly, a view's copy being shallow) and gone into only
    if it differs, instead of making every space's signature after every move."""
    cells: set[int] = set(old.frontier ^ new.frontier)
    parts: list[tuple[dict[int, Any], dict[int, Any]]] = [
        (old.tiles, new.tiles), (old.levels, new.levels), (old.tokens, new.tokens),
        (old.camps, new.camps), (old.guards, new.guards),
        *zip(old.workers, new.workers, strict=True)]
    for before, after in parts:
        if before != after:
            cells.update(key for key in before.keys() | after.keys()
                         if before.get(key) != after.get(key))
    for before_cell, after_cell in zip(old.leader, new.leader, strict=True):
        if before_cell != after_cell:
            cells.update((before_cell, after_cell))
    return cells


def shape_closure(ids: set[str], shapes: dict[str, str]) -> frozenset[str]:
    """``ids`` and every shape they draw in turn."""
    seen: set[str] = set()
    todo = list(ids)
    while todo:
        key = todo.pop()
        if key not in seen:
            seen.add(key)
            todo.extend(hrefs(shapes.get(key, "")))
    return frozenset(seen)


@functools.lru_cache(maxsize=8192)
def hrefs(picture: str) -> frozenset[str]:
    """The ids a piece of a picture draws (``href="#..."``), read once per text: the
    same shapes and spaces come again after every move (the closure of the shapes in
    use read every one of them each time)."""
    return frozenset(HREF.findall(picture))


#: Space fragments by (rule set, players, cell, signature, language): the same space looks
#: the same in every game of a language, and most changed spaces (a figure leaving, a tile
#: drawn again) were drawn before somewhere, so a move seldom needs ElementTree at all
#: (drawing and serializing a space was about a third of the server's CPU per move).
_fragments: dict[tuple[Any, ...], tuple[dict[str, str], dict[str, str]]] = {}
FRAGMENT_CACHE_SIZE = 50_000


def drawn_spaces(
    view: View, cells: list[int], signatures: dict[int, tuple[Any, ...]],
    language: str = DEFAULT_LANGUAGE,
) -> tuple[dict[str, str], dict[str, str]]:
    """:func:`tikal.svg.board_spaces` of ``cells`` in ``language``, each space drawn once
    per signature and language."""
    g = view.state
    spaces: dict[str, str] = {}
    shapes: dict[str, str] = {}
    for cell in cells:
        key = (g.rules.name, g.players, cell, signatures[cell], language)
        found = _fragments.get(key)
        if found is None:
            if len(_fragments) >= FRAGMENT_CACHE_SIZE:
                _fragments.clear()
            found = _fragments[key] = svg.board_spaces(view, [cell], language=language)
        spaces.update(found[0])
        shapes.update(found[1])
    return spaces, shapes


class BoardCache:
    """A game's board in pieces (:func:`board_parts`) in one language, re-drawn space by
    space.

    Each update compares the :func:`space_signature` of every space where something
    changed since the last update (:func:`touched_cells`) with its last one and draws
    only the spaces that changed (:func:`tikal.svg.board_spaces`).  The whole
    board is drawn again only when the cells drawn change (the demo's growing plane); a
    shape drawn for the first or the last time only enters or leaves ``<defs>`` (kept
    sorted by id), so the pieces always equal those of a whole board drawn afresh.
    Before, a new shape redrew and re-sent the whole board: 18% of moves.

    The words drawn (the spaces' and figures' titles, the board's name, the basecamp's
    label) are ``language``'s, so each language of a game has its own cache; a space is
    still drawn once per signature and language (:func:`drawn_spaces`).
    """

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language
        self.parts: dict[str, Any] = {}
        self.cells: list[int] = []
        self.signatures: dict[int, tuple[Any, ...]] = {}
        self.refs: dict[str, frozenset[str]] = {}
        self.shapes: dict[str, str] = {}
        self.in_use: frozenset[str] = frozenset()
        self.state: GameState | None = None  # the position last drawn

    def update(self, view: View) -> dict[str, Any]:
        g = view.state
        cells = drawn_cells(g)
        if not self.parts or cells != self.cells or self.state is None:
            return self._whole(view, cells)
        touched = touched_cells(self.state, g)
        self.state = g
        signatures = space_signatures(g, [cell for cell in cells if cell in touched])
        changed = [cell for cell in cells
                   if cell in signatures and signatures[cell] != self.signatures[cell]]
        if not changed:
            return self.parts
        spaces, shapes = drawn_spaces(view, changed, signatures, self.language)
        self.shapes.update(shapes)
        refs = dict(self.refs)
        refs.update({name: hrefs(text) for name, text in spaces.items()})
        in_use = shape_closure(set().union(*refs.values()), self.shapes)
        self.signatures = {**self.signatures, **signatures}
        self.refs = refs
        label = root_label(len(g.tiles), self.language)
        self.parts = {**self.parts, "root": ROOT_LABEL.sub(label, self.parts["root"], count=1),
                      "spaces": {**self.parts["spaces"], **spaces}}
        if in_use != self.in_use:  # a shape drawn first or last: <defs> gains or loses it
            self.in_use = in_use
            self.parts["defs"] = {key: self.shapes[key] for key in sorted(in_use)}
        return self.parts

    def _whole(self, view: View, cells: list[int]) -> dict[str, Any]:
        g = view.state
        self.parts = board_parts(svg.board(view, language=self.language))
        self.cells = cells
        self.state = g
        self.signatures = space_signatures(g, cells)
        self.refs = {name: hrefs(text) for name, text in self.parts["spaces"].items()}
        self.shapes.update(self.parts["defs"])
        self.in_use = shape_closure(set().union(*self.refs.values()), self.shapes)
        self.parts["defs"] = {key: self.shapes[key] for key in sorted(self.in_use)}
        return self.parts


# ------------------------------------------------------------------ the log, incrementally


class LogLines:
    """A game's log lines, extended as the game goes on and cut back on undo.

    Each :meth:`update` describes only the history entries added since the last one, so
    a long game costs no more per move than a short one.  A mark after every update
    (history length, line count, score events, step number, last action) lets an undo
    cut the lines back to the last mark that is still part of the history.
    """

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language
        self.lines: list[dict[str, Any]] = []
        self.marks: list[tuple[int, int, int, int, Action | None]] = [(0, 0, 0, 0, None)]

    def _valid(self, g: GameState, mark: tuple[int, int, int, int, Action | None]) -> bool:
        hist, _, events, _, last = mark
        if hist > len(g.history) or events > len(g.score_events):
            return False
        return hist == 0 or g.history[hist - 1] == last

    def update(self, session: Session, g: GameState, names: Sequence[str]) -> int:
        """Bring the lines up to ``g``; returns the index of the first line that changed."""
        while len(self.marks) > 1 and not self._valid(g, self.marks[-1]):
            self.marks.pop()
        hist, count, seen, number, _ = self.marks[-1]
        del self.lines[count:]
        if hist == len(g.history) and seen == len(g.score_events):
            return count
        steps = log_steps(g.history[hist:])
        if hist and steps and steps[0].action is None and not steps[0].chance:
            steps = steps[1:]
        actors = step_actors(session, max(number, 1), len(steps) - (hist == 0))
        events = g.score_events
        shown = hist
        for step in steps:
            seat = actors.get(number, 0)
            for action in (step.action, *step.chance):
                if action is None:
                    continue
                self.lines.append({
                    "seat": seat, "kind": "chance" if action.is_chance else "action",
                    "notation": str(action),
                    "text": cached_render(g.describe(action), "log", names, self.language),
                    "step": number or None,
                })
                shown += 1
                while seen < len(events) and events[seen].at < shown:
                    self.lines.append(score_line(events[seen], names, self.language))
                    seen += 1
            number += 1
        while seen < len(events):
            self.lines.append(score_line(events[seen], names, self.language))
            seen += 1
        last = g.history[-1] if g.history else None
        self.marks.append((len(g.history), len(self.lines), seen, number, last))
        return count


def step_actors(session: Session, first: int, new: int) -> dict[int, int]:
    """The seat that played steps ``first`` .. ``first + new - 1`` (by step number; the
    setup, step 0, is shown as seat 0's).  When the stored log ends in ``new`` actions
    (no undo among them) those are the steps, so only they are read."""
    if new <= 0:
        return {}
    tail = session.log[-new:]
    if len(session.log) > new and all(e.kind == "action" for e in tail):
        return {first + i: entry.seat for i, entry in enumerate(tail)}
    return {k: seat for k, seat in enumerate(session.actors(), start=1)}


# ------------------------------------------------------------------ per seat


#: Columns of the legal table sent as shared templates (see :func:`compact_legal`).
TEMPLATED = ("action", "text")


@functools.lru_cache(maxsize=65536)
def _template_of(value: str, pairs: tuple[tuple[str, str], ...]) -> str | None:
    """``value`` with an entry's own field values (``pairs``: name and text, in the order
    they are tried) written as ``{field}`` where they stand alone (not inside a longer
    word or number), or None if that would not read back exactly.  ``"place temple 1 on
    A3, turned 2"`` -> ``"place temple 1 on {cell}, turned {rotation}"``: the same
    template for every cell and rotation."""
    if "{" in value or "}" in value:
        return None
    found = value
    for name, text in pairs:
        if text:
            pattern = rf"(?<![A-Za-z0-9{{]){re.escape(text)}(?![A-Za-z0-9}}])"
            found = re.sub(pattern, "{" + name + "}", found)
    values = dict(pairs)
    return found if re.sub(r"\{([a-z_]+)\}", lambda m: values[m.group(1)], found) == value \
        else None


def fill(template: str, entry: dict[str, Any]) -> str:
    """A template of :func:`_template_of` with the entry's values written in (what clients do)."""
    return re.sub(r"\{([a-z_]+)\}", lambda m: str(entry[m.group(1)]), template)


def compact_legal(legal: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Legal entries per verb as one key list and rows of values: no key is repeated.
    ``{"move": {"keys": ["action", ...], "rows": [["move W A1 A2", ...], ...]}}``; a row
    lacking a key has null there.

    The notation and the text of many offers differ only in their own fields (72 tile
    placements: cell and rotation), so where that saves room they are sent once per verb
    as ``templates`` (``{"text": ["place temple 1 on {cell}, turned {rotation}"]}``)
    and the row holds the template's index; clients write the row's fields into it
    (:func:`expand_legal`).  A column with one value in every row is sent once
    (``same``), a list column made of other fields by their names (``lists``: ``cells``
    of a move is ``["src", "dst"]``).  This took the largest message after a move from 8.9 KB to
    under 4 KB.  The texts are still the catalog's, rendered by the server.

    Rows (and list values inside them) are tuples, JSON arrays all the same: a tuple of
    texts and numbers drops out of the garbage collector's sight after its first
    collection, and the remembered tables (:func:`legal_tables`) were half of the
    objects a server with 100 games in memory had the collector look at."""
    return {verb: _legal_table(entries) for verb, entries in legal.items()}


def _legal_table(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """One verb's entries as a table (:func:`compact_legal`)."""
    first = entries[0]
    known = first.keys()
    if all(entry.keys() == known for entry in entries):  # the usual case: one kind
        keys = [k for k in first if k != "verb"]
    else:  # in the order they first come
        keys = [k for k in dict.fromkeys(k for entry in entries for k in entry) if k != "verb"]
    columns = {k: [tuple(v) if isinstance(v, list) else v for v in (e.get(k) for e in entries)]
               for k in keys}
    return _table(keys, columns, len(entries), first)


def _table(
    keys: list[str], columns: dict[str, list[Any]], count: int, first: dict[str, Any],
) -> dict[str, Any]:
    """The table of ``count`` entries given as ``columns`` (by key, in the entries'
    order; ``first`` is the first entry), worked out column by column: a column with one
    value is found by ``list.count``, a list column and the rows by ``zip``, at C speed
    (row by row in Python it was 40% of a seat part)."""
    fields = sorted((k for k in keys if k not in TEMPLATED),  # longest values first
                    key=lambda k: -len(str(first.get(k, ""))))
    templates = _templated(columns, fields, count)
    lists = {k: names for k in keys if isinstance(columns[k][0], (list, tuple))
             and (names := _list_of_fields(k, columns, fields))}
    same = {k: column[0] for k in keys if k not in lists and count > 1
            and (column := columns[k]).count(column[0]) == len(column)}
    keys = [k for k in keys if k not in lists and k not in same]
    table: dict[str, Any] = {"keys": keys, "rows": list(zip(*(columns[k] for k in keys),
                                                         strict=True))}
    if not keys:  # every column shared or a list: one empty row per entry
        table["rows"] = [()] * count
    for name, part in (("same", same), ("lists", lists), ("templates", templates)):
        if part:
            table[name] = part
    return table


def _templated(
    columns: dict[str, list[Any]], fields: list[str], count: int,
) -> dict[str, list[str]]:
    """The ``templates`` of a table of ``count`` entries: for each column of
    :data:`TEMPLATED` whose texts fit at most half as many templates as there are
    entries, the templates, and the column's texts replaced by their template's index
    (in ``columns``).  An entry's fields are paired with their texts once for both
    columns, and a column is given up as soon as it cannot be shared (one entry alone
    never is)."""
    if count < 2:
        return {}
    pairs = _pair_rows(columns, fields, count)
    templates: dict[str, list[str]] = {}
    for column in TEMPLATED:
        found = _template_index(columns.get(column), pairs)
        if found is not None:
            index, made = found
            templates[column] = list(index)
            columns[column] = [index[t] for t in made]
    return templates


def _pair_rows(
    columns: dict[str, list[Any]], fields: list[str], count: int,
) -> list[tuple[tuple[str, str], ...]]:
    """Each entry's fields that a template may name (strings and numbers, not flags or
    lists), with their values as text, in the order of ``fields``.  Worked out column
    by column: a column of flags or lists is skipped whole, and where every column has
    a text for every entry the rows are zipped at C speed."""
    texts: list[list[tuple[str, str] | None]] = []
    gaps = False
    for name in fields:
        values = columns[name]
        kinds = set(map(type, values))
        if kinds <= NO_TEXT:  # flags, lists: nothing to name
            continue
        if kinds == {str} or kinds == {int}:  # a text for every entry, paired at C speed
            texts.append(list(zip(itertools.repeat(name), map(str, values))))
            continue
        column = [(name, str(v)) if isinstance(v, (str, int)) and not isinstance(v, bool)
                  else None for v in values]
        missing = column.count(None)
        if missing < count:
            texts.append(column)
            gaps = gaps or missing > 0
    if not texts:
        return [()] * count
    rows = zip(*texts, strict=True)
    if gaps:
        return [tuple(pair for pair in row if pair is not None) for row in rows]
    return list(rows)


#: Kinds of field value a template never names.
NO_TEXT = frozenset({bool, list, tuple, dict, float, type(None)})


def _template_index(
    texts: list[Any] | None, pairs: list[tuple[tuple[str, str], ...]],
) -> tuple[dict[str, int], list[str]] | None:
    """The templates of ``texts`` (one per entry, with its ``pairs``) by their index
    and each text's own, or None when a text cannot be a template or more than half as
    many templates as texts would be needed."""
    if texts is None:
        return None
    limit = len(texts) // 2
    index: dict[str, int] = {}
    made: list[str] = []
    for text, own in zip(texts, pairs, strict=True):
        template = _template_of(text, own) if isinstance(text, str) else None
        if template is None:
            return None
        if template not in index:
            if len(index) == limit:
                return None
            index[template] = len(index)
        made.append(template)
    return index, made


#: Legal tables by their offers (see :func:`legal_tables`).
_tables: dict[tuple[tuple[str, int, str], ...], dict[str, Any]] = {}
TABLE_CACHE_SIZE = 8192


def legal_tables(
    g: GameState, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    """``compact_legal(legal_json(g, names, language))``, each verb's table made once
    per list of offers.  A table is a function of its offers' notations (each names one
    action), costs and texts alone, and the same tables come again and again (ending
    the turn, the same moves in another game or turn): over 20 random two-player
    games 80% of the tables and 40% of the offers had been seen before.  Callers must
    not change the tables: they are shared."""
    grouped: dict[str, list[tuple[str, int, str]]] = {}
    facts: dict[str, list[Facts]] = {}
    for action in g.legal_actions():
        known = action_facts(action)
        offer = (known[0], g.cost(action),
                 cached_render(g.describe(action), "action", names, language))
        verb = action.verb
        if verb in grouped:
            grouped[verb].append(offer)
            facts[verb].append(known)
        else:
            grouped[verb], facts[verb] = [offer], [known]
    return {verb: _shared_table(offers, facts[verb]) for verb, offers in grouped.items()}


def _shared_table(offers: list[tuple[str, int, str]], facts: list[Facts]) -> dict[str, Any]:
    key = tuple(offers)
    found = _tables.get(key)
    if found is None:
        if len(_tables) >= TABLE_CACHE_SIZE:
            _tables.clear()
        made = _offer_columns(facts, offers)
        if made is None:
            found = _legal_table([_entry(known[3], cost, text)
                                  for known, (_, cost, text) in zip(facts, offers, strict=True)])
        else:
            found = _table(list(made), made, len(offers), _entry(facts[0][3], *offers[0][1:]))
        _tables[key] = found
    return found


#: The keys a legal entry adds to its action's fields.
ENTRY_KEYS = frozenset({"action", "cost", "cells", "text"})


def _offer_columns(
    facts: list[Facts], offers: list[tuple[str, int, str]],
) -> dict[str, list[Any]] | None:
    """The columns of the offers' entries (:func:`action_entry`), in their keys' order,
    made straight from the actions' facts (no entry is built: an entry per offer cost
    more than the table).  None when the actions' fields differ in their names or
    order, or name a key the entry adds."""
    order = tuple(facts[0][1])
    if not ENTRY_KEYS.isdisjoint(order) or any(tuple(f[1]) != order for f in facts):
        return None
    columns: dict[str, list[Any]] = {"action": [f[0] for f in facts]}
    columns.update(zip(order, map(list, zip(*(f[1].values() for f in facts), strict=True)),
                       strict=True))
    columns.pop("verb", None)
    columns["cost"] = [cost for _, cost, _ in offers]
    columns["cells"] = [f[2] for f in facts]  # tuples, shared with the facts
    columns["text"] = [text for _, _, text in offers]
    return columns


def _list_of_fields(column: str, columns: dict[str, list[Any]], fields: list[str]) -> list[str]:
    """The fields whose values make up ``column`` in every entry (``cells`` of a move
    is ``[src, dst]``), or [] if there are none such."""
    values = columns[column]
    first = values[0]
    if not isinstance(first, (list, tuple)) or not first or not all(
            isinstance(v, str) for v in first):
        return []
    names = [next((f for f in fields if columns[f][0] == item), "") for item in first]
    if "" in names:
        return []
    made = list(zip(*(columns[n] for n in names), strict=True))
    return names if made == [tuple(v) for v in values] else []


def expand_legal(legal: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The legal entries as objects again, as a client reads them (the inverse of
    :func:`compact_legal`; groups that are lists already are kept)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for verb, table in legal.items():
        if isinstance(table, list):
            out[verb] = table
            continue
        templates = table.get("templates") or {}
        entries = []
        for row in table["rows"]:
            entry = {"verb": verb, **_row_fields(table, row)}
            for column, names in (table.get("lists") or {}).items():
                entry[column] = [entry[name] for name in names]
            for column, texts in templates.items():
                entry[column] = fill(texts[entry[column]], entry)
            entries.append({k: list(v) if isinstance(v, tuple) else v
                            for k, v in entry.items() if v is not None})
        out[verb] = entries
    return out


def legal_notations(legal: dict[str, Any]) -> list[str]:
    """The notation of every legal action in a message's ``legal``, in order, without
    filling in the texts (what a client that only plays needs: a load client that
    expanded whole tables spent a fifth of its CPU on the texts)."""
    found: list[str] = []
    for table in legal.values():
        if isinstance(table, list):
            found.extend(entry["action"] for entry in table)
            continue
        template = (table.get("templates") or {}).get("action")
        for row in table["rows"]:
            fields = _row_fields(table, row)
            found.append(fields["action"] if template is None
                         else fill(template[fields["action"]], fields))
    return found


def _row_fields(table: dict[str, Any], row: list[Any]) -> dict[str, Any]:
    """One row of a compact legal table with the table's common values."""
    return {**table.get("same", {}), **dict(zip(table["keys"], row, strict=True))}


def readable(message: dict[str, Any]) -> dict[str, Any]:
    """A state message with its legal entries as objects (tests and scripts read it so)."""
    out = dict(message)
    if isinstance(out.get("legal"), dict):
        out["legal"] = expand_legal(out["legal"])
    return out


def seat_part(
    session: Session, seats: tuple[int, ...], language: str = DEFAULT_LANGUAGE,
    view: View | None = None,
) -> dict[str, Any]:
    """What only the connections of ``seats`` are told: who they are, whether they act,
    and their legal actions (built from a view [HIDDEN-1]: ``view``, the snapshot's
    public one, else the acting seat's; every seat's view is the same redacted game,
    and legal actions are public)."""
    game = session.game
    your_turn = bool(seats) and game.current in seats and not game.is_over
    part: dict[str, Any] = {
        "you": list(seats), "spectator": not seats, "your_turn": your_turn,
        "can_undo": your_turn and game.can_undo(),
    }
    if game.phase is not Phase.OVER:
        legal: dict[str, Any] = {}
        if your_turn:
            g = (view or game.view(game.current)).state
            legal = legal_tables(g, session.names, language)
        part["legal"] = legal
        part["verbs"] = verb_titles(list(legal), language)
    return part


# ------------------------------------------------------------------ the public part


POSITION_SHOWN_ELSEWHERE = (
    "legal", "history", "format", "version", "rules", "players", "phase", "current", "ap",
    "score_events", "display", "scoring", "auction", "drawn",
)


@functools.lru_cache(maxsize=512)
def tile_picture(rules: str, tile_id: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A tile on offer in the auction, drawn once per rule set, tile and language (its
    accessible name is in ``language``)."""
    return svg.tile(tile_id, 0, 34, rules, language=language)


def common_start(texts: list[str]) -> str:
    """The longest text every one of ``texts`` starts with."""
    shortest = min(texts, key=len, default="")
    for i, char in enumerate(shortest):
        if any(t[i] != char for t in texts):
            return shortest[:i]
    return shortest


@functools.lru_cache(maxsize=512)
def tile_rotations(rules: str, tile_id: str) -> dict[str, Any]:
    """The drawn tile in each rotation (for the placement preview), drawn once per tile,
    as the text all six pictures share around the part that turns: ``head + middles[r] +
    tail`` is rotation ``r`` (a third of the six pictures' size).  Callers must not change
    the result: it is shared."""
    spec = rule_set(rules).tile(tile_id)
    groups = [svg.tile_group(spec, r, 50) for r in range(6)]
    head = common_start(groups)
    tail = common_start([g[len(head):][::-1] for g in groups])[::-1]
    return {"head": head, "tail": tail,
            "middles": [g[len(head):len(g) - len(tail)] for g in groups]}


def public_part(
    session: Session, board: BoardCache, language: str = DEFAULT_LANGUAGE,
    view: View | None = None,
) -> dict[str, Any]:
    """Everything every connection is told, from the public view [HIDDEN-1] (``view``,
    else made here; the log is added by :class:`Snapshot`)."""
    view = view or session.game.view(None)
    g = view.state
    rs = g.rules
    position = view.position_json()
    for key in POSITION_SHOWN_ELSEWHERE:
        position.pop(key, None)
    if isinstance(position.get("board"), list):  # by space, so a new tile is one more key
        position["board"] = {entry["at"]: entry for entry in position["board"]}
    data: dict[str, Any] = {
        "game_id": session.game_id,
        "rules": rs.name,
        "players": g.players,
        "seats": [seat_json(p, seat.name, seat.kind, seat.level, language)
                  for p, seat in enumerate(session.record.seats)],
        "phase": g.phase.value,
        "current": g.current,
        "ap": g.ap,
        "rule_set": shared_rule_set_json(rs.name, language),
        "over": g.is_over,
        "winners": g.winners,
        "scores": list(g.scores),
        "player_info": players_json(view),
        "position": position,
        "score_events": [score_json(e) for e in g.score_events],
        "stack_left": len(g.stack),
        "display": [
            {"tile": t, "describe": tile_text(g, t, language),
             "svg": tile_picture(rs.name, t, language)}
            for t in g.display
        ],
        "auction": {
            "order": list(g.bid_order), "passed": list(g.passed), "high_bid": g.high_bid,
            "high_bidder": g.high_bidder,
        },
        "scoring": {
            "queue": list(g.scoring_queue), "final": g.scoring_final, "rounds": g.scoring_rounds,
        },
        "bot_thinking": session.bot_busy,
        "seeded": session.record.seeded,
        "drawn": None,
        "board": board.update(view),
    }
    if g.drawn is not None:
        spec = rs.tile(g.drawn)
        data["drawn"] = {
            "tile": g.drawn, "kind": spec.kind, "describe": tile_text(g, g.drawn, language),
            "rotations": tile_rotations(rs.name, g.drawn),
        }
    return data


# ------------------------------------------------------------------ deltas


def diff(old: Any, new: Any, path: list[Any], ops: list[list[Any]]) -> None:
    """The changes from ``old`` to ``new`` as ``[path, value]`` (set), ``[path]``
    (delete) and ``[path, middle, keep_start, keep_end]`` (splice a long string)
    operations.  Dicts and lists are compared item by item; a list that grew gets its
    new items set one past its end (appended), one that shrank loses its last items
    (deleted from the end)."""
    if old is not new and old != new:
        _diff(old, new, path, ops)


def _diff(old: Any, new: Any, path: list[Any], ops: list[list[Any]]) -> None:
    """:func:`diff` of two values known to differ.  Items are compared where they are
    met (the same object, then ``==`` at C speed) and only those that differ are gone
    into, so an unchanged part costs no call: a move's diffs (the public part and two
    seat parts) went from 130 calls to 27."""
    if isinstance(old, dict) and isinstance(new, dict):
        _diff_dicts(old, new, path, ops)
    elif isinstance(old, list) and isinstance(new, list) and path:
        _diff_lists(old, new, path, ops)
    elif isinstance(old, str) and isinstance(new, str) and len(new) >= SPLICE_FROM:
        ops.append(splice(old, new, path))
    else:
        ops.append([path, new])


def _diff_dicts(
    old: dict[Any, Any], new: dict[Any, Any], path: list[Any], ops: list[list[Any]],
) -> None:
    for key in old:
        if key not in new:
            ops.append([[*path, key]])
    get = old.get
    for key, value in new.items():
        was = get(key, _ABSENT)
        if was is value:
            continue
        if was is _ABSENT:
            ops.append([[*path, key], value])
        elif was != value:
            _diff(was, value, [*path, key], ops)


_ABSENT = object()  # a key a dict lacks (one lookup instead of ``in`` and ``[]``)


def _diff_lists(old: list[Any], new: list[Any], path: list[Any], ops: list[list[Any]]) -> None:
    if _only_removed(old, new, path, ops):
        return
    mine: list[list[Any]] = []
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a is not b and a != b:
            _diff(a, b, [*path, i], mine)
    mine.extend([[*path, i], new[i]] for i in range(len(old), len(new)))
    mine.extend([[*path, i]] for i in range(len(old) - 1, len(new) - 1, -1))
    if len(mine) > 4 and len(orjson.dumps(mine)) > len(orjson.dumps(new)) + 16:
        ops.append([path, new])  # most items changed: the list whole is shorter
    else:
        ops.extend(mine)


#: Strings at least this long are sent as a splice when that is shorter (a board space
#: whose figures changed keeps its tile's picture: 1.4 KB -> about 0.6 KB).
SPLICE_FROM = 200


def splice(old: str, new: str, path: list[Any]) -> list[Any]:
    """``[path, middle, a, b]`` with ``new == old[:a] + middle + old[len(old) - b:]``, or
    ``[path, new]`` when that is not shorter.  Only for text of the Basic Multilingual
    Plane, where a JavaScript string index (UTF-16 units) is a Python one."""
    if not (_bmp(old) and _bmp(new)):
        return [path, new]
    a, b = _common_ends(old, new)
    middle = new[a:len(new) - b]
    if len(middle) + 16 >= len(new):
        return [path, new]
    return [path, middle, a, b]


def _bmp(text: str) -> bool:
    """Whether ``text`` is all of the Basic Multilingual Plane: in UTF-16 only the
    characters beyond it take four bytes.  Encoding runs at C speed (1.5 µs for a board
    space of 1.4 KB); ``max(text)`` made a string of every character (25 µs for a space
    with one non-ASCII sign in it)."""
    return text.isascii() or len(text.encode("utf-16-le")) == 2 * len(text)


def _common_ends(old: str, new: str) -> tuple[int, int]:
    """The length of the common start of ``old`` and ``new``, and of the common end of
    what follows it (texts of the Basic Multilingual Plane).  Both are encoded once (one
    byte a character if ASCII, else two) and read as two big numbers: their XOR's
    highest bit is the first byte that differs, read big-endian from the start or
    little-endian from the end.  At C speed without a slice per step (the bisection on
    slices it replaces was 60% of the board's diff)."""
    if old.isascii() and new.isascii():
        x, y, width = old.encode("ascii"), new.encode("ascii"), 1
    else:
        x, y, width = old.encode("utf-16-le"), new.encode("utf-16-le"), 2
    start = _same_bytes(x, y, "big") // width
    x, y = x[start * width:], y[start * width:]
    return start, _same_bytes(x, y, "little") // width


def _same_bytes(x: bytes, y: bytes, order: Literal["big", "little"]) -> int:
    """How many bytes ``x`` and ``y`` share at their start (``order="big"``) or their end
    (``"little"``)."""
    n = min(len(x), len(y))
    if order == "big":
        x, y = x[:n], y[:n]
    else:
        x, y = x[len(x) - n:], y[len(y) - n:]
    bits = (int.from_bytes(x, order) ^ int.from_bytes(y, order)).bit_length()
    return n - (bits + 7) // 8


def _only_removed(old: list[Any], new: list[Any], path: list[Any], ops: list[list[Any]]) -> bool:
    """When ``new`` is ``old`` with one run of items taken out (a tile leaves the unseen
    tiles, a figure leaves a list), delete just those (from the last), rather than set
    every item after them; True if that was the case."""
    removed = len(old) - len(new)
    if removed <= 0:
        return False
    start = 0
    while start < len(new) and old[start] == new[start]:
        start += 1
    if old[start + removed:] != new[start:]:
        return False
    ops.extend([[*path, i]] for i in range(start + removed - 1, start - 1, -1))
    return True


PROTOCOL = 4
_revisions = itertools.count(1)


class Snapshot:
    """One state of a game as sent to clients in one language: the public part and the
    log (shared by every connection of that language), the seat parts (built once per
    set of seats), and the delta from the previous snapshot of that language."""

    def __init__(
        self, session: Session, log: LogLines, board: BoardCache, previous: Snapshot | None,
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.session = session
        self.language = language
        self.key = (session.state, session.bot_busy)
        self.rev = next(_revisions)
        self.previous_rev = previous.rev if previous is not None else -1
        #: The public view, shared by the public part and the seat parts (a view is a
        #: redacted copy of the game: one instead of two per change).
        self.view = session.game.view(None)
        self.public = public_part(session, board, language, self.view)
        first = log.update(session, session.game, session.names)
        self.log = list(log.lines)
        self.seats: dict[tuple[int, ...], dict[str, Any]] = {}
        self.base = previous.key[0] if previous is not None else None
        self.ops: list[list[Any]] = []
        self.log_from = first
        self.log_before = 0
        if previous is not None:
            diff(previous.public, self.public, [], self.ops)
            self.log_from = min(first, len(previous.log))
            self.log_before = len(previous.log)

    def seat(self, seats: tuple[int, ...]) -> dict[str, Any]:
        part = self.seats.get(seats)
        if part is None:
            part = self.seats[seats] = seat_part(self.session, seats, self.language, self.view)
        return part

    def full(self, seats: tuple[int, ...]) -> dict[str, Any]:
        """The whole state for a (re)connecting client."""
        return {"type": "state", "v": PROTOCOL, "state": self.key[0], "lang": self.language,
                **self.public, "log": self.log, **self.seat(seats)}

    def delta(self, seats: tuple[int, ...], had: dict[str, Any] | None) -> dict[str, Any]:
        """What changed since the previous snapshot, for a client that holds it and the
        seat part ``had``."""
        ops = list(self.ops)
        diff(had or {}, self.seat(seats), [], ops)
        msg: dict[str, Any] = {"type": "delta", "v": PROTOCOL, "base": self.base,
                               "state": self.key[0]}
        if ops:
            msg["set"] = ops
        if self.log_from < max(len(self.log), self.log_before):
            msg["log"] = {"from": self.log_from, "lines": self.log[self.log_from:]}
        return msg


def build_message(
    session: Session, seats: tuple[int, ...] | None, language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    """The whole state message for ``seats`` (None or () for a spectator), built afresh
    from the session's views [HIDDEN-1]."""
    snap = Snapshot(session, LogLines(language), BoardCache(language), None, language)
    return snap.full(tuple(seats or ()))


class Publisher:
    """The latest snapshot of every game in memory, per language (built under the
    session's lock).

    A language has its own public part, log and board (the board's titles and names are
    words too) and is built only while somebody asks for it; the board's spaces are
    drawn once per look and language for every game (:func:`drawn_spaces`).
    """

    def __init__(self) -> None:
        self._latest: dict[tuple[str, str], tuple[Session, LogLines, Snapshot]] = {}
        self._boards: dict[tuple[str, str], tuple[Session, BoardCache]] = {}

    def snapshot(self, session: Session, language: str = DEFAULT_LANGUAGE) -> Snapshot:
        with session.lock:
            found = self._latest.get((session.game_id, language))
            latest: Snapshot | None = None
            if found is not None and found[0] is session:
                _, log, latest = found
                if latest.key == (session.state, session.bot_busy):
                    return latest
            else:
                log = LogLines(language)
            key = (session.game_id, language)
            board = self._boards.get(key)
            if board is None or board[0] is not session:
                board = self._boards[key] = (session, BoardCache(language))
            snap = Snapshot(session, log, board[1], latest, language)
            self._latest[(session.game_id, language)] = (session, log, snap)
            return snap

    def follows(self, session: Session, language: str = DEFAULT_LANGUAGE) -> bool:
        """Whether the next snapshot of ``session`` in ``language`` follows one already
        built (and so costs only what changed: no whole board to draw)."""
        found = self._latest.get((session.game_id, language))
        return found is not None and found[0] is session

    def languages(self, game_id: str) -> set[str]:
        """The languages a snapshot of ``game_id`` is kept in."""
        return {language for game, language in self._latest if game == game_id}

    def forget(self, game_id: str) -> None:
        for key in [k for k in self._latest if k[0] == game_id]:
            self._latest.pop(key, None)
        for board in [k for k in self._boards if k[0] == game_id]:
            self._boards.pop(board, None)
