"""The ASGI app: pages, a JSON API (OpenAPI at /docs) and WebSockets for live games.

``create_app(db_path)`` wires the parts together; ``tikal serve`` runs it with uvicorn.
The API is documented in ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import gcstats, routes_api, routes_pages, routes_tutorial, routes_ws, webapp
from .accounts import passkey_routes
from .accounts import routes as accounts_routes
from .accounts.passkeys import Passkeys
from .accounts.service import Accounts
from .analysis_jobs import AnalysisSettings
from .bots import Hints, SearchPool
from .chat import routes as chat_routes
from .chat.service import Chat
from .chat.store import CHANNEL as CHAT_CHANNEL
from .chat.store import ChatStore
from .clock import routes as clock_routes
from .clock.service import Clocks
from .deps import Services
from .ending import routes as ending_routes
from .ending.service import Ending
from .errors import ServerError, error_text
from .hub import Hub
from .i18n import request_language
from .keeper import Keeper
from .limits import BodyLimit, Limits, LimitSettings
from .lobby import routes as lobby_routes
from .lobby.service import Lobby
from .lobby.store import CHANNEL as LOBBY_CHANNEL
from .lobby.store import LobbyStore
from .manager import Manager
from .openapi import allowed_methods, document
from .rating import routes as rating_routes
from .rating.bots import seed_bot_ratings
from .rating.service import Ratings
from .rematch import routes as rematch_routes
from .rematch.service import Rematch
from .rematch.store import CHANNEL as REMATCH_CHANNEL
from .rematch.store import RematchStore
from .replay import Replays
from .routes_analysis import install as install_analysis
from .routes_pages import page, static_dir
from .security import SecuritySettings
from .security import install as install_security
from .store import Storage, UploadCap, open_storage


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    svc: Services = app.state.services
    svc.hub.loop = svc.manager.bots.loop = asyncio.get_running_loop()
    app.state.lobby.loop = app.state.chat.loop = app.state.rematch.loop = (
        asyncio.get_running_loop())
    cluster = start_cluster(svc.storage, svc.manager, {
        LOBBY_CHANNEL: app.state.lobby.changed_elsewhere,
        CHAT_CHANNEL: app.state.chat.changed_elsewhere,
        REMATCH_CHANNEL: app.state.rematch.changed_elsewhere})
    await asyncio.to_thread(svc.manager.resume_all)
    await asyncio.to_thread(app.state.ratings.mend, svc.manager)  # ended while stopped
    if app.state.shipped_bot_ratings:  # a new server's bots are rated from the start
        await asyncio.to_thread(seed_bot_ratings, app.state.ratings.store)
    sweeper = asyncio.create_task(svc.keeper.run())
    watch = asyncio.create_task(app.state.clocks.run())  # hands timed-out seats to bots
    collector = (asyncio.create_task(collect_now_and_then())
                 if old_generations_left_to_the_server() else None)
    warming = asyncio.create_task(warm_later(svc.manager.bots.pool)) if svc.warm_bots else None
    yield
    sweeper.cancel()
    watch.cancel()
    if collector is not None:
        collector.cancel()
    if warming is not None:
        warming.cancel()
    if cluster is not None:
        cluster.close()
    svc.manager.close()
    svc.hub.loop = svc.manager.bots.loop = None
    gcstats.write_report()


#: Seconds after start-up before the bots' workers are started (:func:`warm_later`).
WARM_AFTER = 1.0


async def warm_later(pool: SearchPool, after: float = WARM_AFTER) -> None:
    """Start the bots' workers once the server answers: started with it, their imports
    took the two cores from the server's own first answer (issue 35); a second later no
    bot has had a turn yet."""
    await asyncio.sleep(after)
    await pool.warm()


#: Allocations between two young collections of a serving process (CPython's default: 700).
YOUNG_COLLECTION_AFTER = 1_000
#: Thresholds of the older generations: never reached, the server collects them itself.
OLD_COLLECTIONS_NEVER = 1_000_000
#: Seconds between the server's own full collections (:func:`collect_now_and_then`).
FULL_COLLECTION_PERIOD = 300.0


def tune_gc_for_serving() -> None:
    """Short garbage-collection pauses for a server process (``tikal serve``).

    The cyclic collector pauses the whole process, and its pauses were the tail of the
    move -> update latency.  What a collection costs is the references it follows from
    the objects it looks at (reading each referent is a cache miss): a young collection
    of the ~25,000 objects that 10,000 allocations leave behind took 11-13 ms on average
    and up to 35 ms, a middle one (every 20 young ones) 17-33 ms.  Nearly nothing here
    is cyclic garbage (reference counting frees it), so the collector now only looks at
    the young objects, after every 1,000 allocations (about 2 ms each, at most 6-9 ms);
    the older generations are never collected on their own, and the server runs a full
    collection every few minutes (:func:`collect_now_and_then`) for whatever cyclic
    garbage outlived a young collection.  Objects made at start-up (modules, catalogs,
    rule sets) are frozen out of every collection.  Measured with ``tikal loadtest``,
    100 games paced at one move per second, 30 s, runs in turn: longest pause 26-35 ->
    6-9 ms, update p99 19.9-27.2 -> 15.7-15.9 ms.  No collection runs before the freeze:
    at that point it found nothing to free (0 objects of 68,712) and took 45-64 ms of the
    start-up (issue 35)."""
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_AFTER, OLD_COLLECTIONS_NEVER, OLD_COLLECTIONS_NEVER)


def old_generations_left_to_the_server() -> bool:
    """Whether the collector's thresholds are :func:`tune_gc_for_serving`'s, so that the
    older generations are collected only by :func:`collect_now_and_then`.  Apps built by
    tests or embedders keep their own thresholds, and Python collects for them."""
    return gc.get_threshold()[1] >= OLD_COLLECTIONS_NEVER


async def collect_now_and_then(period: float = FULL_COLLECTION_PERIOD) -> None:
    """A full collection every ``period`` seconds until cancelled: the older generations'
    cyclic garbage, which the tuned thresholds leave alone (one pause of tens of ms every
    few minutes, instead of many in every minute)."""
    while True:
        await asyncio.sleep(period)
        gc.collect()


def start_cluster(storage: Storage, manager: Manager,
                  topics: dict[str, Callable[[str], None]]) -> Any:
    """On a database that other server processes share (PostgreSQL), listen for the moves
    they store and the other changes they announce: ``topics``, a NOTIFY channel each
    (the lobby's, the chat's, the rematches'; see cluster.py)."""
    if not storage.shared:
        return None  # SQLite: this process is the only one
    from .cluster import ClusterBridge
    from .store.postgres import PostgresStorage

    if not isinstance(storage, PostgresStorage):
        return None  # shared some other way: nothing to listen to here
    bridge = ClusterBridge(storage.url, storage.origin, manager.refresh, manager.refresh_all,
                           topics=topics)
    bridge.start()
    return bridge


#: Validation errors of a well-formed value out of its range: 422, like other refusals.
OUT_OF_RANGE = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})
#: Error codes of HTTP errors raised by the framework itself.
HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 408: "timeout", 413: "too_large"}

log = logging.getLogger("tikal.server")


def add_error_handlers(app: FastAPI) -> None:
    """Every error as the same JSON object (the 404 page for unknown pages)."""

    @app.exception_handler(ServerError)
    async def server_error(request: Request, exc: ServerError) -> Response:
        return JSONResponse(exc.to_json(request_language(request)), status_code=exc.status,
                            headers=exc.headers())

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> Response:
        """Anything unexpected: logged with its traceback, the client told nothing more."""
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"type": "error", "code": "internal", "message": error_text(
            "internal", "internal server error (logged)", request_language(request))},
            status_code=500)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        problems = []
        status = 400
        for err in exc.errors():
            if err.get("type") in OUT_OF_RANGE:
                status = 422
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            if err.get("type") == "json_invalid":
                problems.append("malformed JSON in the request body")
            else:
                problems.append(f"{where or 'body'}: {err.get('msg')}")
        return JSONResponse(
            {"type": "error", "code": "bad_request",
             "message": error_text("bad_request", "; ".join(problems), request_language(request))},
            status_code=status,
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # every method of the path, as RFC 9110 asks
            headers["Allow"] = allowed_methods(request.app, dict(request.scope))
        if request.url.path.startswith("/api/"):
            code = HTTP_CODES.get(exc.status_code, "bad_request")
            return JSONResponse(
                {"type": "error", "code": code,
                 "message": error_text(code, str(exc.detail), request_language(request))},
                status_code=exc.status_code, headers=headers,
            )
        if exc.status_code == 404:
            return HTMLResponse(page("404.html", request_language(request)), status_code=404)
        return JSONResponse({"message": str(exc.detail)}, status_code=exc.status_code,
                            headers=headers)


def create_app(
    db_path: str | Path = "tikal.sqlite3", *, storage: Storage | None = None,
    bot_delay: float = 0.6, limit_settings: LimitSettings | None = None,
    analysis: AnalysisSettings | None = None, warm_bots: bool = False,
    uploads: UploadCap | None = None,
    security: SecuritySettings | None = None, shipped_bot_ratings: bool = True,
) -> FastAPI:
    """The web app; every game lives in ``db_path`` (a SQLite file or a ``postgresql://``
    URL) or in ``storage``.  ``warm_bots`` starts the bots' worker processes with the
    app (as ``tikal serve`` does) instead of at the first bot move; ``uploads`` caps the
    uploaded records kept; ``security``: the public URL, allowed hosts and origins
    (security.py; by default any host); ``shipped_bot_ratings``: give each bot level the
    package's rating of every rule set it has none in at start-up (off: the bots start
    unrated, as a test of the ratings from nothing needs).  A database that cannot be opened raises
    :class:`~tikal.server.store.StorageUnavailable` (its ``cause`` says why)."""
    store: Storage = storage if storage is not None else open_storage(db_path)
    manager = Manager(store, bot_delay=bot_delay)
    hub = Hub(manager)
    manager.add_listener(hub.notify)
    app = FastAPI(
        title="Tikal",
        version="1",
        summary="Play Tikal in the browser: hot-seat, by invite link, against bots; replays.",
        description="A JSON API beside the WebSocket `/ws/{game_id}`; see docs/web.md.",
        lifespan=lifespan,
    )
    limits = Limits(limit_settings or LimitSettings())
    app.state.services = Services(
        store, manager, hub, Replays(manager, uploads=uploads), limits, Hints(manager.bots.pool),
        Keeper(manager, hub, limits), warm_bots,
    )
    app.state.manager = manager
    app.state.shipped_bot_ratings = shipped_bot_ratings
    app.state.hub = hub
    app.state.storage = store
    app.state.accounts = accounts = Accounts(store, limits)  # optional: guests play as ever
    app.state.passkeys = Passkeys(store, accounts)
    app.state.ratings = ratings = Ratings(store)  # rating/: rated games, rated at their end
    manager.add_end_listener(ratings.game_over)
    app.state.lobby = Lobby(LobbyStore(store), manager, app.state.services.keeper, ratings)
    app.state.chat = Chat(ChatStore(store), manager, hub)  # chat/: the seats talk
    app.state.rematch = Rematch(RematchStore(store), manager, hub,
                                app.state.services.keeper, ratings)  # rematch/
    app.state.clocks = Clocks(manager)  # clock/: time controls and stand-in bots
    app.state.ending = Ending(manager)  # ending/: a game ended early by agreement
    app.add_middleware(BodyLimit, body_seconds=limits.settings.body_seconds)
    install_security(app, security or SecuritySettings())  # headers, hosts, origins
    add_error_handlers(app)
    app.include_router(routes_pages.router)
    app.include_router(webapp.router)  # the manifest and the service worker
    app.include_router(routes_api.router)
    app.include_router(lobby_routes.router)  # before /ws/{game_id}: /ws/lobby is a topic
    app.include_router(routes_ws.router)
    app.include_router(routes_tutorial.router)
    app.include_router(accounts_routes.router)
    app.include_router(rating_routes.router)
    app.include_router(passkey_routes.router)
    app.include_router(chat_routes.router)
    app.include_router(rematch_routes.router)
    app.include_router(clock_routes.router)
    app.include_router(ending_routes.router)
    install_analysis(app, analysis)  # analyses of finished games (routes_analysis.py)
    app.mount("/static", StaticFiles(directory=static_dir()), name="static")
    document(app)  # every status of every operation in /openapi.json (openapi.py)
    return app

