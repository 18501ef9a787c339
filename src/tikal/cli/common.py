"""What every command module shares: consoles, error exits and the rule-set check."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from babel.numbers import format_decimal, format_percent
from rich.console import Console
from rich.markup import escape

from ..components import RULE_SET_NAMES, rule_set
from ..messages import LANGUAGES, choose_language, text
from ..simulate import default_players

if TYPE_CHECKING:
    from rich.progress import Progress

    from ..bots.evaluate import Weights

RULES_HELP = f"Rule set: {', '.join(RULE_SET_NAMES)}."


def console(stderr: bool = False) -> Console:
    """A console without rich's number highlighting (figures keep one colour)."""
    return Console(stderr=stderr, highlight=False)


def wide_console() -> Console:
    """Tables of many columns stay readable when the output is a file or a pipe."""
    shown = console()
    return shown if shown.is_terminal else Console(highlight=False, width=150)


def progress_bar(shown_on: Console, counts: bool = True, *, title: str | None = None,
                 quiet: bool = False) -> Progress:
    """The commands' progress bar: the task's description, the bar, done of total (or a
    percentage), time spent and time left; with ``title`` first the title and the
    description last (the arena's running score), shown unless ``quiet``."""
    from rich.progress import (  # here: ``tikal serve`` shows none (issue 35, start-up)
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    head = TextColumn(f"[bold]{title}" if title else "[bold]{task.description}")
    tail = [TextColumn("{task.description}")] if title else []
    return Progress(
        head,
        BarColumn(),
        MofNCompleteColumn() if counts else TaskProgressColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        *tail,
        console=shown_on,
        transient=False,
        disable=quiet,
    )


def fail(message: str, language: str = "en") -> typer.Exit:
    """Print ``message`` as an error on stderr; raise the returned exit (code 1)."""
    label = escape(text("cli.error", language))
    console(stderr=True).print(f"[bold red]{label}[/] {escape(message)}", soft_wrap=True)
    return typer.Exit(1)


def read_json_files(files: Iterable[Path], refusal: str, language: str
                    ) -> list[tuple[str, Any]]:
    """Each file's JSON with its name; a failure (``cli.<refusal>`` with ``path`` and
    ``why``) naming the first that cannot be read or is not JSON."""
    loaded = []
    for file in files:
        try:
            loaded.append((str(file), json.loads(file.read_text(encoding="utf-8"))))
        except (OSError, ValueError) as exc:
            raise fail(say(refusal, language, path=str(file), why=str(exc)),
                       language) from None
    return loaded


def say(key: str, language: str, **params: Any) -> str:
    """A command's sentence (``cli.<key>``) in ``language``."""
    return text(f"cli.{key}", language, **params)


def decimal(value: float, digits: int, language: str) -> str:
    """``value`` with ``digits`` decimals as the language writes it (English as before)."""
    if language == "en":
        return f"{value:.{digits}f}"
    return format_decimal(value, format="0." + "0" * digits if digits else "0", locale=language)


def percent(value: float, language: str) -> str:
    """A share as a percentage with one decimal (``12.5%``, ``12,5 %``)."""
    if language == "en":
        return f"{value:.1%}"
    return format_percent(value, format="0.0%", locale=language)


def check_players(rules: str, players: int | None, language: str = "en") -> int:
    """The player count to use (``None``: the most the rule set allows); exits if invalid.

    ``language`` is for commands that speak to players (``tikal play --lang``).
    """
    if rules not in RULE_SET_NAMES:
        raise fail(text("cli.unknown_rules", language, rules=rules,
                        choices=", ".join(RULE_SET_NAMES)), language)
    counts = rule_set(rules).player_counts
    n = default_players(rules) if players is None else players
    if n not in counts:
        raise fail(text("cli.player_count", language, rules=rules,
                        counts=", ".join(map(str, counts)), players=n), language)
    return n


#: The ``--lang`` option of every command that speaks to a player.
LangOption = Annotated[
    str | None,
    typer.Option(help=f"Language: {', '.join(LANGUAGES)} (default: TIKAL_LANG, LANG)."),
]


def language_of(lang: str | None) -> str:
    """The language to speak: ``--lang``, else the environment; exits on an unknown one."""
    try:
        return choose_language(lang)
    except ValueError:
        raise fail(text("cli.unknown_language", "en", given=lang,
                        choices=", ".join(LANGUAGES))) from None


def weights_option(name: str, option: str) -> Weights:
    """A packaged weight set by name or a weights file; an error naming ``option`` if
    neither can be read (the bots are imported only by the commands that need them)."""
    from ..bots.evaluate import weights_file

    try:
        return weights_file(name)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=option) from None
