"""`tikal compare`: two arena runs of a bot paired by deal and seat (the docs' "paired"
figures), its errors and its words in English and German."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tikal.bots.arena import parse_bots, run_arena
from tikal.bots.compare import CompareError, compare, result_of_records, side_of
from tikal.cli import app

runner = CliRunner()


def arena_result(bots: str, seed: int, games: int = 4) -> dict[str, Any]:
    return run_arena("demo", 2, parse_bots(bots, 2), games, seed=seed).to_json()


def by_hand(first: dict[str, Any], second: dict[str, Any], a: str, b: str
            ) -> list[tuple[float, float]]:
    """(first's win - second's win, score difference) per deal and seat, matched here
    without the module: the seat each label sat in, game by game."""
    seconds = {(g["seed"], g["bots"].index(b)): g for g in second["games"]}
    pairs = []
    for game in first["games"]:
        seat = game["bots"].index(a)
        other = seconds.get((game["seed"], seat))
        if other is not None:
            pairs.append((game["wins"][seat] - other["wins"][seat],
                          game["scores"][seat] - other["scores"][seat]))
    return pairs


def test_a_side_of_one_run_agrees_with_the_arenas_own_summary() -> None:
    result = arena_result("greedy,random", seed=3)
    side = side_of([("run.json", result)])
    summary = result["bots"]["greedy"]
    assert side.labels == ("greedy",) and (side.rules, side.players) == ("demo", 2)
    assert side.games == summary["games"] == 4
    assert side.win_rate == pytest.approx(summary["win_rate"])
    assert side.mean_score == pytest.approx(summary["mean_score"])
    assert side.ci95 == pytest.approx(tuple(summary["ci95"]))


def test_two_runs_are_paired_by_deal_and_seat() -> None:
    first = arena_result("greedy,random", seed=10, games=6)
    second = arena_result("easy,random", seed=11, games=6)  # deals 11-13: two shared
    paired = compare(side_of([("a", first)]), side_of([("b", second)]))
    pairs = by_hand(first, second, "greedy", "easy")
    assert paired.games == len(pairs) == 4  # deals 11 and 12, both seats
    assert (paired.only_first, paired.only_second) == (2, 2)
    wins = [100 * w for w, _ in pairs]
    assert paired.points == pytest.approx(statistics.mean(wins))
    assert paired.points_se == pytest.approx(statistics.stdev(wins) / math.sqrt(4))
    scores = [s for _, s in pairs]
    assert paired.score == pytest.approx(statistics.mean(scores))
    assert paired.score_se == pytest.approx(statistics.stdev(scores) / math.sqrt(4))
    assert paired.first_rate - paired.second_rate == pytest.approx(paired.points / 100)


def game(seed: int, bots: list[str], wins: list[float], scores: list[int],
         error: str | None = None) -> dict[str, Any]:
    return {"seed": seed, "bots": bots, "wins": wins, "scores": scores, "error": error}


def result(lineup: list[str], games: list[dict[str, Any]], players: int = 2) -> dict[str, Any]:
    return {"config": {"rules": "standard", "players": players, "lineup": lineup},
            "games": games}


def test_sides_gather_several_runs_skip_failed_games_and_follow_the_named_bot() -> None:
    one = result(["new", "old"], [game(1, ["new", "old"], [1, 0], [90, 80]),
                                  game(1, ["old", "new"], [0, 1], [70, 95])])
    two = result(["new", "old"], [game(2, ["new", "old"], [0.5, 0.5], [88, 88]),
                                  game(2, ["old", "new"], [0, 0], [0, 0], error="crashed")])
    side = side_of([("one", one), ("two", two)])
    assert sorted(side.outcomes) == [(1, 0), (1, 1), (2, 0)]
    assert side.win_rate == pytest.approx(2.5 / 3)
    opponent = side_of([("one", one), ("two", two)], bot="old")
    assert opponent.labels == ("old",) and opponent.win_rate == pytest.approx(0.5 / 3)
    paired = compare(side, opponent)  # deal 1 both seats; deal 2 seat 0 vs seat 1 unpaired
    assert paired.games == 2 and paired.points == pytest.approx(100.0)
    assert (paired.only_first, paired.only_second) == (1, 1)


def test_a_mirror_match_pairs_every_seat_the_bot_sat_in() -> None:
    mirror = result(["hard", "hard"], [game(5, ["hard", "hard"], [1, 0], [100, 90])])
    other = result(["hard", "hard"], [game(5, ["hard", "hard"], [0, 1], [80, 99])])
    paired = compare(side_of([("m", mirror)]), side_of([("o", other)]))
    assert paired.games == 2 and paired.points == pytest.approx(0.0)
    assert paired.score == pytest.approx((20 - 9) / 2)


@pytest.mark.parametrize(("runs", "key", "named"), [
    ([("a", result(["x", "y"], [game(1, ["x", "y"], [1, 0], [1, 0])])),
      ("b", result(["x", "y"], [game(1, ["x", "y"], [0, 1], [0, 1])]))], "twice", "a"),
    ([("a", result(["x", "y"], [game(1, ["x", "y"], [1, 0], [1, 0])])),
      ("b", result(["x", "y", "y"], [], players=3))], "mixed", "b"),
    ([("a", result(["x", "y"], [game(1, ["x", "y"], [1], [1, 0])]))], "field", "games[0].wins"),
    ([("a", {"config": {"rules": "standard", "players": "2", "lineup": ["x"]}, "games": []})],
     "field", "config.players"),
    ([("a", [1, 2])], "field", "config"),
    ([("a", result(["x", "y"], [game(1, ["y", "y"], [1, 0], [1, 0])]))], "no_games", "x"),
    ([], "no_runs", None),
])
def test_a_result_that_cannot_be_compared_is_refused_by_name(
        runs: list[tuple[str, Any]], key: str, named: str | None) -> None:
    with pytest.raises(CompareError) as caught:
        side_of(runs)
    assert caught.value.key == key
    if named is not None:
        assert named in caught.value.params.values()


def test_sides_of_other_deals_or_player_counts_are_not_paired() -> None:
    two = side_of([("a", result(["x", "y"], [game(1, ["x", "y"], [1, 0], [1, 0])]))])
    elsewhere = side_of([("b", result(["x", "y"], [game(2, ["x", "y"], [1, 0], [1, 0])]))])
    three = side_of([("c", result(["x", "y", "y"], [game(1, ["x", "y", "y"], [1, 0, 0],
                                                             [1, 0, 0])], players=3))])
    with pytest.raises(CompareError) as caught:
        compare(two, elsewhere)
    assert caught.value.key == "nothing_shared"
    with pytest.raises(CompareError) as caught:
        compare(two, three)
    assert caught.value.key == "sides_differ"
    assert compare(two, two).points_se is None  # one pair: no standard error


def test_tikal_compare_prints_both_sides_and_the_paired_difference(tmp_path: Path) -> None:
    first, second = tmp_path / "new.json", tmp_path / "old.json"
    first.write_text(json.dumps(arena_result("greedy,random", seed=20)))
    second.write_text(json.dumps(arena_result("easy,random", seed=20)))
    out = tmp_path / "paired.json"
    ran = runner.invoke(app, ["compare", str(first), "--against", str(second),
                              "--json", str(out)])
    assert ran.exit_code == 0, ran.output
    saved = json.loads(out.read_text())
    assert saved["paired"]["games"] == 4 and saved["first"]["bots"] == ["greedy"]
    assert saved["second"]["bots"] == ["easy"]
    assert "Paired by deal and seat over the 4 games" in ran.output
    assert f"{saved['paired']['points']:+.1f} points" in ran.output
    german = runner.invoke(app, ["compare", str(first), "--against", str(second),
                                 "--lang", "de"])
    assert german.exit_code == 0 and "Gepaart nach Auslage und Platz" in german.output


def test_tikal_compare_names_the_file_it_cannot_use(tmp_path: Path) -> None:
    good, broken = tmp_path / "good.json", tmp_path / "broken.json"
    good.write_text(json.dumps(arena_result("greedy,random", seed=30, games=2)))
    broken.write_text("{not json")
    for against, said in ((broken, "broken.json"), (tmp_path / "missing.json", "missing.json")):
        ran = runner.invoke(app, ["compare", str(good), "--against", str(against)])
        assert ran.exit_code == 1 and said in ran.output
    other = tmp_path / "other.json"
    other.write_text(json.dumps(arena_result("greedy,random", seed=40, games=2)))
    ran = runner.invoke(app, ["compare", str(good), "--against", str(other)])
    assert ran.exit_code == 1 and "share no deal and seat" in ran.output


def records_of(folder: Path) -> list[tuple[str, Any]]:
    return [(str(f), json.loads(f.read_text())) for f in sorted(folder.glob("game-*.json"))]


def test_a_runs_records_read_as_the_result_it_wrote(tmp_path: Path) -> None:
    ran = run_arena("demo", 2, parse_bots("greedy,random", 2), 6, seed=50, records=tmp_path)
    written = side_of([("run.json", ran.to_json())])
    rebuilt = result_of_records(records_of(tmp_path))
    read = side_of([("records", rebuilt)])
    assert read.labels == ("greedy",) and read.outcomes == written.outcomes
    assert read.games == 6
    assert rebuilt["bots"] == ran.to_json()["bots"]  # the per-bot figures, timings included
    assert {key: rebuilt["config"][key] for key in ("lineup", "budgets", "seed", "games")} == {
        key: ran.config[key] for key in ("lineup", "budgets", "seed", "games")}


def test_records_find_the_lineup_from_any_game_and_leave_out_unfinished_ones(
        tmp_path: Path) -> None:
    run_arena("demo", 2, parse_bots("greedy,random", 2), 4, seed=60, records=tmp_path)
    records = records_of(tmp_path)
    second_seating = [r for r in records if r[0].endswith("game-0001.json")]
    assert second_seating[0][1]["bots"] == ["random", "greedy"]
    assert result_of_records(second_seating)["config"]["lineup"] == ["greedy", "random"]
    records[0][1]["result"]["over"] = False
    read = side_of([("records", result_of_records(records))])
    assert read.games == 3 and (60, 0) not in read.outcomes
    records[1][1]["result"]["over"] = False
    records[1][1]["arena"]["error"] = "seat 0 (random): RuntimeError('boom')"
    rebuilt = result_of_records(records)
    assert rebuilt["errors"] == ["game 1: seat 0 (random): RuntimeError('boom')"]
    assert side_of([("records", rebuilt)]).games == 2


@pytest.mark.parametrize(("change", "key", "field"), [
    (lambda name, r: ("game-x.json", r), "record_name", None),
    (lambda name, r: (name, {**r, "bots": ["greedy"]}), "record_field", "bots"),
    (lambda name, r: (name, {**r, "seed": "60"}), "record_field", "seed"),
    (lambda name, r: (name, {**r, "result": {"over": True, "scores": [1, 2],
                                             "winners": [5]}}), "record_field",
     "result.winners"),
    (lambda name, r: (name, {**r, "players": 3}), "record_field", "bots"),
])
def test_a_record_that_cannot_be_read_is_refused_by_name(
        tmp_path: Path, change: Any, key: str, field: str | None) -> None:
    run_arena("demo", 2, parse_bots("greedy,random", 2), 2, seed=60, records=tmp_path)
    name, record = records_of(tmp_path)[0]
    with pytest.raises(CompareError) as caught:
        result_of_records([change(name, record)])
    assert caught.value.key == key
    if field is not None:
        assert caught.value.params == {"file": name, "field": field}


def test_tikal_compare_takes_a_folder_of_records(tmp_path: Path) -> None:
    stopped, finished, empty = tmp_path / "stopped", tmp_path / "run.json", tmp_path / "none"
    run_arena("demo", 2, parse_bots("greedy,random", 2), 4, seed=70, records=stopped)
    finished.write_text(json.dumps(arena_result("easy,random", seed=70)))
    ran = runner.invoke(app, ["compare", str(stopped), "--against", str(finished)])
    assert ran.exit_code == 0, ran.output
    assert "Paired by deal and seat over the 4 games" in ran.output
    empty.mkdir()
    refused = runner.invoke(app, ["compare", str(empty), "--against", str(finished)])
    assert refused.exit_code == 1 and "holds no game records" in refused.output
    (stopped / "game-0000.json").write_text("{cut")
    german = runner.invoke(app, ["compare", str(stopped), "--against", str(finished),
                                 "--lang", "de"])
    assert german.exit_code == 1 and "Partieaufzeichnung" in german.output


def test_a_game_given_twice_is_named_by_its_deal_as_the_arena_writes_it(tmp_path: Path) -> None:
    """A deal's seed is a name, not a quantity: no thousands separator (91,124)."""
    run = tmp_path / "run.json"
    run.write_text(json.dumps(arena_result("greedy,random", seed=91124, games=2)))
    ran = runner.invoke(app, ["compare", str(run), str(run), "--against", str(run)])
    assert ran.exit_code == 1 and "deal 91124, seat 0" in ran.output
