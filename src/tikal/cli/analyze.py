"""``tikal analyze``: where a game was won and lost; the work is done by
:mod:`tikal.bots.analysis`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..bots.analysis import (
    EVALUATIONS,
    THRESHOLDS,
    Review,
    analyze,
    save_plot,
    shown_percents,
    summary,
)
from ..bots.evaluate import PACKAGED_WEIGHTS
from ..errors import RecordError
from ..game import Game
from ..workers import process_pool
from .common import LangOption, console, fail, language_of, say, weights_option, wide_console

STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow", "best": "green"}


def register(app: typer.Typer) -> None:
    """Add ``analyze`` to ``app``."""
    app.command(name="analyze")(analyze_command)


def analyze_command(
    record: Annotated[Path, typer.Argument(help="A game record (JSON, tikal-record).")],
    budget: Annotated[
        int, typer.Option(min=1, help="Determinizations per decision (more: slower, surer).")
    ] = 16,
    seat: Annotated[int | None, typer.Option(help="Only this seat's decisions.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the determinizations.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Processes to spread decisions over.")] = 1,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Write every review as JSON here.")
    ] = None,
    plot: Annotated[Path | None, typer.Option(help="Save the win-chance graph (PNG).")] = None,
    weights: Annotated[str | None, typer.Option(
        help=f"Evaluation weights: a packaged set ({', '.join(PACKAGED_WEIGHTS)}) or a "
             "weights file; default: the set for the game's player count.")] = None,
    evaluation: Annotated[str, typer.Option(
        help=f"What scores positions: {', '.join(EVALUATIONS)} (the learned value model, "
             "or the weights' hand-made evaluation).")] = "learned",
    lang: LangOption = None,
) -> None:
    """Review every decision of a game from the player's view at that moment: each
    player's win chance, the better plan the search finds, and how much was lost."""
    language = language_of(lang)
    data = _read(record, language)
    names = _names(data, language)
    if seat is not None and not 0 <= seat < len(names):
        raise fail(say("analyze.seat", language, last=str(len(names) - 1)), language)
    if evaluation not in EVALUATIONS:
        raise typer.BadParameter(say("choose", language, choices=", ".join(EVALUATIONS)),
                                 param_hint="--evaluation")
    chosen = weights_option(weights, "--weights") if weights is not None else None
    reviews = _run(data, budget=budget, seed=seed, seat=seat, jobs=jobs, weights=chosen,
                   evaluation=evaluation)
    out = wide_console()
    out.print(_table(reviews, names, language))
    out.print(_summary_table(reviews, names, language))
    if json_out is not None:
        report = {"record": str(record), "budget": budget, "seed": seed,
                  "weights": weights or f"default ({len(names)} players)",
                  "evaluation": evaluation,
                  "thresholds": dict(THRESHOLDS), "summary": summary(reviews, len(names)),
                  "reviews": [r.to_json() for r in reviews]}
        json_out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    if plot is not None:
        save_plot(reviews, names, str(plot))


def _read(path: Path, language: str = "en") -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        Game.from_record(data)
    except RecordError as exc:  # names the entry at fault
        raise fail(f"{path}: {exc.text(language)}", language) from None
    except (OSError, ValueError) as exc:
        raise fail(f"{path}: {exc}", language) from None
    return dict(data)


def _names(data: dict[str, Any], language: str = "en") -> list[str]:
    given = data.get("seats")
    seats: list[Any] = given if isinstance(given, list) else []
    players = int(data["players"])
    return [
        str(seats[p].get("name")) if p < len(seats) and isinstance(seats[p], dict)
        and seats[p].get("name") else say("seat", language, seat=p)
        for p in range(players)
    ]


def _run(data: dict[str, Any], **options: Any) -> list[Review]:
    columns = (TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    jobs = options.pop("jobs")
    with Progress(*columns, console=console(stderr=True), transient=True) as bar:
        task = bar.add_task("decisions", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        if jobs == 1:
            return analyze(data, progress=step, **options)
        with process_pool(jobs) as pool:
            return analyze(data, executor=pool, progress=step, **options)


def _table(reviews: list[Review], names: list[str], language: str = "en") -> Table:
    table = Table(title=say("analyze.decisions", language), show_lines=False)
    table.add_column("#")
    for column in ("player", "played", "verdict", "as_played", "best_found", "lost", "better",
                   "chances"):
        table.add_column(say(f"analyze.col.{column}", language))
    for r in reviews:
        style = STYLE.get(r.verdict, "")
        better = "" if r.verdict in ("best", "good") else " · ".join(r.best)
        chances = " ".join(f"{c:.0%}" for c in r.win_chance)
        played, best, lost = shown_percents(r)
        table.add_row(str(r.index), names[r.player], " · ".join(r.played),
                      say(f"analyze.verdict.{r.verdict}", language),
                      f"{played}%", f"{best}%", f"{lost}%", better, chances, style=style)
    return table


def _summary_table(reviews: list[Review], names: list[str], language: str = "en") -> Table:
    table = Table(title=say("analyze.per_player", language))
    table.add_column(say("analyze.col.player", language))
    table.add_column(say("analyze.col.decisions", language))
    for name, _ in THRESHOLDS:
        table.add_column(say(f"analyze.verdict.{name}", language))
    table.add_column(say("analyze.col.lost_mean", language))
    for p, row in summary(reviews, len(names)).items():
        counts = [str(row[n]) for n, _ in THRESHOLDS]
        table.add_row(names[int(p)], str(row["decisions"]), *counts, f"{row['mean_lost']:.1%}")
    return table
