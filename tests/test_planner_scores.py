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
# four players: a take was scored by the taken token's own worth only, missing what one
# more token held does to the worth of the tokens left in the taker's reach
@example(seed=148287319, steps=129)
def test_plan_scores_are_the_evaluation_of_the_positions_they_reach(
    players: int, seed: int, steps: int
) -> None:
    """Every plan scores exactly the objective of the position its actions reach, under
    the evaluation of the position it was planned from; a plan that ends with taking a
    treasure, whose type is hidden until then [HIDDEN-1], scores the objective's
    expectation over the types the take may reveal.  (A plan that goes on after a take
    is planned on from the type its copy of the game revealed, and is not checked.)"""
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
        taken = [i for i, a in enumerate(actions) if isinstance(a, TakeTreasure)]
        if taken and taken != [len(actions) - 1]:
            continue
        outcomes = state.token_outcomes() if taken else [None]
        expected = 0.0
        for outcome in outcomes:
            reached = state.clone()
            reached.undo_enabled = False
            for action in actions:
                if isinstance(action, TakeTreasure) and outcome is not None:
                    reached.apply(action, chance=[outcome.outcome])
                else:
                    reached.apply(action)
            chance = 1.0 if outcome is None else float(outcome.probability)
            expected += chance * ev.objective(ev.values(reached), p)
        assert plan.score == pytest.approx(expected, abs=1e-9), [str(a) for a in actions]
