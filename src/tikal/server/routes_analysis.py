"""The analysis API: start the analysis of a finished game (or uploaded record), follow
its progress, read the stored result.  The job model is in :mod:`.analysis_jobs`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse

from ..bots.analysis import decisions
from ..messages import Message
from .analysis_jobs import AnalysisJobs, AnalysisSettings, in_language
from .deps import client_of, services
from .errors import ServerError
from .i18n import request_language
from .replay import Replay

router = APIRouter(prefix="/api")


def install(app: FastAPI, settings: AnalysisSettings | None = None) -> None:
    """Add the analysis routes and jobs to ``app``; the jobs stop when the app does."""
    jobs = AnalysisJobs(app.state.services.storage, settings)
    app.state.analysis = jobs
    app.include_router(router)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(target: Any) -> AsyncIterator[Any]:
        try:
            async with inner(target) as state:
                yield state
        finally:
            jobs.close()

    app.router.lifespan_context = lifespan


def jobs_of(request: Request) -> AnalysisJobs:
    found: AnalysisJobs = request.app.state.analysis
    return found


def finished(replay: Replay) -> None:
    if not replay.final.is_over:
        raise ServerError("not_finished", Message("server.not_finished"), 409)


@router.post("/replays/{replay_id}/analysis", tags=["analysis"], status_code=202)
async def start_analysis(request: Request, replay_id: str) -> JSONResponse:
    """Analyse a finished game or uploaded record in the background: ``202`` with the
    job (``status`` queued or running, ``position`` in the queue, ``done`` of ``total``
    decisions); ``200`` with the result if it is stored already. ``404 unknown_game``,
    ``409 not_finished``, ``409 analysis_running`` (follow it with GET), ``429
    analysis_busy`` (queue full) or ``rate_limited``."""
    svc = services(request)
    jobs = jobs_of(request)
    svc.limits.check(client_of(request), "analysis")
    replay = await asyncio.to_thread(svc.replays.get, replay_id)
    stored = await asyncio.to_thread(svc.storage.load_analysis, replay_id)
    if stored is not None:
        return JSONResponse(in_language(stored, request_language(request)), status_code=200)
    finished(replay)
    jobs.refuse_if_busy(replay_id)
    jobs.forget_failed(replay_id)
    cut = await asyncio.to_thread(decisions, replay.record)
    status = jobs.start(replay_id, replay.record, list(replay.names), replay.final.players,
                        replay.total, cut)
    return JSONResponse(status, status_code=202)


@router.get("/replays/{replay_id}/analysis", tags=["analysis"])
async def get_analysis(request: Request, replay_id: str) -> dict[str, Any]:
    """The analysis of a game: ``status`` ``done`` with every decision (win chance per
    player, verdict, the moves played and the better ones with their texts and spaces),
    ``queued`` (with ``position``), ``running`` (``done`` of ``total`` decisions),
    ``failed``, or ``none`` (not asked for yet; ``over`` tells whether it can be)."""
    svc = services(request)
    found = jobs_of(request).status(replay_id)
    if found is not None:
        return found
    stored = await asyncio.to_thread(svc.storage.load_analysis, replay_id)
    if stored is not None:
        return in_language(stored, request_language(request))
    claim = await asyncio.to_thread(svc.storage.analysis_claim, replay_id)
    if claim is not None and claim["until"] >= time.time():  # another server process
        return {"type": "analysis", "id": replay_id, "status": "running",
                "done": claim["done"], "total": claim["total"],
                "budget": jobs_of(request).settings.budget}
    replay = await asyncio.to_thread(svc.replays.get, replay_id)
    return {"type": "analysis", "id": replay_id, "status": "none",
            "over": replay.final.is_over}
