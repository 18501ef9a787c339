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
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from ..errors import RecordError
from ..game import Game
from ..simulate import GameResult, simulate, summarize
from .common import RULES_HELP, check_players, console, fail


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
) -> None:
    """Play random games (uniform among the legal actions) and summarize them."""
    n = check_players(rules, players)
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
    summary = summarize(_with_progress(results, games, f"{rules}, {n} players", out), rules, n)
    elapsed = time.perf_counter() - start
    out.print(_summary_table(summary.to_json(), seed, elapsed))
    if summary.errors:
        raise typer.Exit(1)


def _save_record(folder: Path, index: int, game: Game) -> None:
    path = folder / f"game-{index:05d}.json"
    path.write_text(json.dumps(game.record(), indent=1) + "\n", encoding="utf-8")


def _emit(result: GameResult) -> GameResult:
    print(json.dumps(result.to_json()), flush=False)
    return result


def _progress(shown_on: Console, counts: bool = True) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn() if counts else TaskProgressColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=shown_on,
        transient=False,
    )


def _with_progress(results: Any, total: int, label: str, shown_on: Console) -> Any:
    with _progress(shown_on) as progress:
        task = progress.add_task(label, total=total)
        for result in results:
            progress.advance(task)
            yield result


def _summary_table(summary: dict[str, Any], seed: int, seconds: float) -> Table:
    players = summary["players"]
    table = Table(title=f"Random play: {summary['rules']}, {players} players, seed {seed}")
    table.add_column("")
    for p in range(players):
        table.add_column(f"seat {p}", justify="right")
    table.add_row("mean score", *(f"{s:.2f}" for s in summary["mean_scores"]))
    table.add_row("win share", *(f"{w:.1%}" for w in summary["win_share"]))
    table.add_section()
    span = [""] * (players - 1)
    rows = [
        ("games", f"{summary['games']}"),
        ("errors", f"{summary['errors']}"),
        ("shared wins", f"{summary['ties']}"),
        ("mean actions", f"{summary['mean_actions']:.1f}"),
        ("mean tiles placed", f"{summary['mean_tiles_placed']:.2f}"),
        ("mean tiles discarded", f"{summary['mean_tiles_discarded']:.2f}"),
        ("mean scoring rounds", f"{summary['mean_scoring_rounds']:.2f}"),
        ("seconds", f"{seconds:.2f}"),
    ]
    for name, value in rows:
        table.add_row(name, value, *span)
    return table


# ------------------------------------------------------------------ replay


def replay_command(
    file: Annotated[Path, typer.Argument(help="A tikal-record JSON file (see docs/records.md).")],
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Check a game record entry by entry and print the final scores."""
    try:
        record = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise fail(f"cannot read {file}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail(f"{file} is not JSON: {exc}") from None
    try:
        game = Game.from_record(record)
    except RecordError as exc:
        where = "header" if exc.index < 0 else f"entry {exc.index}"
        entry = _entry(record, exc.index)
        rule = f" [{exc.rule}]" if exc.rule else ""
        if json_out:
            print(json.dumps({"ok": False, "index": exc.index, "entry": entry,
                              "reason": exc.reason, "rule": exc.rule}))
            raise typer.Exit(1) from None
        shown = f" ({entry!r})" if entry is not None else ""
        raise fail(f"bad record at {where}{shown}:{rule} {exc.reason}") from None
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
    console().print(_scores_table(game, file.name))


def _entry(record: Any, index: int) -> str | None:
    log = record.get("log") if isinstance(record, dict) else None
    if isinstance(log, list) and 0 <= index < len(log):
        entry = log[index]
        if isinstance(entry, str):
            return entry
    return None


def _scores_table(game: Game, name: str) -> Table:
    actions = sum(1 for a in game.history if not a.verb.startswith("*"))
    status = "game over" if game.is_over else f"unfinished, {game.phase.value} phase"
    table = Table(title=f"{name}: {game.rules.name}, {game.players} players, {status}")
    table.add_column("seat", justify="right")
    table.add_column("temples", justify="right")
    table.add_column("treasures", justify="right")
    if game.rules.auction:
        table.add_column("bids paid", justify="right")
    table.add_column("score", justify="right", style="bold")
    table.add_column("")
    winners = set(game.winners)
    for p in range(game.players):
        temples = sum(e.temples for e in game.score_events if e.player == p)
        treasures = sum(e.treasures for e in game.score_events if e.player == p)
        row = [str(p), str(temples), str(treasures)]
        if game.rules.auction:
            row.append(str(game.bids_paid[p]))
        row += [str(game.scores[p]), "winner" if p in winners else ""]
        table.add_row(*row)
    table.caption = (
        f"{len(game.history)} record entries, {actions} actions\n"
        f"{game.scoring_rounds} scoring rounds, {game.tiles_placed} tiles placed"
    )
    return table


# ------------------------------------------------------------------ bench


def bench_command(
    json_out: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.01, help="Time budget of each measurement.")
    ] = 2.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random games.")] = 0,
) -> None:
    """Measure random-play speed: steps/s, playouts/s per rule set, clone() time."""
    from ..bench import TASKS, run_bench

    status = console(stderr=True)
    with _progress(status, counts=False) as progress:
        ids: dict[str, TaskID] = {t: progress.add_task(t, total=1000) for t in TASKS}

        def report(task: str, fraction: float) -> None:
            progress.update(ids[task], completed=int(fraction * 1000))

        figures = run_bench(seconds, seed=seed, progress=report)
        for task_id in ids.values():
            progress.update(task_id, completed=1000)
    if json_out:
        print(json.dumps(figures))
        return
    console().print(_bench_table(figures))


def _bench_table(figures: dict[str, Any]) -> Table:
    table = Table(title="tikal random-play speed")
    table.add_column("measure")
    table.add_column("tikal", justify="right")
    table.add_column("best window", justify="right")
    table.add_column("python-chess", justify="right")
    ref = figures["python_chess_plies_per_second"]
    steps = figures["steps"]
    table.add_row(
        "random steps/s, standard 4p",
        f"{figures['steps_per_second']:,}",
        f"{steps['best_window_per_second']:,}",
        f"{ref:,} plies/s",
    )
    for key, playout in figures["playouts"].items():
        table.add_row(
            f"playouts/s, {key.replace('/', ' ')}p",
            f"{playout['per_second']:,.1f}",
            f"{playout['best_window_per_second']:,.1f}",
            "",
        )
    table.add_row("clone() µs, mid-game", f"{figures['clone_us']:.2f}",
                  f"{figures['clone']['min_us']:.2f}", "")
    table.caption = (
        "step = legal_actions() + uniform choice + apply()\n"
        "clone: median of mid-game states (best window: the fastest)\n"
        f"{figures['seconds_per_measurement']} s per measurement, "
        f"{figures['implementation']} {figures['python']} on {figures['machine']}"
    )
    return table
