"""Temple contests: what one turn can bring onto a temple, and the evaluation's terms that
judge a lead by it ([SCORE-2] majorities, [MOVE-1] walks, [PLACE-1] figures put in).

Board reminders: basecamp A5, temples (value 1) A4 and B5, jungle B4.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from positions import Position
from random_games import finished
from tikal.bots.evaluate import (
    DEFAULT_WEIGHTS,
    Evaluator,
    Weights,
    contests,
    reach_strengths,
    walk_costs,
)
from tikal.hexes import parse_label

A4, A5 = parse_label("A4"), parse_label("A5")


def walk_in(game_cost: int, ap: int, supply: int, leader: bool) -> int:
    """Strength a player with everything in the supply brings onto a temple ``game_cost``
    AP from the basecamp in a turn of ``ap``: the leader first (3 for one entry), then
    workers, each paying its own entry and walk."""
    each = 1 + game_cost  # put in at the basecamp, then walk
    strength = 0
    if leader and each <= ap:
        ap -= each
        strength += 3
    return strength + min(supply, ap // each)


def test_a_player_with_everything_in_the_supply_walks_in_the_cheapest_strength_first(
) -> None:
    game = Position().figures(0, workers={"A4": 2}).game()
    cost = game.edge_cost(A5, A4)
    assert cost is not None and cost > 0
    expected = walk_in(cost, game.rules.action_points, game.supply[1], leader=True)
    reach = reach_strengths(game)
    assert reach[A4][1] == expected
    # seat 0 has 2 there and brings more from its own supply in the same way
    assert reach[A4][0] == 2 + walk_in(cost, game.rules.action_points, game.supply[0], True)
    assert contests(game, 0)[A4] == expected  # the most any other seat can have there


def test_guarded_temples_are_no_contest() -> None:
    game = Position().figures(0, workers={"A4": 2}).guard("B5", 0).game()
    assert parse_label("B5") not in reach_strengths(game)
    assert A4 in reach_strengths(game)


def control_of_lead(game_weights: Weights, workers: int, leader: bool) -> float:
    """The evaluation's A4 term for seat 0 (the player to move), who leads it."""
    pos = Position().figures(0, workers={"A4": workers}, leader="A4" if leader else None)
    game = pos.game()
    ev = Evaluator(game, game_weights)
    terms = ev.cell_terms(game, A4)
    assert terms is not None
    return terms[0] / (game.levels[A4] * ev.temple_weight[0])


def test_a_lead_nobody_can_draw_level_with_is_worth_more_with_the_safe_term() -> None:
    plain = dataclasses.replace(DEFAULT_WEIGHTS, safe=0.0, exposed=0.0)
    safe = dataclasses.replace(DEFAULT_WEIGHTS, safe=1.0, exposed=0.0)
    game = Position().figures(0, workers={"A4": 8}, leader="A4").game()
    assert game.strength(0, A4) > contests(game, 0)[A4]  # out of seat 1's reach
    assert control_of_lead(plain, 8, True) < 1.0
    assert control_of_lead(safe, 8, True) == pytest.approx(1.0)


def test_a_lead_the_other_can_overturn_in_one_turn_is_worth_less_with_the_exposed_term(
) -> None:
    plain = dataclasses.replace(DEFAULT_WEIGHTS, safe=0.0, exposed=0.0)
    exposed = dataclasses.replace(DEFAULT_WEIGHTS, safe=0.0, exposed=0.5)
    game = Position().figures(0, workers={"A4": 2}).game()
    assert game.strength(0, A4) <= contests(game, 0)[A4]
    assert control_of_lead(exposed, 2, False) == pytest.approx(
        0.5 * control_of_lead(plain, 2, False))


def test_the_terms_are_off_in_the_packaged_weights_and_files_may_leave_them_out() -> None:
    assert (DEFAULT_WEIGHTS.safe, DEFAULT_WEIGHTS.exposed) == (0.0, 0.0)
    data = DEFAULT_WEIGHTS.to_json()
    del data["safe"], data["exposed"]
    assert Weights.from_json(data) == DEFAULT_WEIGHTS
    data["unknown"] = 1.0
    with pytest.raises(ValueError, match="optional"):
        Weights.from_json(data)
    game = Position().figures(0, workers={"A4": 2}).game()
    assert Evaluator(game, DEFAULT_WEIGHTS).contest == {}  # nothing computed when off


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(20, 250))
def test_walk_costs_are_the_cheapest_walk_from_the_nearest_start_and_symmetric(
        seed: int, steps: int) -> None:
    """[MOVE-1] walks: several starts give each tile the cheapest of the walks from each
    start (plus what that start already cost); and a walk costs the same both ways, which
    :func:`reach_strengths` relies on when it walks out from the temple instead of in."""
    game = finished("standard", 2, seed, max_steps=steps)
    tiles = sorted(game.tiles)
    rng = random.Random(seed)
    starts = {c: rng.randint(0, 2) for c in rng.sample(tiles, min(3, len(tiles)))}
    limit = game.rules.action_points
    joint = walk_costs(game, starts, limit)
    single = {c: walk_costs(game, {c: 0}, limit) for c in starts}
    for cell in tiles:
        each = [d + single[c][cell] for c, d in starts.items() if cell in single[c]]
        best = min((v for v in each if v <= limit), default=None)
        assert joint.get(cell) == best
    a = next(iter(starts))
    for b, cost in single[a].items():
        assert walk_costs(game, {b: 0}, limit)[a] == cost
