"""Analyses in the web app: :mod:`tikal.bots.analysis` as background jobs.

``POST /api/replays/{id}/analysis`` queues a job for a finished game or an uploaded
record; at most :attr:`AnalysisSettings.jobs` run at once on the server (the rest wait
in a FIFO queue of at most :attr:`AnalysisSettings.queue`, each told its position).  A
running job sends one decision at a time to its own process pool (one worker per job
slot), so the event loop never waits for a search and the progress (decisions done of
the total) is known after every decision.  The result is stored with the game
(:meth:`AnalysisStorage.save_analysis`), so it is computed once; later requests read it back.

Every decision is judged from the deciding player's view at that moment (the analysis
module never looks at hidden information), with a fixed budget of determinizations and
a fixed seed: the same game always gets the same analysis.  The texts of the moves
played and of the better ones come from the engine (``describe`` rendered from the
message catalog) with the spaces each move involves (``action.cells``), for the page to
highlight on the board.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field, replace
from typing import Any

from ..actions import log_steps, parse_action
from ..bots.analysis import THRESHOLDS, Decision, Review, game_at, over_rounds, review
from ..bots.analysis import summary as analysis_summary
from ..errors import IllegalAction
from ..hexes import label
from ..messages import DEFAULT_LANGUAGE, Message, render
from ..state import GameState
from ..workers import process_pool
from .errors import ServerError
from .store import AnalysisStorage, StorageUnavailable

log = logging.getLogger("tikal.server")

#: Environment variables read by :meth:`AnalysisSettings.from_env` (``tikal serve``'s
#: ``--analysis-budget`` and ``--analysis-jobs`` win over them).
ENV = {
    "budget": "TIKAL_ANALYSIS_BUDGET",
    "candidates": "TIKAL_ANALYSIS_CANDIDATES",
    "seed": "TIKAL_ANALYSIS_SEED",
    "jobs": "TIKAL_ANALYSIS_JOBS",
    "queue": "TIKAL_ANALYSIS_QUEUE",
}


@dataclass(frozen=True)
class AnalysisSettings:
    """How much work an analysis gets, and how many run at once."""

    #: determinizations per decision (``tikal analyze --budget``): the work per decision
    budget: int = 8
    #: the search bot's candidate plans compared with the one played
    candidates: int = 6
    #: seed of the determinizations: the same game and seed give the same analysis
    seed: int = 0
    #: analyses running at once on the server (each in one worker process)
    jobs: int = 1
    #: analyses waiting at most; more are refused with 429 ``analysis_busy``
    queue: int = 16

    def __post_init__(self) -> None:
        for name in ("budget", "candidates", "jobs", "queue"):
            if getattr(self, name) < 1:
                raise ValueError(f"analysis {name} must be at least 1")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> AnalysisSettings:
        """The defaults, changed by the ``TIKAL_ANALYSIS_*`` variables that are set."""
        source = os.environ if env is None else env
        given = {name: int(source[var]) for name, var in ENV.items() if source.get(var)}
        return cls(**given)

    def with_options(self, **options: int | None) -> AnalysisSettings:
        """These settings with the options that are not None."""
        return replace(self, **{k: v for k, v in options.items() if v is not None})


# ------------------------------------------------------------------ one decision (workers)


def move_entry(g: GameState, action: Any, names: list[str]) -> dict[str, Any]:
    """One move for the page: notation, the engine's description (``message``, stored so
    that :func:`in_language` can say it in any language) and its English text, the
    spaces it involves."""
    described = g.describe(action)
    return {
        "action": str(action),
        "text": render(described, "action", names),
        "message": described.to_json(),
        "cells": [label(c) for c in action.cells],
    }


MOVE_LISTS = ("played_moves", "best_moves")


def in_language(result: dict[str, Any], language: str) -> dict[str, Any]:
    """A stored analysis with its moves' texts in ``language`` (stored in English; older
    results without the engine's messages stay English)."""
    if language == DEFAULT_LANGUAGE or "decisions" not in result:
        return result
    names = list(result.get("names") or [])

    def said(move: dict[str, Any]) -> dict[str, Any]:
        if "message" not in move:
            return move
        return {**move, "text": render(Message.from_json(move["message"]), "action", names,
                                       language)}

    decisions = [
        {**d, **{key: [said(m) for m in d[key]] for key in MOVE_LISTS if key in d}}
        for d in result["decisions"]
    ]
    return {**result, "decisions": decisions}


def played_moves(record: dict[str, Any], decision: Decision, names: list[str]
                 ) -> list[dict[str, Any]]:
    """The moves of ``decision`` as played, each described in the game as it was then."""
    game = game_at(record, decision.start)
    steps = [s for s in log_steps([parse_action(t) for t in record["log"][decision.start:]])
             if s.action is not None][: len(decision.actions)]
    out = []
    for step in steps:
        assert step.action is not None
        out.append(move_entry(game, step.action, names))
        game.apply(step.action, chance=step.chance)
    return out


def planned_moves(
    record: dict[str, Any], decision: Decision, plan: list[str], names: list[str], seed: int
) -> list[dict[str, Any]]:
    """The moves of a plan the search found, each described where it would be made: in
    a game consistent with the mover's view (hidden parts shuffled, never the real ones)."""
    game = game_at(record, decision.start)
    rng = random.Random(f"moves:{seed}:{decision.index}")
    world = game.view(game.current_player).determinize(rng)
    out = []
    for text in plan:
        action = parse_action(text)
        out.append(move_entry(world, action, names))
        with contextlib.suppress(IllegalAction):  # a plan of the search is legal here
            world.apply(action)
    return out


def review_decision(
    record: dict[str, Any], decision: Decision, names: list[str], options: dict[str, int]
) -> tuple[Review, dict[str, Any]]:
    """Run in a worker: the review of one decision and its moves as the page shows them."""
    found = review(record, decision, budget=options["budget"], seed=options["seed"],
                   candidates=options["candidates"])
    return found, {
        "played_moves": played_moves(record, decision, names),
        "best_moves": planned_moves(record, decision, found.best, names, options["seed"]),
    }


# ------------------------------------------------------------------ jobs


@dataclass
class Job:
    """One analysis under way (or waiting, or failed)."""

    replay_id: str
    record: dict[str, Any]
    names: list[str]
    players: int
    total_steps: int
    decisions: list[Decision]
    status: str = "queued"  # queued, running, failed
    done: int = 0
    error: str | None = None
    queued_at: float = field(default_factory=time.time)
    started_at: float | None = None
    task: asyncio.Task[None] | None = None

    @property
    def total(self) -> int:
        return len(self.decisions)


class AnalysisJobs:
    """The analyses of this server process: the queue, the running jobs, their pool.

    Everything but the searches happens on the event loop's thread, so the queue needs
    no lock; searches run in a process pool of :attr:`AnalysisSettings.jobs` workers.
    """

    def __init__(self, storage: AnalysisStorage, settings: AnalysisSettings | None = None) -> None:
        self.storage = storage
        self.settings = settings or AnalysisSettings.from_env()
        self._jobs: dict[str, Job] = {}
        self._waiting: list[Job] = []
        self._running: set[str] = set()
        self._pool: Executor | None = None
        self._closed = False
        #: decisions reviewed by this process (tests check that a stored result is reused)
        self.reviewed = 0
        #: this process among the server processes sharing the database (claims)
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        #: how long a claim lasts without being renewed (each decision renews it), and
        #: how often a job whose analysis another process computes looks at its progress
        self.claim_seconds = 60.0
        self.follow_every = 1.0
        self._claimed: set[str] = set()

    # -- asking --------------------------------------------------------------

    def status(self, replay_id: str) -> dict[str, Any] | None:
        """The job of ``replay_id`` as the API shows it, if there is one in memory."""
        job = self._jobs.get(replay_id)
        if job is None:
            return None
        out: dict[str, Any] = {
            "type": "analysis", "id": replay_id, "status": job.status, "done": job.done,
            "total": job.total, "budget": self.settings.budget,
        }
        if job.status == "queued":
            out["position"] = self._waiting.index(job) + 1
        if job.error:
            out["message"] = job.error
        return out

    def busy(self, replay_id: str) -> bool:
        job = self._jobs.get(replay_id)
        return job is not None and job.status in ("queued", "running")

    def refuse_if_busy(self, replay_id: str) -> None:
        """409 ``analysis_running`` if ``replay_id`` is queued or being analysed."""
        if self.busy(replay_id):
            raise ServerError("analysis_running", Message(
                "server.analysis_running", {"replay_id": replay_id}), 409)

    # -- starting ------------------------------------------------------------

    def start(self, replay_id: str, record: dict[str, Any], names: list[str], players: int,
              total_steps: int, cut: list[Decision]) -> dict[str, Any]:
        """Queue the analysis of ``record`` (already checked: finished, not stored, not
        running); run it at once if a slot is free.  Call on the event loop."""
        if self._closed:
            raise ServerError("unavailable", Message("server.shutting_down"), 503)
        self.refuse_if_busy(replay_id)
        if len(self._waiting) >= self.settings.queue:
            raise ServerError("analysis_busy", Message(
                "server.analysis_busy", {"waiting": len(self._waiting)}), 429, retry_after=30)
        job = Job(replay_id, record, names, players, total_steps, cut)
        self._jobs[replay_id] = job
        self._waiting.append(job)
        self._next()
        found = self.status(replay_id)
        assert found is not None
        return found

    def _next(self) -> None:
        """Start waiting jobs while a slot is free."""
        while self._waiting and len(self._running) < self.settings.jobs and not self._closed:
            job = self._waiting.pop(0)
            self._running.add(job.replay_id)
            job.status = "running"
            job.started_at = time.time()
            job.task = asyncio.get_running_loop().create_task(self._run(job))

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = process_pool(self.settings.jobs, start="spawn")
        return self._pool

    async def _run(self, job: Job) -> None:
        loop = asyncio.get_running_loop()
        options = {"budget": self.settings.budget, "seed": self.settings.seed,
                   "candidates": self.settings.candidates}
        try:
            if not await self._claim(job):  # another process computed and stored it
                self._jobs.pop(job.replay_id, None)
                return
            job.done = 0
            reviews: list[Review] = []
            entries: list[dict[str, Any]] = []
            step = 0
            for decision in job.decisions:
                found, moves = await loop.run_in_executor(
                    self._executor(), review_decision, job.record, decision, job.names, options)
                self.reviewed += 1
                reviews.append(found)
                entries.append({**found.to_json(), "step": step,
                                "steps": len(decision.actions), **moves})
                step += len(decision.actions)
                job.done += 1
                await asyncio.to_thread(self.storage.renew_analysis, job.replay_id, self.owner,
                                        job.done, time.time() + self.claim_seconds)
            assert job.started_at is not None
            for entry, smoothed in zip(entries, over_rounds(reviews, job.players), strict=True):
                entry["win_chance"] = smoothed.win_chance
            result = {
                "type": "analysis", "id": job.replay_id, "status": "done",
                "done": job.total, "total": job.total, **options,
                "thresholds": dict(THRESHOLDS), "players": job.players,
                "steps": job.total_steps, "names": job.names,
                "seconds": round(time.time() - job.started_at, 2),
                "decisions": entries, "summary": analysis_summary(reviews, job.players),
            }
            await asyncio.to_thread(self.storage.save_analysis, job.replay_id, result)
            self._claimed.discard(job.replay_id)  # saving dropped the claim
            self._jobs.pop(job.replay_id, None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not isinstance(exc, StorageUnavailable):  # (the storage logged its fault)
                log.exception("analysis of %s failed", job.replay_id)
            job.status = "failed"
            job.error = f"the analysis failed ({type(exc).__name__}); it may be asked again"
        finally:
            self._release(job.replay_id)
            self._running.discard(job.replay_id)
            if not self._closed:
                self._next()

    async def _claim(self, job: Job) -> bool:
        """Take the claim on ``job``'s analysis, so that it is computed once however many
        server processes share the database.  While another process holds the claim, the
        job follows its progress; False once that process has stored the analysis, True
        when the claim is ours (at once, or after the other's claim ran out: it died)."""
        while True:
            taken = await asyncio.to_thread(
                self.storage.claim_analysis, job.replay_id, self.owner, job.total,
                time.time() + self.claim_seconds)
            if taken:
                self._claimed.add(job.replay_id)
                # Storing an analysis drops its claim in the same transaction, so a claim
                # taken after the other process finished finds its result: use it.
                if await asyncio.to_thread(self.storage.load_analysis, job.replay_id):
                    await asyncio.to_thread(self._release, job.replay_id)
                    return False
                return True
            while True:
                await asyncio.sleep(self.follow_every)
                if await asyncio.to_thread(self.storage.load_analysis, job.replay_id):
                    return False
                claim = await asyncio.to_thread(self.storage.analysis_claim, job.replay_id)
                if claim is None or claim["until"] < time.time():
                    break  # released (failed) or ran out: try to take it
                job.done = claim["done"]

    def _release(self, replay_id: str) -> None:
        """Drop our claim on ``replay_id`` if we still hold it (a failure, a shutdown)."""
        if replay_id in self._claimed:
            self._claimed.discard(replay_id)
            with contextlib.suppress(Exception):
                self.storage.release_analysis(replay_id, self.owner)

    def forget_failed(self, replay_id: str) -> None:
        """Drop a failed job, so the analysis can be asked for again."""
        job = self._jobs.get(replay_id)
        if job is not None and job.status == "failed":
            del self._jobs[replay_id]

    # -- stopping ------------------------------------------------------------

    def close(self) -> None:
        """Cancel every job (nothing half done is stored) and stop the workers."""
        self._closed = True
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
        for replay_id in list(self._claimed):  # another process may take them over at once
            self._release(replay_id)
        self._waiting.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
