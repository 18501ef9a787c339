"""The planner's search: a beam search over macro-actions, whole turns at a time.

:class:`TurnPlanner` keeps the best few states at each depth of the turn; a state's
children are its candidates (the single actions of the engine, the route candidates of
:mod:`.routes` and the camp candidates of :mod:`.camps`), each scored by the change it
makes to the evaluation (:mod:`.trials`).  Only the best few are really played on
copies of the game, through :meth:`GameState.apply`, so every plan is legal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeVar, cast

from ...actions import (
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
    Swap,
    TakeTreasure,
)
from ...errors import IllegalAction
from ...state import GameState, Phase
from ..evaluate import DEFAULT_WEIGHTS, Evaluator, Weights, token_tiles
from .camps import Camps
from .paths import shortest_paths
from .routes import Routes
from .tiles import placement_score, reach_fields, tile_worth
from .trials import (
    ARRIVE,
    DIG,
    LEAVE,
    TAKE,
    Candidate,
    Node,
    applied_delta,
    dig_delta,
    take_delta,
)

AP_PHASES: Final = (Phase.TURN, Phase.SCORING)
A = TypeVar("A", bound=Action)


@dataclass(slots=True)
class Plan:
    """A sequence of actions for the player to act, and the planner's score for it."""

    actions: list[Action]
    score: float


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

    def plan(self, game: GameState, k: int = 1, beam: int | None = None,
             tile_trials: int = 3) -> list[Plan]:
        """The best ``k`` distinct plans for ``game.current`` (best first), from any phase.

        The plans end with ``end`` when they reach the end of the AP phase; a plan
        for the auction is a single bid or pass.  With a tile to place, the best
        ``min(k, tile_trials)`` placements (by their fast plans) are planned with the
        full beam: each costs about what one plan costs.
        """
        phase = game.phase
        beam = self.beam if beam is None else beam
        if phase in AP_PHASES:
            return self.ap_plans(game, Evaluator(game, self.weights), k, beam)
        if phase is Phase.TILE:
            return self._tile_plans(game, k, beam, tile_trials)
        if phase is Phase.PICK:
            return self._pick_plans(game, k, beam, tile_trials)
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
        root = Node(root_game, values, [], ev.objective(values, p))
        root.key = state_key(root_game, p)
        seen: dict[tuple[object, ...], Node] = {root.key: root}
        frontier = [root]
        while frontier:
            children: list[tuple[float, int, Node, Candidate]] = []
            for node in frontier:
                for cand in self._candidates(node, p, ev):
                    children.append((cand.score, len(children), node, cand))
            if not children:
                break
            children.sort(key=lambda c: (-c[0], c[1]))
            kept: list[Node] = []
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

    def _materialize(self, node: Node, cand: Candidate, p: int, score: float) -> Node | None:
        game = node.game.clone()
        actions = cand.actions
        try:
            for action in actions:
                game.apply(action)
        except IllegalAction:
            return None
        values = [v + d for v, d in zip(node.values, cand.delta, strict=True)]
        child = Node(game, values, [*node.actions, *actions], score)
        if not cand.full:
            _inherit(child, node, actions)
        child.key = state_key(game, p)
        return child

    def _distances(
        self, game: GameState, p: int, src: int, ends: tuple[int, ...]
    ) -> tuple[dict[int, int], dict[int, object]]:
        key = (src, ends)
        found = self._dist.get(key)
        if found is None:
            found = shortest_paths(game, src, ends, game.rules.costs.get("path", 1))
            self._dist[key] = found
        return found

    def _candidates(self, node: Node, p: int, ev: Evaluator) -> list[Candidate]:
        """Every candidate of ``node``, scored: the engine's single actions first, then
        per figure its routes and its camps (this order breaks ties)."""
        if node.game.ap <= 0:
            return []
        out = _action_candidates(node, p, ev)
        self._walk_candidates(node, p, ev, out)
        _score(node, p, ev, out)
        return out

    def _walk_candidates(self, node: Node, p: int, ev: Evaluator, out: list[Candidate]) -> None:
        """The macro moves: each own figure on the board walked to the targets of
        :class:`Routes` and the camp sites of :class:`Camps`."""
        game = node.game
        rules = game.rules
        own_camps = tuple(sorted(c for c, o in game.camps.items() if o == p))
        ends: tuple[int, ...] = ()
        if own_camps and "path" in rules.actions:
            ends = (rules.basecamp, *own_camps)
        routes, camps = Routes(node, ev, p), Camps(node, ev, p, own_camps)
        sources: list[tuple[int, bool]] = [(c, False) for c in game.workers[p]]
        if game.leader[p] >= 0:
            sources.append((game.leader[p], True))
        for src, leader in sources:
            dist, pred = self._distances(game, p, src, ends)
            routes.add(src, leader, dist, pred, out)
            camps.add(src, leader, dist, pred, out)

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

    def _tile_plans(self, game: GameState, k: int, beam: int, tile_trials: int) -> list[Plan]:
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
        for _, _, placement, trial in trials[: max(1, min(k, tile_trials))]:
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

    def _pick_plans(self, game: GameState, k: int, beam: int, tile_trials: int) -> list[Plan]:
        plans: list[Plan] = []
        for pick in game.legal_actions():
            trial = game.clone()
            trial.undo_enabled = False
            trial.apply(pick)
            for plan in (self.plan(trial, k, beam, tile_trials)
                         if trial.current == game.current else []):
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


def _inherit(child: Node, parent: Node, actions: tuple[Action, ...]) -> None:
    """Give ``child`` the parent's caches for the cells ``actions`` left alone.

    Why: a node walks every figure to every target, so most of what it asks was already
    worked out one action earlier, and a cell's terms, figure steps and take-after-walk
    depend only on what stands on that cell (and on the player terms, which only
    candidates marked ``full`` change).  A dig-after-walk also depends on the temple
    levels left in the supply [DIG-4], which any dig changes."""
    touched = {cell for action in actions for cell in action.cells}
    cells, steps, after = dict(parent.cells), dict(parent.steps), dict(parent.after)
    if any(action.verb == Dig.verb for action in actions):
        after = {key: v for key, v in after.items() if key[2] is not DIG}
    for cell in touched:
        cells.pop(cell, None)
        for leader in (False, True):
            steps.pop((cell, leader, ARRIVE), None)
            steps.pop((cell, leader, LEAVE), None)
            after.pop((cell, leader, TAKE), None)
            after.pop((cell, leader, DIG), None)
    child.cells, child.steps, child.after = cells, steps, after


def _action_candidates(node: Node, p: int, ev: Evaluator) -> list[Candidate]:
    """The engine's single actions as candidates (its moves are covered by the routes)."""
    game = node.game
    n = game.players
    fut = min(ev.future[p], 2) / 2
    w = ev.weights
    out: list[Candidate] = []
    for action in game.legal_actions():
        delta: list[float] | None
        verb = action.verb
        if verb == PutFigure.verb:
            delta = [0.0] * n
            leader = cast(PutFigure, action).leader
            delta[p] = fut * (w.leader_on_board if leader else w.worker_on_board)
            out.append(Candidate(delta, (action,)))
        elif verb == Dig.verb:
            delta = dig_delta(node, ev, action.cells[0])
            out.append(Candidate(delta, (action,)))
        elif verb == TakeTreasure.verb:
            delta = take_delta(node, ev, p, action.cells[0])
            out.append(Candidate(delta, (action,), full=True))
        elif verb == BuildCamp.verb:
            delta = [0.0] * n
            delta[p] = fut * w.camp
            out.append(Candidate(delta, (action,)))
        elif verb == PlaceGuard.verb or verb == Swap.verb:
            # a guard changes its temple; a swap changes two players' treasures [SWAP-1],
            # and with them the terms of every tile with tokens
            cells = action.cells if verb == PlaceGuard.verb else token_tiles(game)
            delta = applied_delta(node, ev, action, cells)
            if delta is not None:
                out.append(Candidate(delta, (action,), full=True))
    return out


def _score(node: Node, p: int, ev: Evaluator, out: list[Candidate]) -> None:
    """Each candidate's objective after it: :meth:`Evaluator.objective` of the node's
    values plus the candidate's change, written out (once per candidate)."""
    n = node.game.players
    if n == 2:  # the objective is own value minus the other's: no list per candidate
        o = 1 - p
        mine, other = node.values[p], node.values[o]
        for cand in out:
            delta = cand.delta
            cand.score = (mine + delta[p]) - (other + delta[o])
        return
    base = node.values
    rest = [q for q in range(n) if q != p]
    wmax = ev.weights.opponents_max
    for cand in out:
        delta = cand.delta
        others = [base[q] + delta[q] for q in rest]
        cand.score = ((base[p] + delta[p]) - wmax * max(others)
                      - (1 - wmax) * sum(others) / len(others))


def _offered(game: GameState, kind: type[A]) -> list[A]:
    """The legal actions of one kind (by verb), typed as that kind."""
    verb = kind.verb
    return [cast(A, a) for a in game.legal_actions() if a.verb == verb]
