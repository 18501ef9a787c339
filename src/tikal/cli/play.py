"""``tikal play``: you against bots in the terminal; the game itself is :mod:`tikal.terminal`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..bots import BOT_NAMES
from ..messages import text
from ..terminal.play import TerminalGame
from .common import LangOption, check_players, fail, language_of


def register(app: typer.Typer) -> None:
    """Add ``play`` to ``app``."""
    app.command()(play)


def play(
    rules: Annotated[str, typer.Option(help="Rule set: standard, auction, demo.")] = "standard",
    players: Annotated[int, typer.Option(help="Number of players, you included.")] = 2,
    bots: Annotated[
        str, typer.Option(help=f"Opponents, comma-separated ({', '.join(BOT_NAMES)}).")
    ] = "greedy",
    seat: Annotated[int, typer.Option(help="Your seat (0 starts).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the deal.")] = 0,
    record: Annotated[
        Path | None, typer.Option(help="Where to save the game record (JSON).")
    ] = None,
    think: Annotated[
        float | None, typer.Option(help="Seconds per turn for mcts/hard opponents.")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play against bots in the terminal ('help' during the game lists the commands)."""
    language = language_of(lang)
    check_players(rules, players, language)
    names = [b.strip().lower() for b in bots.split(",") if b.strip()]
    unknown = [b for b in names if b not in BOT_NAMES]
    if unknown:
        raise fail(text("cli.unknown_bot", language, bot=unknown[0], choices=", ".join(BOT_NAMES)))
    try:
        game = TerminalGame(
            rules, players, names, seat, seed, record_path=record, bot_seconds=think,
            language=language,
        )
    except ValueError as exc:
        raise fail(str(exc)) from None
    game.run()
