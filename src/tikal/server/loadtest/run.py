"""A load test's run: start the servers, create and play the games until the deadline,
stop the servers; the figures as the table's cells."""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from .lobby import LobbyLoad, LobbyStats
from .players import GameDriver, Stats
from .servers import Server, has_option, start_servers, stop_servers


@dataclass
class Options:
    games: int = 20
    duration: float = 10.0
    rate: float = 0.0
    bot_games: int = 0
    http_fraction: float = 0.0
    processes: int = 1
    db: str | None = None
    bot_delay: float = 0.6
    server_path: str | None = None
    seed: int = 1
    bot_level: str = "medium"
    server_args: list[str] = field(default_factory=list)
    #: The servers' ``--idle-seconds``; after play the run waits for their idle sweep and
    #: reads their memory again (None: no sweep measured).
    sweep_after: float | None = None
    #: The lobby's load (scenario lobby): open tables, clients on /ws/lobby, and table
    #: changes per second while the games are played (0 tables and clients: none).
    lobby_tables: int = 0
    lobby_clients: int = 0
    lobby_rate: float = 2.0


@dataclass
class Result:
    options: Options
    stats: Stats
    elapsed: float
    rss_mb: list[float]
    cpu_seconds: float = float("nan")
    client_cpu_seconds: float = float("nan")
    #: Each server's garbage-collection pauses (None where a server did not report them).
    gc: list[dict[str, Any] | None] = field(default_factory=list)
    #: Each server's resident memory when play ended, and once its idle sweep has run
    #: (MB; empty unless ``sweep_after``).
    rss_end_mb: list[float] = field(default_factory=list)
    rss_swept_mb: list[float] = field(default_factory=list)
    lobby: LobbyStats | None = None


@dataclass
class Played:
    """What the clients measured, and the timed window (``time.time()``) the servers'
    collector pauses are counted in."""

    stats: Stats
    elapsed: float
    server_cpu: float
    client_cpu: float
    window: tuple[float, float]
    lobby: LobbyStats | None = None


async def _lobby_ready(opts: Options, servers: list[Server],
                       http: httpx.AsyncClient) -> LobbyLoad | None:
    """The lobby's tables opened and its clients connected (None: no lobby load)."""
    if not (opts.lobby_tables or opts.lobby_clients):
        return None
    load = LobbyLoad(servers, http, opts.lobby_tables, opts.lobby_clients, opts.lobby_rate)
    await load.open_tables()
    await load.connect()
    return load


async def _run_clients(opts: Options, servers: list[Server]) -> Played:
    stats = Stats()
    rng = random.Random(opts.seed)
    limits = httpx.Limits(max_connections=200)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        deadline = time.perf_counter() + opts.duration + 60  # creation may take a while
        drivers = []
        total = opts.games + opts.bot_games
        for i in range(total):
            use_http = i < opts.games and rng.random() < opts.http_fraction
            driver = GameDriver(stats, servers, http, opts.rate, deadline, use_http,
                                random.Random(rng.random()))
            driver.bot_level = opts.bot_level
            await driver.create(bots=i >= opts.games)
            await driver.connect()
            drivers.append(driver)
        lobby = await _lobby_ready(opts, servers, http)
        start, began = time.perf_counter(), time.time()
        cpu = sum(s.cpu_seconds() for s in servers)
        own = time.process_time()
        for driver in drivers:
            driver.deadline = start + opts.duration
        changes = [lobby.change(start + opts.duration)] if lobby is not None else []
        await asyncio.gather(*(d.play() for d in drivers), *changes, return_exceptions=True)
        elapsed = time.perf_counter() - start
        cpu = sum(s.cpu_seconds() for s in servers) - cpu
        own = time.process_time() - own
        if lobby is not None:
            await lobby.close()
    return Played(stats, elapsed, cpu, own, (began, time.time()),
                  lobby.stats if lobby is not None else None)


def _event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's loop where it is installed (uvicorn's standard extra brings it, and the
    server runs on it too): the client shares the machine with the server it measures,
    so every microsecond it spends per move is one the server does not get."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] installs it
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


async def _after_sweep(idle: float, servers: list[Server]) -> list[float]:
    """Each server's resident memory once the games left alone have been swept: the keeper
    sees a game at one sweep and drops it at the first sweep ``idle`` seconds later, and
    sweeps every quarter of ``idle`` (at least every second)."""
    period = min(60.0, max(1.0, idle / 4))
    await asyncio.sleep(idle + 2 * period + 1.0)
    return [s.rss_mb() for s in servers]


def run(opts: Options) -> Result:
    """Start the servers, play, stop them; the measurements."""
    with tempfile.TemporaryDirectory(prefix="tikal-load-") as tmp:
        db = opts.db or str(Path(tmp) / "load.sqlite3")
        extra = list(opts.server_args)
        if not opts.server_path or has_option(opts.server_path, "--no-limits"):
            extra.append("--no-limits")  # servers older than the limits have none to lift
        if opts.sweep_after is not None and (
                not opts.server_path or has_option(opts.server_path, "--idle-seconds")):
            extra += ["--idle-seconds", str(opts.sweep_after)]
        servers = start_servers(opts.processes, db, opts.server_path, opts.bot_delay, extra,
                                Path(tmp))
        try:
            with asyncio.Runner(loop_factory=_event_loop) as runner:
                played = runner.run(_run_clients(opts, servers))
                end: list[float] = []
                swept: list[float] = []
                if opts.sweep_after is not None:
                    end = [s.rss_mb() for s in servers]
                    swept = runner.run(_after_sweep(opts.sweep_after, servers))
            rss = [s.peak_rss_mb() for s in servers]
        finally:
            stop_servers(servers)
        pauses = [s.gc_pauses(*played.window) for s in servers]
    return Result(opts, played.stats, played.elapsed, rss, played.server_cpu,
                  played.client_cpu, pauses, end, swept, played.lobby)


def gc_cell(reports: list[dict[str, Any] | None]) -> str:
    """Collections and the longest pause of each server (``-`` where not reported)."""
    cells = []
    for report in reports:
        if report is None:
            cells.append("-")
            continue
        count = sum(report[g]["count"] for g in ("0", "1", "2"))
        cells.append(f"{count}/{report['max_ms']:.0f}")
    return " + ".join(cells) or "-"


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(result: Result) -> dict[str, str]:
    """The figures of one run as table cells (ms, KB, MB)."""
    s = result.stats

    def ms(values: list[float], q: float) -> str:
        return f"{percentile(values, q) * 1000:.1f}" if values else "-"

    def kb(values: list[int], q: float) -> str:
        return f"{percentile([float(v) for v in values], q) / 1024:.1f}" if values else "-"

    problems = dict(s.errors)
    for code, count in (result.lobby.errors.items() if result.lobby else ()):
        problems[f"lobby {code}"] = count
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(problems.items())) or "0"
    return {
        "games": f"{s.games}",
        "moves/s": f"{s.moves / result.elapsed:.0f}" if result.elapsed else "-",
        "ack ms p50/95/99": f"{ms(s.acks, .5)}/{ms(s.acks, .95)}/{ms(s.acks, .99)}",
        "update ms p50/95/99":
            f"{ms(s.updates, .5)}/{ms(s.updates, .95)}/{ms(s.updates, .99)}",
        "http ms p50/99": f"{ms(s.http_moves, .5)} / {ms(s.http_moves, .99)}",
        "KB other p50/max": f"{kb(s.sizes_other, .5)} / {kb(s.sizes_other, 1)}",
        "KB mover p50/max": f"{kb(s.sizes_mover, .5)} / {kb(s.sizes_mover, 1)}",
        "bot - delay ms p50/max": (
            f"{(statistics.median(s.bot_delays) - result.options.bot_delay) * 1000:.0f} / "
            f"{(max(s.bot_delays) - result.options.bot_delay) * 1000:.0f}"
            if s.bot_delays else "-"),
        "RSS MB": " + ".join(f"{r:.0f}" for r in result.rss_mb),
        "RSS MB end/swept": " + ".join(
            f"{a:.0f}/{b:.0f}" for a, b in zip(result.rss_end_mb, result.rss_swept_mb,
                                                strict=True)) or "-",
        "server CPU ms/move": f"{result.cpu_seconds * 1000 / s.moves:.1f}" if s.moves else "-",
        "client CPU ms/move":
            f"{result.client_cpu_seconds * 1000 / s.moves:.1f}" if s.moves else "-",
        "GC pauses n/max ms": gc_cell(result.gc),
        "errors": errors,
    }


def lobby_cells(result: Result) -> dict[str, str] | None:
    """The lobby's figures of a run (None without lobby load): fan-out percentiles (a
    change's request to each client's copy), copies missed, sizes, server memory."""
    lobby = result.lobby
    if lobby is None:
        return None
    fanout = lobby.fanout

    def ms(q: float) -> str:
        return f"{percentile(fanout, q) * 1000:.0f}" if fanout else "-"

    return {
        "tables": f"{lobby.tables}", "clients": f"{lobby.clients}",
        "changes": f"{lobby.changes}",
        "fan-out ms p50/95/99/max": f"{ms(.5)}/{ms(.95)}/{ms(.99)}/{ms(1)}",
        "copies missed": f"{lobby.missed}",
        "KB listing / change": f"{lobby.listing_bytes / 1024:.1f} / "
                               f"{lobby.change_bytes / 1024:.2f}",
        "RSS MB": " + ".join(f"{r:.0f}" for r in result.rss_mb),
    }
