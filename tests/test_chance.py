"""Chance outcomes (OpenSpiel's ``chance_outcomes()``) and the one camp-site rule, over random
games of every rule set: probabilities sum to one, match the counts of the stack and of the
face-down tokens, never depend on hidden order, and name what apply really produces."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from random_games import CONFIG_IDS, CONFIGS, hidden_tokens, perturb_hidden, play
from tikal import BuildCamp, Draw, Game, IllegalAction, Reveal, TakeTreasure
from tikal.state import ChanceOutcome

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
configs = pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=CONFIG_IDS)
fast = settings(max_examples=3, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])


def sampled(rules: str, players: int, seed: int, share: float = 0.08) -> list[Game]:
    """Copies of about ``share`` of the positions of one random game."""
    rng = random.Random(seed)
    return [game.clone() for game in play(rules, players, seed) if rng.random() < share]


def as_counts(outcomes: Sequence[ChanceOutcome[Draw | Reveal]]) -> dict[str, Fraction]:
    return {str(o.outcome): o.probability for o in outcomes}


def check_draws(game: Game) -> None:
    outcomes = game.draw_outcomes()
    if not game.stack:
        assert outcomes == []
        return
    letter = game.rules.tile(game.stack[-1]).letter
    group = [t for t in game.stack if game.rules.tile(t).letter == letter]
    assert sum(o.probability for o in outcomes) == 1
    assert {o.outcome.tile_id: o.probability for o in outcomes} == {
        t: Fraction(n, len(group)) for t, n in Counter(group).items()
    }
    assert game.chance_outcomes() == outcomes


def check_tokens(game: Game) -> None:
    outcomes = game.token_outcomes()
    hidden = Counter(hidden_tokens(game))
    if not hidden:
        assert outcomes == []
        return
    assert sum(o.probability for o in outcomes) == 1
    total = sum(hidden.values())
    assert {o.outcome.token: o.probability for o in outcomes} == {
        t: Fraction(n, total) for t, n in hidden.items()
    }


@configs
@fast
@given(seed=SEEDS)
def test_probabilities_match_the_stack_and_the_face_down_tokens(
    rules: str, players: int, seed: int
) -> None:
    for game in sampled(rules, players, seed):
        check_draws(game)
        check_tokens(game)


@configs
@fast
@given(seed=SEEDS)
def test_outcomes_never_depend_on_hidden_order(rules: str, players: int, seed: int) -> None:
    """Every player's view, the spectator's and a game that differs only in hidden parts
    give the same outcomes, for the next draw and for every legal action."""
    rng = random.Random(seed)
    for game in sampled(rules, players, seed, 0.04):
        other = perturb_hidden(game, rng)
        states = [other, *(game.view(v).state for v in [None, *range(players)])]
        expected = as_counts(game.draw_outcomes()), as_counts(game.token_outcomes())
        for state in states:
            assert (as_counts(state.draw_outcomes()), as_counts(state.token_outcomes())) == expected
        for action in game.legal_actions()[:: max(1, len(game.legal_actions()) // 6)]:
            mine = as_counts(game.chance_outcomes(action))
            assert all(as_counts(s.chance_outcomes(action)) == mine for s in states)


@configs
@fast
@given(seed=SEEDS)
def test_an_actions_outcomes_name_what_apply_produces(rules: str, players: int, seed: int) -> None:
    """The first chance event an action causes is one of its outcomes, with a positive
    probability; an action that causes none has none; a take has the token outcomes."""
    for game in sampled(rules, players, seed, 0.1):
        for action in game.legal_actions():
            outcomes = game.chance_outcomes(action)
            after = game.clone()
            before = len(after.history)
            after.apply(action)
            produced = [a for a in after.history[before:] if a.is_chance]
            if not produced:
                assert outcomes == []
                continue
            assert produced[0] in {o.outcome for o in outcomes if o.probability > 0}
            if type(action) is TakeTreasure:
                assert outcomes == game.token_outcomes()


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    game = Game.new("standard", 2, seed=3)
    before = game.to_json()
    with pytest.raises(IllegalAction) as refused:
        game.chance_outcomes(TakeTreasure(0))
    assert refused.value.rule == "TURN-1"  # a turn begins with its tile
    assert game.to_json() == before


@configs
@fast
@given(seed=SEEDS)
def test_camps_go_only_where_the_camp_site_rule_says(rules: str, players: int, seed: int) -> None:
    """is_camp_site is the rule: a tile it refuses is refused by check for a site reason, a
    camp offered stands on a site, and a site with an own figure and a camp left is allowed
    (AP aside)."""
    site_keys = {"refuse.camp_no_tile", "refuse.camp_treasure_left", "refuse.camp_kind",
                 "refuse.camp_taken"}
    for game in sampled(rules, players, seed, 0.1):
        if game.phase.value not in ("turn", "scoring") or "camp" not in game.rules.actions:
            continue
        p = game.current
        offered = {a.cell for a in game.legal_actions() if type(a) is BuildCamp}
        assert all(game.is_camp_site(c) for c in offered)
        for cell in game.tiles:
            refusal = game.check(BuildCamp(cell), afford=False)
            if not game.is_camp_site(cell):
                assert refusal is not None and refusal.reason.key in site_keys
            elif game.figures_on(p, cell) and len(game.own_camps(p)) < game.rules.camps_max:
                assert refusal is None
