"""Bot strength over time: the arena's history file, `tikal strength`, its plot and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tikal.bots.arena import parse_bots, run_arena
from tikal.bots.strength import (
    HistoryError,
    append_entry,
    by_matchup,
    entry_from_results,
    read_history,
    save_strength_plot,
)
from tikal.cli import app

runner = CliRunner()


def demo_result(seed: int) -> dict[str, object]:
    return run_arena("demo", 2, parse_bots("greedy,random", 2), 2, seed=seed).to_json()


def test_entries_round_trip_and_group_by_matchup(tmp_path: Path) -> None:
    history = tmp_path / "history.jsonl"
    first = entry_from_results(demo_result(1), "v1", "2026-01-01T00:00:00+00:00")
    second = entry_from_results(demo_result(2), "v2", "2026-01-02T00:00:00+00:00")
    append_entry(history, first)
    append_entry(history, second)
    entries = read_history(history)
    assert entries == [first, second]
    assert [e.tag for e in entries] == ["v1", "v2"]
    assert entries[0].bots["greedy"].games == 2
    assert list(by_matchup(entries)) == ["demo, 2 players: greedy vs random"]


def test_arena_appends_to_the_history_and_strength_plots_it(tmp_path: Path) -> None:
    history, plot = tmp_path / "h.jsonl", tmp_path / "strength.png"
    for tag in ("before", "after"):
        result = runner.invoke(app, [
            "arena", "--rules", "demo", "--bots", "greedy,random", "--games", "2",
            "--quiet", "--history", str(history), "--tag", tag,
        ])
        assert result.exit_code == 0, result.output
    lines = history.read_text().splitlines()
    assert [json.loads(line)["tag"] for line in lines] == ["before", "after"]
    result = runner.invoke(app, ["strength", str(history), "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "before" in result.output and "after" in result.output and "Win rate" in result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_saved_results_can_be_added_later(tmp_path: Path) -> None:
    results, history = tmp_path / "r.json", tmp_path / "h.jsonl"
    results.write_text(json.dumps(demo_result(3)))
    result = runner.invoke(app, ["strength", str(history), "--add", str(results), "--tag", "x"])
    assert result.exit_code == 0, result.output
    (entry,) = read_history(history)
    assert entry.tag == "x" and entry.rules == "demo" and entry.games == 2


def test_each_added_result_gets_its_own_tag_in_order(tmp_path: Path) -> None:
    first, second, history = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "h.jsonl"
    first.write_text(json.dumps(demo_result(3)))
    second.write_text(json.dumps(demo_result(4)))
    both = ["--add", str(first), "--add", str(second)]
    result = runner.invoke(app, ["strength", str(history), *both, "--tag", "one", "--tag", "two"])
    assert result.exit_code == 0, result.output
    assert [e.tag for e in read_history(history)] == ["one", "two"]
    shared = runner.invoke(app, ["strength", str(history), *both, "--tag", "same"])
    assert shared.exit_code == 0 and [e.tag for e in read_history(history)][2:] == ["same"] * 2
    untagged = runner.invoke(app, ["strength", str(history), *both])
    assert untagged.exit_code == 0 and [e.tag for e in read_history(history)][4:] == ["a", "b"]
    refused = runner.invoke(app, ["strength", str(history), *both, "--tag", "x", "--tag", "y",
                                  "--tag", "z"])
    assert refused.exit_code == 1 and "3 tags for 2 added results" in refused.output
    assert len(read_history(history)) == 6  # the refusal added nothing


def test_plot_has_a_panel_per_matchup(tmp_path: Path) -> None:
    four = run_arena("standard", 4, parse_bots("greedy,random", 4), 4, seed=1).to_json()
    entries = [
        entry_from_results(demo_result(1), "a", "2026-01-01T00:00:00+00:00"),
        entry_from_results(four, "a", "2026-01-01T00:00:00+00:00"),
    ]
    assert len(by_matchup(entries)) == 2
    assert "random x3" in entries[1].matchup
    path = tmp_path / "p.png"
    save_strength_plot(entries, path)
    assert path.read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(HistoryError, match="empty"):
        save_strength_plot([], tmp_path / "none.png")


def test_bad_lines_and_results_are_reported_by_place(tmp_path: Path) -> None:
    history = tmp_path / "h.jsonl"
    append_entry(history, entry_from_results(demo_result(1), "ok", "2026-01-01T00:00:00+00:00"))
    before = history.read_text()
    history.write_text(before + "{not json\n")
    with pytest.raises(HistoryError, match="line 2"):
        read_history(history)
    result = runner.invoke(app, ["strength", str(history)])
    assert result.exit_code == 1 and "line 2" in result.output

    broken = demo_result(1)
    del broken["config"]["players"]  # type: ignore[attr-defined]
    with pytest.raises(HistoryError, match=r"config\.players: missing"):
        entry_from_results(broken, "t", "now")
    bad, fresh = tmp_path / "bad.json", tmp_path / "fresh.jsonl"
    bad.write_text(json.dumps({"config": {}, "bots": {"x": {"games": "many"}}}))
    result = runner.invoke(app, ["strength", str(fresh), "--add", str(bad)])
    assert result.exit_code == 1 and "bots.x." in result.output
    assert not fresh.exists()  # nothing written for a result that cannot be read


DOCS_ARENA = Path(__file__).resolve().parent.parent / "docs" / "arena"


def committed_lineups() -> list[tuple[str, str]]:
    """(where, bot label) for every bot of the committed arena runs and strength history."""
    found = []
    for path in sorted(DOCS_ARENA.glob("*.json")):
        result = json.loads(path.read_text())
        if "config" in result:  # an arena result (the others are tuning runs, models)
            found += [(path.name, label) for label in result["bots"]]
    for place, entry in enumerate(read_history(DOCS_ARENA / "history.jsonl"), 1):
        found += [(f"history.jsonl entry {place}", label) for label in entry.bots]
    return found


def test_every_committed_run_names_bots_the_arena_can_build_again() -> None:
    """The docs give the commands behind their figures; a bot label that points at a
    scratch file (``greedy@/tmp/...``) or at weights since moved could not be run again."""
    lineups = committed_lineups()
    assert len(lineups) > 100 and any("@hand_set" in label for _, label in lineups)
    unbuildable = []
    for where, label in lineups:
        try:
            parse_bots(label, 4)
        except ValueError as exc:
            unbuildable.append(f"{where}: {exc}")
    assert unbuildable == []
