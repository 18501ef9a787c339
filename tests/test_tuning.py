"""Self-play tuning of the evaluation weights (tikal tune)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tikal.bots.arena import make_executor
from tikal.bots.evaluate import DEFAULT_WEIGHTS, EXPERT_WEIGHTS, HAND_SET_WEIGHTS, load_weights
from tikal.bots.tuning import (
    CONTESTS,
    TUNED,
    Setup,
    from_vector,
    match,
    ordered_control,
    to_vector,
    tune,
)
from tikal.cli import app

DEMO = Setup(rules="demo", players=2, level="greedy")


def test_vectors_map_to_weights_within_their_box() -> None:
    assert from_vector(to_vector(DEFAULT_WEIGHTS)) == DEFAULT_WEIGHTS
    wild = from_vector([-5.0] * len(TUNED))
    assert to_vector(wild) == [low for low, _ in TUNED.values()]
    assert wild.control == DEFAULT_WEIGHTS.control  # the control table is not tuned


def test_the_contests_space_tunes_the_new_terms_and_the_control_of_small_leads() -> None:
    assert from_vector(to_vector(DEFAULT_WEIGHTS, CONTESTS), DEFAULT_WEIGHTS,
                       CONTESTS) == DEFAULT_WEIGHTS
    vector = [high for _, high in CONTESTS.values()]
    top = from_vector([v + 1 for v in vector], DEFAULT_WEIGHTS, CONTESTS)  # clipped
    assert (top.safe, top.exposed) == (CONTESTS["safe"][1], CONTESTS["exposed"][1])
    # the tie's top (0.5) stands; the leads' (1.0) stop at the lead of 4 (0.87), not tuned
    assert top.control[3:7] == (CONTESTS["control[3]"][1],) + (DEFAULT_WEIGHTS.control[7],) * 3
    assert top.control[:3] == DEFAULT_WEIGHTS.control[:3]  # trailing: not searched
    assert top.control[7:] == DEFAULT_WEIGHTS.control[7:]
    run = tune(DEMO, generations=1, population=3, deals=1, seed=5, space=CONTESTS)
    for (low, high), value in zip(CONTESTS.values(), to_vector(run.best, CONTESTS),
                                  strict=True):
        assert low <= value <= high


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1.0, 2.0), min_size=len(CONTESTS), max_size=len(CONTESTS)))
def test_a_tuned_control_table_never_values_a_larger_lead_less(vector: list[float]) -> None:
    table = from_vector(vector, DEFAULT_WEIGHTS, CONTESTS).control
    assert all(a <= b for a, b in itertools.pairwise(table))
    assert table[:3] == DEFAULT_WEIGHTS.control[:3] and table[7:] == DEFAULT_WEIGHTS.control[7:]


def test_ordering_the_table_moves_only_the_entries_out_of_order() -> None:
    """The first four-player expert run's table: the tie and the lead of 2 are raised."""
    found = [0.0, 0.03, 0.08, 0.01, 0.59, 0.33, 0.78, 0.87, 0.92, 0.95]
    assert ordered_control(found, [3, 4, 5, 6]) == [
        0.0, 0.03, 0.08, 0.08, 0.59, 0.59, 0.78, 0.87, 0.92, 0.95]
    assert ordered_control(found, [6]) == found  # in order with its neighbours
    assert ordered_control([0.5, 0.1, 0.9], [1]) == [0.5, 0.5, 0.9]  # raised to the one before
    assert ordered_control([0.0, 0.9, 0.5], [1]) == [0.0, 0.5, 0.5]  # capped by the next


def test_a_match_plays_every_deal_from_every_seat_and_is_repeatable() -> None:
    first = match(DEMO, DEFAULT_WEIGHTS, DEFAULT_WEIGHTS, deals=2, seed=3)
    assert first.games == 4
    assert first == match(DEMO, DEFAULT_WEIGHTS, DEFAULT_WEIGHTS, deals=2, seed=3)
    # the same weights on both sides: each deal is won once from each seat, or shared
    assert first.wins == 2.0 and first.margin == 0.0
    low, high = first.interval
    assert low < first.win_rate < high


def test_a_match_against_several_fields_plays_every_deal_against_each() -> None:
    """Two fields: the games and wins of both single matches, the margin their mean."""
    odd = from_vector([0.1] * len(TUNED))
    one, other = (match(DEMO, odd, f, deals=2, seed=3) for f in (DEFAULT_WEIGHTS, HAND_SET_WEIGHTS))
    both = match(DEMO, odd, (DEFAULT_WEIGHTS, HAND_SET_WEIGHTS), deals=2, seed=3)
    assert both.games == one.games + other.games == 8
    assert both.wins == one.wins + other.wins
    assert both.margin == (one.margin + other.margin) / 2


def test_tuning_is_seeded_and_stays_in_bounds() -> None:
    runs = [tune(DEMO, generations=2, population=4, deals=1, seed=7) for _ in range(2)]
    assert runs[0].best == runs[1].best and runs[0].history == runs[1].history
    assert [h["generation"] for h in runs[0].history] == [1, 2]
    for (low, high), value in zip(TUNED.values(), to_vector(runs[0].best), strict=True):
        assert low <= value <= high
    assert runs[0].best_fitness >= runs[0].history[0]["best"] or runs[0].best == DEFAULT_WEIGHTS


def test_a_run_against_other_weights_starts_from_them_and_plays_them() -> None:
    """A second round tunes against the result of the first: its baseline is the field's
    own mirror match, and the best found is never worse on the training deals."""
    run = tune(DEMO, generations=1, population=3, deals=1, seed=7, against=(HAND_SET_WEIGHTS,))
    mirror = match(DEMO, HAND_SET_WEIGHTS, HAND_SET_WEIGHTS, deals=1, seed=7).fitness
    assert run.best_fitness >= mirror
    if run.best_fitness == mirror:  # nothing beat the field: the field itself is kept
        assert run.best == HAND_SET_WEIGHTS
    else:
        assert match(DEMO, run.best, HAND_SET_WEIGHTS, deals=1, seed=7).fitness == run.best_fitness
    assert run != tune(DEMO, generations=1, population=3, deals=1, seed=7)


def test_a_run_can_start_from_a_set_other_than_the_field_it_plays() -> None:
    """The expert's set is tuned against ``hard``'s: the search starts from the expert's,
    every candidate keeps its parts outside the tuned space, and the baseline to beat is
    the start's own match against the field."""
    run = tune(DEMO, generations=1, population=3, deals=1, seed=7, start=EXPERT_WEIGHTS)
    assert EXPERT_WEIGHTS.control != DEFAULT_WEIGHTS.control
    assert run.best.control == EXPERT_WEIGHTS.control  # not tuned by TUNED, kept from the start
    assert (run.best.safe, run.best.exposed) == (EXPERT_WEIGHTS.safe, EXPERT_WEIGHTS.exposed)
    start = match(DEMO, EXPERT_WEIGHTS, DEFAULT_WEIGHTS, deals=1, seed=7).fitness
    assert run.best_fitness >= start
    if run.best_fitness == start:
        assert run.best == EXPERT_WEIGHTS
    assert run != tune(DEMO, generations=1, population=3, deals=1, seed=7)


def test_the_command_judges_the_start_on_the_held_out_deals(tmp_path: Path) -> None:
    out = tmp_path / "tuned.json"
    args = ["tune", "--rules", "demo", "--generations", "1", "--population", "2", "--deals", "1",
            "--held-out", "1", "--out", str(out), "--against", "hand_set"]
    result = CliRunner().invoke(app, [*args, "--start", "expert"])
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text())["tuning"]
    assert report["start"] == "expert" and report["against"] == ["hand_set"]
    assert report["held_out_start_by_field"]["hand_set"]["games"] == 2
    assert "starting weights" in result.output
    assert json.loads(out.read_text())["weights"]["control"] == list(EXPERT_WEIGHTS.control)
    assert "(deals: 1)" in result.output  # one held-out deal, however many games
    mirror = CliRunner().invoke(app, [*args[:-1], "hand_set,expert", "--start", "expert"])
    assert mirror.exit_code == 0, mirror.output
    report = json.loads(out.read_text())["tuning"]
    assert list(report["held_out_by_field"]) == ["hand_set", "expert"]
    assert list(report["held_out_start_by_field"]) == ["hand_set"]  # no mirror match
    out.unlink()
    refused = CliRunner().invoke(app, [*args, "--start", str(tmp_path / "missing.json")])
    assert refused.exit_code == 2 and "--start" in refused.output and not out.exists()


def test_the_command_names_the_field_and_refuses_unknown_weights(tmp_path: Path) -> None:
    out = tmp_path / "tuned.json"
    args = ["tune", "--rules", "demo", "--generations", "1", "--population", "2", "--deals", "1",
            "--held-out", "0", "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--against", "hand_set"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["tuning"]["against"] == ["hand_set"]
    two = CliRunner().invoke(app, [*args, "--held-out", "1", "--against", "hand_set,two_players"])
    assert two.exit_code == 0, two.output
    report = json.loads(out.read_text())["tuning"]
    assert report["against"] == ["hand_set", "two_players"]
    assert [r["games"] for r in report["held_out_by_field"].values()] == [2, 2]
    out.unlink()
    refused = CliRunner().invoke(app, [*args, "--against", str(tmp_path / "missing.json")])
    assert refused.exit_code == 2 and "--against" in refused.output and not out.exists()
    empty = CliRunner().invoke(app, [*args, "--against", " , "])
    assert empty.exit_code == 2 and "--against" in empty.output and not out.exists()
    twice = CliRunner().invoke(app, [*args, "--against", "hand_set, hand_set"])
    assert twice.exit_code == 2 and "hand_set is named twice" in twice.output
    assert not out.exists()


def test_the_command_writes_weights_the_bots_can_load(tmp_path: Path) -> None:
    out, png = tmp_path / "tuned.json", tmp_path / "fitness.png"
    result = CliRunner().invoke(app, [
        "tune", "--rules", "demo", "--generations", "1", "--population", "3", "--deals", "1",
        "--held-out", "1", "--out", str(out), "--plot", str(png),
    ])
    assert result.exit_code == 0, result.output
    assert "held-out" in result.output
    report = json.loads(out.read_text())
    assert report["tuning"]["held_out"]["games"] == 2
    tuned = load_weights(out)  # the bots load it like data/weights.json
    assert to_vector(tuned) == [report["weights"][name] for name in TUNED]
    assert png.read_bytes()[:4] == b"\x89PNG"
    wider = CliRunner().invoke(app, [
        "tune", "--rules", "demo", "--generations", "1", "--population", "2", "--deals", "1",
        "--held-out", "0", "--out", str(out), "--space", "contests"])
    assert wider.exit_code == 0, wider.output
    assert json.loads(out.read_text())["tuning"]["space"] == "contests"
    unknown = CliRunner().invoke(app, ["tune", "--space", "everything", "--out", str(out)])
    assert unknown.exit_code == 2 and "--space" in unknown.output


def test_a_match_gives_the_same_totals_on_every_executor() -> None:
    """Games finish in any order on a process pool or Ray; the totals are the same."""
    serial = match(DEMO, DEFAULT_WEIGHTS, from_vector([0.1] * len(TUNED)), deals=2, seed=5)
    pooled = match(DEMO, DEFAULT_WEIGHTS, from_vector([0.1] * len(TUNED)), deals=2, seed=5,
                   executor=make_executor(2))
    assert pooled == serial
    on_ray = match(DEMO, DEFAULT_WEIGHTS, from_vector([0.1] * len(TUNED)), deals=2, seed=5,
                   executor=make_executor(2, "ray"))
    assert on_ray == serial
