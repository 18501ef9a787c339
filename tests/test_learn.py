"""The learned evaluation (issue 30): features from the view only, the model file, ``tikal
learn`` and the expert bot."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from random_games import CONFIG_IDS, CONFIGS, finished, perturb_hidden
from test_bots import play
from tikal import Game
from tikal.actions import END_TURN
from tikal.bots import BOT_NAMES, MCTSBot, make_bot
from tikal.bots.analysis import analyze, game_at
from tikal.bots.evaluate import EXPERT_WEIGHTS
from tikal.bots.features import NAMES, rows_of
from tikal.bots.learn import TEMPERATURE_GRID, generate, schedule, split_games, train
from tikal.bots.value import ROUNDS_AHEAD, ValueModel, load_model, packaged_model
from tikal.cli import app
from tikal.rl.gym import TikalGymEnv
from tikal.server.bots import bot_names
from tikal.terminal.play import TerminalGame

runner = CliRunner()


@pytest.fixture(scope="module")
def tiny_data() -> dict[str, np.ndarray]:
    """Self-play data of six games (every setting of the mix may appear)."""
    return generate(6, seed=5)


def positions(seed: int, count: int = 6) -> list[Game]:
    """Positions of random games of every rule set: a few steps in, and finished."""
    out = []
    for i, (rules, players) in enumerate(CONFIGS[:count]):
        out.append(finished(rules, players, seed + i, max_steps=40 + 17 * i))
    return out


# ---------------------------------------------------------------- features: the view only


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 10_000),
       steps=st.integers(0, 250))
def test_features_and_values_read_only_public_information(
        config: tuple[str, int], seed: int, steps: int) -> None:
    """[HIDDEN-1] Two games that differ only in hidden parts (stack order, face-down token
    types) give the same feature rows and the same values, and so does every view."""
    rules, players = config
    game = finished(rules, players, seed, max_steps=steps)
    other = perturb_hidden(game, random.Random(seed))
    model = packaged_model()
    rows = rows_of(game)
    assert len(rows) == players and all(len(r) == len(NAMES) for r in rows)
    assert rows_of(other) == rows
    assert rows_of(game.view(seed % players).state) == rows
    assert model.values(other) == model.values(game)
    assert model.win_chances(other) == model.win_chances(game)


def test_hidden_parts_do_change_the_game_the_features_ignore() -> None:
    """The property above is not empty: the perturbed copies really differ."""
    changed = 0
    for game in positions(3):
        other = perturb_hidden(game, random.Random(1))
        changed += (other.stack, other.tokens, other.token_pool) != (
            game.stack, game.tokens, game.token_pool)
        assert rows_of(other) == rows_of(game)
    assert changed >= 4


# ---------------------------------------------------------------- the model file


def test_a_model_evaluates_identically_after_a_save_and_load_round_trip(
        tmp_path: Path, tiny_data: dict[str, np.ndarray]) -> None:
    model = train(tiny_data, hidden=8, epochs=2, seed=1).model
    path = tmp_path / "model.json"
    model.save(path)
    loaded = load_model(path)
    assert loaded == model
    for game in positions(7):
        assert loaded.values(game) == model.values(game)
        chances = loaded.win_chances(game)
        assert chances == model.win_chances(game)
        assert sum(chances) == pytest.approx(1.0)


def test_the_packaged_model_loads_and_gives_chances_that_sum_to_one() -> None:
    model = load_model()
    assert model.hidden, "the packaged model is the network"
    for game in positions(11):
        chances = model.win_chances(game)
        assert sum(chances) == pytest.approx(1.0) and all(0 <= c <= 1 for c in chances)
    over = finished("demo", 2, 4)
    assert over.is_over
    assert model.win_chances(over) == [1 / len(over.winners) if q in over.winners else 0.0
                                       for q in range(2)]


def test_a_model_file_that_does_not_fit_is_refused_with_the_reason(tmp_path: Path) -> None:
    data = packaged_model().to_json()
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({**data, "features": data["features"][:-1]}))
    with pytest.raises(ValueError, match="other features"):
        load_model(wrong)
    missing = tmp_path / "missing.json"
    missing.write_text(json.dumps({k: v for k, v in data.items() if k != "output"}))
    with pytest.raises(ValueError, match="output"):
        load_model(missing)
    with pytest.raises(ValueError, match="cannot read"):
        load_model(tmp_path / "nowhere.json")


# ---------------------------------------------------------------- training


def test_training_recovers_a_known_relation_and_holds_out_whole_games() -> None:
    """Margins that are a linear function of two features are learned almost exactly by the
    linear model and well by the network; the split keeps each game on one side."""
    rng = np.random.default_rng(0)
    rows, games = 4000, 200
    x = rng.normal(size=(rows, len(NAMES)))
    margin = 3.0 * x[:, 0] - 2.0 * x[:, 5] + 1.0
    data = {"x": x, "margin": margin, "win": (margin > 1).astype(float),
            "game": np.repeat(np.arange(games), rows // games),
            "position": np.arange(rows) // 2, "players": np.full(rows, 2)}
    linear = train(data, hidden=0, seed=2)
    assert linear.report["mse"]["model"] < 0.01 * linear.report["mse"]["constant"]
    network = train(data, hidden=8, epochs=30, seed=2)
    assert network.report["mse"]["model"] < 0.1 * network.report["mse"]["constant"]
    held = split_games(data["game"], 0.15, seed=2)
    assert set(data["game"][held]).isdisjoint(set(data["game"][~held]))
    assert len(set(data["game"][held])) == 30


def test_win_chances_get_a_temperature_per_player_count(tmp_path: Path) -> None:
    """Where the predicted leader always wins (the 2-player games here) the fitted spread is
    the sharpest tried; where the winner is a coin toss (the 4-player games) the widest.
    One spread for all counts made the 2-player chances overconfident between equals."""
    rng = np.random.default_rng(3)
    parts = []
    for players, games in ((2, 120), (4, 120)):
        rows = games * 10 * players
        x = rng.normal(size=(rows, len(NAMES)))
        x[:, ROUNDS_AHEAD] = 0.0
        margin = 5.0 * x[:, 0]
        by_position = margin.reshape(-1, players)
        winner = (by_position.argmax(axis=1) if players == 2
                  else rng.integers(0, players, len(by_position)))
        win = np.eye(players)[winner].reshape(-1)
        parts.append({"x": x, "margin": margin, "win": win,
                      "game": np.repeat(np.arange(games) + 1000 * players, 10 * players),
                      "players": np.full(rows, players)})
    data = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    data["position"] = np.arange(len(data["margin"]))  # not read by the fit
    model = train(data, hidden=0, seed=4).model
    sharpest, widest = min(TEMPERATURE_GRID)[0], max(TEMPERATURE_GRID)[0]
    assert model.temperature_for(2)[0] == sharpest and model.temperature_for(4)[0] == widest
    assert model.temperature_for(3) == model.temperature  # no 3-player games: the overall fit
    rows = [[1.0] + [0.0] * (len(NAMES) - 1), [0.0] * len(NAMES)]
    assert model.chances_of_rows(rows)[0] > 0.9
    assert model.chances_of_rows(rows + [[0.0] * len(NAMES)] * 2)[0] < 0.4
    path = tmp_path / "model.json"
    model.save(path)
    assert load_model(path).temperatures == model.temperatures


def test_self_play_data_is_the_same_whatever_runs_it(tiny_data: dict[str, np.ndarray]) -> None:
    from tikal.bots.arena import ProcessExecutor

    again = generate(6, seed=5, executor=ProcessExecutor(2))
    for key, column in tiny_data.items():
        assert np.array_equal(column, again[key]), key
    # one row per player per position; every position's win shares add up to one
    n = tiny_data["players"]
    assert len(tiny_data["x"]) == len(tiny_data["margin"]) == len(n)
    for position in np.unique(tiny_data["position"])[:50]:
        rows = tiny_data["position"] == position
        assert rows.sum() == n[rows][0]
        assert tiny_data["win"][rows].sum() == pytest.approx(1.0)
        assert tiny_data["margin"][rows].sum() == pytest.approx(0.0)
    assert {t.rules for t in schedule(60, 1)} == {"standard", "auction", "demo"}


def test_tikal_learn_is_deterministic_for_its_seed(tmp_path: Path) -> None:
    first, second = tmp_path / "a.npz", tmp_path / "b.npz"
    for out in (first, second):
        result = runner.invoke(app, ["learn", "data", "--games", "3", "--seed", "4",
                                     "--out", str(out)])
        assert result.exit_code == 0, result.output
        assert "3 games" in result.output
    with np.load(first) as a, np.load(second) as b:
        assert a.files == b.files and all(np.array_equal(a[k], b[k]) for k in a.files)
    models = []
    for name in ("m1.json", "m2.json"):
        out = tmp_path / name
        result = runner.invoke(app, ["learn", "train", str(first), "--out", str(out),
                                     "--epochs", "3", "--hidden", "4", "--seed", "9",
                                     "--plot", str(tmp_path / "loss.png"),
                                     "--report", str(tmp_path / "report.json")])
        assert result.exit_code == 0, result.output
        models.append(out.read_text())
    assert models[0] == models[1]
    assert (tmp_path / "loss.png").stat().st_size > 1000
    report = json.loads((tmp_path / "report.json").read_text())
    assert len(report["curves"]) == 3 and set(report["mse"]) == {"constant", "linear", "model"}


def test_tikal_learn_train_names_unreadable_data(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    bad.write_text("not an archive")
    result = runner.invoke(app, ["learn", "train", str(bad), "--out", str(tmp_path / "m.json")])
    assert result.exit_code == 1
    assert "bad.npz" in result.output
    assert not (tmp_path / "m.json").exists()


# ---------------------------------------------------------------- games played elsewhere


def recorded_games(tmp_path: Path, count: int = 3) -> list[dict[str, object]]:
    """Finished random games of the demo and of two standard settings, as records on disk
    (as ``tikal arena --records`` keeps them)."""
    records = []
    for i, (rules, players) in enumerate([("demo", 2), ("standard", 2), ("standard", 3)][:count]):
        game = finished(rules, players, 40 + i)
        assert game.is_over
        record = {**game.record(), "bots": ["random"] * players}
        (tmp_path / f"game-{i:04d}.json").write_text(json.dumps(record))
        records.append(record)
    return records


def test_recorded_games_are_judged_position_by_position(tmp_path: Path) -> None:
    from tikal.bots.learn import UnreadableRecord, calibrate_records, record_positions

    records = recorded_games(tmp_path)
    positions, shares = record_positions(records[0])
    game = Game.from_record(records[0])
    turns = sum(1 for a in game.history if a == END_TURN)
    assert len(positions) == turns  # the start, then after every turn but the last
    assert sum(shares) == pytest.approx(1.0)
    assert positions[0] == rows_of(Game.new("demo", 2, seed=game.seed))
    found = calibrate_records([(f"game {i}", r) for i, r in enumerate(records)],
                              packaged_model())
    assert set(found) == {"2", "3"} and found["2"]["games"] == 2
    assert found["3"]["uniform_log_loss"] == pytest.approx(np.log(3))
    assert all(0 < row["log_loss"] < 10 and 0 <= row["brier"] <= 2 for row in found.values())
    cut = {**records[1], "log": [*records[1]["log"][:3], "not an action"]}
    with pytest.raises(UnreadableRecord) as refused:
        calibrate_records([("fine", records[0]), ("cut", cut)], packaged_model())
    assert refused.value.name == "cut" and refused.value.error.index == 3


def test_tikal_learn_calibrate_reads_a_folder_of_records(tmp_path: Path) -> None:
    recorded_games(tmp_path, count=2)
    out = tmp_path / "calibration.json"
    result = runner.invoke(app, ["learn", "calibrate", str(tmp_path), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 recorded games" in result.output
    assert set(json.loads(out.read_text())) == {"2"}
    (tmp_path / "game-0009.json").write_text("{not json")
    bad = runner.invoke(app, ["learn", "calibrate", str(tmp_path)])
    assert bad.exit_code == 1 and "game-0009.json" in bad.output
    empty = tmp_path / "none"
    empty.mkdir()
    nothing = runner.invoke(app, ["learn", "calibrate", str(empty)])
    assert nothing.exit_code == 1 and "none" in nothing.output


# ---------------------------------------------------------------- features


def test_tikal_learn_calibrate_names_the_file_that_does_not_replay(tmp_path: Path) -> None:
    recorded_games(tmp_path, count=2)
    (tmp_path / "game-0005.json").write_text(json.dumps({"format": "not a record"}))
    bad = runner.invoke(app, ["learn", "calibrate", str(tmp_path)])
    assert bad.exit_code == 1 and "game-0005.json" in bad.output


def test_the_search_win_chance_is_judged_for_each_temperature(tmp_path: Path) -> None:
    """``spread_fit`` scores exactly the search's reward (``win_chance`` over the hand-made
    estimates, spread = temperature * (1 + rounds ahead)) and names the best temperature."""
    from tikal.bots.evaluate import Evaluator
    from tikal.bots.learn import UnreadableRecord, measured_positions, spread_fit
    from tikal.bots.mcts import win_chance

    records = recorded_games(tmp_path)
    found = spread_fit([(f"game {i}", r) for i, r in enumerate(records)], EXPERT_WEIGHTS,
                       [5.0, 1.0, 2.5])
    assert set(found) == {"2", "3"} and found["2"]["games"] == 2
    three = found["3"]
    assert list(three["log_loss"]) == [1.0, 2.5, 5.0]
    assert three["best"] == min(three["log_loss"], key=three["log_loss"].get)

    def by_hand(game: Game) -> tuple[list[float], int]:
        ev = Evaluator(game, EXPERT_WEIGHTS)
        return ev.values(game), max(ev.rounds)

    positions, shares = measured_positions(records[2], by_hand)
    assert three["positions"] == len(positions)
    expected = np.mean([-sum(share * np.log(win_chance(values, q, 2.5 * (1 + ahead)))
                              for q, share in enumerate(shares) if share)
                        for values, ahead in positions])
    assert three["log_loss"][2.5] == pytest.approx(expected, rel=1e-9)
    cut = {**records[1], "log": [*records[1]["log"][:3], "not an action"]}
    with pytest.raises(UnreadableRecord):
        spread_fit([("cut", cut)], EXPERT_WEIGHTS)


def test_tikal_learn_spread_prints_the_log_loss_by_temperature(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    recorded_games(games, count=2)
    out = tmp_path / "spread.json"
    result = runner.invoke(app, ["learn", "spread", str(games), "--weights", "expert",
                                 "--temperatures", "2.5, 5", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 recorded games" in result.output and "2 players" in result.output
    saved = json.loads(out.read_text())["2"]
    assert set(saved["log_loss"]) == {"2.5", "5.0"} and saved["best"] in (2.5, 5.0)
    german = runner.invoke(app, ["learn", "spread", str(games), "--lang", "de"])
    assert german.exit_code == 0 and "Temperatur" in german.output
    for option, value, named in (("--temperatures", "2.5,hot", "hot"),
                                 ("--temperatures", "0", "0"),
                                 ("--weights", "no_such_set", "no_such_set")):
        bad = runner.invoke(app, ["learn", "spread", str(games), option, value])
        assert bad.exit_code == 2 and named in bad.output and option in bad.output


def test_played_ranks_place_every_searched_decision_among_the_bot_plans() -> None:
    """A search bot plays one of its planner's distinct plans in every decision it searched
    (the shares ``replies="drawn"`` draws from count them): read back from the game's
    record, each such decision ranks among those plans, one rank per search."""
    from tikal.bots.greedy import GreedyBot
    from tikal.bots.opponents import played_ranks

    game = Game.new("demo", 2, seed=11)
    search = MCTSBot(seed=11, iterations=4, seconds=None, candidates=4, beam=2)
    play(game, [search, GreedyBot(seed=12)])
    ranks = list(played_ranks(game.record(), [0], search.planner, 4))
    assert len(ranks) == len(search.searches) > 5
    assert None not in ranks and set(ranks) <= {0, 1, 2, 3} and set(ranks) != {0}


def test_tikal_learn_replies_prints_each_plan_share(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    for i in range(2):
        game = Game.new("demo", 2, seed=30 + i)
        play(game, [make_bot("greedy", seed=i), make_bot("random", seed=i)])
        record = {**game.record(), "bots": ["greedy", "random"]}
        (games / f"game-{i:04d}.json").write_text(json.dumps(record))
    out = tmp_path / "replies.json"
    result = runner.invoke(app, ["learn", "replies", str(games), "--bot", "greedy",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "2 recorded games" in result.output and "plan" in result.output
    saved = json.loads(out.read_text())["2"]
    assert saved["games"] == 2 and saved["decisions"] > 5
    assert sum(saved["counts"]) + saved["unranked"] == saved["decisions"]
    assert sum(saved["shares"]) == pytest.approx(1.0, abs=1e-3)
    # greedy plays the planner's first plan of one placement; among 10 it is mostly first
    assert saved["shares"][0] > 0.5
    german = runner.invoke(app, ["learn", "replies", str(games), "--bot", "greedy",
                                 "--lang", "de"])
    assert german.exit_code == 0 and "Spieler" in german.output
    unplanned = runner.invoke(app, ["learn", "replies", str(games), "--bot", "random"])
    assert unplanned.exit_code == 2 and "random" in unplanned.output
    assert "plans no turns" in unplanned.output
    unplanned_de = runner.invoke(app, ["learn", "replies", str(games), "--bot", "random",
                                       "--lang", "de"])
    assert unplanned_de.exit_code == 2 and "plant keine Züge" in unplanned_de.output
    absent = runner.invoke(app, ["learn", "replies", str(games), "--bot", "expert"])
    assert absent.exit_code == 1 and "expert" in absent.output


def test_volcano_odds_follow_the_letters_left_in_the_stack() -> None:
    """The chance that the next tile is a volcano, the draws expected before one and who
    draws it, from the public make-up of the stack ([SETUP-1], [SCORE-1])."""
    from tikal.bots.features import volcano_odds
    from tikal.components import VOLCANO

    game = Game.new("standard", 2, seed=3)
    tile = game.rules.tile
    top_letter = tile(game.stack[-1]).letter
    group = [t for t in game.stack if tile(t).letter == top_letter]
    volcanoes = sum(tile(t).kind == VOLCANO for t in group)
    chance, draws, drawer = volcano_odds(game)
    if volcanoes:
        assert chance == pytest.approx(volcanoes / len(group))
    else:
        assert chance == 0.0 and draws >= len(group)
    assert sum(drawer) == pytest.approx(1.0) and 0 <= draws <= len(game.stack)
    game.stack = [t for t in game.stack if tile(t).kind != VOLCANO]
    assert volcano_odds(game) == (0.0, float(len(game.stack)), [0.0, 0.0])
    auction = Game.new("auction", 3, seed=1)
    shown = any(tile(t).kind == VOLCANO for t in auction.display)
    assert volcano_odds(auction)[0] == float(shown)


# ---------------------------------------------------------------- the expert bot


@pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=CONFIG_IDS)
def test_the_expert_never_plays_an_illegal_action(rules: str, players: int) -> None:
    game = Game.new(rules, players, seed=players * 7 + len(rules))
    bots = [make_bot("expert", seed=1, players=players, iterations=3, candidates=3, beam=1)]
    bots += [make_bot("random", seed=p) for p in range(1, players)]
    play(game, bots)
    assert game.is_over
    assert bots[0].simulations > 0  # it searched


def test_the_expert_is_offered_by_every_front_end(tmp_path: Path) -> None:
    """Selectable in the web app's level list, the terminal game and the RL opponents."""
    assert "expert" in BOT_NAMES and "expert" in bot_names()
    out = io.StringIO()
    terminal = TerminalGame(rules="demo", players=2, bots=["expert"], seed=2,
                            console=Console(file=out), read_line=lambda prompt: "1",
                            record_path=tmp_path / "g.json", bot_seconds=0.05)
    bot = terminal.bots[1]
    assert isinstance(bot, MCTSBot) and bot.weights == EXPERT_WEIGHTS and bot.seconds == 0.05
    env = TikalGymEnv("demo", 2, seat=0, opponent="expert")
    env.reset(seed=1)
    opponent = env.bots[1]
    assert isinstance(opponent, MCTSBot) and opponent.weights == EXPERT_WEIGHTS


def test_learned_leaves_change_what_the_search_prefers() -> None:
    """With ``value="learned"`` the leaf is the model's win chance, not the hand-made soft
    chance: on the same determinizations the two give different rewards."""
    game = finished("standard", 2, 12, max_steps=120)
    me = game.current
    learned = make_bot("hard", seed=3, players=2, iterations=4, value="learned")
    plain = make_bot("hard", seed=3, players=2, iterations=4)
    assert isinstance(learned, MCTSBot) and isinstance(plain, MCTSBot)
    plan = learned.planner.plan(game.view(me).state, k=1)[0].actions
    world = game.view(me).determinize(random.Random(1))
    a = learned.simulate(world.clone(), plan, me)
    b = plain.simulate(world.clone(), plan, me)
    assert 0 <= a <= 1 and 0 <= b <= 1 and a != b


def test_analysis_chances_come_from_the_learned_model_unless_asked() -> None:
    game = Game.new("demo", 2, seed=8)
    play(game, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
    record = game.record()
    learned = analyze(record, budget=2, seat=0)
    hand = analyze(record, budget=2, seat=0, evaluation="hand_made")
    assert [r.index for r in learned] == [r.index for r in hand]
    assert [r.position_chance for r in learned] != [r.position_chance for r in hand]
    first = game_at(record, learned[0].start)
    assert learned[0].position_chance == pytest.approx(
        packaged_model().win_chances(first.view(0).state), abs=1e-4)
    with pytest.raises(ValueError, match="evaluation"):
        analyze(record, budget=1, seat=0, evaluation="oracle")


def test_value_model_rejects_layers_that_do_not_fit() -> None:
    model = packaged_model()
    with pytest.raises(ValueError, match="sizes"):
        ValueModel(model.mean, model.scale, model.linear, model.bias, model.hidden,
                   model.hidden_bias, model.output[:-1])
    with pytest.raises(ValueError, match="linear"):
        ValueModel(model.mean, model.scale, model.linear[:-1], model.bias)
