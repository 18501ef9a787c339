"""``tikal arena``: bots against bots, seats rotated, results with confidence intervals.

Only input and output live here; the work is done by :mod:`tikal.bots.arena` (and a run is
added to the strength history of :mod:`tikal.bots.strength` with ``--history``).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ..bots import BOT_NAMES
from ..bots.arena import (
    EXECUTORS,
    ArenaResult,
    GameResult,
    RecordError,
    make_executor,
    parse_bots,
    parse_budget,
    run_arena,
    save_plot,
)
from ..bots.strength import (
    append_entry,
    entry_from_results,
)
from .common import (
    LangOption,
    check_players,
    fail,
    language_of,
    progress_bar,
    say,
    wide_console,
)

BOTS_HELP = (
    f"Comma-separated bots, one per seat ({', '.join(BOT_NAMES)}); a short list is filled "
    "up with its last bot. 'name:budget' gives one bot its own budget, e.g. mcts:2s; "
    "'@FILE' gives a greedy or mcts bot other evaluation weights, e.g. "
    "mcts@weights.json, or a packaged set by name: greedy@hand_set."
)
BUDGET_HELP = (
    "Search budget of mcts bots: '2s' (seconds per turn), '200' (iterations per search), "
    "'200/2s' (both) or 'default' (the level's own: 1.8 s per turn, the default). A smoke "
    "run takes seconds with e.g. '8'."
)


def register(app: typer.Typer) -> None:
    """Add ``arena`` to ``app``."""
    app.command()(arena)


#: The arena table's columns (``cli.col.*``), the first two left-aligned.
ARENA_COLUMNS = ("bot", "budget", "games", "wins", "win_rate", "ci95", "mean_score", "margin",
                 "s_decision", "s_turn", "max_s_turn", "sims_search", "sims_s")


def results_table(result: ArenaResult, language: str = "en") -> Table:
    cfg = result.config
    table = Table(title=say("arena.title", language, rules=cfg["rules"], players=cfg["players"],
                            games=cfg["games"], seed=str(cfg["seed"])))
    for name in ARENA_COLUMNS:
        table.add_column(say(f"col.{name}", language),
                         justify="left" if name in ("bot", "budget") else "right")
    for label, b in result.bots.items():
        sims = f"{b.simulations_per_s:.0f}" if b.simulations_per_s else "-"
        per_search = f"{b.simulations_per_search:.0f}" if b.simulations_per_search else "-"
        turn = f"{b.mean_turn_s:.3f}" if b.mean_turn_s else "-"
        max_turn = f"{b.max_turn_s:.2f}" if b.mean_turn_s else "-"
        table.add_row(
            label,
            cfg["budgets"].get(label, "default"),
            str(b.games),
            f"{b.wins:g}",
            f"{b.win_rate:.1%}",
            f"{b.ci95[0]:.1%}-{b.ci95[1]:.1%}",
            f"{b.mean_score:.1f}",
            f"{b.mean_margin:+.1f}",
            f"{b.mean_decision_s:.4f}" if b.mean_decision_s else "-",
            turn,
            max_turn,
            per_search,
            sims,
        )
    return table


def arena(
    rules: Annotated[str, typer.Option(help="Rule set: standard, auction, demo.")] = "standard",
    players: Annotated[int, typer.Option(help="Number of players (seats).")] = 2,
    bots: Annotated[str, typer.Option(help=BOTS_HELP)] = "greedy,random",
    games: Annotated[
        int, typer.Option(help="Games to play (rounded up to a multiple of the seats).")
    ] = 10,
    seed: Annotated[int, typer.Option(help="First deal's seed; deal k uses seed + k.")] = 0,
    budget: Annotated[str, typer.Option(help=BUDGET_HELP)] = "default",
    jobs: Annotated[int, typer.Option(help="Games played in parallel processes.")] = 1,
    executor: Annotated[
        str, typer.Option(help="process (the default: serial or --jobs processes) or ray "
                          "(games as Ray tasks; needs tikal[ray]).")
    ] = "process",
    address: Annotated[
        str | None,
        typer.Option(help="Ray cluster to use with --executor ray (e.g. auto or "
                     "ray://head:10001); none starts a local Ray with --jobs CPUs."),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Write the results as JSON here.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Save a PNG plot of the results here.")] = None,
    records: Annotated[
        Path | None, typer.Option(help="Save every game's record into this directory.")
    ] = None,
    resume: Annotated[
        bool, typer.Option(help="Go on with a stopped run: the games whose records are in "
                           "--records are read back, not played (start it with the same "
                           "options).")
    ] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    history: Annotated[
        Path | None,
        typer.Option(help="Append the results to this strength history (JSON lines)."),
    ] = None,
    tag: Annotated[
        str, typer.Option(help="Name of this run in the history, e.g. a commit or a bot setting.")
    ] = "",
    lang: LangOption = None,
) -> None:
    """Bots against bots: seats rotate, results per bot with 95% confidence intervals."""
    language = language_of(lang)
    check_players(rules, players, language)
    if games < 1:
        raise fail(say("arena.games_min", language), language)
    try:
        lineup = parse_bots(bots, players, parse_budget(budget))
    except ValueError as exc:
        raise fail(str(exc), language) from None
    if executor not in EXECUTORS:
        raise fail(say("arena.executor", language, choices=", ".join(EXECUTORS)), language)
    if address is not None and executor != "ray":
        raise fail(say("arena.address", language), language)
    if resume and records is None:
        raise fail(say("arena.resume_records", language), language)
    console = wide_console()
    labels = sorted({spec.label for spec in lineup})
    wins = dict.fromkeys(labels, 0.0)
    played = [0]
    progress = progress_bar(console, title="arena", quiet=quiet)

    def on_result(result: GameResult, total: int) -> None:
        if result.error is None:
            played[0] += 1
            for seat in result.seats:
                wins[seat.label] += seat.win
        text = "  ".join(f"{b} {wins[b]:g}" for b in labels)
        progress.update(task, total=total, advance=1,
                        description=say("arena.wins", language, wins=text))

    with progress:
        task = progress.add_task("", total=None)
        try:
            result = run_arena(
                rules, players, lineup, games, seed, make_executor(jobs, executor, address),
                records, on_result, resume=resume,
            )
        except RecordError as exc:
            raise fail(say("arena.other_run", language, file=exc.file, field=exc.field),
                       language) from None
    console.print(results_table(result, language))
    if resume:
        read = result.config["read_from_records"]
        console.print(escape(say("arena.resumed", language, read=read,
                                 played=len(result.results) - read)))
    for error in result.errors:
        console.print(f"[bold red]{escape(say('error', language))}[/] {escape(error)}")
    where = (say("arena.jobs", language, jobs=jobs) if executor == "process"
             else say("arena.ray", language, address=address or "local"))
    console.print(escape(say("arena.done", language, games=len(result.results),
                             seconds=f"{result.seconds:.1f}", where=where)))
    if out is not None:
        out.write_text(json.dumps(result.to_json(), indent=1), encoding="utf-8")
        console.print(escape(say("written", language, path=str(out))))
    if plot is not None:
        save_plot(result, plot)
        console.print(escape(say("plot_saved", language, path=str(plot))))
    if records is not None:
        console.print(escape(say("records_saved", language, path=str(records))))
    if history is not None:
        entry = entry_from_results(result.to_json(), tag or "-", _now())
        append_entry(history, entry)
        console.print(escape(say("arena.history", language, path=str(history))))
    if result.errors:
        raise typer.Exit(2)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
