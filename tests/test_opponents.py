"""The search's opponent model: which evaluation each opponent plays by, from their turns."""

from __future__ import annotations

import pytest

from positions import Position
from tikal import Game
from tikal.actions import END_TURN, Reveal
from tikal.bots import GreedyBot, MCTSBot
from tikal.bots.arena import parse_bots
from tikal.bots.evaluate import (
    DEFAULT_WEIGHTS,
    FOUR_PLAYER_WEIGHTS,
    HAND_SET_WEIGHTS,
    Weights,
)
from tikal.bots.opponents import SETTLED, OpponentModel
from tikal.bots.planner import Plan, TurnPlanner
from tikal.state import GameState

CANDIDATES = [DEFAULT_WEIGHTS, HAND_SET_WEIGHTS]


def _model() -> OpponentModel:
    """A model choosing between the tuned and the hand-set weights, planning as greedy."""
    return OpponentModel([TurnPlanner(w) for w in CANDIDATES])


def _observed(game: Game, bots: list[GreedyBot], model: OpponentModel, seat: int,
              reveals: int | None = None) -> Game:
    """Play ``game`` on (to the end, or until ``reveals`` tokens are face up), showing
    ``model`` every view ``seat`` is asked to move in."""
    while not game.is_over:
        if reveals is not None and sum(isinstance(a, Reveal) for a in game.history) >= reveals:
            break
        p = game.current_player
        view = game.view(p)
        if p == seat:
            model.observe(view)
        game.apply(bots[p].choose(view))
    return game


@pytest.mark.parametrize("weights", CANDIDATES, ids=["tuned", "hand_set"])
def test_a_greedy_opponent_is_matched_to_the_weights_it_plays_by(weights: Weights) -> None:
    """Every turn of a greedy opponent is predicted exactly by its own weights' planner,
    and the model picks that planner for its replies; the other candidate falls behind
    until the question is settled, and then the opponent's turns are no longer planned."""
    model = _model()
    bots = [GreedyBot(weights=DEFAULT_WEIGHTS), GreedyBot(weights=weights)]
    game = _observed(Game.new("standard", 2, seed=3), bots, model, seat=0)
    right = CANDIDATES.index(weights)
    assert model.scores[1][right] == model.decisions[1]
    assert model.scores[1][1 - right] <= model.decisions[1] - SETTLED
    assert model.settled(1) and model.planner_for(1).weights == weights
    opponent_turns = sum(1 for a in game.history if a == END_TURN) // 2
    assert SETTLED <= model.decisions[1] < opponent_turns
    assert 0 not in model.scores  # the observer's own turns are not scored


class _CountingPlanner(TurnPlanner):
    """A candidate planner that counts the decisions it is asked to predict."""

    def __init__(self, weights: Weights) -> None:
        super().__init__(weights)
        self.calls = 0

    def plan(self, game: GameState, k: int = 1, beam: int | None = None,
             tile_trials: int = 3) -> list[Plan]:
        self.calls += 1
        return super().plan(game, k, beam, tile_trials)


def test_a_candidate_settled_behind_the_best_is_no_longer_planned() -> None:
    """With three candidates, the one that falls :data:`SETTLED` behind first is left out
    of the later decisions, while the opponent's own weights are planned for every one;
    the model still settles on the right candidate."""
    planners = [_CountingPlanner(w) for w in (DEFAULT_WEIGHTS, HAND_SET_WEIGHTS,
                                              FOUR_PLAYER_WEIGHTS)]
    model = OpponentModel(planners)
    bots = [GreedyBot(weights=DEFAULT_WEIGHTS), GreedyBot(weights=HAND_SET_WEIGHTS)]
    _observed(Game.new("standard", 2, seed=3), bots, model, seat=0)
    decisions, scores = model.decisions[1], model.scores[1]
    assert model.settled(1) and model.planner_for(1).weights == HAND_SET_WEIGHTS
    assert planners[1].calls == decisions
    cut = [j for j, planner in enumerate(planners) if planner.calls < decisions]
    assert cut, "no candidate was left out before the model settled"
    for j in cut:
        assert max(scores) - scores[j] >= SETTLED


def test_a_model_built_mid_game_learns_the_past_turns_from_the_log() -> None:
    """The public game is rebuilt from the view's log (a web worker's bot is new at any
    move): one look at the last view scores exactly what watching every view scored."""
    watching = _model()
    bots = [GreedyBot(weights=DEFAULT_WEIGHTS) for _ in range(3)]
    bots[2] = GreedyBot(weights=HAND_SET_WEIGHTS)
    game = _observed(Game.new("standard", 3, seed=8), bots, watching, seat=1, reveals=3)
    while game.current_player != 1:
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    watching.observe(game.view(1))
    late = _model()
    late.observe(game.view(1))
    assert late.scores == watching.scores and late.decisions == watching.decisions
    assert set(late.scores) == {0, 2}


@pytest.mark.rule("HIDDEN-1")
def test_the_model_reads_no_hidden_parts() -> None:
    """The same log replayed from another shuffle (other stack order, other face-down
    tokens): the views are equal, and so is everything the model learns."""
    game = Game.new("standard", 2, seed=4)
    bots = [GreedyBot(weights=HAND_SET_WEIGHTS), GreedyBot(weights=DEFAULT_WEIGHTS)]
    _observed(game, bots, _model(), seat=0, reveals=3)
    other = Game.from_record({**game.record(), "seed": 5, "scoring": None, "result": None})
    assert (other.stack, other.tokens) != (game.stack, game.tokens)
    models = []
    for g in (game, other):
        model = _model()
        model.observe(g.view(1))
        models.append(model)
    assert models[0].scores == models[1].scores and models[0].scores[0]


def test_a_position_without_a_log_teaches_nothing() -> None:
    """A position built by hand has no log to replay: no scores, the first candidate (the
    bot's own weights) plans the replies, and a later real game is still observed."""
    model = _model()
    model.observe(Position(players=2).game().view(0))
    assert model.scores == {} and model.planner_for(1) is model.planners[0]
    game = Game.new("standard", 2, seed=2)
    bots = [GreedyBot(weights=DEFAULT_WEIGHTS), GreedyBot(weights=HAND_SET_WEIGHTS)]
    _observed(game, bots, model, seat=0, reveals=1)
    assert model.decisions[1] >= 1


def test_the_search_replies_as_the_inferred_opponent_would() -> None:
    """After watching a hand-set greedy opponent, the search's simulated opponent plays
    the turn that opponent plays; with ``opponents="self"`` it plans with its own weights."""
    game = Game.new("standard", 2, seed=6)
    opponent = GreedyBot(weights=HAND_SET_WEIGHTS)
    me = GreedyBot(weights=DEFAULT_WEIGHTS)
    search = MCTSBot(iterations=2, seconds=None)
    assert search.model is not None
    played = 0
    while played < 6 or game.current_player != 1:
        p = game.current_player
        if p == 0:
            search.model.observe(game.view(0))
        before = len(game.history)
        game.apply((me if p == 0 else opponent).choose(game.view(p)))
        played += p == 1 and END_TURN in game.history[before:]
    assert search.model.planner_for(1).weights == HAND_SET_WEIGHTS
    view = game.view(1)
    expected = opponent.planner.plan(view.state, k=1)[0].actions
    simulated = view.determinize(1)
    before = len(simulated.history)
    search.planned_turn(simulated)
    replied = [a for a in simulated.history[before:] if not a.is_chance]
    assert replied[: len(expected)] == expected
    assert MCTSBot(iterations=2, seconds=None, opponents="self").model is None
    with pytest.raises(ValueError, match="opponents"):
        MCTSBot(iterations=2, seconds=None, opponents="mirror")


def test_the_hand_set_weights_are_packaged_and_named_in_the_arena() -> None:
    """``greedy@hand_set`` is the packaged hand-set evaluation, not a file path."""
    spec = parse_bots("greedy@hand_set", 2)[0]
    assert spec.weights == HAND_SET_WEIGHTS != DEFAULT_WEIGHTS
    assert spec.build(1).planner.weights == HAND_SET_WEIGHTS  # type: ignore[attr-defined]
