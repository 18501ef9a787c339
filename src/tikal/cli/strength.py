"""``tikal strength``: bot strength over time, from the history that ``tikal arena --history``
writes; the work is done by :mod:`tikal.bots.strength`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from ..bots.strength import (
    HistoryEntry,
    HistoryError,
    append_entry,
    entry_from_results,
    read_history,
    save_strength_plot,
)
from .common import LangOption, fail, language_of, say, wide_console


def register(app: typer.Typer) -> None:
    """Add ``strength`` to ``app``."""
    app.command()(strength)


def strength(
    history: Annotated[Path, typer.Argument(help="The strength history (JSON lines).")],
    add: Annotated[
        list[Path] | None,
        typer.Option(help="Add a saved arena result (tikal arena --out) to the history first."),
    ] = None,
    tag: Annotated[str, typer.Option(help="Name of the added run(s) in the history.")] = "",
    plot: Annotated[
        Path | None, typer.Option(help="Save a PNG of the win rates over time here.")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Bot strength over time: every run of the history per match-up, as a table and a plot."""
    language = language_of(lang)
    for path in add or []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            when = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="seconds")
            append_entry(history, entry_from_results(data, tag or path.stem, when))
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
