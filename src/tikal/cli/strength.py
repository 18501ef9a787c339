"""``tikal strength``: bot strength over time, from the history that ``tikal arena --history``
writes; the work is done by :mod:`tikal.bots.strength`."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..bots.strength import (
    HistoryEntry,
    HistoryError,
    append_entry,
    entry_from_results,
    read_history,
    save_strength_plot,
)
from .common import fail, wide_console


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
) -> None:
    """Bot strength over time: every run of the history per match-up, as a table and a plot."""
    for path in add or []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            when = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="seconds")
            append_entry(history, entry_from_results(data, tag or path.stem, when))
        except (OSError, json.JSONDecodeError, HistoryError) as exc:
            raise fail(f"{path}: {exc}") from None
    try:
        entries = read_history(history)
    except OSError as exc:
        raise fail(f"cannot read {history}: {exc.strerror}") from None
    except HistoryError as exc:
        raise fail(str(exc)) from None
    console = wide_console()
    console.print(history_table(entries))
    if plot is not None:
        try:
            save_strength_plot(entries, plot)
        except HistoryError as exc:
            raise fail(str(exc)) from None
        console.print(f"Plot saved to {plot}")


def history_table(entries: list[HistoryEntry]) -> Table:
    table = Table(title="Bot strength over time")
    for name in ("When", "Tag", "Match-up", "Bot", "Games", "Win rate", "95% CI", "Score"):
        table.add_column(name, justify="right" if name in ("Games", "Score") else "left")
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
