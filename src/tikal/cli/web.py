"""``tikal serve``: the web app (FastAPI on uvicorn) with games in SQLite or PostgreSQL."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from .common import LangOption, language_of, say
from .db import refuse_start, say_set_aside

if TYPE_CHECKING:
    from ..server.security import SecuritySettings


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app``; FastAPI and uvicorn load only when the command runs."""
    app.command()(serve)


def where_stored(db: str) -> str:
    """The database as shown at start-up: a file's full path, a URL without its password."""
    from ..server.store.protocol import shown_location

    return shown_location(db)


def comma_list(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def security_settings(host: str, public_url: str | None, allowed_hosts: str | None,
                      allowed_origins: str, language: str = "en") -> SecuritySettings:
    """The public URL, hosts and origins of ``tikal serve`` (security.py)."""
    from ..server.security import SecuritySettings, default_hosts, public_url_problem

    if public_url is not None and public_url_problem(public_url):
        raise typer.BadParameter(say("serve.public_url", language, url=public_url),
                                 param_hint="--public-url")
    hosts = comma_list(allowed_hosts) or list(default_hosts(host, public_url))
    return SecuritySettings(public_url, tuple(hosts), tuple(comma_list(allowed_origins)))


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
    public_url: Annotated[
        str | None, typer.Option(help="The URL players reach this server at, e.g. "
                                 "https://tikal.example (invite links use it; else the "
                                 "request's Host).")] = None,
    allowed_hosts: Annotated[
        str | None, typer.Option(help="Comma-separated Host names answered (others get 400); "
                                 "default: the public URL's host and loopback names, or "
                                 "loopback names on loopback, or any on 0.0.0.0.")] = None,
    allowed_origins: Annotated[
        str, typer.Option(help="Comma-separated page origins whose WebSockets are accepted "
                          "besides the server's own ('*': any).")] = "",
    forwarded_allow_ips: Annotated[
        str, typer.Option(help="Comma-separated proxy addresses (or networks) whose "
                          "X-Forwarded-For / X-Forwarded-Proto are trusted; none by "
                          "default. Behind nginx on this machine: 127.0.0.1.")] = "",
    header_timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds a request's headers may take; then "
                            "408 and the connection is closed.")] = 10.0,
    body_timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds a request's body may take once its "
                            "headers are in; then 408.")] = 60.0,
    lang: LangOption = None,
) -> None:
    """Serve the web app: play in the browser (hot-seat, invite links, bots), replays."""
    import uvicorn

    from ..server import create_app
    from ..server.analysis_jobs import AnalysisSettings
    from ..server.app import tune_gc_for_serving
    from ..server.gcstats import record_from_env
    from ..server.limits import scaled_settings
    from ..server.startup import mark
    from ..server.store import StorageUnavailable, UploadCap
    from ..server.timeouts import header_deadline_protocol

    mark("imported")  # Python, the command line and the server's modules (startup.py)

    language = language_of(lang)
    security = security_settings(host, public_url, allowed_hosts, allowed_origins, language)
    settings = scaled_settings(limits, games_per_client, bot_only_games, idle_seconds,
                               rate_scale, body_timeout)
    analysis = AnalysisSettings.from_env().with_options(budget=analysis_budget,
                                                        jobs=analysis_jobs)
    try:  # the database is opened and the games in play loaded before the port opens
        web = create_app(db, bot_delay=bot_delay, limit_settings=settings, analysis=analysis,
                         warm_bots=True, uploads=UploadCap(upload_cap, upload_cap_mb),
                         security=security)
        say_set_aside(web.state.manager.load_unfinished(), db, language)
    except StorageUnavailable as fault:
        raise refuse_start(fault, db, language) from None
    mark("loaded")  # the database opened (migrated if need be), the games in play loaded
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    typer.echo(say("serve.open", language, url=f"http://{shown}:{port}/",
                   where=where_stored(db)))
    tune_gc_for_serving()
    record_from_env()  # the collector's pauses, for tikal loadtest (gcstats.py)
    proxies = comma_list(forwarded_allow_ips)
    uvicorn.run(web, host=host, port=port, log_level=log_level, ws_max_size=65536,
                ws_per_message_deflate=ws_deflate, proxy_headers=bool(proxies),
                forwarded_allow_ips=proxies, http=header_deadline_protocol(header_timeout))
