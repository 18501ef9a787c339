"""The arena: seat rotation, aggregation, JSON/plot/records output, executors, the CLI."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from typer.testing import CliRunner

from tikal import Game
from tikal.bots.arena import (
    RECORD_GLOB,
    ArenaResult,
    BotSpec,
    Budget,
    GameResult,
    ProcessExecutor,
    RecordError,
    SeatStats,
    SerialExecutor,
    lineup_of,
    parse_bots,
    parse_budget,
    read_record,
    record_index,
    record_name,
    run_arena,
    save_plot,
    schedule,
    seating,
    summarize,
    wilson,
)
from tikal.cli import app

T = TypeVar("T")
R = TypeVar("R")

runner = CliRunner()


def test_budgets_parse() -> None:
    assert parse_budget("2s") == Budget(seconds=2.0)
    assert parse_budget("150") == Budget(iterations=150)
    assert parse_budget("150/0.5s") == Budget(seconds=0.5, iterations=150)
    assert parse_budget("default").empty and parse_budget(None).empty
    for bad in ("fast", "-3", "0s"):
        with pytest.raises(ValueError, match="budget"):
            parse_budget(bad)


def test_lineup_fills_up_and_takes_per_bot_budgets() -> None:
    lineup = parse_bots("mcts:2s,greedy", 4, Budget(iterations=5))
    assert [s.label for s in lineup] == ["mcts:2s", "greedy", "greedy", "greedy"]
    assert lineup[0].budget == Budget(seconds=2.0)
    assert lineup[1].budget == Budget(iterations=5)
    with pytest.raises(ValueError, match="unknown bot"):
        parse_bots("mcts,deepblue", 2)
    with pytest.raises(ValueError, match="seats"):
        parse_bots("random,random,random", 2)


def test_a_bot_can_play_with_weights_from_a_file(tmp_path: Path) -> None:
    """``mcts@file`` / ``greedy:8@file``: the bot is built with the file's weights, the
    others with the packaged ones; a bad file or a bot without weights is refused."""
    from tikal.bots.evaluate import DEFAULT_WEIGHTS, Weights

    other = Weights.from_json({**DEFAULT_WEIGHTS.to_json(), "later": 0.9})
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"weights": other.to_json()}))
    lineup = parse_bots(f"mcts:7@{path},mcts:7", 2)
    assert lineup[0].label == f"mcts:7@{path}" and lineup[1].label == "mcts:7"
    built = [spec.build(1) for spec in lineup]
    assert [b.weights for b in built] == [other, DEFAULT_WEIGHTS]  # type: ignore[attr-defined]
    assert [b.iterations for b in built] == [7, 7]  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="weights"):
        parse_bots(f"random@{path}", 2)
    with pytest.raises(ValueError, match="cannot read weights"):
        parse_bots(f"greedy@{tmp_path / 'missing.json'}", 2)



def test_a_bot_entry_can_carry_constructor_settings() -> None:
    """``mcts+reply_placements=4:7``: the setting reaches the bot (numbers as numbers),
    the entry keeps its own label, and an unknown key or a bot without settings is
    refused with the keys it takes."""
    lineup = parse_bots("mcts+reply_placements=4+temperature=1.5:7,mcts:7", 2)
    assert lineup[0].label == "mcts+reply_placements=4+temperature=1.5:7"
    tuned, plain = (spec.build(1) for spec in lineup)
    assert tuned.replier.placements == 4 and plain.replier.placements == 8  # type: ignore[attr-defined]
    assert tuned.temperature == 1.5 and tuned.iterations == 7  # type: ignore[attr-defined]
    assert parse_bots("greedy+beam=2", 2)[0].build(1).planner.beam == 2  # type: ignore[attr-defined]
    flags = [spec.settings for spec in parse_bots("mcts+keep_first=false,mcts+keep_first=True", 2)]
    assert flags == [(("keep_first", False),), (("keep_first", True),)]
    with pytest.raises(ValueError, match="reply_placements"):
        parse_bots("mcts+depth=3", 2)
    with pytest.raises(ValueError, match="keys: none"):
        parse_bots("random+beam=1", 2)
    with pytest.raises(ValueError, match="key=value"):
        parse_bots("greedy+beam", 2)

@pytest.mark.parametrize("players", [2, 3, 4])
def test_seats_rotate_so_every_bot_plays_every_seat_equally(players: int) -> None:
    lineup = parse_bots("mcts,greedy,random", players) if players >= 3 else parse_bots(
        "mcts,greedy", players)
    tasks = schedule("standard", lineup, 10, seed=4)
    assert len(tasks) % players == 0 and len(tasks) >= 10
    per_seat: Counter[tuple[str, int]] = Counter()
    for task in tasks:
        for s, spec in enumerate(task.seats):
            per_seat[spec.label, s] += 1
    for label in {spec.label for spec in lineup}:
        counts = {per_seat[label, s] for s in range(players)}
        assert len(counts) == 1, (label, per_seat)
    # every deal is played in every rotation
    deals = Counter(task.seed for task in tasks)
    assert set(deals.values()) == {players}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_games_seats_give_back_the_lineup(players: int) -> None:
    """``tikal compare`` finds a run's line-up from any one record by turning its seats
    back; a rotation that did not invert would credit one bot's games to another."""
    lineup = ["expert", "hard", "greedy", "random"][:players]
    for game in range(3 * players):
        seats = seating(lineup, game)
        assert sorted(seats) == sorted(lineup)
        assert seats[game % players] == lineup[0]  # the first bot moves one seat per game
        assert lineup_of(list(seats), game) == lineup
    tasks = schedule("standard", parse_bots(",".join(lineup[:2]), players), 4, seed=1)
    assert tasks[1].seats == seating(tasks[0].seats, 1)


def test_record_names_are_found_again_by_their_pattern(tmp_path: Path) -> None:
    """The arena's writer and the folder reader share one name, so they cannot drift."""
    lineup = parse_bots("random,random", 2)
    run_arena("demo", 2, lineup, 4, seed=5, records=tmp_path)
    names = sorted(path.name for path in tmp_path.glob(RECORD_GLOB))
    assert names == [record_name(i) for i in range(4)]
    assert [record_index(name) for name in names] == [0, 1, 2, 3]
    assert record_index("game-12.json") == 12
    assert record_index("result.json") is None and record_index("game-x.json") is None


class CountingExecutor(SerialExecutor):
    """Plays serially and notes which games it was given to play."""

    def __init__(self) -> None:
        self.played: list[int] = []

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        for task in tasks:
            self.played.append(task.index)  # type: ignore[attr-defined]
            yield fn(task)


def test_a_stopped_run_resumes_where_it_stopped_and_writes_the_result_it_would_have(
        tmp_path: Path) -> None:
    """Games whose records are there are read back, with the figures the run counted;
    only the missing ones, and one whose record was cut short mid-write, are played."""
    lineup = parse_bots("greedy,mcts", 2, Budget(iterations=4))
    whole = run_arena("demo", 2, lineup, 6, seed=21, records=tmp_path)
    (tmp_path / record_name(4)).unlink()
    cut = tmp_path / record_name(1)
    cut.write_text(cut.read_text()[:300])
    executor = CountingExecutor()
    resumed = run_arena("demo", 2, lineup, 6, seed=21, executor=executor, records=tmp_path,
                        resume=True)
    assert executor.played == [1, 4]
    assert resumed.config["read_from_records"] == 4
    assert [r.index for r in resumed.results] == list(range(6))
    for before, after in zip(whole.results, resumed.results, strict=True):
        assert [s.score for s in after.seats] == [s.score for s in before.seats]
        if after.index not in (1, 4):  # read back: the very figures the run counted
            assert after.seats == before.seats and after.actions == before.actions
    assert sorted(p.name for p in tmp_path.iterdir()) == [record_name(i) for i in range(6)]
    again = run_arena("demo", 2, lineup, 6, seed=21, executor=CountingExecutor(),
                      records=tmp_path, resume=True)
    assert again.config["read_from_records"] == 6
    assert again.to_json()["bots"] == resumed.to_json()["bots"]  # timings included
    assert again.bots["mcts"].simulations_per_search == 4


def test_resuming_with_another_runs_records_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    lineup = parse_bots("greedy,random", 2)
    run_arena("demo", 2, lineup, 2, seed=31, records=tmp_path)
    before = {p.name: p.read_text() for p in tmp_path.iterdir()}
    for other, seed, field in ((lineup, 32, "seed"), (parse_bots("random,greedy", 2), 31, "bots"),
                               (parse_bots("greedy,mcts", 2, Budget(iterations=4)), 31, "bots")):
        with pytest.raises(RecordError) as caught:
            run_arena("demo", 2, other, 2, seed=seed, records=tmp_path, resume=True)
        assert caught.value.field == field and caught.value.file.endswith(record_name(0))
    searching = parse_bots("greedy,mcts", 2, Budget(iterations=4))
    run_arena("demo", 2, searching, 2, seed=31, records=tmp_path / "budget")
    with pytest.raises(RecordError) as caught:
        run_arena("demo", 2, parse_bots("greedy,mcts", 2, Budget(iterations=5)), 2, seed=31,
                  records=tmp_path / "budget", resume=True)
    assert caught.value.field == "arena.seats.budget"
    assert {p.name: p.read_text() for p in tmp_path.iterdir() if p.is_file()} == before


def test_a_record_from_before_the_arena_kept_its_figures_gives_the_outcome(
        tmp_path: Path) -> None:
    run_arena("demo", 2, parse_bots("greedy,random", 2), 2, seed=41, records=tmp_path)
    name = str(tmp_path / record_name(1))
    record = json.loads(Path(name).read_text())
    kept = read_record(name, record)
    del record["arena"]
    old = read_record(name, record)
    assert kept.result is not None and old.result is not None
    assert old.bots == ("random", "greedy") and old.budgets == (None, None)
    assert [s.win for s in old.result.seats] == [s.win for s in kept.result.seats]
    assert [s.margin for s in old.result.seats] == [s.margin for s in kept.result.seats]
    assert all(s.thinking == 0.0 and s.decisions == 0 for s in old.result.seats)
    assert kept.result.seats[1].decisions > 0
    record["arena"] = {"seats": [{"decisions": "many"}, {}]}
    with pytest.raises(RecordError) as caught:
        read_record(name, record)
    assert caught.value.field == "arena.seats[0].decisions"


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.404, abs=0.002) and high == pytest.approx(0.596, abs=0.002)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_run_arena_aggregates_per_bot_and_splits_ties(tmp_path: Path) -> None:
    lineup = parse_bots("random,random", 2)
    result = run_arena("demo", 2, lineup, 4, seed=3, records=tmp_path)
    data = result.to_json()
    assert list(data["bots"]) == ["random"]  # a bot listed twice is one entry
    entry = data["bots"]["random"]
    assert entry["games"] == 8
    assert entry["wins"] == pytest.approx(4.0)  # each game gives exactly one win in total
    for key in ("games", "wins", "win_rate", "ci95", "mean_score", "mean_decision_s"):
        assert key in entry
    assert len(list(tmp_path.glob("game-*.json"))) == 4


def test_arena_games_replay_from_their_records(tmp_path: Path) -> None:
    lineup = parse_bots("greedy,random", 2)
    result = run_arena("demo", 2, lineup, 2, seed=9, records=tmp_path)
    assert not result.errors
    for path in sorted(tmp_path.glob("game-*.json")):
        record = json.loads(path.read_text())
        game = Game.from_record(record)
        assert game.is_over
        assert record["bots"] in (["greedy", "random"], ["random", "greedy"])
    assert result.bots["greedy"].win_rate == 1.0


def test_a_run_at_an_iteration_budget_is_the_same_on_a_slower_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a budget of iterations alone the clock plays no part, so a run is a baseline that
    later runs are paired with without playing it again (docs/bots.md, The expert level):
    the same games move for move when every reading of the clock is 10 s later than the
    last, as on a machine far slower."""
    lineup = parse_bots("mcts,greedy", 2, Budget(iterations=4))
    run_arena("demo", 2, lineup, 2, seed=3, records=tmp_path / "fast")
    ticks = iter(range(0, 10**9, 10))
    monkeypatch.setattr("tikal.bots.greedy.time.perf_counter", lambda: float(next(ticks)))
    run_arena("demo", 2, lineup, 2, seed=3, records=tmp_path / "slow")
    assert next(ticks) > 1000  # the bots and the arena read the slow clock
    fast, slow = (sorted((tmp_path / side).glob(RECORD_GLOB)) for side in ("fast", "slow"))
    assert [p.name for p in fast] == [p.name for p in slow] and len(fast) == 2
    for one, other in zip(fast, slow, strict=True):
        assert json.loads(one.read_text())["log"] == json.loads(other.read_text())["log"]


def test_simulation_rates_are_medians_over_searches() -> None:
    """The last turn's searches (a simulation is only the final scoring, 0.2 ms) must not
    swamp the rate: one such search in a 4-player game once made the arena report 351
    simulations per second for a bot that ran 20-28 in every other search."""
    def seat(searches: list[tuple[int, float]]) -> SeatStats:
        return SeatStats("mcts", 80, 1.0, 3, len(searches), 20.0, searches=searches)

    greedy = SeatStats("greedy", 77, 0.0, -3, 12, 2.0)
    games = [
        GameResult(0, 1, [seat([(40, 2.0)] * 6 + [(7000, 1.8)]), greedy], 300, 30.0),
        GameResult(1, 2, [seat([(50, 2.0)] * 4), greedy], 300, 30.0),
    ]
    summary = summarize(games)
    assert summary["mcts"].simulations_per_s == pytest.approx(20.0)
    assert summary["mcts"].simulations_per_search == pytest.approx(40.0)
    assert summary["greedy"].simulations_per_s is None


def test_a_search_bot_reports_each_search() -> None:
    """The arena's rates come from the bot's per-search log: one entry per search, each
    within the iteration budget."""
    lineup = parse_bots("mcts,greedy", 2, Budget(iterations=6))
    result = run_arena("demo", 2, lineup, 2, seed=4)
    searches = [n for r in result.results for s in r.seats if s.label == "mcts"
                for n, _ in s.searches]
    assert searches and all(0 < n <= 6 for n in searches)
    assert result.bots["mcts"].simulations_per_search is not None


class ListExecutor:
    """A stand-in for a distributed engine: runs the tasks in reverse order."""

    def __init__(self) -> None:
        self.calls = 0

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        self.calls += 1
        for task in reversed(list(tasks)):
            yield fn(task)


def test_any_executor_can_run_the_games() -> None:
    executor = ListExecutor()
    seen: list[int] = []

    def on_result(result: GameResult, total: int) -> None:
        seen.append(result.index)
        assert total == 4

    lineup = parse_bots("random,greedy", 2)
    result = run_arena("demo", 2, lineup, 4, seed=1, executor=executor, on_result=on_result)
    assert executor.calls == 1 and seen == [3, 2, 1, 0]
    assert result.bots["greedy"].games == 4


def test_process_pool_gives_the_same_results_as_serial() -> None:
    lineup = parse_bots("greedy,random", 2)
    serial = run_arena("demo", 2, lineup, 2, seed=5)
    parallel = run_arena("demo", 2, lineup, 2, seed=5, executor=ProcessExecutor(2))
    scores = sorted((r.index, [s.score for s in r.seats]) for r in serial.results)
    assert scores == sorted((r.index, [s.score for s in r.seats]) for r in parallel.results)


def test_plot_is_written(tmp_path: Path) -> None:
    result = run_arena("demo", 2, parse_bots("greedy,random", 2), 2, seed=2)
    path = tmp_path / "plot.png"
    save_plot(result, path)
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_arena_command(tmp_path: Path) -> None:
    out, plot, records = tmp_path / "r.json", tmp_path / "r.png", tmp_path / "records"
    result = runner.invoke(app, [
        "arena", "--rules", "demo", "--players", "2", "--bots", "mcts,greedy", "--games", "2",
        "--seed", "4", "--budget", "3", "--jobs", "2", "--out", str(out), "--plot", str(plot),
        "--records", str(records),
    ])
    assert result.exit_code == 0, result.output
    assert "Win rate" in result.output and "95% CI" in result.output
    data = json.loads(out.read_text())
    assert set(data["bots"]) == {"mcts", "greedy"}
    mcts = data["bots"]["mcts"]
    assert mcts["games"] == 2 and 0 <= mcts["ci95"][0] <= mcts["win_rate"] <= mcts["ci95"][1]
    assert data["config"]["budgets"] == {"mcts": "3", "greedy": "-"}
    assert plot.exists() and len(list(records.glob("*.json"))) == 2


def test_arena_command_resumes_a_stopped_run(tmp_path: Path) -> None:
    records, out = tmp_path / "records", tmp_path / "r.json"
    args = ["arena", "--rules", "demo", "--bots", "greedy,random", "--games", "4", "--seed",
            "7", "--records", str(records), "--quiet"]
    assert runner.invoke(app, args).exit_code == 0
    (records / record_name(3)).unlink()
    resumed = runner.invoke(app, [*args, "--resume", "--out", str(out)])
    assert resumed.exit_code == 0, resumed.output
    assert "3 games read back from the records, 1 played." in resumed.output
    assert json.loads(out.read_text())["bots"]["greedy"]["games"] == 4
    german = runner.invoke(app, [*args, "--resume", "--lang", "de"])
    assert "4 Partien aus den Aufzeichnungen gelesen, 0 gespielt." in german.output
    other = runner.invoke(app, [*(a if a != "7" else "8" for a in args), "--resume"])
    assert other.exit_code == 1 and record_name(0) in other.output
    assert "its seed is not this run's" in other.output
    alone = runner.invoke(app, ["arena", "--rules", "demo", "--resume"])
    assert alone.exit_code == 1 and "--resume needs --records" in alone.output


def test_arena_plays_the_bots_own_budget_unless_told(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --budget the mcts bot is the one people play against (1.8 s per turn), not
    a tiny smoke-run search; --budget still sets another."""
    import tikal.cli.bots as cli_bots

    played: list[list[BotSpec]] = []

    def fake_run_arena(rules: str, players: int, lineup: list[BotSpec], *args: object,
                       **kwargs: object) -> ArenaResult:
        played.append(lineup)
        return run_arena("demo", 2, parse_bots("greedy,random", 2), 2, seed=1)

    monkeypatch.setattr(cli_bots, "run_arena", fake_run_arena)
    result = runner.invoke(app, ["arena", "--bots", "mcts,greedy", "--games", "2", "--quiet"])
    assert result.exit_code == 0, result.output
    mcts = played[0][0]
    assert mcts.budget.empty and mcts.build(1).seconds == 1.8  # type: ignore[attr-defined]
    result = runner.invoke(app, ["arena", "--bots", "mcts,greedy", "--budget", "8", "--quiet"])
    assert result.exit_code == 0, result.output
    assert played[1][0].budget == Budget(iterations=8)


def test_arena_command_rejects_bad_input() -> None:
    result = runner.invoke(app, ["arena", "--rules", "demo", "--players", "3"])
    assert result.exit_code == 1 and "players" in result.output
    result = runner.invoke(app, ["arena", "--bots", "alphazero"])
    assert result.exit_code == 1 and "unknown bot" in result.output
    result = runner.invoke(app, ["arena", "--budget", "soon"])
    assert result.exit_code == 1 and "budget" in result.output
