"""What a candidate is worth: the change it makes to the evaluation, worked out on trials.

The evaluation (:mod:`tikal.bots.evaluate`) is a sum of per-player terms and of terms of
single temple and treasure tiles, so a candidate that touches two tiles changes only
two cell terms; but a treasure tile's terms depend on what each player holds, so a take
or a swap changes them all (:func:`take_reach`, :func:`~tikal.bots.evaluate.token_tiles`).
A search :class:`Node` caches each cell's terms and what each trial changes ("one
figure more here", "one fewer there"), since a node walks every figure to every target,
and hands those of the cells its candidate left alone to its child
(:func:`~tikal.bots.planner.engine._inherit`).
Trials go through the rules core's ``with_*`` methods, which put the position back
exactly.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final

from ...actions import Action, Dig, TakeTreasure
from ...errors import IllegalAction
from ...state import GameState
from ..evaluate import Evaluator, tokens_reached
from .paths import Route, route_actions

#: Cell terms per player, or None for a tile that is not scored.
Terms = list[float] | None


class Step(IntEnum):
    """A trial figure: one more on a cell (the walk's end) or one fewer (its start); the
    value is the change of the cell's figures (an int, so cache keys hash fast)."""

    ARRIVE = 1
    LEAVE = -1


class AfterWalk(StrEnum):
    """What a walk may end with on its destination."""

    TAKE = "take"
    DIG = "dig"


#: The members as module constants: an enum's attribute costs a slow lookup in CPython 3.11,
#: and the search asks for them twice per walk it scores.
ARRIVE: Final = Step.ARRIVE
LEAVE: Final = Step.LEAVE
TAKE: Final = AfterWalk.TAKE
DIG: Final = AfterWalk.DIG


class Node:
    """A state of the search: the game after some actions of the turn, its values per
    player, its score and the caches of its trials."""

    __slots__ = ("actions", "after", "cells", "game", "key", "players", "reach", "score", "steps",
                 "values")

    def __init__(self, game: GameState, values: list[float], actions: list[Action], score: float):
        self.game = game
        self.values = values
        self.actions = actions
        self.score = score
        self.cells: dict[int, Terms] = {}
        self.players: list[float] | None = None  # Evaluator.player_terms, when needed
        self.reach: int | None = None  # Evaluator.tokens_in_reach of the player, when needed
        self.after: dict[tuple[int, bool, AfterWalk], Terms] = {}
        self.steps: dict[tuple[int, bool, Step], Terms] = {}
        self.key: tuple[object, ...] = ()


class Candidate:
    """A candidate macro-action: its value change per player and how to play it (a walk's
    steps, if any, then ``actions``)."""

    __slots__ = ("_actions", "delta", "full", "route", "score")

    def __init__(
        self,
        delta: list[float],
        actions: tuple[Action, ...],
        full: bool = False,
        route: Route | None = None,
    ):
        self.delta = delta
        self._actions = actions
        self.full = full  # the evaluation cache cannot be kept (many cells changed)
        self.route = route
        self.score = 0.0

    @property
    def actions(self) -> tuple[Action, ...]:
        if self.route is None:
            return self._actions
        return (*route_actions(self.route), *self._actions)


def cell_terms(node: Node, ev: Evaluator, cell: int) -> Terms:
    """The node's terms of ``cell``, worked out once."""
    cells = node.cells
    if cell in cells:
        return cells[cell]
    terms = ev.cell_terms(node.game, cell)
    cells[cell] = terms
    return terms


def walk_delta(left: Terms, came: Terms, players: int) -> list[float]:
    """A walk's change of the cell terms from its two steps' changes (a new list: the
    caller may add to it)."""
    if left is None:
        return [0.0 + b for b in came] if came is not None else [0.0] * players
    if came is None:
        return [0.0 + a for a in left]
    return [0.0 + a + b for a, b in zip(left, came, strict=True)]


def step_delta(
    node: Node, ev: Evaluator, p: int, cell: int, leader: bool, step: Step
) -> Terms:
    """How ``cell``'s terms change with one own figure more or fewer; None where nothing
    changes (not a scored cell). Cached per node."""
    key = (cell, leader, step)
    steps = node.steps
    if key in steps:
        return steps[key]
    found: Terms = None
    old = cell_terms(node, ev, cell)
    if old is not None:
        new = trial_terms(node, ev, p, cell, leader, step)
        if new is not None:
            found = [b - a for a, b in zip(old, new, strict=True)]
    steps[key] = found
    return found


def trial_terms(
    node: Node, ev: Evaluator, p: int, cell: int, leader: bool, step: Step
) -> Terms:
    """Cell terms with one own figure more or fewer on ``cell`` (not cached: the step
    they give is)."""
    return node.game.with_figure(p, cell, leader, step, ev.cell_terms)


def dig_delta(node: Node, ev: Evaluator, cell: int) -> list[float]:
    game = node.game
    n = game.players
    old = cell_terms(node, ev, cell)
    new = game.with_level_raised(cell, ev.cell_terms)
    if old is None or new is None:
        return [0.0] * n
    return [new[q] - old[q] for q in range(n)]


def take_delta(node: Node, ev: Evaluator, p: int, cell: int) -> list[float]:
    delta = taken_delta(node.game, ev, p, cell, cell_terms(node, ev, cell))
    delta[p] += take_reach(node, ev, p, cell)
    return delta


def taken_delta(
    game: GameState, ev: Evaluator, p: int, cell: int, before: Terms
) -> list[float]:
    """How the evaluation changes when ``p`` takes the top token of ``cell``, but for
    what the take does to the tokens left in ``p``'s reach (:func:`take_reach`).

    ``before`` is the cell's terms now; the token's own worth for ``p`` is its
    expectation over the hidden types [HIDDEN-1].
    """
    after = game.with_token_taken(cell, ev.cell_terms)
    delta = [0.0] * game.players
    if before is not None:
        for q in range(game.players):
            delta[q] = (after[q] if after is not None else 0.0) - before[q]
    delta[p] += ev.token_gain(game.treasures[p], p)
    return delta


def take_reach(node: Node, ev: Evaluator, p: int, cell: int, src: int | None = None) -> float:
    """What taking a token on ``cell`` does to the worth to ``p`` of the tokens left in
    ``p``'s reach (each changes by :meth:`Evaluator.take_reach_gain`), after a walk from
    ``src`` when given: their count then is the node's count with ``src`` and ``cell``
    counted again.  Counted, not looked up in the cell caches, since it depends on
    every tile with tokens."""
    gain = ev.take_reach_gain(node.game.treasures[p], p)
    if not gain:
        return 0.0
    game = node.game
    if node.reach is None:
        node.reach = ev.tokens_in_reach(game, p)
    count = node.reach
    tokens = game.tokens
    if src is not None and tokens.get(src):
        f, n = game.figures_on(p, src), len(tokens[src])
        count += tokens_reached(f - 1, n) - tokens_reached(f, n)
    f, n = game.figures_on(p, cell), len(tokens[cell])
    arrived = f + (src is not None)
    count += tokens_reached(arrived, n - 1) - tokens_reached(f, n)
    return count * gain


def after_walk(
    node: Node, ev: Evaluator, p: int, dst: int, leader: bool, then: AfterWalk
) -> Terms:
    """The value of digging / taking on ``dst`` right after a figure walked there.

    It does not depend on where the figure came from: cached per node.
    """
    key = (dst, leader, then)
    if key in node.after:
        return node.after[key]
    result = node.game.with_figure(
        p, dst, leader, 1, lambda g, cell: _after_arrival(g, ev, p, cell, then))
    node.after[key] = result
    return result


def _after_arrival(
    game: GameState, ev: Evaluator, p: int, dst: int, then: AfterWalk
) -> Terms:
    """Digging / taking on ``dst`` with the walked figure there; None if the rules refuse
    it (``p`` is the player to act, whom ``game.check`` asks about; the AP were counted
    by the caller)."""
    n = game.players
    if then is TAKE:
        if game.check(TakeTreasure(dst), afford=False) is not None:
            return None
        return taken_delta(game, ev, p, dst, ev.cell_terms(game, dst))
    if game.check(Dig(dst), afford=False) is not None:
        return None
    if game.figures_on(p, dst) - 1 >= game.dug.get(dst, 0) + 1:
        return None  # the dig does not need this figure: plain dig is a candidate
    before = ev.cell_terms(game, dst)
    after = game.with_level_raised(dst, ev.cell_terms)
    if before is None or after is None:
        return None
    return [after[q] - before[q] for q in range(n)]


def applied_delta(
    node: Node, ev: Evaluator, action: Action, cells: tuple[int, ...]
) -> list[float] | None:
    """Play ``action`` on a copy; the change of the player terms and of ``cells``."""
    if node.players is None:
        node.players = ev.player_terms(node.game)
    game = node.game.clone()
    try:
        game.apply(action)
    except IllegalAction:
        return None
    after = ev.player_terms(game)
    delta = [a - b for a, b in zip(after, node.players, strict=True)]
    for cell in cells:
        old = cell_terms(node, ev, cell)
        new = ev.cell_terms(game, cell)
        if old is not None and new is not None:
            for q in range(len(delta)):
                delta[q] += new[q] - old[q]
    return delta
