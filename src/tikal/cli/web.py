"""``tikal serve``: the web app (FastAPI on uvicorn) with games in SQLite or PostgreSQL."""

from __future__ import annotations

from typing import Annotated

import typer

from .common import LangOption, language_of, say
from .db import refuse_start, say_set_aside


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``; FastAPI and uvicorn load only when the command runs."""
    app.command()(serve)


def where_stored(db: str) -> str:
    """The database as shown at start-up: a file's full path, a URL without its password."""
    from ..server.store.protocol import shown_location

    return shown_location(db)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str, typer.Option(help="SQLite database file, or a postgresql://user:password@host/db "
                          "URL (several processes may share one PostgreSQL database).")
    ] = "tikal.sqlite3",
    bot_delay: Annotated[
        float, typer.Option(help="Seconds a bot waits before moving (so humans can follow).")
    ] = 0.6,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    limits: Annotated[
        bool, typer.Option(help="Per-client rate limits and game caps (docs/web.md, Limits).")
    ] = True,
    games_per_client: Annotated[
        int, typer.Option(help="Games in progress one client address may have.")] = 20,
    bot_only_games: Annotated[
        int, typer.Option(help="Games of bots only running at a time on this server.")] = 4,
    idle_seconds: Annotated[
        float, typer.Option(help="A game untouched this long leaves memory (reloaded on "
                            "demand).")] = 1800.0,
    rate_scale: Annotated[
        float, typer.Option(help="Multiply every per-client rate limit by this.")] = 1.0,
    analysis_budget: Annotated[
        int | None, typer.Option(min=1, help="Determinizations per decision when analysing "
                                 "a game (default 8, or TIKAL_ANALYSIS_BUDGET).")] = None,
    analysis_jobs: Annotated[
        int | None, typer.Option(min=1, help="Analyses running at once, each in one worker "
                                 "process (default 1, or TIKAL_ANALYSIS_JOBS).")] = None,
    upload_cap: Annotated[
        int, typer.Option(min=1, help="Uploaded records kept at most; beyond, the oldest "
                          "unvisited go first (docs/web.md, Limits).")] = 5_000,
    upload_cap_mb: Annotated[
        float, typer.Option(min=0.1, help="Megabytes of uploaded records kept at most.")
    ] = 100.0,
    ws_deflate: Annotated[
        bool, typer.Option(help="Compress WebSocket messages (permessage-deflate). Off by "
                           "default: messages after a move are 2-4 KB, and compressing them "
                           "took a tenth of the server's CPU.")] = False,
    lang: LangOption = None,
) -> None:
    """Serve the web app: play in the browser (hot-seat, invite links, bots), replays."""
    import uvicorn

    from ..server import create_app
    from ..server.analysis_jobs import AnalysisSettings
    from ..server.app import tune_gc_for_serving
    from ..server.gcstats import record_from_env
    from ..server.limits import scaled_settings
    from ..server.store import StorageUnavailable, UploadCap

    language = language_of(lang)
    settings = scaled_settings(limits, games_per_client, bot_only_games, idle_seconds,
                               rate_scale)
    analysis = AnalysisSettings.from_env().with_options(budget=analysis_budget,
                                                        jobs=analysis_jobs)
    try:  # the database is opened and the games in play loaded before the port opens
        web = create_app(db, bot_delay=bot_delay, limit_settings=settings, analysis=analysis,
                         warm_bots=True, uploads=UploadCap(upload_cap, upload_cap_mb))
        say_set_aside(web.state.manager.load_unfinished(), db, language)
    except StorageUnavailable as fault:
        raise refuse_start(fault, db, language) from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(say("serve.open", language, url=f"http://{shown}:{port}/",
                   where=where_stored(db)))
    tune_gc_for_serving()
    record_from_env()  # the collector's pauses, for tikal loadtest (gcstats.py)
    uvicorn.run(web, host=host, port=port, log_level=log_level, ws_max_size=65536,
                ws_per_message_deflate=ws_deflate)
