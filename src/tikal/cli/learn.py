"""``tikal learn``: the learned evaluation's two steps, self-play data (``learn data``) and
training (``learn train``), and its win chances judged on games played elsewhere (``learn
calibrate``: arena or web records), as is the search's own win chance for a weight set's
estimates (``learn spread``) and how often a search bot played each of its planner's plans
(``learn replies``); the work is done by :mod:`tikal.bots.learn`."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..bots.arena import EXECUTORS, make_executor
from ..bots.learn import SPREAD_TEMPERATURES
from .common import (
    LangOption,
    console,
    decimal,
    fail,
    language_of,
    percent,
    progress_bar,
    read_json_files,
    say,
)

#: Where ``learn train`` writes by default: the package's model (the bots' ``expert``).
PACKAGED = Path(str(resources.files("tikal").joinpath("data", "value_model.json")))

#: ``learn spread``'s default ``--temperatures``.
TRIED_SPREADS = ",".join(f"{t:g}" for t in SPREAD_TEMPERATURES)

#: Figures per player count, as ``learn calibrate`` and ``learn spread`` judge records.
Judged = dict[str, dict[str, Any]]


def register(app: typer.Typer) -> None:
    """Add ``learn data``, ``train``, ``calibrate``, ``spread`` and ``replies`` to
    ``app``."""
    learn = typer.Typer(help="Learn the value model from self-play: data, then training.",
                        no_args_is_help=True)
    learn.command("data")(data)
    learn.command("train")(train)
    learn.command("calibrate")(calibrate)
    learn.command("spread")(spread)
    learn.command("replies")(replies)
    app.add_typer(learn, name="learn")


def _numpy(language: str) -> None:
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise fail(say("learn.needs_numpy", language), language) from None


def data(
    games: Annotated[int, typer.Option(min=1, help="Self-play games to play.")] = 2000,
    seed: Annotated[int, typer.Option(help="Seed of the deals, line-ups and bots.")] = 1,
    jobs: Annotated[int, typer.Option(min=1, help="Processes to play games in.")] = 1,
    executor: Annotated[
        str, typer.Option(help=f"Where games run: {', '.join(EXECUTORS)} (process pool, Ray).")
    ] = "process",
    address: Annotated[
        str | None, typer.Option(help="Ray cluster address (with --executor ray).")] = None,
    out: Annotated[Path, typer.Option(help="Where to write the data (.npz).")] = Path(
        "selfplay.npz"),
    lang: LangOption = None,
) -> None:
    """Play self-play games (every rule set and player count, bots of several strengths)
    and write every position's feature rows with the final results."""
    language = language_of(lang)
    _numpy(language)
    if executor not in EXECUTORS:
        raise typer.BadParameter(say("choose", language, choices=", ".join(EXECUTORS)),
                                 param_hint="--executor")
    import numpy as np

    from ..bots.learn import generate

    shown = console(stderr=True)
    with progress_bar(shown, title="learn data") as bar:
        task = bar.add_task("", total=games)
        found = generate(games, seed, make_executor(jobs, executor, address),
                         progress=lambda done: bar.update(task, completed=done))
    with out.open("wb") as file:
        np.savez_compressed(file, allow_pickle=False, **found)
    console().print(say("learn.data_done", language, games=games,
                        rows=len(found["margin"]), positions=int(found["position"][-1]) + 1,
                        out=str(out)))


def train(
    source: Annotated[Path, typer.Argument(help="Data written by `tikal learn data`.")],
    out: Annotated[Path, typer.Option(help="Where to write the model (default: the "
                                           "package's, which the expert bot plays).")] = PACKAGED,
    hidden: Annotated[int, typer.Option(min=0, help="Hidden units (0: a linear model).")] = 32,
    epochs: Annotated[int, typer.Option(min=1, help="Passes over the training rows.")] = 40,
    seed: Annotated[int, typer.Option(help="Seed of the split and the network.")] = 0,
    held_out: Annotated[float, typer.Option(min=0.01, max=0.9,
                                            help="Share of the games held out.")] = 0.15,
    plot: Annotated[Path | None, typer.Option(help="Save the loss per epoch (PNG).")] = None,
    report: Annotated[Path | None, typer.Option(help="Save the report (JSON).")] = None,
    lang: LangOption = None,
) -> None:
    """Fit the value model on self-play data; print the held-out loss and calibration."""
    language = language_of(lang)
    _numpy(language)
    import numpy as np

    from ..bots.learn import save_plot
    from ..bots.learn import train as fit

    try:
        with np.load(source) as archive:
            found = {key: archive[key] for key in archive.files}
    except (OSError, ValueError) as exc:
        raise fail(say("learn.bad_data", language, path=str(source), why=str(exc)),
                   language) from None
    shown = console(stderr=True)
    with progress_bar(shown, title="learn train") as bar:
        task = bar.add_task("", total=epochs)
        result = fit(found, hidden=hidden, epochs=epochs, seed=seed, held_out=held_out,
                     progress=lambda epoch, loss: bar.update(
                         task, completed=epoch, description=f"held-out {loss:.1f}"))
    result.model.save(out)
    if report is not None:
        report.write_text(json.dumps(result.report, indent=1), encoding="utf-8")
    if plot is not None:
        save_plot(result.report, str(plot))
    console().print(_table(result.report, language))
    console().print(say("learn.saved", language, out=str(out)))


def calibrate(
    paths: Annotated[list[Path], typer.Argument(
        help="Game records (.json), or folders of them (as `tikal arena --records` writes).")],
    model: Annotated[Path | None, typer.Option(
        help="A value model file (default: the package's).")] = None,
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Save the figures per player count (JSON).")] = None,
    lang: LangOption = None,
) -> None:
    """Judge the model's win chances on finished recorded games: log loss and Brier score
    per player count, next to the hand-made evaluation's and the uniform guess."""
    language = language_of(lang)
    _numpy(language)
    from ..bots.learn import calibrate_records
    from ..bots.value import load_model

    try:
        value = load_model(model)
    except ValueError as exc:
        raise fail(str(exc), language) from None
    found, games = _judge(paths, lambda loaded: calibrate_records(loaded, value), json_out,
                          language)
    title = say("learn.calibrated_title", language, games=games,
                model=str(model) if model else "value_model.json")
    console().print(_calibration_table(found, title, language, games=True))


def _judge(paths: list[Path], judge: Callable[[list[tuple[str, dict[str, Any]]]], Judged],
           json_out: Path | None, language: str) -> tuple[Judged, int]:
    """``judge``'s figures per player count for the records in ``paths`` (saved to
    ``json_out`` if given) and the games judged; a failure naming a record that does not
    replay, or saying that none was finished."""
    from ..bots.learn import UnreadableRecord

    try:
        found = judge(_records(paths, language))
    except UnreadableRecord as exc:
        raise fail(say("learn.bad_record", language, path=exc.name, why=str(exc.error)),
                   language) from None
    if not found:
        raise fail(say("learn.no_records", language,
                       paths=", ".join(str(p) for p in paths)), language)
    if json_out is not None:
        json_out.write_text(json.dumps(found, indent=1), encoding="utf-8")
    return found, sum(int(row["games"]) for row in found.values())


def _records(paths: list[Path], language: str) -> list[tuple[str, dict[str, Any]]]:
    """The records in ``paths`` (files, or folders of ``*.json``) with their file names;
    a failure naming the file that is not JSON."""
    files = sorted(f for p in paths for f in (p.glob("*.json") if p.is_dir() else [p]))
    return read_json_files(files, "learn.bad_record", language)


def spread(
    paths: Annotated[list[Path], typer.Argument(
        help="Game records (.json), or folders of them (as `tikal arena --records` writes).")],
    weights: Annotated[str, typer.Option(
        help="The weights whose estimates are judged: a packaged set's name or a file.")
    ] = "expert",
    temperatures: Annotated[str, typer.Option(
        help="Temperatures to try, comma-separated (points per scoring round ahead).")
    ] = TRIED_SPREADS,
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Save the figures per player count (JSON).")] = None,
    lang: LangOption = None,
) -> None:
    """Judge the search's win chance (its two-player reward) on finished recorded games:
    the log loss for each temperature, with the hand-made estimates of a weight set."""
    language = language_of(lang)
    _numpy(language)
    from ..bots.evaluate import weights_file
    from ..bots.learn import spread_fit

    try:
        chosen = weights_file(weights)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--weights") from None
    tried = _temperatures(temperatures, language)
    found, games = _judge(paths, lambda loaded: spread_fit(loaded, chosen, tried), json_out,
                          language)
    table = Table(title=say("learn.spread_title", language, games=games, weights=weights))
    table.add_column(say("learn.col.temperature", language), justify="right")
    for players in found:
        table.add_column(say("learn.col.players_log_loss", language, players=players),
                         justify="right")
    for t in tried:
        table.add_row(decimal(t, 1, language), *(
            _marked(decimal(row["log_loss"][t], 3, language), t == row["best"])
            for row in found.values()))
    console().print(table)


def replies(
    paths: Annotated[list[Path], typer.Argument(
        help="Game records (.json), or folders of them (as `tikal arena --records` writes).")],
    bot: Annotated[str, typer.Option(
        help="The bot whose decisions are read, as the records name it.")] = "hard",
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Save the counts and shares per player count (JSON).")] = None,
    lang: LangOption = None,
) -> None:
    """How often a bot played its planner's 1st, 2nd, ... distinct plan in recorded games,
    per player count: the table `mcts` draws its simulated replies from
    (replies=drawn)."""
    language = language_of(lang)
    from ..bots.learn import PlansNoTurns, UnreadableRecord, reply_shares

    def judge(loaded: list[tuple[str, dict[str, Any]]]) -> Judged:
        try:
            found = reply_shares(loaded, bot)
        except UnreadableRecord:
            raise
        except PlansNoTurns:
            raise typer.BadParameter(say("learn.plans_no_turns", language, bot=bot),
                                     param_hint="--bot") from None
        except ValueError as exc:  # not a bot: the arena's message names the levels
            raise typer.BadParameter(str(exc), param_hint="--bot") from None
        if not found:
            raise fail(say("learn.no_bot", language, bot=bot,
                           paths=", ".join(str(p) for p in paths)), language)
        return found

    found, games = _judge(paths, judge, json_out, language)
    decisions = sum(int(row["decisions"]) for row in found.values())
    table = Table(title=say("learn.replies_title", language, bot=bot, games=games,
                            decisions=decisions))
    table.add_column(say("learn.col.plan", language), justify="right")
    for players in found:
        table.add_column(say("learn.col.players_share", language, players=players),
                         justify="right")
    ranks = max(len(row["shares"]) for row in found.values())
    for rank in range(ranks):
        table.add_row(str(rank + 1), *(
            percent(row["shares"][rank], language) if rank < len(row["shares"]) else "-"
            for row in found.values()))
    table.add_row(say("learn.unranked", language), *(
        str(row["unranked"]) for row in found.values()))
    console().print(table)


def _temperatures(text: str, language: str) -> list[float]:
    """The ``--temperatures`` list; a BadParameter naming the entry that is not one."""
    tried = []
    for entry in (e.strip() for e in text.split(",") if e.strip()):
        try:
            value = float(entry)
        except ValueError:
            value = 0.0
        if not value > 0:
            raise typer.BadParameter(say("learn.bad_temperature", language, entry=entry),
                                     param_hint="--temperatures")
        tried.append(value)
    if not tried:
        raise typer.BadParameter(say("learn.bad_temperature", language, entry=text),
                                 param_hint="--temperatures")
    return sorted(set(tried))


def _marked(text: str, best: bool) -> str:
    return f"[bold]{text}[/bold]" if best else text


def _table(report: dict[str, object], language: str) -> Table:
    """Held-out log loss and Brier score per player count, the model's against the
    hand-made evaluation's and the uniform guess."""
    mse = report["mse"]
    assert isinstance(mse, dict)
    title = say("learn.title", language, model=decimal(mse["model"], 1, language),
                linear=decimal(mse["linear"], 1, language),
                constant=decimal(mse["constant"], 1, language))
    calibration = report["calibration"]
    assert isinstance(calibration, dict)
    return _calibration_table(calibration, title, language)


def _calibration_table(calibration: dict[str, dict[str, float]], title: str, language: str,
                       games: bool = False) -> Table:
    """Log loss and Brier score per player count: the model's, the hand-made evaluation's
    and the uniform guess."""
    table = Table(title=title)
    columns = ("players", *(("games",) if games else ()), "positions", "log_loss",
               "hand_log_loss", "uniform_log_loss", "brier", "hand_brier", "uniform_brier")
    for column in columns:
        table.add_column(say(f"learn.col.{column}", language), justify="right")
    for players, row in sorted(calibration.items()):
        counts = [str(int(row["games"]))] if games else []
        table.add_row(players, *counts, str(int(row["positions"])), *(
            decimal(row[key], 3, language) for key in (
                "log_loss", "hand_made_log_loss", "uniform_log_loss", "brier",
                "hand_made_brier", "uniform_brier")))
    return table
