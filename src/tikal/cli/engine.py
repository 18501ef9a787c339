"""Engine tools: ``tikal simulate``, ``tikal replay``, ``tikal bench``.

Only input and output live here; the work is done by :mod:`tikal.simulate`,
:mod:`tikal.record` and :mod:`tikal.bench`.
"""

from __future__ import annotations

import json
import time
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import TaskID
from rich.table import Table

from ..errors import RecordError
from ..game import Game
from ..messages import render
from ..simulate import GameResult, simulate, summarize
from .common import (
    RULES_HELP,
    LangOption,
    check_players,
    console,
    decimal,
    fail,
    language_of,
    percent,
    progress_bar,
    say,
)


def register(app: typer.Typer) -> None:
    """Add ``simulate``, ``replay`` and ``bench`` to ``app``."""
    app.command("simulate")(simulate_command)
    app.command("replay")(replay_command)
    app.command("bench")(bench_command)


# ------------------------------------------------------------------ simulate


def simulate_command(
    rules: Annotated[str, typer.Option("--rules", "-r", help=RULES_HELP)] = "standard",
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players (default: the most allowed).")
    ] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=0, help="Games to play.")] = 100,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Run seed; game i uses (seed, i).")] = 0,
    json_lines: Annotated[
        bool, typer.Option("--json", help="One JSON object per game, then a summary line.")
    ] = False,
    records: Annotated[
        Path | None,
        typer.Option("--records", help="Save each game's record as DIR/game-<i>.json."),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play random games (uniform among the legal actions) and summarize them."""
    language = language_of(lang)
    n = check_players(rules, players, language)
    keep = None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
        keep = partial(_save_record, records)
    results = simulate(rules, n, games, seed, keep=keep)
    start = time.perf_counter()
    if json_lines:
        summary = summarize((_emit(r) for r in results), rules, n)
        line = summary.to_json()
        line["seed"] = seed
        line["seconds"] = round(time.perf_counter() - start, 3)
        print(json.dumps(line), flush=True)
        if summary.errors:
            raise typer.Exit(1)
        return
    out = console()
    label = say("sim.progress", language, rules=rules, players=n)
    summary = summarize(_with_progress(results, games, label, out), rules, n)
    elapsed = time.perf_counter() - start
    out.print(_summary_table(summary.to_json(), seed, elapsed, language))
    if summary.errors:
        raise typer.Exit(1)


def _save_record(folder: Path, index: int, game: Game) -> None:
    path = folder / f"game-{index:05d}.json"
    path.write_text(json.dumps(game.record(), indent=1) + "\n", encoding="utf-8")


def _emit(result: GameResult) -> GameResult:
    print(json.dumps(result.to_json()), flush=False)
    return result


def _with_progress(results: Any, total: int, label: str, shown_on: Console) -> Any:
    with progress_bar(shown_on) as progress:
        task = progress.add_task(label, total=total)
        for result in results:
            progress.advance(task)
            yield result


def _summary_table(
    summary: dict[str, Any], seed: int, seconds: float, language: str = "en",
) -> Table:
    players = summary["players"]
    table = Table(title=say("sim.title", language, rules=summary["rules"], players=players,
                            seed=seed))
    table.add_column("")
    for p in range(players):
        table.add_column(say("seat", language, seat=p), justify="right")
    table.add_row(say("sim.mean_score", language),
                  *(decimal(s, 2, language) for s in summary["mean_scores"]))
    table.add_row(say("sim.win_share", language),
                  *(percent(w, language) for w in summary["win_share"]))
    table.add_section()
    span = [""] * (players - 1)
    rows = [
        ("sim.games", f"{summary['games']}"),
        ("sim.errors", f"{summary['errors']}"),
        ("sim.ties", f"{summary['ties']}"),
        ("sim.mean_actions", decimal(summary["mean_actions"], 1, language)),
        ("sim.mean_placed", decimal(summary["mean_tiles_placed"], 2, language)),
        ("sim.mean_discarded", decimal(summary["mean_tiles_discarded"], 2, language)),
        ("sim.mean_rounds", decimal(summary["mean_scoring_rounds"], 2, language)),
        ("sim.seconds", decimal(seconds, 2, language)),
    ]
    for key, value in rows:
        table.add_row(say(key, language), value, *span)
    return table


# ------------------------------------------------------------------ replay


def replay_command(
    file: Annotated[Path, typer.Argument(help="A tikal-record JSON file (see docs/records.md).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    lang: LangOption = None,
) -> None:
    """Check a game record entry by entry and print the final scores."""
    language = language_of(lang)
    try:
        record = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise fail(say("cannot_read", language, file=str(file),
                       reason=str(exc.strerror or exc)), language) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail(say("not_json", language, file=str(file), reason=str(exc)),
                   language) from None
    try:
        game = Game.from_record(record)
    except RecordError as exc:
        entry = _entry(record, exc.index)
        if json_out:
            print(json.dumps({"ok": False, "index": exc.index, "entry": entry,
                              "reason": exc.reason, "rule": exc.rule}))
            raise typer.Exit(1) from None
        problem = render(exc.message.params["reason"], language=language)
        where = (say("replay.header", language) if exc.index < 0
                 else say("replay.entry", language, index=str(exc.index)))
        if entry is not None:
            where = say("replay.entry_text", language, where=where, entry=repr(entry))
        if exc.rule:
            problem = say("replay.with_rule", language, rule=exc.rule, reason=problem)
        raise fail(say("replay.bad", language, where=where, reason=problem), language) from None
    result = {
        "ok": True,
        "rules": game.rules.name,
        "players": game.players,
        "over": game.is_over,
        "scores": list(game.scores),
        "winners": game.winners,
        "entries": len(game.history),
        "actions": sum(1 for a in game.history if not a.verb.startswith("*")),
        "scoring_rounds": game.scoring_rounds,
    }
    if json_out:
        print(json.dumps(result))
        return
    console().print(_scores_table(game, file.name, language))


def _entry(record: Any, index: int) -> str | None:
    log = record.get("log") if isinstance(record, dict) else None
    if isinstance(log, list) and 0 <= index < len(log):
        entry = log[index]
        if isinstance(entry, str):
            return entry
    return None


def _scores_table(game: Game, name: str, language: str = "en") -> Table:
    actions = sum(1 for a in game.history if not a.verb.startswith("*"))
    status = (say("replay.over", language) if game.is_over
              else say("replay.unfinished", language, phase=game.phase.value))
    table = Table(title=say("replay.title", language, name=name, rules=game.rules.name,
                            players=game.players, status=status))
    table.add_column(say("col.seat", language), justify="right")
    table.add_column(say("col.temples", language), justify="right")
    table.add_column(say("col.treasures", language), justify="right")
    if game.rules.auction:
        table.add_column(say("col.bids_paid", language), justify="right")
    table.add_column(say("col.score", language), justify="right", style="bold")
    table.add_column("")
    winners = set(game.winners)
    for p in range(game.players):
        temples = sum(e.temples for e in game.score_events if e.player == p)
        treasures = sum(e.treasures for e in game.score_events if e.player == p)
        row = [str(p), str(temples), str(treasures)]
        if game.rules.auction:
            row.append(str(game.bids_paid[p]))
        row += [str(game.scores[p]), say("replay.winner", language) if p in winners else ""]
        table.add_row(*row)
    table.caption = say("replay.caption", language, entries=str(len(game.history)),
                        actions=str(actions), rounds=str(game.scoring_rounds),
                        placed=str(game.tiles_placed))
    return table


# ------------------------------------------------------------------ bench


def bench_command(
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.01, help="Time budget of each measurement.")
    ] = 2.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random games.")] = 0,
    server: Annotated[bool, typer.Option(
        "--server", help="Measure the web server's CPU time per move instead.")] = False,
    browser: Annotated[bool, typer.Option(
        "--browser", help="Measure the game page's main-thread time per received move in "
        "Chromium instead (a late 4-player game; needs Playwright).")] = False,
    moves: Annotated[int | None, typer.Option(
        "--moves", min=1,
        help="With --server: moves to play (3000); with --browser: moves measured (60).")] = None,
    games: Annotated[int, typer.Option(
        "--games", min=1, help="With --server: games played at once.")] = 20,
    profile: Annotated[Path | None, typer.Option(
        "--profile", help="With --server: write a cProfile of the moves to this file.")] = None,
    lang: LangOption = None,
) -> None:
    """Measure random-play speed: steps/s, playouts/s per rule set, clone() time (or,
    with --server, the web server's CPU time per move)."""
    from ..bench import TASKS, run_bench

    language = language_of(lang)
    if browser:
        _browser_bench(moves or 60, seed, json_out, language)
        return
    if server:
        _server_bench(moves or 3000, games, seed, profile, json_out, language)
        return
    status = console(stderr=True)
    with progress_bar(status, counts=False) as progress:
        ids: dict[str, TaskID] = {t: progress.add_task(t, total=1000) for t in TASKS}

        def report(task: str, fraction: float) -> None:
            progress.update(ids[task], completed=int(fraction * 1000))

        figures = run_bench(seconds, seed=seed, progress=report)
        for task_id in ids.values():
            progress.update(task_id, completed=1000)
    if json_out:
        print(json.dumps(figures))
        return
    console().print(_bench_table(figures, language))


def _bench_table(figures: dict[str, Any], language: str = "en") -> Table:
    table = Table(title=say("bench.title", language))
    table.add_column(say("bench.measure", language))
    table.add_column("tikal", justify="right")
    table.add_column(say("bench.best_window", language), justify="right")
    table.add_column("python-chess", justify="right")
    ref = figures["python_chess_plies_per_second"]
    steps = figures["steps"]
    table.add_row(
        say("bench.steps", language),
        f"{figures['steps_per_second']:,}",
        f"{steps['best_window_per_second']:,}",
        say("bench.plies", language, plies=f"{ref:,}"),
    )
    for key, playout in figures["playouts"].items():
        table.add_row(
            say("bench.playouts", language, setup=key.replace("/", " ")),
            f"{playout['per_second']:,.1f}",
            f"{playout['best_window_per_second']:,.1f}",
            "",
        )
    table.add_row(say("bench.clone", language), f"{figures['clone_us']:.2f}",
                  f"{figures['clone']['min_us']:.2f}", "")
    table.caption = say("bench.caption", language,
                        seconds=str(figures["seconds_per_measurement"]),
                        python=f"{figures['implementation']} {figures['python']}",
                        machine=str(figures["machine"]))
    return table


def _server_bench(
    moves: int, games: int, seed: int, profile: Path | None, json_out: bool, language: str,
) -> None:
    import cProfile

    from ..server.bench import measure_server

    profiler = cProfile.Profile() if profile is not None else None
    figures = measure_server(moves, games, seed=seed, profile=profiler)
    if profiler is not None and profile is not None:
        profiler.dump_stats(profile)
    if json_out:
        print(json.dumps(figures))
        return
    console().print(_server_bench_table(figures, language))


def _server_bench_table(figures: dict[str, Any], language: str = "en") -> Table:
    table = Table(title=say("bench.server.title", language))
    table.add_column(say("bench.measure", language))
    table.add_column(say("bench.server.cpu", language), justify="right")
    for phase, micros in figures["cpu_us"].items():
        table.add_row(say(f"bench.server.{phase}", language), decimal(micros, 0, language))
    table.add_row(say("bench.server.total", language),
                  decimal(figures["cpu_us_per_move"], 0, language))
    table.caption = say("bench.server.caption", language, moves=str(figures["moves"]),
                        games=str(figures["games"]), players=str(figures["players"]),
                        wall=decimal(figures["act_wall_us"], 0, language))
    return table


def _browser_bench(moves: int, seed: int, json_out: bool, language: str) -> None:
    from ..server.browserbench import BrowserBenchError, measure_browser

    try:
        figures = measure_browser(moves, seed=seed)
    except BrowserBenchError as error:
        raise fail(say(f"bench.browser.{error.key}", language, **error.params),
                   language) from None
    if json_out:
        print(json.dumps(figures))
        return
    console().print(_browser_bench_table(figures, language))


def _browser_bench_table(figures: dict[str, Any], language: str = "en") -> Table:
    table = Table(title=say("bench.browser.title", language))
    table.add_column(say("bench.browser.page", language))
    table.add_column(say("bench.measure", language))
    for quantile in ("p50", "p95", "max"):
        table.add_column(say(f"bench.browser.{quantile}", language), justify="right")
    for name, costs in figures["viewers"].items():
        for n, (key, values) in enumerate(costs.items()):
            table.add_row(say(f"bench.browser.{name}", language) if n == 0 else "",
                          say(f"bench.browser.{key}", language),
                          *(decimal(values[q], 2, language) for q in ("p50", "p95", "max")),
                          end_section=n + 1 == len(costs))
    table.caption = say("bench.browser.caption", language, moves=str(figures["moves"]),
                        warmup=str(figures["warmup"]), tiles=str(figures["tiles"]),
                        seed=str(figures["seed"]), chromium=figures["chromium"])
    return table
