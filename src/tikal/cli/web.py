"""``tikal serve``: the web app (FastAPI on uvicorn) with games in a SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``; FastAPI and uvicorn load only when the command runs."""
    app.command()(serve)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        Path, typer.Option(help="SQLite database file; every game is kept there.")
    ] = Path("tikal.sqlite3"),
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before moving (so humans can follow).")
    ] = 0.6,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the web app: play in the browser (hot-seat, invite links, bots), replays."""
    import uvicorn

    from ..server import create_app

    web = create_app(db, bot_delay=bot_delay)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(f"Tikal web app: open http://{shown}:{port}/  (games stored in {db.resolve()})")
    uvicorn.run(web, host=host, port=port, log_level=log_level, ws_max_size=65536)
