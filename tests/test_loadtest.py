"""``tikal loadtest`` runs end to end: its own server on 127.0.0.1, a few games, a table."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tikal.cli.root import build_app
from tikal.server.gcstats import GcPauses, read_summary
from tikal.server.loadtest.run import gc_cell
from tikal.server.wire.client import apply_message, apply_patch, legal_actions


def saturate_row(*options: str) -> list[str]:
    """The cells of the table's row of a short ``saturate`` run with ``options``."""
    result = CliRunner().invoke(build_app(), [
        "loadtest", "--scenario", "saturate", "--duration", "2", *options])
    assert result.exit_code == 0, result.output
    row = next(line for line in result.output.splitlines() if "saturate" in line)
    return [c.strip() for c in row.strip("│ ").split("│")]


def test_loadtest_plays_games_and_prints_its_table() -> None:
    cells = saturate_row("--games", "2", "--http-fraction", "0.5")
    assert cells[1] == "2" and int(cells[2]) > 0 and cells[-1] == "0"  # games, moves/s, errors
    collections, longest = cells[-2].split("/")  # the server's GC pauses, from its report
    assert int(collections) > 0 and float(longest) >= 0


@pytest.mark.slow  # waits for the server's idle sweep
def test_loadtest_reads_the_memory_again_after_the_idle_sweep() -> None:
    """``--sweep-after``: the server sweeps the games left alone, and the table gives its
    memory when play ended and after the sweep (issue 33: the sweep measured by the load
    test)."""
    cells = saturate_row("--games", "3", "--sweep-after", "1")
    # ... RSS MB, RSS MB end/swept, server CPU, client CPU, GC pauses, errors
    end, swept = (float(x) for x in cells[-5].split("/"))
    assert 20 < end < 1000 and 20 < swept < 1000 and cells[-1] == "0"


def test_the_lobby_scenario_times_each_change_to_every_lobby_client() -> None:
    """Scenario ``lobby`` (issue 29): tables opened, clients on /ws/lobby, changes made
    while games are played; its own table gives each client's copy of each change."""
    result = CliRunner().invoke(build_app(), [
        "loadtest", "--scenario", "lobby", "--duration", "2", "--games", "2",
        "--lobby-tables", "12", "--lobby-clients", "15", "--lobby-rate", "4"])
    assert result.exit_code == 0, result.output
    game_row, lobby_row = (line for line in result.output.splitlines() if "│ lobby" in line)
    game_cells = [c.strip() for c in game_row.strip("│ ").split("│")]
    assert game_cells[1] == "2" and int(game_cells[2]) > 0 and game_cells[-1] == "0"
    tables, clients, changes, fanout, missed, sizes, rss = (
        c.strip() for c in lobby_row.strip("│ ").split("│")[1:])
    assert (tables, clients, missed) == ("12", "15", "0")
    assert 4 <= int(changes) <= 12  # four a second for two seconds, each table once
    p50, p95, p99, longest = (float(x) for x in fanout.split("/"))
    assert 0 <= p50 <= p95 <= p99 <= longest
    listing, change = (float(x) for x in sizes.split(" / "))
    assert listing > change > 0 and float(rss) > 20


def test_gc_pauses_are_recorded_per_generation(tmp_path: Path) -> None:
    """The recorder counts the collections it sees (one full one here) and writes the
    summary that the load test reads; once stopped it records nothing more."""
    pauses = GcPauses()
    pauses.start()
    gc.collect()
    gc.collect(0)
    pauses.stop()
    gc.collect()
    summary = pauses.summary()
    assert summary["2"]["count"] == 1 and summary["0"]["count"] == 1
    assert summary["max_ms"] == max(summary[g]["max_ms"] for g in ("0", "1", "2")) >= 0
    pauses.write(tmp_path / "gc.json")
    assert read_summary(json.loads((tmp_path / "gc.json").read_text())) == summary
    (first, _), = pauses.pauses[2]
    (second, _), = pauses.pauses[0]
    later = read_summary(json.loads((tmp_path / "gc.json").read_text()), since=second)
    assert first <= second and later["0"]["count"] == 1  # only the window's collections
    assert later["2"]["count"] == (1 if first == second else 0)
    assert read_summary(summary) == summary  # an older server's whole-life summary
    assert gc_cell([summary, None]) == f"{2 + summary['1']['count']}/{summary['max_ms']:.0f} + -"


def test_several_processes_need_postgresql() -> None:
    result = CliRunner().invoke(build_app(), ["loadtest", "--processes", "2"])
    assert result.exit_code == 1 and "PostgreSQL" in result.output


def test_deltas_apply_as_documented() -> None:
    state = {"type": "state", "state": 3, "a": {"b": [1, 2]}, "log": [{"n": 1}, {"n": 2}]}
    delta = {"type": "delta", "base": 3, "state": 4,
             "set": [[["a", "b", 2], 3], [["a", "c"], "x"], [["a", "b", 0]]],
             "log": {"from": 1, "lines": [{"n": 9}]}}
    assert apply_message(state, delta)
    assert state == {"type": "state", "state": 4, "a": {"b": [2, 3], "c": "x"},
                     "log": [{"n": 1}, {"n": 9}]}
    assert not apply_message(state, {**delta, "base": 3})  # not from the state held
    spliced = {"type": "state", "state": 1, "s": "<g>abc</g>"}
    assert apply_message(spliced, {"type": "delta", "base": 1, "state": 2,
                                   "set": [[["s"], "XY", 4, 5]]})
    assert spliced["s"] == "<g>aXYc</g>"
    target: dict[str, object] = {"k": [1]}
    apply_patch(target, ["k"], delete=True)
    assert target == {}
    assert legal_actions({"legal": {"end": {"keys": ["action", "cost"], "rows": [["end", 0]]}}}
                         ) == ["end"]


@pytest.mark.parametrize(("rules", "players"), [("standard", 2), ("standard", 4),
                                                 ("auction", 3), ("demo", 2)])
def test_the_clients_notations_are_the_offers(rules: str, players: int) -> None:
    """The load client reads only the notations of a compact legal table; they are the
    engine's legal actions (grouped by verb) all through a random game."""
    from tikal import Game
    from wire_oracles import compact_legal, legal_json

    game = Game.new(rules, players, seed=7)
    rng = random.Random(7)
    names = [f"P{p}" for p in range(players)]
    for _ in range(150):
        if game.is_over:
            break
        g = game.view(game.current).state
        table = compact_legal(legal_json(g, names))
        assert sorted(legal_actions({"legal": table})) == sorted(map(str, g.legal_actions()))
        game.apply(rng.choice(game.legal_actions()))


def test_an_older_server_is_asked_which_options_it_knows() -> None:
    """``--server-path`` runs another checkout's server; its limits are lifted only if its
    ``serve`` knows ``--no-limits`` (a server older than the limits has none)."""
    from pathlib import Path

    import tikal
    from tikal.server.loadtest.servers import has_option

    source = str(Path(tikal.__file__).resolve().parents[1])
    assert has_option(source, "--no-limits")
    assert not has_option(source, "--no-such-option")
