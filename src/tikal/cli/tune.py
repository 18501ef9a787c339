"""``tikal tune``: tune the evaluation weights by self-play (CMA-ES), then judge the result on
held-out deals; the work is done by :mod:`tikal.bots.tuning`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..bots.arena import EXECUTORS, Executor, make_executor
from ..bots.evaluate import PACKAGED_WEIGHTS, Weights
from ..bots.tuning import SPACES, MatchResult, Setup, TuningRun, match, save_plot, tune
from .common import (
    LangOption,
    check_players,
    console,
    language_of,
    percent,
    say,
    weights_option,
    wide_console,
)

LEVELS = ("greedy", "mcts")


def register(app: typer.Typer) -> None:
    """Add ``tune`` to ``app``."""
    app.command(name="tune")(tune_weights)


def tune_weights(
    rules: Annotated[str, typer.Option(help="Rule set of the self-play games.")] = "standard",
    players: Annotated[int, typer.Option(help="Players per game.")] = 2,
    level: Annotated[str, typer.Option(help="Bot level that plays: greedy or mcts.")] = "greedy",
    iterations: Annotated[int, typer.Option(min=1, help="mcts simulations per search.")] = 40,
    generations: Annotated[int, typer.Option(min=1, help="CMA-ES generations.")] = 10,
    population: Annotated[int, typer.Option(min=2, help="Candidates per generation.")] = 8,
    deals: Annotated[int, typer.Option(min=1, help="Training deals (each from every seat).")] = 8,
    held_out: Annotated[int, typer.Option(min=0, help="Held-out deals to judge the result.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the optimizer.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Processes to play games in.")] = 1,
    executor: Annotated[
        str, typer.Option(help=f"Where games run: {', '.join(EXECUTORS)} (process pool, Ray).")
    ] = "process",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (with --executor ray).")
    ] = None,
    out: Annotated[Path, typer.Option(help="Where to write the tuned weights.")] = Path(
        "weights.json"
    ),
    plot: Annotated[Path | None, typer.Option(help="Save the fitness per generation.")] = None,
    against: Annotated[str, typer.Option(
        help=f"Weights to play against: {', '.join(PACKAGED_WEIGHTS)} or a weights file; "
             "several, comma-separated, are fields each deal is played against (the run "
             "starts from the first unless --start names a set).")] = "two_players",
    start: Annotated[str | None, typer.Option(
        help="Weights to start from (a packaged set or a file; default: the first of "
             "--against), e.g. the expert's set tuned against hard's. The held-out deals "
             "then judge the start too.")] = None,
    space: Annotated[str, typer.Option(
        help="What is tuned: scalars (the scalar weights) or contests (the scalars, the "
             "temple-contest terms and the control of ties and small leads).")] = "scalars",
    lang: LangOption = None,
) -> None:
    """Tune the evaluation weights by self-play against the current ones (CMA-ES, seeded),
    then play the tuned weights against them on held-out deals."""
    language = language_of(lang)
    if level not in LEVELS:
        raise typer.BadParameter(say("choose", language, choices=", ".join(LEVELS)),
                                 param_hint="--level")
    setup = Setup(rules, check_players(rules, players, language), level, iterations)
    if space not in SPACES:
        raise typer.BadParameter(say("choose", language, choices=", ".join(SPACES)),
                                 param_hint="--space")
    if executor not in EXECUTORS:
        raise typer.BadParameter(say("choose", language, choices=", ".join(EXECUTORS)),
                                 param_hint="--executor")
    names = [name.strip() for name in against.split(",") if name.strip()]
    if not names:
        raise typer.BadParameter(say("choose", language, choices=", ".join(PACKAGED_WEIGHTS)),
                                 param_hint="--against")
    twice = next((name for i, name in enumerate(names) if name in names[:i]), None)
    if twice is not None:  # held-out results are keyed by the field's name
        raise typer.BadParameter(say("tune.twice", language, name=twice), param_hint="--against")
    fields = [weights_option(name, "--against") for name in names]
    begin = weights_option(start, "--start") if start is not None else None
    runner = make_executor(jobs, executor, address)
    run = _search(setup, generations, population, deals, seed, runner, fields, space, begin)
    tests = _held_out(setup, run.best, dict(zip(names, fields, strict=True)), held_out, seed,
                      runner)
    # the start against a field that is the start itself would be a mirror match: at par
    rivals = {} if begin is None else {
        name: field for name, field in zip(names, fields, strict=True) if field != begin}
    starts = {} if begin is None else _held_out(setup, begin, rivals, held_out, seed, runner)
    report = {
        "setup": setup.__dict__, "generations": generations, "population": population,
        "deals": deals, "seed": seed, "against": names, "start": start or names[0],
        "space": space, "history": run.history,
        "fitness": run.best_fitness,
        "held_out": _result_json(tests[names[0]]) if tests else None,
        "held_out_by_field": {name: _result_json(t) for name, t in tests.items()},
        "held_out_start_by_field": {name: _result_json(t) for name, t in starts.items()},
    }
    out.write_text(json.dumps({"about": "tuned by tikal tune", "tuning": report,
                               "weights": run.best.to_json()}, indent=1), encoding="utf-8")
    if plot is not None and run.history:
        save_plot(run, str(plot))
    wide_console().print(_table(run.history, tests, held_out, language, starts))


def _held_out(setup: Setup, weights: Weights, fields: dict[str, Weights], deals: int,
              seed: int, executor: Executor) -> dict[str, MatchResult]:
    """``weights`` against each field on the held-out deals (none when there are none)."""
    return {name: match(setup, weights, field, deals, seed + 10_000, executor)
            for name, field in fields.items()} if deals else {}


def _search(setup: Setup, generations: int, population: int, deals: int, seed: int,
            executor: Executor, against: list[Weights], space: str,
            start: Weights | None) -> TuningRun:
    columns = (TextColumn("tuning"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("best fitness {task.fields[best]}"))
    with Progress(*columns, console=console(stderr=True), transient=True) as bar:
        task = bar.add_task("generations", total=generations, best="-")

        def step(generation: int, best: float) -> None:
            bar.update(task, completed=generation, best=f"{best:.3f}")

        return tune(setup, generations=generations, population=population, deals=deals,
                    seed=seed, executor=executor, progress=step, against=against,
                    space=SPACES[space], start=start)


def _result_json(result: MatchResult) -> dict[str, object]:
    return {"games": result.games, "wins": result.wins, "win_rate": round(result.win_rate, 4),
            "ci95": [round(x, 4) for x in result.interval], "margin": round(result.margin, 2)}


def _table(history: list[dict[str, float]], tests: dict[str, MatchResult], held_out: int,
           language: str = "en", starts: dict[str, MatchResult] | None = None) -> Table:
    table = Table(title=say("tune.title", language))
    for column in ("generation", "best", "mean", "overall"):
        table.add_column(say(f"tune.col.{column}", language), justify="right")
    for row in history:
        table.add_row(*(str(row[k]) for k in ("generation", "best", "mean", "overall")))
    captions = []
    for key, results in (("tune.caption", tests), ("tune.caption_start", starts or {})):
        for name, test in results.items():
            low, high = test.interval
            captions.append(say(key, language, games=test.games, deals=held_out,
                                rate=percent(test.win_rate, language),
                                low=percent(low, language), high=percent(high, language),
                                margin=f"{test.margin:+.1f}")
                            + ("" if len(tests) == 1 else f" ({name})"))
    if captions:
        table.caption = "\n".join(captions)
    return table
