"""The planner scores its plans incrementally (a candidate's change to a few cell terms,
caches handed from a search node to its children); those scores must be what the
evaluation says of the positions the plans reach.  A cache kept for a cell an action
touched would show here as a plan scored for a position it does not reach."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from random_games import play
from tikal import END_TURN, TakeTreasure
from tikal.bots.evaluate import Evaluator, weights_for
from tikal.bots.planner import TurnPlanner
from tikal.bots.planner.engine import AP_PHASES


@pytest.mark.parametrize("players", [2, 4])
@settings(max_examples=25, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1),
       steps=st.integers(min_value=5, max_value=400))
# four players: a swap [SWAP-1] was scored on no cell, missing what the tokens left on
# the board are worth to the two players whose treasures it changes
@example(seed=3475229416, steps=270)
def test_plan_scores_are_the_evaluation_of_the_positions_they_reach(
    players: int, seed: int, steps: int
) -> None:
    """Every plan without a treasure taken (a take is scored by its expectation over the
    hidden types [HIDDEN-1], the replay reveals one) scores exactly the objective of the
    position its actions reach, under the evaluation of the position it was planned
    from."""
    game = next(g for i, g in enumerate(play("standard", players, seed))
                if g.is_over or (i >= steps and g.phase in AP_PHASES))
    if game.is_over:
        return
    p = game.current
    state = game.view(p).state
    planner = TurnPlanner(weights_for(players))
    ev = Evaluator(state, planner.weights)
    plans = planner.ap_plans(state, ev, k=8, beam=4)
    assert plans
    for plan in plans:
        actions = [a for a in plan.actions if a != END_TURN]
        if any(isinstance(a, TakeTreasure) for a in actions):
            continue
        reached = state.clone()
        reached.undo_enabled = False
        for action in actions:
            reached.apply(action)
        assert plan.score == pytest.approx(ev.objective(ev.values(reached), p), abs=1e-9), (
            [str(a) for a in actions])
