"""Bots: they see only views [HIDDEN-1], never play an illegal action, and are deterministic."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from positions import Position
from tikal import Game, TakeTreasure, label, parse_label
from tikal.actions import Action, Bid
from tikal.bots import (
    BOT_NAMES,
    PRESETS,
    PRESETS_BY_PLAYERS,
    GreedyBot,
    MCTSBot,
    RandomBot,
    make_bot,
)
from tikal.bots.evaluate import DEFAULT_WEIGHTS, EXPERT_WEIGHTS, Evaluator, Weights, load_weights
from tikal.bots.greedy import truncate_after_take
from tikal.bots.planner import TurnPlanner
from tikal.components import VOLCANO
from tikal.state import GameState, Phase

TINY_MCTS: dict[str, Any] = {"iterations": 3, "seconds": None, "candidates": 3, "beam": 1}


def tiny(name: str, seed: int) -> Any:
    """A bot by name, with the smallest search budget (tests must stay quick)."""
    if name in ("mcts", "hard", "expert"):
        return make_bot(name, seed=seed, **TINY_MCTS)
    return make_bot(name, seed=seed)


def play(game: Game, bots: list[Any], limit: int = 20_000) -> list[str]:
    """Play to the end, checking each choice against the legal actions of the bot's view."""
    for _ in range(limit):
        if game.is_over:
            return [str(a) for a in game.history]
        p = game.current
        view = game.view(p)
        action = bots[p].choose(view)
        assert action in view.legal_actions(), f"{bots[p].name} chose illegal {action}"
        game.apply(action)  # raises IllegalAction otherwise
    raise AssertionError("the game did not end")


def test_make_bot_knows_every_name_and_rejects_others() -> None:
    for name in BOT_NAMES:
        bot = tiny(name, 1)
        assert bot.name == name
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("medium", 1), GreedyBot)
    assert isinstance(make_bot("hard", 1), MCTSBot)
    assert set(PRESETS) == {"easy", "medium", "hard", "expert"}
    expert = make_bot("expert", 1)
    assert isinstance(expert, MCTSBot) and expert.weights == EXPERT_WEIGHTS  # its own set
    hard = make_bot("hard", 1)
    assert isinstance(hard, MCTSBot)
    assert expert.temperature > hard.temperature  # its win chance as fitted to its set
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("grandmaster", 1)
    with pytest.raises(ValueError, match="budget"):
        MCTSBot(1, seconds=None, iterations=None)


def test_the_expert_plans_with_a_wider_beam_with_two_players_only() -> None:
    """The expert's two-player beam (measured there, docs/bots.md, A wider beam) reaches
    its candidates' planner; four players keep the level's; a setting given wins."""
    def search(players: int | None, **settings: Any) -> MCTSBot:
        bot = make_bot("expert", 1, players=players, **settings)
        assert isinstance(bot, MCTSBot)
        return bot

    hard = make_bot("hard", 1, players=2)
    assert isinstance(hard, MCTSBot)
    assert search(2).beam == search(2).planner.beam == search(None).beam == 6
    assert search(4).beam == search(4).planner.beam == hard.beam == 4
    assert search(2, beam=3).beam == 3
    assert PRESETS_BY_PLAYERS["expert"][2]["beam"] > hard.beam


def test_budget_keywords_reach_the_search() -> None:
    bot = make_bot("mcts", seed=1, seconds=0.5, iterations=7)
    assert isinstance(bot, MCTSBot)
    assert bot.seconds == 0.5 and bot.iterations == 7
    default = make_bot("mcts", seed=1)
    assert isinstance(default, MCTSBot) and default.seconds is not None
    assert default.seconds <= 2.0


# ------------------------------------------------------------------ hidden information


def _hide_differently(game: Game, rng: random.Random) -> Game:
    """The same game with another order of the unseen tiles and other face-down token types."""
    other = game.clone()
    by_letter: dict[str, list[str]] = {}
    for tile_id in other.stack:
        by_letter.setdefault(other.rules.tile(tile_id).letter, []).append(tile_id)
    stack: list[str] = []
    for letter in sorted(by_letter, reverse=True):
        group = by_letter[letter]
        rng.shuffle(group)
        stack.extend(group)
    other.stack = stack
    hidden = list(other.token_pool)
    cells = sorted(other.tokens)
    for cell in cells:
        hidden.extend(other.tokens[cell])
    rng.shuffle(hidden)
    i = 0
    for cell in cells:
        k = len(other.tokens[cell])
        other.tokens[cell] = tuple(hidden[i : i + k])
        i += k
    other.token_pool = hidden[i:]
    return other


def _positions(rules: str, players: int, seed: int, every: int) -> list[Game]:
    """Positions along a greedy game, from those with face-down tokens on the board."""
    game = Game.new(rules, players, seed=seed)
    bots = [make_bot("greedy", seed=s) for s in range(players)]
    found = []
    step = 0
    while not game.is_over and len(found) < 6:
        if step % every == 0 and any(game.tokens.values()) and game.stack:
            found.append(game.clone())
        game.apply(bots[game.current].choose(game.view(game.current)))
        step += 1
    return found


@pytest.mark.rule("HIDDEN-1")
@pytest.mark.parametrize("name", ["random", "greedy", "easy", "mcts"])
@pytest.mark.parametrize(("rules", "players"), [("standard", 2), ("auction", 3), ("demo", 2)])
def test_hidden_information_does_not_change_decisions(name: str, rules: str, players: int) -> None:
    rng = random.Random(5)
    positions = _positions(rules, players, seed=3, every=7)
    differing = 0
    for game in positions:
        twin = _hide_differently(game, rng)
        if twin.stack == game.stack and twin.tokens == game.tokens:
            continue
        differing += 1
        p = game.current
        a = tiny(name, 11).choose(game.view(p))
        b = tiny(name, 11).choose(twin.view(p))
        assert a == b, f"{name} decided {a} and {b} in games differing only in hidden parts"
    assert differing >= 2


@pytest.mark.rule("HIDDEN-1")
def test_search_never_reads_the_real_game() -> None:
    """A bot gets a redacted view: the real stack order is not in it."""
    game = Game.new("standard", 2, seed=8)
    view = game.view(0)
    twin = _hide_differently(game, random.Random(1))
    assert view.state.stack == twin.view(0).state.stack
    bot = MCTSBot(seed=4, iterations=6, seconds=None, candidates=3, beam=1)
    assert bot.choose(view) == MCTSBot(seed=4, iterations=6, seconds=None, candidates=3,
                                       beam=1).choose(twin.view(0))


# ------------------------------------------------------------------ legality


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [(r, n, s) for r, n in [("standard", 2), ("standard", 3), ("standard", 4), ("auction", 2),
                            ("auction", 4), ("demo", 2)] for s in range(3)],
)
def test_random_bots_finish_every_rule_set(rules: str, players: int, seed: int) -> None:
    game = Game.new(rules, players, seed=seed)
    play(game, [make_bot("random", seed=seed * 7 + p) for p in range(players)])
    assert game.is_over


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [("standard", 2, 1), ("standard", 4, 2), ("auction", 3, 3), ("auction", 2, 4)]
    + [("demo", 2, s) for s in range(6)],
)
def test_greedy_never_plays_an_illegal_action(rules: str, players: int, seed: int) -> None:
    game = Game.new(rules, players, seed=seed)
    names = ["greedy", "easy", "random", "greedy"]
    play(game, [make_bot(names[p % len(names)], seed=seed + p) for p in range(players)])
    assert game.is_over


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [("standard", 2, 5), ("auction", 3, 6), ("demo", 2, 7), ("demo", 2, 8)],
)
def test_mcts_never_plays_an_illegal_action(rules: str, players: int, seed: int) -> None:
    game = Game.new(rules, players, seed=seed)
    bots = [tiny("mcts", seed)] + [make_bot("greedy", seed=p) for p in range(1, players)]
    play(game, bots)
    assert game.is_over


def test_many_short_games_of_every_level_stay_legal() -> None:
    names = ["random", "greedy", "mcts", "easy", "medium", "hard", "expert"]
    for seed in range(12):
        game = Game.new("demo", 2, seed=100 + seed)
        pair = [names[seed % len(names)], names[(seed * 5 + 1) % len(names)]]
        play(game, [tiny(pair[0], seed), tiny(pair[1], seed + 50)])
        assert game.is_over


def test_bots_recover_when_the_view_diverges_from_their_plan() -> None:
    """Undo and treasures change what the bot expected: it plans again, legally."""
    game = Game.new("standard", 2, seed=21)
    bot = make_bot("greedy", seed=1)
    other = make_bot("greedy", seed=2)
    undone = 0
    while not game.is_over:
        p = game.current
        chooser = bot if p == 0 else other
        action = chooser.choose(game.view(p))
        assert action in game.legal_actions()
        game.apply(action)
        lucky = random.Random(len(game.history)).random() < 0.3
        if p == 0 and game.can_undo() and undone < 20 and lucky:
            game.undo()
            undone += 1
    assert undone > 0


# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize(("names", "rules"), [(("greedy", "easy"), "standard"),
                                             (("mcts", "random"), "demo"),
                                             (("easy", "random"), "auction")])
def test_same_seed_same_game(names: tuple[str, str], rules: str) -> None:
    logs = []
    for _ in range(2):
        game = Game.new(rules, 2, seed=12)
        logs.append(play(game, [tiny(names[0], 3), tiny(names[1], 4)]))
    assert logs[0] == logs[1]


class TickingClock:
    """A fake clock that moves on by ``step`` seconds at every reading: time budgets
    become deterministic, whatever the machine's load."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_seconds_budget_is_respected_per_turn() -> None:
    game = Game.new("standard", 2, seed=2)
    bot = MCTSBot(seed=1, seconds=0.3)
    bot.clock = TickingClock(0.001)
    other = make_bot("greedy", seed=2)
    turns = 0
    while turns < 4:
        p = game.current
        action = (bot if p == 0 else other).choose(game.view(p))
        game.apply(action)
        if p == 0 and str(action) == "end":
            turns += 1
    assert bot.simulations > 0
    assert len(bot.turn_times) == 4
    # the search stops at its deadline; what is left over is a few clock readings per decision
    assert max(bot.turn_times) <= 0.3 + 0.03
    assert sum(bot.turn_times) >= 4 * 0.8 * 0.3 * 0.5  # and it does use the time it has


def test_a_larger_time_budget_buys_more_simulations() -> None:
    counts = []
    for seconds in (0.2, 0.8):
        game = Game.new("standard", 2, seed=5)
        bot = MCTSBot(seed=1, seconds=seconds)
        bot.clock = TickingClock(0.001)
        while game.current == 0 and not game.is_over:
            game.apply(bot.choose(game.view(0)))
        counts.append(bot.simulations)
    assert counts[1] > 2 * counts[0] > 0


def test_a_search_that_ends_the_turn_may_use_nearly_all_of_it() -> None:
    """No candidate of the first turn is cut after a treasure, so no later search needs
    time: the search takes ``last_share`` of the turn, not only ``share``."""
    spent = []
    for last_share in (0.8, 0.95):
        game = Game.new("standard", 2, seed=5)
        bot = MCTSBot(seed=1, seconds=0.3, last_share=last_share)
        bot.clock = TickingClock(0.001)
        while game.current == 0 and not game.is_over:
            game.apply(bot.choose(game.view(0)))
        spent.append((bot.turn_times[0], bot.simulations))
    (short, fewer), (long, more) = spent
    assert short <= 0.8 * 0.3 + 0.02 < 0.9 * 0.3 < long <= 0.3  # within the turn's budget
    assert more > fewer


# ------------------------------------------------------------------ planner and evaluation


def test_planner_plans_are_legal_whole_turns() -> None:
    game = Game.new("standard", 3, seed=4)
    planner = TurnPlanner()
    for _ in range(30):
        plans = planner.plan(game.view(game.current).state, k=4)
        assert plans and plans == sorted(plans, key=lambda pl: -pl.score)
        actions = truncate_after_take(plans[0].actions)
        if not any(isinstance(a, TakeTreasure) for a in actions) and len(actions) > 1:
            assert str(actions[-1]) == "end"
        for action in actions:
            if game.is_over:
                break
            game.apply(action)
        if game.is_over:
            break


def test_greedy_takes_the_majority_of_a_valuable_temple() -> None:
    pos = Position("standard", players=2)
    pos.level("A4", 6)
    pos.figures(0, workers={"A5": 2})
    pos.figures(1, workers={"A4": 1})
    game = pos.game()
    temple = parse_label("A4")
    plan = TurnPlanner().plan(game, k=1)[0]
    for action in plan.actions:
        game.apply(action)
    guarded = game.guards.get(temple, (None, False))[0] == 0
    assert guarded or game.strength(0, temple) > game.strength(1, temple), plan.actions


def test_evaluation_counts_rounds_and_values_tokens_by_expectation() -> None:
    game = Game.new("standard", 2, seed=1)
    ev = Evaluator(game)
    volcanoes = sum(1 for t in game.stack if game.rules.tile(t).kind == VOLCANO)
    assert ev.rounds == [volcanoes + 1] * 2
    # no token recovered yet: each of the 8 types is equally likely; a first token is worth 1
    assert ev.token_gain(game.treasures[0], 0) == pytest.approx(1.0 * ev.rounds[0])
    assert ev.token_odds == [(t, Fraction(3, 24)) for t in range(8)]  # 3 of each of 8 hidden
    assert len(game.token_pool) + sum(map(len, game.tokens.values())) == 24


def test_take_is_planned_by_expectation_then_replanned() -> None:
    """Greedy plans stop after a treasure (its type decides what comes next)."""
    game = Game.new("standard", 2, seed=3)
    bot = make_bot("greedy", seed=1)
    other = make_bot("greedy", seed=2)
    seen_take = False
    for _ in range(400):
        if game.is_over:
            break
        p = game.current
        action = (bot if p == 0 else other).choose(game.view(p))
        game.apply(action)
        if p == 0 and isinstance(action, TakeTreasure):
            seen_take = True
            assert isinstance(bot, GreedyBot)
            assert bot.pending == []  # nothing cached after the take
    assert seen_take


def test_label_helper_is_used_in_plans() -> None:
    game = Game.new("demo", 2, seed=1)
    plan = TurnPlanner().plan(game, k=1)[0]
    assert str(plan.actions[0]).startswith("tile ")
    assert label(game.rules.basecamp) == "0"


def test_mcts_counts_simulations_and_is_quick_with_few_iterations() -> None:
    game = Game.new("demo", 2, seed=3)
    bot = MCTSBot(seed=1, iterations=10, seconds=None, candidates=4, beam=2)
    while game.current == 0 and not game.is_over:
        game.apply(bot.choose(game.view(0)))
    # one search per plan: at most the budget each, and all of it when there is a choice
    assert 0 < bot.simulations <= 10 * bot.decisions


def test_win_chance_is_a_distribution_over_who_finishes_first() -> None:
    from tikal.bots.mcts import win_chance

    values = [96.0, 90.0, 99.0, 60.0]
    chances = [win_chance(values, q, spread=5.0) for q in range(4)]
    assert abs(sum(chances) - 1.0) < 1e-9
    assert chances.index(max(chances)) == 2 and chances.index(min(chances)) == 3
    assert win_chance([50.0] * 3, 1, spread=5.0) == 1 / 3
    # a wider spread (more rounds ahead, less certain estimates) flattens the chances
    assert win_chance(values, 2, spread=50.0) < win_chance(values, 2, spread=5.0)
    assert win_chance(values, 3, spread=50.0) > win_chance(values, 3, spread=5.0)
    # beating the best other player matters, not how far behind the others fall
    hurting_all = win_chance([90.0, 92.0, 70.0, 70.0], 0, spread=5.0)
    leading = win_chance([93.0, 92.0, 85.0, 85.0], 0, spread=5.0)
    assert leading > hurting_all


def test_rewards_of_the_search() -> None:
    with pytest.raises(ValueError, match="reward"):
        MCTSBot(1, iterations=5, reward="glory")
    game = Game.new("standard", 4, seed=1)
    chance = MCTSBot(1, iterations=5, seconds=None, reward="win")
    # the win chance is a chance in [0, 1]; the objective is an unbounded point margin
    assert 0.0 < chance.simulate(game.clone(), [], 0) < 1.0
    objective = MCTSBot(1, iterations=5, seconds=None, reward="objective")
    assert objective.simulate(game.clone(), [], 0) != chance.simulate(game.clone(), [], 0)
    # by default: the objective with 3-4 players, the win chance with 2
    default = MCTSBot(1, iterations=5, seconds=None)
    assert default.simulate(game.clone(), [], 0) == objective.simulate(game.clone(), [], 0)
    two = Game.new("standard", 2, seed=1)
    assert default.simulate(two.clone(), [], 0) == chance.simulate(two.clone(), [], 0)


def test_a_simulation_that_reaches_the_end_can_be_scored_by_the_result() -> None:
    from random_games import finished

    game = finished("standard", 2, seed=5)
    assert game.is_over
    soft = MCTSBot(1, iterations=5, seconds=None)
    exact = MCTSBot(1, iterations=5, seconds=None, exact_end=True)
    for me in range(2):
        result = exact.simulate(game.clone(), [], me)
        share = 1 / len(game.winners) if me in game.winners else 0.0
        assert result == share  # the game's result: 1, 0 or a shared first place
        # the soft chance never reaches certainty, however large the final margin
        assert 0.0 < soft.simulate(game.clone(), [], me) < 1.0
    # with three or more players the search rewards its objective, finished or not
    four = finished("standard", 4, seed=5)
    objective = MCTSBot(1, iterations=5, seconds=None, exact_end=True)
    assert objective.simulate(four.clone(), [], 0) == soft.simulate(four.clone(), [], 0)


def test_evaluation_weights_are_data(tmp_path: Path) -> None:
    """The evaluation's constants live in data/weights.json; a tuned file loads the same way."""
    assert load_weights() == DEFAULT_WEIGHTS
    assert Weights.from_json(DEFAULT_WEIGHTS.to_json()) == DEFAULT_WEIGHTS
    tuned = DEFAULT_WEIGHTS.to_json() | {"camp": 2.5}
    path = tmp_path / "tuned.json"
    path.write_text(json.dumps({"weights": tuned}))
    assert load_weights(path).camp == 2.5
    with pytest.raises(ValueError, match="weights need"):
        Weights.from_json({"camp": 1.0})


def _turn_of(game: Game) -> list[str]:
    """The actions of the turn just played (from the last ``end`` before it)."""
    history = [str(a) for a in game.history if not a.is_chance]
    start = max((i for i, a in enumerate(history[:-1]) if a == "end"), default=-1) + 1
    return history[start:]


def _after_first_turn(seed: int) -> tuple[Game, GreedyBot]:
    """A two-player game after its first turn, played by the greedy bot returned."""
    game = Game.new("standard", 2, seed=seed)
    greedy = GreedyBot(seed=seed)
    while game.current == 0:
        game.apply(greedy.choose(game.view(0)))
    return game, greedy


def test_simulated_opponents_reply_like_the_greedy_bot() -> None:
    """With ``replies="greedy"`` a simulated opponent plays the turn the greedy bot would
    play (its plan is the same search); ``fast`` plays the cheap policy, which differs."""
    fast_differs = 0
    for seed in range(1, 5):
        game, greedy = _after_first_turn(seed)
        bot = MCTSBot(seed=seed, iterations=4, seconds=None)
        real = game.clone()
        while real.current == 1:
            real.apply(greedy.choose(real.view(1)))
        simulated = game.clone()
        bot.planned_turn(simulated)
        assert simulated.current == 0
        assert _turn_of(simulated) == _turn_of(real)
        fast = game.clone()
        bot.rollout.fast_turn(fast)
        fast_differs += _turn_of(fast) != _turn_of(real)
    assert fast_differs


def test_replies_are_checked() -> None:
    with pytest.raises(ValueError, match="replies"):
        MCTSBot(1, iterations=5, replies="psychic")
    greedy = MCTSBot(1, iterations=5, seconds=None)
    fast = MCTSBot(1, iterations=5, seconds=None, replies="fast")
    assert greedy.replies == "greedy" and fast.replies == "fast"
    # the same rollouts except for how the opponent replies: other leaf values somewhere
    games = [Game.new("standard", 2, seed=s) for s in range(1, 5)]
    assert any(greedy.simulate(g.clone(), [], 0) != fast.simulate(g.clone(), [], 0)
               for g in games)


def test_drawn_replies_play_the_planner_plan_the_shares_pick() -> None:
    """``replies="drawn"``: a simulated opponent plays the planner's r-th distinct plan, r
    drawn by the measured shares; a table that puts every reply on the second plan plays
    the second plan, and the bot's own turns are never drawn."""
    with pytest.raises(ValueError, match="reply_shares"):
        MCTSBot(1, iterations=5, replies="drawn", reply_shares="psychic")
    packaged = MCTSBot(1, iterations=5, seconds=None, replies="drawn")
    assert set(packaged.reply_shares) == {2, 4}
    assert all(abs(sum(row) - 1) < 0.01 for row in packaged.reply_shares.values())
    second_played = 0
    for seed in range(1, 5):
        game, _ = _after_first_turn(seed)
        bot = MCTSBot(seed=seed, iterations=4, seconds=None, replies="drawn")
        bot.reply_shares = {2: [0.0, 1.0]}
        plans = bot.replier.plan(game, k=2)
        macros = [truncate_after_take(plan.actions) for plan in plans]
        if len(macros) < 2 or macros[0] == macros[1]:
            continue
        simulated = game.clone()
        bot.planned_turn(simulated, 0, random.Random(seed))
        played = _turn_of(simulated)
        assert played[:len(macros[1])] == [str(a) for a in macros[1]]
        assert played[:len(macros[0])] != [str(a) for a in macros[0]]
        second_played += 1
        own_turn = game.clone()  # the player to move is the bot itself: not drawn
        bot.planned_turn(own_turn, 1, random.Random(seed))
        assert _turn_of(own_turn)[:len(macros[0])] == [str(a) for a in macros[0]]
    assert second_played


def test_drawn_replies_give_every_plan_of_a_pass_the_same_replies() -> None:
    """The reply draws are seeded once per pass, so two plans simulated on one pass meet
    the same drawn replies; with the same seed the search is deterministic."""
    game = Game.new("standard", 2, seed=5)
    bot = MCTSBot(seed=5, iterations=6, seconds=None, replies="drawn")
    first, second = game.clone(), game.clone()
    assert bot.simulate(first, [], 0, 7) == bot.simulate(second, [], 0, 7)
    assert first.history == second.history
    others = [game.clone() for _ in range(8)]  # other passes' draws: other replies
    for seed, other in enumerate(others, start=8):
        bot.simulate(other, [], 0, seed)
    assert any(other.history != first.history for other in others)
    again = MCTSBot(seed=5, iterations=6, seconds=None, replies="drawn")
    view = game.view(game.current)
    assert bot.make_plan(view) == again.make_plan(view)


def test_drawn_replies_from_one_placement_rank_that_placement_plans_only() -> None:
    """``drawn_tile_trials=1``: the plans a reply is drawn from all place the tile where
    the greedy reply places it (one placement planned with the full beam, as one plan
    costs), where the planner's own ranking (3 placements) mixes placements."""
    mixed = 0
    for seed in range(1, 7):
        game = Game.new("standard", 2, seed=seed)
        assert game.phase is Phase.TILE
        bot = MCTSBot(seed=seed, iterations=4, seconds=None, replies="drawn",
                      drawn_tile_trials=1)
        first = bot.replier.plan(game, k=1)[0].actions[0]
        narrow = bot.replier.plan(game, k=10, tile_trials=1)
        assert narrow and {plan.actions[0] for plan in narrow} == {first}
        wide = bot.replier.plan(game, k=10)
        mixed += len({plan.actions[0] for plan in wide}) > 1
        bot.reply_shares = {2: [0.1] * 10}  # any of the ten plans
        simulated = game.clone()
        bot.planned_turn(simulated, 1, random.Random(seed))
        played = [a for a in simulated.history[len(game.history):] if not a.is_chance]
        assert played[0] == first
    assert mixed


class _PlanRecorder(MCTSBot):
    """A search that records whose turns its simulations planned like greedy's."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(seed=1, iterations=4, seconds=None, **settings)
        self.planned: list[int] = []

    def planned_turn(self, game: GameState, me: int | None = None,
                     draws: random.Random | None = None) -> None:
        self.planned.append(game.current)
        super().planned_turn(game, me, draws)


def test_own_turns_in_the_rollout_may_be_planned_like_greedy() -> None:
    """``own_turns="greedy"`` plans the bot's own next turn as greedy would play it, with
    the bot's own weights; by default only the opponents' turns are planned."""
    with pytest.raises(ValueError, match="own_turns"):
        MCTSBot(1, iterations=5, own_turns="psychic")
    game = Game.new("standard", 4, seed=3)
    fast, planned = _PlanRecorder(), _PlanRecorder(own_turns="greedy")
    fast.simulate(game.clone(), [], 0)
    planned.simulate(game.clone(), [], 0)
    assert sorted(set(fast.planned)) == [1, 2, 3]
    assert sorted(set(planned.planned)) == [0, 1, 2, 3]
    assert planned.planned.count(0) == 2  # this turn and the next, inside the horizon
    real, simulated = game.clone(), game.clone()
    greedy = GreedyBot(seed=3)
    while real.current == 0:
        real.apply(greedy.choose(real.view(0)))
    planned.planned_turn(simulated, 0)
    assert _turn_of(simulated) == _turn_of(real)


class _ScriptedSearch(MCTSBot):
    """A search whose simulations score each macro by a fixed value (macro ``i`` is worth
    ``-i``, plus ``first`` for macro 0), recording which macros each pass played."""

    def __init__(self, first: float, **settings: Any) -> None:
        super().__init__(seed=1, seconds=None, **settings)
        self.first = first
        self.played: list[int] = []

    def simulate(self, game: GameState, macro: list[Action], me: int, draw_seed: int = 0
                 ) -> float:
        index = int(str(macro[0]).split()[-1])
        self.played.append(index)
        return -index + (self.first if index == 0 else 0.0)


def _halving_of(bot: _ScriptedSearch, macros: int) -> int:
    game = Game.new("standard", 2, seed=1)
    plans = [[Bid(i)] for i in range(macros)]  # stand-ins: only their index is read
    return bot._halving(game.view(0), plans, 0, None)[0]  # noqa: SLF001


def test_a_prior_counts_the_planners_score_as_simulations() -> None:
    """Plan ``i`` samples ``-i`` on every simulation; the planner scored plan 3 ten points
    above the rest.  Without a prior the best sample wins (plan 0); with the score worth
    one simulation per plan (``prior=1``) the planner's clear favourite does, and with
    two players' win chance (not in points) the prior is left out."""
    game = Game.new("standard", 2, seed=1)
    plans = [[Bid(i)] for i in range(4)]
    scores = [0.0, 0.0, 0.0, 10.0]

    def best(**settings: Any) -> int:
        bot = _ScriptedSearch(0.0, iterations=4, **settings)
        return bot._halving(game.view(0), plans, 0, None, scores)[0]  # noqa: SLF001

    assert best(reward="objective") == 0
    assert best(reward="objective", prior=1.0) == 3
    assert best(reward="margin", prior=1.0) == 3
    assert best(prior=1.0) == 0  # two players: the win chance


def test_keep_first_keeps_the_planners_best_plan_through_every_round() -> None:
    """Plan 0 (the greedy bot's) scores worst on every sample: without ``keep_first`` the
    first round drops it; with it, plan 0 is played to the end, and the search still picks
    the plan that scored best."""
    plain = _ScriptedSearch(first=-100.0, iterations=60)
    kept = _ScriptedSearch(first=-100.0, iterations=60, keep_first=True)
    assert _halving_of(plain, 8) == 1 and _halving_of(kept, 8) == 1
    assert 0 not in plain.played[-10:] and 0 in kept.played[-4:]
    # when plan 0 is best it wins either way
    assert _halving_of(_ScriptedSearch(first=100.0, iterations=60, keep_first=True), 8) == 0


def test_a_time_budget_halves_the_candidates_too() -> None:
    """With a deadline the first pass times a simulation and sizes the rounds from it.
    Before, the first round ran until the deadline: every candidate got the same number of
    simulations (28, 28, 27 in one real search) and no plan was ever dropped."""
    bot = _ScriptedSearch(first=0.0, iterations=10**6)
    bot.clock = TickingClock(0.001)
    game = Game.new("standard", 2, seed=1)
    plans = [[Bid(i)] for i in range(8)]
    best, _ = bot._halving(game.view(0), plans, 0, deadline=0.5)  # noqa: SLF001
    per_plan = Counter(bot.played)
    assert best == 0
    assert per_plan[0] > 2 * per_plan[7] > 0  # the worst plan was dropped after round one
    assert per_plan[0] >= per_plan[3] >= per_plan[7]
    assert bot.clock.now <= 0.5 + 0.01  # and the deadline holds


def test_cheaper_replies_check_fewer_tile_placements() -> None:
    """``reply_placements``: the simulated opponents' planner checks that many placements;
    the root's planner keeps the greedy bot's 8 (the default shares one planner)."""
    bot = MCTSBot(1, iterations=5, seconds=None, reply_placements=3)
    assert bot.replier.placements == 3 and bot.planner.placements == 8
    default = MCTSBot(1, iterations=5, seconds=None)
    assert default.replier is default.planner
    game = Game.new("standard", 2, seed=2)
    cheap = game.clone()
    bot.planned_turn(cheap)
    assert cheap.current == 1  # player 0's whole turn, planned by the cheaper planner


def _last_turn_of(seed: int) -> Game:
    """A 2-player game of greedy bots, played up to its last turn (the final round's last
    scorer)."""
    game = Game.new("standard", 2, seed=seed)
    bots = [make_bot("greedy", seed=p) for p in range(2)]
    while not (game.scoring_final and len(game.scoring_queue) == 1):
        game.apply(bots[game.current].choose(game.view(game.current)))
    return game


def _final_lead(game: GameState, me: int) -> int:
    return game.scores[me] - game.scores[1 - me]


def test_the_last_turn_takes_one_simulation_per_plan() -> None:
    """On the game's last turn a simulation is the exact final scoring: the bot runs one per
    plan, plays the best, and answers without spending its time on repeats."""
    game = _last_turn_of(5)
    me = game.current
    bot = MCTSBot(seed=1, seconds=1.8)
    bot.clock = TickingClock(0.001)
    view = game.view(me)
    plans = [truncate_after_take(p.actions) for p in bot.planner.plan(view.state, k=10)]
    distinct = {tuple(p) for p in plans}
    best_lead = -10**9
    for plan in distinct:
        trial = game.clone()
        for action in plan:
            trial.apply(action)
        assert trial.is_over  # every plan ends the game
        best_lead = max(best_lead, _final_lead(trial, me))
    while not game.is_over:
        game.apply(bot.choose(game.view(me)))
    assert len(distinct) > 1
    assert bot.searches and bot.searches[0][0] == len(distinct)
    assert len(bot.searches) == 1
    assert _final_lead(game, me) == best_lead


def test_a_last_turn_that_may_uncover_a_token_is_still_searched() -> None:
    """A token taken on the last turn is drawn from the hidden ones [HIDDEN-1]: the plans'
    values then differ between determinizations, so the search runs its whole budget."""
    pos = Position("standard", players=2).tile("A3", "A.2", tokens="abcd")
    pos.figures(0, workers={"A3": 1}).discard(*pos.data["stack"])
    pos.set(phase="scoring", current=0, ap=10, scoring={
        "queue": [0], "final": True, "volcano": None, "holder": None, "rounds": 4})
    game = pos.game()
    bot = MCTSBot(seed=1, iterations=30)
    plans = bot.planner.plan(game.view(0).state, k=bot.candidates)
    assert any(isinstance(a, TakeTreasure) for p in plans for a in p.actions)
    bot.choose(game.view(0))
    assert bot.searches[0][0] == 30
