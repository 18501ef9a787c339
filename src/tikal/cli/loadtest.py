"""``tikal loadtest``: a load benchmark of the web server on 127.0.0.1 (see
:mod:`tikal.server.loadtest`); prints one table row per scenario."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from .common import LangOption, fail, language_of, say, wide_console

SCENARIOS = ("saturate", "paced", "bots", "lobby")


def register(app: typer.Typer) -> None:
    """Add ``loadtest`` to ``app``; the server and client code load only when it runs."""
    app.command()(loadtest)


def loadtest(
    scenario: Annotated[
        list[str] | None,
        typer.Option(help="saturate (moves as fast as answered), paced (--rate moves/s per "
                     "game), bots (human vs bot games), lobby (paced games while "
                     "--lobby-clients watch --lobby-tables change). Repeat for several; "
                     "default all."),
    ] = None,
    games: Annotated[int, typer.Option(min=1, max=2000, help="Games for saturate/paced.")] = 100,
    bot_games: Annotated[int, typer.Option(min=1, max=500, help="Games for bots.")] = 20,
    duration: Annotated[
        float, typer.Option(min=1, max=600, help="Seconds of play per scenario.")] = 15,
    rate: Annotated[float, typer.Option(help="Moves per second per game when paced.")] = 1.0,
    http_fraction: Annotated[
        float, typer.Option(min=0, max=1, help="Share of games that move over HTTP.")] = 0.1,
    processes: Annotated[int, typer.Option(min=1, max=16, help="Server processes.")] = 1,
    db: Annotated[
        str | None,
        typer.Option(help="Database: a SQLite file or postgresql://… (default: temporary "
                     "SQLite file)."),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="The servers' bot think time (s).")] = 0.6,
    server_path: Annotated[
        str | None,
        typer.Option(help="Run the server from this source directory (e.g. an older "
                     "checkout's src) to compare versions."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the clients' random choices.")] = 1,
    bot_level: Annotated[str, typer.Option(help="Level of the bots in the bots scenario.")
                         ] = "medium",
    sweep_after: Annotated[
        float | None,
        typer.Option(min=1, help="Start the servers with --idle-seconds SECONDS; after play, "
                     "wait for their idle sweep and read their memory again."),
    ] = None,
    lobby_tables: Annotated[
        int, typer.Option(min=1, max=10_000, help="Open tables for lobby.")] = 1000,
    lobby_clients: Annotated[
        int, typer.Option(min=1, max=10_000, help="Clients on /ws/lobby for lobby.")] = 2000,
    lobby_rate: Annotated[
        float, typer.Option(min=0.1, max=100, help="Table changes per second for lobby.")
    ] = 2.0,
    lang: LangOption = None,
) -> None:
    """Load the web server: start it on 127.0.0.1, play many games over WebSocket and HTTP,
    print moves/s, latency percentiles, message sizes, server memory and errors."""
    from ..server.loadtest import Options, lobby_cells, run, summary

    language = language_of(lang)
    chosen = scenario or list(SCENARIOS)
    unknown = sorted(set(chosen) - set(SCENARIOS))
    if unknown:
        raise fail(say("load.unknown", language, given=", ".join(unknown),
                       choices=", ".join(SCENARIOS)), language)
    if processes > 1 and (db is None or not db.startswith("postgresql")):
        raise fail(say("load.postgres", language), language)
    table = Table(title=say("load.title", language, processes=processes, db=db or "SQLite"))
    rows = []
    lobby_rows = []
    for name in chosen:
        opts = Options(
            games=games if name != "bots" else 0, bot_games=bot_games if name == "bots" else 0,
            duration=duration, rate=rate if name in ("paced", "lobby") else 0.0,
            http_fraction=http_fraction if name == "saturate" else 0.0, processes=processes,
            lobby_tables=lobby_tables if name == "lobby" else 0,
            lobby_clients=lobby_clients if name == "lobby" else 0, lobby_rate=lobby_rate,
            db=db, bot_delay=bot_delay, server_path=server_path, seed=seed, bot_level=bot_level,
            sweep_after=sweep_after,
        )
        result = run(opts)
        rows.append((name, summary(result)))
        lobby = lobby_cells(result)
        if lobby is not None:
            lobby_rows.append((name, lobby))
    shown = wide_console()
    if not shown.is_terminal:
        shown.width = 220
    shown.print(filled(table, rows, language))
    if lobby_rows:
        shown.print(filled(Table(title=say("load.lobby_title", language)), lobby_rows,
                           language))


def filled(table: Table, rows: list[tuple[str, dict[str, str]]], language: str) -> Table:
    """``table`` with a row per scenario (its cells in the order of the first row's)."""
    table.add_column(say("load.scenario", language))
    for column in rows[0][1]:
        table.add_column(column, justify="right")
    for name, cells in rows:
        table.add_row(name, *cells.values())
    return table
