"""Whole-turn planning: a beam search over macro-actions with an incremental evaluation.

A Tikal turn is a chain of atomic actions worth up to 10 AP [TURN-1].  The
planner searches over *macro-actions* instead of single steps: "walk this figure
along the cheapest path to that temple" (several :class:`Move` /
:class:`SecretPath` actions), "walk there and take a treasure", "walk there and
dig", "walk there and build a camp", plus the single actions of the engine
(put, dig, take, camp, guard, swap).  Each candidate is scored by the change it
makes to the evaluation (:mod:`tikal.bots.evaluate`), computed on the few tiles
it touches; only the best few are then really played on copies of the game,
through :meth:`GameState.apply`, so every plan the planner returns is legal.

Tile placement [TILE-*] is ranked by a cheap reach heuristic, and the most
promising placements are checked with a fast (beam 1) plan of the turn that
follows.  Auction bids [AUC-3] use a small heuristic.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Final, TypeVar, cast

from .. import hexes
from ..actions import (
    END_TURN,
    PASS,
    Action,
    Bid,
    BuildCamp,
    Dig,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    SecretPath,
    Swap,
    TakeTreasure,
)
from ..components import JUNGLE, TEMPLE, TREASURE, VOLCANO, TileSpec
from ..errors import IllegalAction
from ..state import OPPOSITE, STEP, Exit, GameState, Phase, add_worker, remove_worker
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights

AP_PHASES: Final = (Phase.TURN, Phase.SCORING)
A = TypeVar("A", bound=Action)
_FAR: Final = 99


@dataclass(slots=True)
class Plan:
    """A sequence of actions for the player to act, and the planner's score for it."""

    actions: list[Action]
    score: float


class _Node:
    __slots__ = (
        "actions", "after", "cells", "game", "key", "players", "score", "steps", "trials",
        "values",
    )

    def __init__(self, game: GameState, values: list[float], actions: list[Action], score: float):
        self.game = game
        self.values = values
        self.actions = actions
        self.score = score
        self.cells: dict[int, list[float] | None] = {}
        self.players: list[float] | None = None  # Evaluator.player_terms, when needed
        self.trials: dict[tuple[int, bool, str], list[float] | None] = {}
        self.after: dict[tuple[int, bool, str], list[float] | None] = {}
        self.steps: dict[tuple[int, bool, str], list[float] | None] = {}
        self.key: tuple[object, ...] = ()


class _Cand:
    """A candidate macro-action: its value change per player and how to play it.

    A walk is kept as ``route`` (predecessor map, source, destination, leader?) and
    only turned into atomic actions when the candidate is played.
    """

    __slots__ = ("_actions", "delta", "full", "route", "score")

    def __init__(
        self,
        delta: list[float],
        actions: tuple[Action, ...],
        full: bool = False,
        route: tuple[dict[int, object], int, int, bool] | None = None,
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
        return (*_path_actions(*self.route), *self._actions)


_NOWHERE: Final = -9  # a leader position that is no cell (for trial evaluations)


def _add_figure(game: GameState, p: int, cell: int, leader: bool) -> int:
    """Put one more own figure on ``cell`` (trial only); returns what to restore."""
    if leader:
        saved = game.leader[p]
        game.leader[p] = cell
        return saved
    add_worker(game.workers[p], cell)
    return 0


def _remove_added(game: GameState, p: int, cell: int, leader: bool, saved: int) -> None:
    if leader:
        game.leader[p] = saved
        return
    remove_worker(game.workers[p], cell)


def _taken_delta(
    game: GameState, ev: Evaluator, p: int, cell: int, before: list[float] | None
) -> list[float]:
    """How the evaluation changes when ``p`` takes the top token of ``cell``.

    ``before`` is the cell's terms now; the token's own worth for ``p`` is its
    expectation over the hidden types [HIDDEN-1].
    """
    stack = game.tokens[cell]
    game.tokens[cell] = stack[:-1]
    after = ev.cell_terms(game, cell)
    game.tokens[cell] = stack
    delta = [0.0] * game.players
    if before is not None:
        for q in range(game.players):
            delta[q] = (after[q] if after is not None else 0.0) - before[q]
    delta[p] += ev.token_gain(game.treasures[p], p)
    return delta


def state_key(game: GameState, p: int) -> tuple[object, ...]:
    """Identifies the states reachable within one turn (for de-duplication)."""
    return (
        game.ap,
        frozenset(game.workers[p].items()),
        game.leader[p],
        game.supply[p],
        sum(game.levels.values()),
        tuple(sorted(game.camps.items())),
        len(game.guards),
        game.treasures[p],
        sum(len(t) for t in game.tokens.values()),
    )


class TurnPlanner:
    """Plans whole turns for the player to act.

    ``beam``: states kept per depth of the search (1 = plain greedy);
    ``placements``: tile placements checked with a fast plan.
    """

    def __init__(
        self,
        weights: Weights = DEFAULT_WEIGHTS,
        beam: int = 4,
        placements: int = 8,
        slack: float = 0.3,
    ) -> None:
        self.weights = weights
        self.beam = beam
        self.placements = placements
        self.slack = slack
        self._dist: dict[tuple[int, tuple[int, ...]], tuple[dict[int, int], dict[int, object]]] = {}

    # ------------------------------------------------------------ entry points

    def plan(self, game: GameState, k: int = 1, beam: int | None = None) -> list[Plan]:
        """The best ``k`` distinct plans for ``game.current`` (best first), from any phase.

        The plans end with ``end`` when they reach the end of the AP phase; a plan
        for the auction is a single bid or pass.
        """
        phase = game.phase
        beam = self.beam if beam is None else beam
        if phase in AP_PHASES:
            return self.ap_plans(game, Evaluator(game, self.weights), k, beam)
        if phase is Phase.TILE:
            return self._tile_plans(game, k, beam)
        if phase is Phase.PICK:
            return self._pick_plans(game, k, beam)
        if phase is Phase.AUCTION:
            return [Plan([self.bid(game)], 0.0)]
        return []

    def fast_turn(self, game: GameState) -> None:
        """Play the rest of the current player's turn on ``game`` with the cheapest policy."""
        p = game.current
        if game.phase is Phase.AUCTION:
            game.apply(self.bid(game))
            return
        if game.phase is Phase.PICK:
            picks = _offered(game, PickTile)
            best = max(picks, key=lambda a: self._pick_heuristic(game, a))
            game.apply(best)
        if game.phase is Phase.TILE:
            game.apply(self.rank_placements(game)[0])
        if game.phase in AP_PHASES and game.current == p:
            plan = self.ap_plans(game, Evaluator(game, self.weights), 1, 1)[0]
            for action in plan.actions:
                game.apply(action)

    # ------------------------------------------------------------ AP phase

    def ap_plans(self, game: GameState, ev: Evaluator, k: int, beam: int) -> list[Plan]:
        p = game.current
        self._dist = {}
        root_game = game.clone()
        root_game.undo_enabled = False
        values = ev.values(root_game)
        root = _Node(root_game, values, [], ev.objective(values, p))
        root.key = state_key(root_game, p)
        seen: dict[tuple[object, ...], _Node] = {root.key: root}
        frontier = [root]
        while frontier:
            children: list[tuple[float, int, _Node, _Cand]] = []
            for node in frontier:
                for cand in self._candidates(node, p, ev):
                    children.append((cand.score, len(children), node, cand))
            if not children:
                break
            children.sort(key=lambda c: (-c[0], c[1]))
            kept: list[_Node] = []
            for score, _, node, cand in children:
                if len(kept) >= beam:
                    break
                if score < node.score - self.slack:
                    continue
                child = self._materialize(node, cand, p, score)
                if child is None or child.key in seen:
                    continue
                seen[child.key] = child
                kept.append(child)
            frontier = kept
        nodes = sorted(seen.values(), key=lambda nd: -nd.score)
        plans = []
        for node in nodes[:k]:
            plans.append(Plan([*node.actions, END_TURN], node.score))
        return plans

    def _materialize(self, node: _Node, cand: _Cand, p: int, score: float) -> _Node | None:
        game = node.game.clone()
        actions = cand.actions
        try:
            for action in actions:
                game.apply(action)
        except IllegalAction:
            return None
        values = [v + d for v, d in zip(node.values, cand.delta, strict=True)]
        child = _Node(game, values, [*node.actions, *actions], score)
        if not cand.full:
            cells = dict(node.cells)
            for action in actions:
                for cell in action.cells:
                    cells.pop(cell, None)
            child.cells = cells
        child.key = state_key(game, p)
        return child

    def _cell(self, node: _Node, ev: Evaluator, cell: int) -> list[float] | None:
        cells = node.cells
        if cell in cells:
            return cells[cell]
        terms = ev.cell_terms(node.game, cell)
        cells[cell] = terms
        return terms

    def _distances(
        self, game: GameState, p: int, src: int, ends: tuple[int, ...]
    ) -> tuple[dict[int, int], dict[int, object]]:
        key = (src, ends)
        found = self._dist.get(key)
        if found is None:
            found = shortest_paths(game, src, ends, game.rules.costs.get("path", 1))
            self._dist[key] = found
        return found

    def _candidates(self, node: _Node, p: int, ev: Evaluator) -> list[_Cand]:
        game = node.game
        ap = game.ap
        rules = game.rules
        costs = rules.costs
        n = game.players
        out: list[_Cand] = []
        if ap <= 0:
            return out
        fut = min(ev.future[p], 2) / 2
        w = ev.weights
        # single actions of the engine (moves are covered by the macros below)
        for action in game.legal_actions():
            delta: list[float] | None
            verb = action.verb
            if verb == PutFigure.verb:
                delta = [0.0] * n
                leader = cast(PutFigure, action).leader
                delta[p] = fut * (w.leader_on_board if leader else w.worker_on_board)
                out.append(_Cand(delta, (action,)))
            elif verb == Dig.verb:
                delta = self._dig_delta(node, ev, action.cells[0])
                out.append(_Cand(delta, (action,)))
            elif verb == TakeTreasure.verb:
                delta = self._take_delta(node, ev, p, action.cells[0])
                out.append(_Cand(delta, (action,), full=True))
            elif verb == BuildCamp.verb:
                delta = [0.0] * n
                delta[p] = fut * w.camp
                out.append(_Cand(delta, (action,)))
            elif verb in (PlaceGuard.verb, Swap.verb):
                delta = self._applied_delta(node, ev, action, action.cells)
                if delta is not None:
                    out.append(_Cand(delta, (action,), full=True))
        # macro moves
        ends: tuple[int, ...] = ()
        own_camps = tuple(sorted(c for c, o in game.camps.items() if o == p))
        if own_camps and "path" in rules.actions:
            ends = (rules.basecamp, *own_camps)
        targets = [c for c in game.levels if c not in game.guards]
        treasure_cells = [c for c, t in game.tokens.items() if t]
        targets.extend(treasure_cells)
        camp_sites: list[int] = []
        camp_cost = costs.get("camp", _FAR)
        if (
            "camp" in rules.actions
            and len(own_camps) < rules.camps_max
            and ap > camp_cost
            and game.options.get("camp_needs_own_figure")
        ):
            for c, tile in game.tiles.items():
                kind = tile.spec.kind
                if c in game.camps or not (
                    kind == JUNGLE or (kind == TREASURE and not game.tokens.get(c))
                ):
                    continue
                camp_sites.append(c)
        dig_cost = costs.get("dig", _FAR) if "dig" in rules.actions else _FAR
        take_cost = costs.get("take", _FAR)
        sources: list[tuple[int, bool]] = [(c, False) for c in game.workers[p]]
        if game.leader[p] >= 0:
            sources.append((game.leader[p], True))
        for src, leader in sources:
            dist, pred = self._distances(game, p, src, ends)
            for dst in targets:
                d = dist.get(dst)
                if d is None or d == 0 or d > ap:
                    continue
                delta = self._move_delta(node, ev, p, src, dst, leader)
                route = (pred, src, dst, leader)
                out.append(_Cand(delta, (), route=route))
                if d + take_cost <= ap and dst in game.tokens:
                    extra = self._after_move(node, ev, p, dst, leader, "take")
                    if extra is not None:
                        both = [a + b for a, b in zip(delta, extra, strict=True)]
                        out.append(_Cand(both, (TakeTreasure(dst),), full=True, route=route))
                elif d + dig_cost <= ap and dst in game.levels:
                    extra = self._after_move(node, ev, p, dst, leader, "dig")
                    if extra is not None:
                        both = [a + b for a, b in zip(delta, extra, strict=True)]
                        out.append(_Cand(both, (Dig(dst),), route=route))
            for dst in camp_sites:
                d = dist.get(dst)
                if d is None or d == 0 or d + camp_cost > ap or game.figures_on(p, dst):
                    continue
                delta = self._move_delta(node, ev, p, src, dst, leader)
                delta[p] += fut * w.camp
                out.append(_Cand(delta, (BuildCamp(dst),), route=(pred, src, dst, leader)))
        if n == 2:  # the objective is own value minus the other's: no list per candidate
            o = 1 - p
            mine, other = node.values[p], node.values[o]
            for cand in out:
                delta = cand.delta
                cand.score = (mine + delta[p]) - (other + delta[o])
            return out
        # Evaluator.objective with the candidate's values, written out (once per candidate)
        base = node.values
        rest = [q for q in range(n) if q != p]
        wmax = w.opponents_max
        for cand in out:
            delta = cand.delta
            others = [base[q] + delta[q] for q in rest]
            cand.score = ((base[p] + delta[p]) - wmax * max(others)
                          - (1 - wmax) * sum(others) / len(others))
        return out

    # ------------------------------------------------------------ trial deltas

    def _move_delta(
        self, node: _Node, ev: Evaluator, p: int, src: int, dst: int, leader: bool
    ) -> list[float]:
        """The change of the cell terms when ``p`` walks a figure from ``src`` to ``dst``:
        what leaving ``src`` changes plus what arriving at ``dst`` changes, each worked out
        once per node (a node walks every figure to every target)."""
        left = self._step_delta(node, ev, p, src, leader, "minus")
        came = self._step_delta(node, ev, p, dst, leader, "plus")
        if left is None:
            return [0.0 + b for b in came] if came is not None else [0.0] * node.game.players
        if came is None:
            return [0.0 + a for a in left]
        return [0.0 + a + b for a, b in zip(left, came, strict=True)]

    def _step_delta(
        self, node: _Node, ev: Evaluator, p: int, cell: int, leader: bool, what: str
    ) -> list[float] | None:
        """How ``cell``'s terms change with one own figure more ("plus") or less
        ("minus"); None where nothing changes (not a scored cell). Cached per node."""
        key = (cell, leader, what)
        steps = node.steps
        if key in steps:
            return steps[key]
        found: list[float] | None = None
        old = self._cell(node, ev, cell)
        if old is not None:
            new = self._trial(node, ev, p, cell, leader, what)
            if new is not None:
                found = [b - a for a, b in zip(old, new, strict=True)]
        steps[key] = found
        return found

    def _trial(
        self, node: _Node, ev: Evaluator, p: int, cell: int, leader: bool, what: str
    ) -> list[float] | None:
        """Cell terms with one own figure more ("plus") or less ("minus") on ``cell``.

        They do not depend on where the figure comes from or goes to, so they are
        cached per node.
        """
        key = (cell, leader, what)
        trials = node.trials
        if key in trials:
            return trials[key]
        game = node.game
        if what == "plus":
            saved = _add_figure(game, p, cell, leader)
            terms = ev.cell_terms(game, cell)
            _remove_added(game, p, cell, leader, saved)
        else:
            if leader:
                saved = game.leader[p]
                game.leader[p] = _NOWHERE
                terms = ev.cell_terms(game, cell)
                game.leader[p] = saved
            else:
                w = game.workers[p]
                count = w[cell]
                w[cell] = count - 1
                terms = ev.cell_terms(game, cell)
                w[cell] = count
        trials[key] = terms
        return terms

    def _dig_delta(self, node: _Node, ev: Evaluator, cell: int) -> list[float]:
        game = node.game
        n = game.players
        old = self._cell(node, ev, cell)
        game.levels[cell] += 1
        new = ev.cell_terms(game, cell)
        game.levels[cell] -= 1
        if old is None or new is None:
            return [0.0] * n
        return [new[q] - old[q] for q in range(n)]

    def _take_delta(self, node: _Node, ev: Evaluator, p: int, cell: int) -> list[float]:
        return _taken_delta(node.game, ev, p, cell, self._cell(node, ev, cell))

    def _after_move(
        self, node: _Node, ev: Evaluator, p: int, dst: int, leader: bool, verb: str
    ) -> list[float] | None:
        """The value of digging / taking on ``dst`` right after a figure walked there.

        It does not depend on where the figure came from: cached per node.
        """
        key = (dst, leader, verb)
        if key in node.after:
            return node.after[key]
        game = node.game
        saved = _add_figure(game, p, dst, leader)
        try:
            result = self._after_added(game, ev, p, dst, verb)
        finally:
            _remove_added(game, p, dst, leader, saved)
        node.after[key] = result
        return result

    def _after_added(
        self, game: GameState, ev: Evaluator, p: int, dst: int, verb: str
    ) -> list[float] | None:
        """Digging / taking on ``dst`` with the walked figure there; None if the rules refuse
        it (``p`` is the player to act, whom ``game.check`` asks about; the AP were counted
        by the caller)."""
        n = game.players
        if verb == "take":
            if game.check(TakeTreasure(dst), afford=False) is not None:
                return None
            return _taken_delta(game, ev, p, dst, ev.cell_terms(game, dst))
        if game.check(Dig(dst), afford=False) is not None:
            return None
        if game.figures_on(p, dst) - 1 >= game.dug.get(dst, 0) + 1:
            return None  # the dig does not need this figure: plain dig is a candidate
        before = ev.cell_terms(game, dst)
        game.levels[dst] += 1
        after = ev.cell_terms(game, dst)
        game.levels[dst] -= 1
        if before is None or after is None:
            return None
        return [after[q] - before[q] for q in range(n)]

    def _applied_delta(
        self, node: _Node, ev: Evaluator, action: Action, cells: tuple[int, ...]
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
            old = self._cell(node, ev, cell)
            new = ev.cell_terms(game, cell)
            if old is not None and new is not None:
                for q in range(len(delta)):
                    delta[q] += new[q] - old[q]
        return delta

    # ------------------------------------------------------------ tiles

    def rank_placements(self, game: GameState) -> list[PlaceTile]:
        """Legal placements of the drawn tile, most promising first (cheap heuristic)."""
        spec = game.tile_to_place()
        assert spec is not None
        legal = _offered(game, PlaceTile)
        fields = reach_fields(game)
        p = game.current
        scored = [
            (placement_score(game, spec, a.cell, a.rotation, fields, p), i, a)
            for i, a in enumerate(legal)
        ]
        scored.sort(key=lambda s: (-s[0], s[1]))
        return [a for _, _, a in scored]

    def _tile_plans(self, game: GameState, k: int, beam: int) -> list[Plan]:
        ranked = self.rank_placements(game)[: max(1, self.placements)]
        trials: list[tuple[float, int, PlaceTile, GameState]] = []
        for i, placement in enumerate(ranked):
            trial = game.clone()
            trial.undo_enabled = False
            trial.apply(placement)
            if trial.phase in AP_PHASES and trial.current == game.current:
                score = self.ap_plans(trial, Evaluator(trial, self.weights), 1, 1)[0].score
            else:
                score = 0.0
            trials.append((score, i, placement, trial))
        trials.sort(key=lambda t: (-t[0], t[1]))
        plans: list[Plan] = []
        for _, _, placement, trial in trials[: max(1, min(k, 3))]:
            if trial.phase in AP_PHASES and trial.current == game.current:
                for plan in self.ap_plans(trial, Evaluator(trial, self.weights), k, beam):
                    plans.append(Plan([placement, *plan.actions], plan.score))
            else:
                plans.append(Plan([placement], 0.0))
        plans.sort(key=lambda pl: -pl.score)
        return plans[:k]

    def _pick_heuristic(self, game: GameState, pick: PickTile) -> float:
        spec = game.rules.tile(pick.tile_id)
        return tile_worth(spec)

    def _pick_plans(self, game: GameState, k: int, beam: int) -> list[Plan]:
        plans: list[Plan] = []
        for pick in game.legal_actions():
            trial = game.clone()
            trial.undo_enabled = False
            trial.apply(pick)
            for plan in self.plan(trial, k, beam) if trial.current == game.current else []:
                plans.append(Plan([pick, *plan.actions], plan.score))
        if not plans:
            return [Plan([game.legal_actions()[0]], 0.0)]
        plans.sort(key=lambda pl: -pl.score)
        return plans[:k]

    # ------------------------------------------------------------ auction

    def bid(self, game: GameState) -> Action:
        """Bid one more than the highest bid while the display is worth it [AUC-3]."""
        p = game.current
        worth = sorted((tile_worth(game.rules.tile(t)) for t in game.display), reverse=True)
        spread = worth[0] - worth[1] if len(worth) > 1 else 0.0
        limit = min(game.scores[p], int(spread * 0.5))
        amount = game.high_bid + 1
        if amount <= limit:
            return Bid(amount)
        return PASS


def tile_worth(spec: TileSpec) -> float:
    if spec.kind == TEMPLE:
        return float(spec.value) + 1.0
    if spec.kind == TREASURE:
        return 1.5 * spec.masks
    if spec.kind == JUNGLE:
        return 1.0
    return 0.0


def shortest_paths(
    game: GameState, src: int, ends: tuple[int, ...], path_cost: int, limit: int = 10
) -> tuple[dict[int, int], dict[int, object]]:
    """Cheapest AP cost from ``src`` to every tile within ``limit`` [MOVE-1][CAMPMOVE-1].

    ``ends`` are the basecamp and own camps when secret paths are available.
    The second map gives each tile's predecessor step (an ``Exit`` or a cell).
    """
    dist = {src: 0}
    pred: dict[int, object] = {}
    heap = [(0, src)]
    exits = game.exits
    while heap:
        d, c = heapq.heappop(heap)
        if d > dist[c]:
            continue
        for ex in exits.get(c, ()):
            nd = d + ex.cost
            if nd <= limit and nd < dist.get(ex.dst, _FAR):
                dist[ex.dst] = nd
                pred[ex.dst] = ex
                heapq.heappush(heap, (nd, ex.dst))
        if c in ends:
            nd = d + path_cost
            if nd <= limit:
                for e in ends:
                    if e != c and nd < dist.get(e, _FAR):
                        dist[e] = nd
                        pred[e] = c
                        heapq.heappush(heap, (nd, e))
    return dist, pred


def _path_actions(pred: dict[int, object], src: int, dst: int, leader: bool) -> tuple[Action, ...]:
    steps: list[Action] = []
    cell = dst
    while cell != src:
        step = pred[cell]
        if isinstance(step, Exit):
            steps.append(step.leader_move if leader else step.worker_move)
            cell = step.leader_move.src
        else:
            assert isinstance(step, int)
            steps.append(SecretPath(step, cell, leader))
            cell = step
    steps.reverse()
    return tuple(steps)


def _offered(game: GameState, kind: type[A]) -> list[A]:
    """The legal actions of one kind (by verb), typed as that kind."""
    verb = kind.verb
    return [cast(A, a) for a in game.legal_actions() if a.verb == verb]


def reach_fields(game: GameState) -> list[dict[int, int]]:
    """Per player: AP needed to bring a figure to each tile (own figures 0, entries 1)."""
    fields = []
    basecamp = game.rules.basecamp
    for q in range(game.players):
        start: dict[int, int] = {}
        for c in game.workers[q]:
            start[c] = 0
        if game.leader[q] >= 0:
            start[game.leader[q]] = 0
        if game.supply[q] or game.leader[q] == -1:
            for c in (basecamp, *[c for c, o in game.camps.items() if o == q]):
                start.setdefault(c, 1)
        dist = dict(start)
        heap = [(d, c) for c, d in start.items()]
        heapq.heapify(heap)
        while heap:
            d, c = heapq.heappop(heap)
            if d > dist[c]:
                continue
            for ex in game.exits.get(c, ()):
                nd = d + ex.cost
                if nd <= 12 and nd < dist.get(ex.dst, _FAR):
                    dist[ex.dst] = nd
                    heapq.heappush(heap, (nd, ex.dst))
        fields.append(dist)
    return fields


def placement_score(
    game: GameState, spec: TileSpec, cell: int, rotation: int, fields: list[dict[int, int]], p: int
) -> float:
    """How much a placement helps ``p`` compared with the others (cheap, no play-out)."""
    stones = hexes.rotate(spec.stones, rotation)
    n = game.players
    tiles = game.tiles
    if spec.kind == VOLCANO:
        score = 0.0
        for d in range(6):
            if cell + STEP[d] not in tiles:
                continue
            for q in range(n):
                r = fields[q].get(cell + STEP[d], _FAR)
                near = 1.0 / (1 + r)
                score += -near if q == p else near / (n - 1)
        return score
    reach = [_FAR] * n
    total_cost = 0
    for d in range(6):
        other = tiles.get(cell + STEP[d])
        if other is None or other.spec.kind == VOLCANO:
            continue
        cost = stones[d] + other.stones[OPPOSITE[d]]
        if not cost:
            continue
        total_cost += cost
        nb = cell + STEP[d]
        for q in range(n):
            here = fields[q].get(nb, _FAR) + cost
            if here < reach[q]:
                reach[q] = here
    worth = tile_worth(spec)
    mine = worth * max(0.0, 1 - reach[p] / 11)
    theirs = max(worth * max(0.0, 1 - reach[q] / 11) for q in range(n) if q != p)
    return mine - theirs - 0.01 * total_cost
