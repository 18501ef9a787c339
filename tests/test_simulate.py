"""Random playouts and benchmark helpers as a library (``tikal.simulate``, ``tikal.bench``)."""

from __future__ import annotations

import doctest

import pytest

import tikal.simulate
from tikal import Game
from tikal.bench import measure_clone, measure_playouts, measure_steps, midgame_states
from tikal.simulate import game_seed, play_random, simulate, summarize


def test_doctests() -> None:
    failures, tried = doctest.testmod(tikal.simulate)
    assert tried > 0 and failures == 0


def test_seeds_differ_per_game_and_per_run() -> None:
    seeds = {game_seed(s, i) for s in range(5) for i in range(50)}
    assert len(seeds) == 250
    assert game_seed(3, 7) == game_seed(3, 7)


def test_play_random_reaches_the_end_and_the_record_replays() -> None:
    kept: list[Game] = []
    result = play_random("auction", 4, seed=2, keep=kept.append)
    game = kept[0]
    assert result.error is None and game.is_over
    assert result.scores == game.scores and result.winners == game.winners
    assert result.actions == sum(1 for a in game.history if not a.verb.startswith("*"))
    assert Game.from_record(game.record()).scores == game.scores


def test_summary_shares_ties_and_counts_games() -> None:
    summary = summarize(simulate("demo", None, 12, seed=1))
    assert summary.players == 2 and summary.games == 12 and summary.errors == 0
    assert sum(summary.win_share) == pytest.approx(1.0)
    assert summary.to_json()["mean_tiles_placed"] + summary.to_json()["mean_tiles_discarded"] == 14


def test_simulate_rejects_a_bad_player_count() -> None:
    with pytest.raises(ValueError, match="players"):
        list(simulate("demo", 3, 1))


def test_engine_errors_are_reported_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    apply = Game.apply

    def flaky(self: Game, action: object) -> None:
        calls["n"] += 1
        if calls["n"] == 40:
            raise RuntimeError("boom")
        apply(self, action)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "apply", flaky)
    results = list(simulate("demo", 2, 2, seed=0))
    assert results[0].error is not None and "boom" in results[0].error
    assert results[1].error is None
    summary = summarize(results)
    assert summary.errors == 1 and summary.games == 1


def test_bench_measurements_are_positive() -> None:
    assert measure_steps(0.02).per_second > 0
    assert measure_playouts(0.01, "demo", 2).count >= 1
    states = midgame_states(3)
    assert len(states) == 3 and not any(s.is_over for s in states)
    assert all(t > 0 for t in measure_clone(0.01, states, batch=5))
