"""``tikal strength``: bot strength over time, from the history that ``tikal arena --history``
writes; ``tikal compare``: two runs of a bot paired by deal and seat.  The work is done by
:mod:`tikal.bots.strength` and :mod:`tikal.bots.compare`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..bots.arena import RECORD_GLOB
from ..bots.compare import CompareError, Paired, Side, compare, result_of_records, side_of
from ..bots.strength import (
    HistoryEntry,
    HistoryError,
    append_entry,
    entry_from_results,
    read_history,
    save_strength_plot,
)
from .common import (
    LangOption,
    decimal,
    fail,
    language_of,
    percent,
    read_json_files,
    say,
    wide_console,
)


def register(app: typer.Typer) -> None:
    """Add ``strength`` and ``compare`` to ``app``."""
    app.command()(strength)
    app.command("compare")(compare_runs)


def strength(
    history: Annotated[Path, typer.Argument(help="The strength history (JSON lines).")],
    add: Annotated[
        list[Path] | None,
        typer.Option(help="Add a saved arena result (tikal arena --out) to the history first."),
    ] = None,
    tag: Annotated[list[str] | None, typer.Option(
        help="Name of the added run in the history: one for every --add, in order, or one "
             "for all of them (default: each file's name).")] = None,
    plot: Annotated[
        Path | None, typer.Option(help="Save a PNG of the win rates over time here.")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Bot strength over time: every run of the history per match-up, as a table and a plot."""
    language = language_of(lang)
    added = add or []
    for path, name in zip(added, _names_of(added, tag or [], language), strict=True):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            when = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="seconds")
            append_entry(history, entry_from_results(data, name, when))
        except (OSError, json.JSONDecodeError, HistoryError) as exc:
            raise fail(f"{path}: {exc}", language) from None
    try:
        entries = read_history(history)
    except OSError as exc:
        raise fail(say("cannot_read", language, file=str(history), reason=str(exc.strerror)),
                   language) from None
    except HistoryError as exc:
        raise fail(str(exc), language) from None
    console = wide_console()
    console.print(history_table(entries, language))
    if plot is not None:
        try:
            save_strength_plot(entries, plot)
        except HistoryError as exc:
            raise fail(str(exc), language) from None
        console.print(escape(say("plot_saved", language, path=str(plot))))


def history_table(entries: list[HistoryEntry], language: str = "en") -> Table:
    table = Table(title=say("strength.title", language))
    for name in ("when", "tag", "matchup", "bot", "games", "win_rate", "ci95", "mean_score"):
        table.add_column(say(f"col.{name}", language),
                         justify="right" if name in ("games", "mean_score") else "left")
    for entry in entries:
        for name, b in entry.bots.items():
            table.add_row(
                entry.when[:16].replace("T", " "),
                entry.tag,
                entry.matchup,
                name,
                str(b.games),
                f"{b.win_rate:.1%}",
                f"{b.ci95[0]:.1%}-{b.ci95[1]:.1%}",
                f"{b.mean_score:.1f}",
            )
    return table


def compare_runs(
    runs: Annotated[list[Path], typer.Argument(
        help="Arena results (tikal arena --out) of the bot as it is now, one or more, or "
             "folders of a run's game records (tikal arena --records).")],
    against: Annotated[list[Path], typer.Option(
        help="An arena result or records folder of the bot to compare with (repeat for "
             "several runs).")],
    bot: Annotated[str | None, typer.Option(
        help="The bot's label in RUNS (default: each run's first bot).")] = None,
    against_bot: Annotated[str | None, typer.Option(
        help="The bot's label in the --against runs (default: each run's first bot).")
    ] = None,
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Save the figures as JSON here.")] = None,
    lang: LangOption = None,
) -> None:
    """Two runs of a bot on the same deals, paired by deal and seat: the difference in
    win rate and score, with its standard error."""
    language = language_of(lang)
    try:
        first = side_of(_results(runs, language), bot)
        second = side_of(_results(against, language), against_bot)
        paired = compare(first, second)
    except CompareError as exc:
        raise fail(say(f"compare.{exc.key}", language, **exc.params), language) from None
    console = wide_console()
    console.print(compare_table(first, second, language))
    console.print(escape(paired_sentence(paired, language)))
    if json_out is not None:
        figures = {"first": first.to_json(), "second": second.to_json(),
                   "paired": paired.to_json()}
        json_out.write_text(json.dumps(figures, indent=1), encoding="utf-8")
        console.print(escape(say("written", language, path=str(json_out))))


def _names_of(added: list[Path], tags: list[str], language: str) -> list[str]:
    """Each added result's name in the history: its own tag, the one tag given for all,
    or (with none) its file's name; refused before anything is added when the tags fit
    neither."""
    if not tags:
        return [path.stem for path in added]
    if len(tags) == 1:
        return tags * len(added)
    if len(tags) != len(added):
        raise fail(say("strength.tags", language, tags=len(tags), files=len(added)), language)
    return tags


def _results(paths: list[Path], language: str) -> list[tuple[str, Any]]:
    """Each path's arena result: the file itself, or a records folder read as the result
    its run would have written (a stopped run leaves only records)."""
    results = []
    for path in paths:
        if not path.is_dir():
            results.extend(read_json_files([path], "compare.unreadable", language))
            continue
        files = sorted(path.glob(RECORD_GLOB))
        if not files:
            raise fail(say("compare.no_records", language, folder=str(path)), language)
        records = read_json_files(files, "compare.unreadable_record", language)
        results.append((str(path), result_of_records(records)))
    return results


def compare_table(first: Side, second: Side, language: str = "en") -> Table:
    """Each side's games, win rate with its interval and mean score (all its games; the
    paired figures follow in :func:`paired_sentence`)."""
    table = Table(title=say("compare.title", language, rules=first.rules,
                            players=first.players))
    for name in ("side", "bot", "games", "win_rate", "ci95", "mean_score"):
        table.add_column(say(f"col.{name}", language),
                         justify="right" if name in ("games", "mean_score") else "left")
    for which, side in (("first", first), ("second", second)):
        low, high = side.ci95
        table.add_row(say(f"compare.{which}", language), ", ".join(side.labels),
                      str(side.games), percent(side.win_rate, language),
                      f"{percent(low, language)}-{percent(high, language)}",
                      decimal(side.mean_score, 1, language))
    return table


def paired_sentence(paired: Paired, language: str = "en") -> str:
    """The paired difference in words, with what was left out."""
    def se(value: float | None) -> str:
        return "-" if value is None else decimal(value, 1, language)

    return say("compare.paired", language, games=paired.games,
               first=percent(paired.first_rate, language),
               second=percent(paired.second_rate, language),
               points=("+" if paired.points >= 0 else "") + decimal(paired.points, 1, language),
               points_se=se(paired.points_se),
               score=("+" if paired.score >= 0 else "") + decimal(paired.score, 1, language),
               score_se=se(paired.score_se),
               only_first=paired.only_first, only_second=paired.only_second)
