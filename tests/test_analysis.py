"""Post-game analysis (tikal analyze): decisions judged from the player's view at the time."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tikal import END_TURN, Game, Reveal
from tikal.bots import make_bot
from tikal.bots.analysis import analyze, decisions, game_at, review, summary, verdict
from tikal.bots.evaluate import DEFAULT_WEIGHTS, HAND_SET_WEIGHTS, THREE_PLAYER_WEIGHTS
from tikal.cli import app
from tikal.state import Phase


def holds(game: Game, seat: int, cell: int) -> bool:
    mine = game.strength(seat, cell)
    return mine > 0 and all(game.strength(o, cell) < mine for o in range(game.players) if o != seat)


def blunder_record(seed: int) -> dict[str, Any]:
    """Greedy self-play on the demo, except that in its first scoring turn seat 1 walks every
    figure off the best temple it holds and ends the turn: the temple's points are thrown
    away for nothing."""
    game = Game.new("demo", 2, seed=seed)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    blundered = False
    while not game.is_over:
        seat = game.current_player
        held = [c for c in game.levels if holds(game, 1, c)]
        if not blundered and seat == 1 and game.phase is Phase.SCORING and held:
            cell = max(held, key=game.temple_value)
            while holds(game, 1, cell):
                game.apply(next(a for a in game.legal_actions()
                                if a.verb == "move" and a.cells[0] == cell))
            game.apply(END_TURN)
            blundered = True
            continue
        game.apply(bots[seat].choose(game.view(seat)))
    assert blundered
    return game.record()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return blunder_record(seed=6)


def cut(record: dict[str, Any], steps: int) -> dict[str, Any]:
    """The record of the game after its first ``steps`` actions (chance entries kept)."""
    kept: list[str] = []
    for entry in record["log"]:
        if not entry.startswith("*"):
            if steps == 0:
                break
            steps -= 1
        kept.append(entry)
    return {**record, "log": kept, "scoring": None, "result": None}


def test_decisions_cover_every_action_once(record: dict[str, Any]) -> None:
    found = decisions(record)
    played = [str(a) for d in found for a in d.actions]
    assert played == [e for e in record["log"] if not e.startswith("*")]
    game = Game.from_record(record)
    for d in found:
        assert game.history[d.start] == d.actions[0]
        last = d.actions[-1]
        after = game.history[d.start + len(d.actions):]
        revealed = any(isinstance(a, Reveal) for a in after[:1])
        assert last == END_TURN or last.verb in ("bid", "pass") or revealed or d is found[-1]


def test_a_thrown_away_temple_is_a_blunder_and_a_better_turn_is_shown(
    record: dict[str, Any],
) -> None:
    game = Game.from_record(record)
    found = decisions(record)
    lazy = next(d for d in found if d.player == 1 and d.actions[-1] == END_TURN
                and all(a.verb in ("move", "end") for a in d.actions)
                and Game.from_record({**record, "log": record["log"][:d.start],
                                      "scoring": None, "result": None}).phase is Phase.SCORING)
    judged = review(record, lazy, budget=8)
    assert judged.verdict == "blunder", judged
    assert judged.loss >= 0.2 and judged.best != judged.played
    assert judged.best_chance > judged.played_chance
    assert game.is_over


def test_analysis_never_reads_hidden_parts() -> None:
    """The same log replayed from two different shuffles: the games differ only in what
    nobody has seen (stack order, face-down tokens), and every decision is judged the same."""
    game = Game.new("standard", 2, seed=4)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while sum(1 for a in game.history if isinstance(a, Reveal)) < 2:
        seat = game.current_player
        game.apply(bots[seat].choose(game.view(seat)))
    record = {**game.record(), "scoring": None, "result": None}
    reshuffled = {**record, "seed": 5}
    found = decisions(record)
    assert found == decisions(reshuffled)
    for d in found[-3:]:
        real, other = game_at(record, d.start), game_at(reshuffled, d.start)
        assert (real.stack, real.tokens) != (other.stack, other.tokens)  # hidden parts differ
        assert real.view(d.player).to_json() == other.view(d.player).to_json()
        assert review(record, d, budget=3, seed=3) == review(reshuffled, d, budget=3, seed=3)


def test_analysis_is_deterministic_and_spreads_over_processes(record: dict[str, Any]) -> None:
    short = cut(record, 40)
    serial = analyze(short, budget=3, seed=9)
    with ProcessPoolExecutor(max_workers=2) as pool:
        spread = analyze(short, budget=3, seed=9, executor=pool)
    assert serial == spread
    assert [r.index for r in serial] == list(range(len(decisions(short))))
    only = analyze(short, budget=3, seed=9, seat=1)  # one seat: no round to average over
    assert only == [replace(r, win_chance=r.position_chance) for r in serial if r.player == 1]
    rows = summary(serial, 2)
    assert sum(rows[p]["decisions"] for p in rows) == len(serial)
    for p, row in rows.items():  # the mean is per decision, so it stays a chance
        mine = [r.loss for r in serial if r.player == int(p)]
        assert row["lost"] == pytest.approx(sum(mine), abs=1e-4)
        assert row["mean_lost"] == pytest.approx(sum(mine) / len(mine), abs=1e-4)
        assert 0.0 <= row["mean_lost"] <= 1.0
    for r in serial:
        assert all(0.0 <= c <= 1.0 for c in r.win_chance)
        assert abs(sum(r.win_chance) - 1.0) < 0.01


def test_a_game_is_judged_with_the_weights_the_bots_play_at_its_player_count() -> None:
    """A three-player game is judged with the three-player set, not the two-player one (its
    plans; with the hand-made evaluation its chances too)."""
    game = Game.new("standard", 3, seed=8)
    bots = [make_bot("greedy", seed=s, players=3) for s in range(3)]
    while len(game.history) < 40:
        seat = game.current_player
        game.apply(bots[seat].choose(game.view(seat)))
    record = {**game.record(), "scoring": None, "result": None}
    chosen = decisions(record)[-2:]
    default = [review(record, d, budget=2, seed=1, evaluation="hand_made") for d in chosen]
    assert default == [review(record, d, budget=2, seed=1, weights=THREE_PLAYER_WEIGHTS,
                              evaluation="hand_made") for d in chosen]
    two_player = [review(record, d, budget=2, seed=1, weights=DEFAULT_WEIGHTS,
                         evaluation="hand_made") for d in chosen]
    assert [(r.position_chance, r.margin) for r in default] != [
        (r.position_chance, r.margin) for r in two_player]
    whole = analyze(record, budget=2, seed=1, evaluation="hand_made")[-2:]  # the command's path
    assert [r.position_chance for r in whole] == [r.position_chance for r in default]


def test_verdicts_follow_the_thresholds() -> None:
    assert verdict(0.5, same_as_best=True) == "best"
    assert verdict(0.25, False) == "blunder"
    assert verdict(0.12, False) == "mistake"
    assert verdict(0.06, False) == "inaccuracy"
    assert verdict(0.01, False) == "good"


def test_the_command_writes_tables_json_and_a_plot(tmp_path: Path, record: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(cut(record, 30)))
    out, png = tmp_path / "analysis.json", tmp_path / "win.png"
    result = CliRunner().invoke(app, ["analyze", str(path), "--budget", "2", "--json", str(out),
                                      "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert "Per player" in result.output and "verdict" in result.output
    report = json.loads(out.read_text())
    assert report["reviews"] and set(report["summary"]) == {"0", "1"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert report["weights"] == "default (2 players)"
    hand_set = CliRunner().invoke(app, ["analyze", str(path), "--budget", "2", "--json",
                                        str(out), "--weights", "hand_set"])
    assert hand_set.exit_code == 0, hand_set.output
    judged = json.loads(out.read_text())
    assert judged["weights"] == "hand_set"
    assert [r["position_chance"] for r in judged["reviews"]] == [
        r.position_chance for r in analyze(cut(record, 30), budget=2,
                                           weights=HAND_SET_WEIGHTS)]
    refused = CliRunner().invoke(app, ["analyze", str(path), "--weights", "nonsense"])
    assert refused.exit_code == 2 and "--weights" in refused.output
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "log": ["tile Z9 0"]}))
    failed = CliRunner().invoke(app, ["analyze", str(bad)])
    assert failed.exit_code == 1 and "entry 0" in failed.output


def test_win_chances_are_averaged_over_a_round_so_the_turn_order_does_not_zigzag(
    record: dict[str, Any],
) -> None:
    """The estimate of a position favours whoever moved last; over a round that cancels.
    Each point is the mean of the position estimates from that decision until every player
    has decided once, and the curve moves less from point to point than the raw one."""
    reviews = analyze(cut(record, 60), budget=3, seed=4)
    for i, r in enumerate(reviews):
        window, seen = [], set()
        for later in reviews[i:]:
            window.append(later)
            seen.add(later.player)
            if len(seen) == 2:
                break
        for p in range(2):
            mean = sum(w.position_chance[p] for w in window) / len(window)
            assert abs(r.win_chance[p] - mean) < 1e-3

    def jumps(values: list[float]) -> float:
        return sum(abs(a - b) for a, b in pairwise(values))

    assert jumps([r.win_chance[0] for r in reviews]) < jumps(
        [r.position_chance[0] for r in reviews])
