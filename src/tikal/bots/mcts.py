"""Determinized Monte Carlo tree search over whole-turn macro-actions.

The root's children are *macro-actions*: the best distinct turn plans of the
beam planner (tile placement + the AP actions up to the end of the turn, cut
after a treasure is taken because what follows depends on the revealed type).
Children are opened by progressive widening, best planner score first, and
chosen by UCB1.

Each iteration samples a full game consistent with the bot's view
(:meth:`View.determinize`: the unseen tile order and face-down token types are
shuffled [HIDDEN-1]), plays the chosen macro-action on it, finishes the turn and
lets every other player reply with the fast greedy policy (truncated rollout),
then scores the leaf with the evaluation.  Rewards are per player (max^n
style: every simulated player maximises its own objective); the root player's
reward is a logistic squash of its estimated final-score lead.

Budget: ``iterations`` per search and/or ``seconds`` per *turn* (all the
decisions of one turn share it).  With only ``iterations`` the bot is
deterministic for its seed.
"""

from __future__ import annotations

import math
import time

from ..actions import Action, EndTurn
from ..errors import IllegalAction
from ..game import Game, Phase
from ..view import View
from .evaluate import DEFAULT_WEIGHTS, Evaluator, Weights
from .greedy import PlanningBot, truncate_after_take
from .planner import TurnPlanner


class MCTSBot(PlanningBot):
    """Search bot; see the module docstring."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        seconds: float | None = 1.8,
        iterations: int | None = None,
        candidates: int = 10,
        beam: int = 3,
        horizon: int | None = None,
        exploration: float = 0.35,
        widening: float = 2.0,
        scale: float = 8.0,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        super().__init__(seed)
        if seconds is None and iterations is None:
            raise ValueError("an MCTS bot needs a budget: seconds and/or iterations")
        self.seconds = seconds
        self.iterations = iterations
        self.candidates = candidates
        self.beam = beam
        self.horizon = horizon
        self.exploration = exploration
        self.widening = widening
        self.scale = scale
        self.weights = weights
        self.planner = TurnPlanner(weights, beam=beam, placements=6)
        self.rollout = TurnPlanner(weights, beam=1, placements=1)
        #: Totals over all searches (for simulations per second).
        self.simulations = 0
        self.search_seconds = 0.0

    def make_plan(self, view: View) -> list[Action]:
        start = time.perf_counter()
        state = view.state
        if state.phase is Phase.AUCTION:
            return [self.planner.bid(state)]
        deadline = None
        if self.seconds is not None:
            left = self.seconds - self.spent_this_turn()
            deadline = start + max(0.0, 0.7 * left)
        quick = deadline is not None and deadline - start < 0.15
        k, beam = (1, 1) if quick else (self.candidates, None)
        plans = self.planner.plan(state, k=k, beam=beam)
        macros: list[list[Action]] = []
        for plan in plans:
            actions = truncate_after_take(plan.actions)
            if actions not in macros:
                macros.append(actions)
        if len(macros) <= 1:
            return macros[0] if macros else []
        visits = [0] * len(macros)
        totals = [0.0] * len(macros)
        me = state.current
        done = 0
        while True:
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            width = min(len(macros), 2 + int(self.widening * math.sqrt(done)))
            i = self._select(visits, totals, width, done)
            game = view.determinize(self.rng)
            reward = self._simulate(game, macros[i], me)
            visits[i] += 1
            totals[i] += reward
            done += 1
        self.simulations += done
        self.search_seconds += time.perf_counter() - start
        best = max(
            range(len(macros)),
            key=lambda j: (visits[j], totals[j] / visits[j] if visits[j] else 0.0, -j),
        )
        return macros[best]

    def _select(self, visits: list[int], totals: list[float], width: int, done: int) -> int:
        for i in range(width):
            if not visits[i]:
                return i
        log_n = math.log(done + 1)
        c = self.exploration
        return max(
            range(width),
            key=lambda i: totals[i] / visits[i] + c * math.sqrt(log_n / visits[i]),
        )

    def _simulate(self, game: Game, macro: list[Action], me: int) -> float:
        """Play the macro, finish the turn, let the others reply; the root player's reward."""
        mark = len(game.history)
        for action in macro:
            try:
                game.apply(action)
            except IllegalAction:
                break
        horizon = self.horizon if self.horizon is not None else game.players
        ended = 0
        steps = 0
        while not game.is_over and steps < 100:
            ended += sum(1 for a in game.history[mark:] if isinstance(a, EndTurn))
            mark = len(game.history)
            if ended >= horizon:
                break
            self.rollout.fast_turn(game)
            steps += 1
        ev = Evaluator(game, self.weights)
        lead = ev.objective(ev.values(game), me)
        return 1.0 / (1.0 + math.exp(-lead / self.scale))
