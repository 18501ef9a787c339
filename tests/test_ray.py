"""The arena on Ray: games as Ray tasks on a local Ray give exactly the process pool's
results for the same seeds and iteration budgets; ``tikal arena --executor ray``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from typer.testing import CliRunner

from tikal.bots.arena import ProcessExecutor, RayExecutor, parse_bots, run_arena
from tikal.cli import app


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One small local Ray for the module (starting one takes seconds)."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def games_of(result: Any) -> list[dict[str, Any]]:
    """Per-game results without the wall times."""
    games = result.to_json()["games"]
    for game in games:
        game.pop("seconds")
    return games


def test_ray_gives_the_process_pool_results(local_ray: None) -> None:
    lineup = parse_bots("mcts:12,greedy", 2)
    pool = run_arena("demo", 2, lineup, 4, seed=3, executor=ProcessExecutor(2))
    on_ray = run_arena("demo", 2, lineup, 4, seed=3, executor=RayExecutor())
    assert len(on_ray.results) == 4 and not on_ray.errors
    assert games_of(on_ray) == games_of(pool)
    assert on_ray.bots["mcts:12"].wins == pool.bots["mcts:12"].wins
    assert ray.is_initialized()  # a Ray the executor did not start stays up


@pytest.mark.slow  # starts a local Ray cluster (about 6 s)
def test_arena_command_with_the_ray_executor(local_ray: None, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    result = CliRunner().invoke(app, [
        "arena", "--rules", "demo", "--bots", "greedy,random", "--games", "2", "--seed", "1",
        "--executor", "ray", "--out", str(out), "--quiet",
    ])
    assert result.exit_code == 0, result.output
    assert "with Ray (local)" in result.output
    data = json.loads(out.read_text())
    assert data["config"]["games"] == 2 and data["errors"] == []


def test_arena_command_rejects_an_unknown_executor_and_a_lonely_address() -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["arena", "--executor", "dask"])
    assert result.exit_code == 1 and "--executor" in result.output
    result = runner.invoke(app, ["arena", "--address", "auto"])
    assert result.exit_code == 1 and "--executor ray" in result.output
