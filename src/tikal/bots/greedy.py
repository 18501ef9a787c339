"""Plan-following bots: the greedy bot plans a whole turn once and plays it out.

:class:`PlanningBot` holds the plan of the current turn and the history it
expects to see before each of its actions; when the view shows anything else
(a treasure turned out differently [TREASURE-1], an undo, a new turn) it plans
again.  Every action it returns is checked against the view's legal actions.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..actions import END_TURN, Action, TakeTreasure
from ..state import GameState
from ..view import View
from .evaluate import DEFAULT_WEIGHTS, Weights
from .planner import Plan, TurnPlanner


class PlanningBot:
    """Base class: caches a plan and replays it while the view matches."""

    name = "planning"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self._plan: list[Action] = []
        self._expected: list[list[Action]] = []
        self._base = 0
        self._step = 0
        #: Seconds spent in :meth:`choose`, and how many calls (for the arena).
        self.thinking = 0.0
        self.decisions = 0
        self.turn_times: list[float] = []
        self._turn_id: tuple[int, int] = (-1, -1)
        #: Where thinking time comes from (a fake clock makes time budgets testable).
        self.clock: Callable[[], float] = time.perf_counter

    @property
    def pending(self) -> list[Action]:
        """What is left of the cached plan (empty when the next decision plans afresh)."""
        return self._plan[self._step :]

    def choose(self, view: View) -> Action:
        start = self.clock()
        state = view.state
        turn_id = (_turn_number(state), state.current)
        if turn_id != self._turn_id:
            self._turn_id = turn_id
            self.turn_times.append(0.0)
        legal = state.legal_actions()
        action = self._next_planned(state, legal)
        if action is None:
            plan = self.make_plan(view)
            self._cache(state, plan)
            action = self._next_planned(state, legal)
        if action is None or action not in legal:
            action = END_TURN if END_TURN in legal else legal[0]
            self._plan = []
        spent = self.clock() - start
        self.thinking += spent
        self.decisions += 1
        self.turn_times[-1] += spent
        return action

    def spent_this_turn(self) -> float:
        return self.turn_times[-1] if self.turn_times else 0.0

    def make_plan(self, view: View) -> list[Action]:
        raise NotImplementedError

    def _cache(self, state: GameState, plan: list[Action]) -> None:
        self._plan = list(plan)
        self._base = len(state.history)
        self._step = 0
        self._expected = []
        sim = state.clone()
        sim.undo_enabled = False
        for action in self._plan:
            self._expected.append(sim.history[self._base :])
            try:
                sim.apply(action)
            except Exception:  # the rest of the plan cannot be checked; drop it
                self._plan = self._plan[: len(self._expected)]
                break

    def _next_planned(self, state: GameState, legal: list[Action]) -> Action | None:
        i = self._step
        if i >= len(self._plan) or len(state.history) < self._base:
            return None
        if state.history[self._base :] != self._expected[i]:
            return None
        action = self._plan[i]
        if action not in legal:
            return None
        self._step = i + 1
        return action


def _turn_number(state: GameState) -> int:
    """How many turns have ended so far (a turn's decisions share one number)."""
    return sum(1 for a in state.history if a == END_TURN)


class GreedyBot(PlanningBot):
    """Plans each turn with a beam search over macro-actions and plays the best plan."""

    name = "greedy"

    def __init__(
        self,
        seed: int | None = None,
        beam: int = 4,
        placements: int = 8,
        noise: float = 0.0,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        super().__init__(seed)
        self.planner = TurnPlanner(weights, beam=beam, placements=placements)
        self.noise = noise

    def make_plan(self, view: View) -> list[Action]:
        k = 3 if self.noise else 1
        plans: list[Plan] = self.planner.plan(view.state, k=k)
        if not plans:
            return []
        choice = plans[0]
        if self.noise and len(plans) > 1 and self.rng.random() < self.noise:
            choice = self.rng.choice(plans[1:])
        return truncate_after_take(choice.actions)


def is_take(action: Action) -> bool:
    """Whether ``action`` takes a treasure, revealing a hidden token [HIDDEN-1]."""
    return action.verb == TakeTreasure.verb


def truncate_after_take(actions: list[Action]) -> list[Action]:
    """Cut a plan after its first treasure: what follows depends on the revealed type."""
    for i, action in enumerate(actions):
        if is_take(action):
            return actions[: i + 1]
    return actions


def distinct_plans(plans: list[Plan]) -> list[tuple[list[Action], Plan]]:
    """The plans whose macro-actions (cut after a treasure taken) differ, best first, each
    with its macro-action: the choices a search bot decides between
    (:meth:`~tikal.bots.mcts.MCTSBot.make_plan`), which the reply shares count and the
    analysis ranks."""
    kept: list[tuple[list[Action], Plan]] = []
    for plan in plans:
        macro = truncate_after_take(plan.actions)
        if all(macro != seen for seen, _ in kept):
            kept.append((macro, plan))
    return kept
