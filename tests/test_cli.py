"""The engine commands: ``tikal simulate``, ``tikal replay``, ``tikal bench``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tikal import Game
from tikal.cli import app
from tikal.simulate import play_random

TILES = {"standard": 36, "auction": 36, "demo": 14}
ROUNDS = {"standard": 4, "auction": 4, "demo": 2}  # one per volcano plus the final one

runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args))


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(("rules", "players"), [("standard", 4), ("auction", 3), ("demo", 2)])
def test_simulate_json_lines(rules: str, players: int) -> None:
    result = run("simulate", "--rules", rules, "--players", str(players), "--games", "4",
                 "--seed", "11", "--json")
    assert result.exit_code == 0, result.output
    lines = json_lines(result.stdout)
    games, summary = lines[:-1], lines[-1]
    assert len(games) == 4
    for i, line in enumerate(games):
        assert line["rules"] == rules and line["players"] == players
        assert line["index"] == i and line["run_seed"] == 11
        assert isinstance(line["seed"], int)
        assert line["error"] is None
        assert len(line["scores"]) == players and all(s >= 0 for s in line["scores"])
        best = max(line["scores"])
        assert line["winners"] == [p for p, s in enumerate(line["scores"]) if s == best]
        assert line["tiles_placed"] + line["tiles_discarded"] == TILES[rules]
        assert line["scoring_rounds"] == ROUNDS[rules]
        assert line["actions"] > 0
    assert summary["summary"] is True
    assert summary["games"] == 4 and summary["errors"] == 0 and summary["seed"] == 11
    assert len(summary["mean_scores"]) == players
    assert sum(summary["win_share"]) == pytest.approx(1.0, abs=1e-3)
    assert summary["mean_actions"] == pytest.approx(sum(g["actions"] for g in games) / 4, abs=0.01)


def test_simulate_is_reproducible_and_each_game_replays_alone() -> None:
    args = ("simulate", "--rules", "demo", "--games", "3", "--seed", "5", "--json")
    first, second = json_lines(run(*args).stdout), json_lines(run(*args).stdout)
    assert first[:-1] == second[:-1]
    other = json_lines(run("simulate", "--rules", "demo", "--games", "3", "--seed", "6",
                           "--json").stdout)
    assert [g["seed"] for g in other[:-1]] != [g["seed"] for g in first[:-1]]
    line = first[1]
    from tikal.simulate import choice_rng

    again = play_random("demo", 2, line["seed"], choice_rng(5, 1))
    assert again.scores == line["scores"] and again.actions == line["actions"]


def test_simulate_table() -> None:
    result = run("simulate", "--rules", "standard", "--players", "2", "--games", "3")
    assert result.exit_code == 0, result.output
    for text in ("mean score", "win share", "seat 1", "games", "errors", "mean actions"):
        assert text in result.stdout
    assert "seat 2" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rules", "chess"), "unknown rule set"),
        (("--rules", "demo", "--players", "4"), "players"),
    ],
)
def test_simulate_rejects_bad_options(args: tuple[str, ...], message: str) -> None:
    result = run("simulate", *args, "--games", "1")
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_simulate_saves_records_that_replay(tmp_path: Path) -> None:
    result = run("simulate", "--rules", "auction", "--players", "2", "--games", "2", "--json",
                 "--records", str(tmp_path))
    assert result.exit_code == 0, result.output
    games = json_lines(result.stdout)[:-1]
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 2
    for line, path in zip(games, files, strict=True):
        replay = run("replay", str(path), "--json")
        assert replay.exit_code == 0, replay.output
        assert json_lines(replay.stdout)[0]["scores"] == line["scores"]


def finished_game(rules: str = "standard", players: int = 3, seed: int = 21) -> Game:
    games: list[Game] = []
    play_random(rules, players, seed, keep=games.append)
    assert games[0].is_over
    return games[0]


def test_replay_prints_the_recorded_scores(tmp_path: Path) -> None:
    game = finished_game()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record()))
    result = run("replay", str(path))
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    seat_rows = [[cell.strip() for cell in row.strip("│").split("│")] for row in rows]
    assert [int(cells[0]) for cells in seat_rows] == list(range(game.players))
    assert [int(cells[3]) for cells in seat_rows] == game.scores
    winners = [int(cells[0]) for cells in seat_rows if cells[4] == "winner"]
    assert winners == game.winners
    as_json = json_lines(run("replay", str(path), "--json").stdout)[0]
    assert as_json["ok"] is True and as_json["over"] is True
    assert as_json["scores"] == game.scores and as_json["winners"] == game.winners


def test_replay_of_an_unfinished_game(tmp_path: Path) -> None:
    game = Game.new("demo", 2, seed=3)
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    path = tmp_path / "partial.json"
    path.write_text(json.dumps(game.record()))
    result = run("replay", str(path), "--json")
    assert result.exit_code == 0, result.output
    assert json_lines(result.stdout)[0]["over"] is False


def test_replay_of_a_corrupted_record_names_the_entry(tmp_path: Path) -> None:
    record = finished_game("demo", 2, seed=4).record()
    index = next(i for i, entry in enumerate(record["log"]) if entry.startswith("put "))
    record["log"][index] = "move W 0,0 5,5"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert f"entry {index}" in result.output
    assert "Traceback" not in result.output
    as_json = json_lines(run("replay", str(path), "--json").stdout)[0]
    assert as_json["ok"] is False and as_json["index"] == index
    assert as_json["entry"] == "move W 0,0 5,5" and as_json["reason"]


@pytest.mark.parametrize("text", ["{not json", json.dumps({"format": "chess"}), "[]"])
def test_replay_of_something_else_exits_1(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "error" in result.output and "Traceback" not in result.output


def test_replay_of_a_missing_file_exits_1(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nope.json"))
    assert result.exit_code == 1
    assert "cannot read" in result.output


def test_bench_json_has_the_figures() -> None:
    result = run("bench", "--json", "--seconds", "0.05")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["steps_per_second"] > 0
    assert set(figures["playouts_per_second"]) == {"standard/4", "auction/4", "demo/2"}
    assert all(rate > 0 for rate in figures["playouts_per_second"].values())
    assert figures["clone_us"] > 0
    assert figures["python_chess_plies_per_second"] == 24_000


def test_bench_table() -> None:
    result = run("bench", "--seconds", "0.02")
    assert result.exit_code == 0, result.output
    assert "steps/s" in result.stdout and "python-chess" in result.stdout
    assert "clone()" in result.stdout


def test_bench_server_times_every_phase() -> None:
    result = run("bench", "--server", "--json", "--moves", "30", "--games", "2")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["moves"] == 30
    assert set(figures["cpu_us"]) == {"act", "snapshot", "seats", "messages"}
    assert figures["cpu_us_per_move"] == pytest.approx(sum(figures["cpu_us"].values()), abs=1)
    assert figures["act_wall_us"] > 0


def test_bench_server_table_and_profile(tmp_path: Path) -> None:
    result = run("bench", "--server", "--moves", "10", "--games", "1",
                 "--profile", str(tmp_path / "moves.prof"))
    assert result.exit_code == 0, result.output
    assert "CPU µs per move" in result.stdout and "seat parts" in result.stdout
    assert (tmp_path / "moves.prof").stat().st_size > 0


def test_installed_entry_point_keeps_stdout_clean() -> None:
    """Through a real process: JSON mode writes nothing but JSON lines on stdout."""
    code = "import sys; from tikal.cli import main; sys.argv[0] = 'tikal'; main()"
    proc = subprocess.run(
        [sys.executable, "-c", code, "simulate", "--rules", "demo", "--games", "2", "--json"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = json_lines(proc.stdout)
    assert len(lines) == 3 and lines[-1]["summary"] is True
