"""A load benchmark for the web server: its own server(s) on 127.0.0.1, many games at once.

``tikal loadtest`` starts ``tikal serve`` in one or more child processes (on free ports
of 127.0.0.1, a temporary SQLite file unless ``--db`` names a database), creates games
over HTTP and plays them over WebSockets: each game has two human seats, each seat its
own connection (seat ``i`` on server ``i mod processes``, so several processes must pass
moves between them).  The seat to move picks a random legal action.  Every loop is
bounded by a deadline; nothing but 127.0.0.1 is contacted.

Measured: moves per second, move→ack (the mover's own answer) and move→update (the
other seat sees the new state counter) percentiles, the size of the messages that a
move causes, the bot reply delay in human-vs-bot games, the servers' peak RSS, errors.

The client understands both the full ``state`` message and the lean ``delta`` message
(docs/web.md), so the same command measures an older server too (``--server-path``).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

from .server.gcstats import REPORT_ENV, read_summary

STARTUP_TIMEOUT = 30.0


@dataclass
class Stats:
    """What the clients measured (seconds, bytes)."""

    acks: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    http_moves: list[float] = field(default_factory=list)
    sizes_other: list[int] = field(default_factory=list)
    sizes_mover: list[int] = field(default_factory=list)
    bot_delays: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    finished: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


# ------------------------------------------------------------------ client-side state


def apply_patch(
    target: Any, path: list[Any], value: Any = None, delete: bool = False,
    keep: tuple[int, int] | None = None,
) -> None:
    """Set (or delete) the value at ``path`` in nested dicts and lists (a delta's ``set``);
    with ``keep = (a, b)`` the string there keeps its first ``a`` and last ``b``
    characters around ``value``."""
    for key in path[:-1]:
        target = target[key]
    last = path[-1]
    if keep is not None:
        old = target[last]
        target[last] = old[:keep[0]] + value + old[len(old) - keep[1]:]
    elif delete:
        if isinstance(target, dict):
            target.pop(last, None)
        else:
            del target[last]
    elif isinstance(target, list) and last == len(target):
        target.append(value)
    else:
        target[last] = value


def apply_op(state: dict[str, Any], op: list[Any]) -> None:
    """One operation of a delta's ``set``: ``[path]``, ``[path, value]`` or
    ``[path, middle, a, b]``."""
    keep = (op[2], op[3]) if len(op) == 4 else None
    apply_patch(state, op[0], op[1] if len(op) > 1 else None, delete=len(op) == 1, keep=keep)


def apply_message(state: dict[str, Any], msg: dict[str, Any]) -> bool:
    """Bring ``state`` up to date with a ``state`` or ``delta`` message; False if a delta
    does not follow on from ``state`` (the client must ask for a full state)."""
    if msg.get("type") == "state":
        state.clear()
        state.update(msg)
        return True
    if msg.get("base") != state.get("state"):
        return False
    for op in msg.get("set", ()):
        apply_op(state, op)
    log = msg.get("log")
    if log is not None:
        lines = state.setdefault("log", [])
        del lines[log["from"]:]
        lines.extend(log["lines"])
    state["state"] = msg["state"]
    return True


def legal_actions(state: dict[str, Any]) -> list[str]:
    """The notations of the legal actions in a state (old and new message forms); only
    the notations are read back, since the client shares the machine with the server
    it measures."""
    from .server.messages import legal_notations

    return legal_notations(state.get("legal") or {})


# ------------------------------------------------------------------ servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    url: str
    #: Where the server writes its garbage-collection pauses when it stops (gcstats.py).
    gc_report: Path | None = None

    def gc_pauses(self, since: float = 0.0, until: float = math.inf) -> dict[str, Any] | None:
        """The server's collections and pauses between ``since`` and ``until``
        (``time.time()``, read after it stopped); None from a server that does not write
        them (an older checkout)."""
        with contextlib.suppress(OSError, ValueError):
            if self.gc_report is not None:
                return read_summary(orjson.loads(self.gc_report.read_bytes()), since, until)
        return None

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server process has used so far."""
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return float("nan")

    def peak_rss_mb(self) -> float:
        """Peak resident memory of the server process (VmHWM), in MB."""
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")


def _server_env(server_path: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if server_path:
        env["PYTHONPATH"] = server_path + os.pathsep + env.get("PYTHONPATH", "")
    return env


def has_option(server_path: str, option: str) -> bool:
    """Whether ``tikal serve`` of the checkout at ``server_path`` knows ``option`` (its
    ``--help`` names it)."""
    shown = subprocess.run(
        [sys.executable, "-c", "from tikal.cli import main; main()", "serve", "--help"],
        env=_server_env(server_path) | {"COLUMNS": "200"}, capture_output=True, text=True,
        timeout=60, check=False,
    )
    return option in shown.stdout


def start_servers(
    count: int, db: str, server_path: str | None, bot_delay: float, extra: list[str],
    folder: Path | None = None,
) -> list[Server]:
    """``count`` ``tikal serve`` processes on 127.0.0.1 sharing the database ``db``; each
    writes its garbage-collection pauses into ``folder`` when it stops (if given)."""
    servers = []
    for index in range(count):
        env = _server_env(server_path)
        report = None if folder is None else folder / f"gc-{index}.json"
        if report is not None:
            env[REPORT_ENV] = str(report)
        port = free_port()
        cmd = [
            sys.executable, "-c", "from tikal.cli import main; main()", "serve",
            "--host", "127.0.0.1", "--port", str(port), "--db", db,
            "--bot-delay", str(bot_delay), "--log-level", "warning", *extra,
        ]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
        servers.append(Server(proc, f"127.0.0.1:{port}", report))
    deadline = time.monotonic() + STARTUP_TIMEOUT
    for server in servers:
        while True:
            if server.process.poll() is not None:
                raise RuntimeError(f"server exited with {server.process.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://{server.url}/api/meta", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start in time")
            time.sleep(0.1)
    return servers


def stop_servers(servers: list[Server]) -> None:
    for server in servers:
        server.process.terminate()
    for server in servers:
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()


# ------------------------------------------------------------------ one game


@dataclass
class Seat:
    """One seat's connection and what it knows of the game."""

    seat: int
    token: str
    ws: Any = None
    state: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class GameDriver:
    """Plays one game from both seats until ``deadline``."""

    def __init__(
        self, stats: Stats, servers: list[Server], http: httpx.AsyncClient, rate: float,
        deadline: float, use_http: bool, rng: random.Random,
    ) -> None:
        self.stats = stats
        self.servers = servers
        self.http = http
        self.rate = rate
        self.deadline = deadline
        self.use_http = use_http
        self.rng = rng
        self.seats: list[Seat] = []
        self.game_id = ""
        self.sent_at: dict[int, float] = {}  # state the move was for -> send time
        self.mover = -1
        self.bot_level = "medium"

    async def create(self, bots: bool) -> None:
        seats = [{"kind": "human"}, {"kind": "bot", "level": self.bot_level} if bots
                 else {"kind": "human"}]
        reply = await self.http.post(
            f"http://{self.servers[0].url}/api/games", json={"rules": "standard", "seats": seats}
        )
        if reply.status_code != 201:
            self.stats.error(f"create {reply.status_code}")
            raise RuntimeError("could not create a game")
        data = reply.json()
        self.game_id = data["id"]
        self.seats = [Seat(s["seat"], s["token"]) for s in data["seats"] if s["token"]]
        self.stats.games += 1

    async def listen(self, seat: Seat) -> None:
        """Read one seat's messages: timings, sizes, its copy of the state."""
        async for raw in seat.ws:
            now = time.perf_counter()
            msg = orjson.loads(raw)
            kind = msg.get("type")
            if kind == "ack":
                sent = self.sent_at.get(msg.get("base", msg["state"] - 1))
                if sent is not None and seat.seat == self.mover:
                    self.stats.acks.append(now - sent)
                continue
            if kind == "error":
                self.stats.error(str(msg.get("code")))
                if msg.get("code") in ("stale", "illegal"):
                    await seat.ws.send(orjson.dumps({"type": "sync"}).decode())
                continue
            if kind not in ("state", "delta"):
                continue
            before = seat.state.get("state", -1)
            if not apply_message(seat.state, msg):
                await seat.ws.send(orjson.dumps({"type": "sync"}).decode())
                continue
            if msg["state"] > before >= 0:
                sent = self.sent_at.get(before)
                if sent is not None:
                    if seat.seat != self.mover:
                        self.stats.updates.append(now - sent)
                        self.stats.sizes_other.append(len(raw))
                    else:
                        self.stats.sizes_mover.append(len(raw))
            seat.changed.set()

    async def connect(self) -> None:
        for seat in self.seats:
            server = self.servers[seat.seat % len(self.servers)]
            seat.ws = await websockets.connect(
                f"ws://{server.url}/ws/{self.game_id}", max_size=2**24
            )
            await seat.ws.send(orjson.dumps({"type": "hello", "token": seat.token}).decode())

    async def wait_state(self, seat: Seat, newer_than: int) -> bool:
        while seat.state.get("state", -1) <= newer_than:
            seat.changed.clear()
            remaining = self.deadline - time.perf_counter()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seat.changed.wait(), min(remaining, 5))
        return True

    def to_move(self) -> Seat | None:
        for seat in self.seats:
            s = seat.state
            if s and not s.get("over") and s.get("your_turn"):
                return seat
        return None

    async def play(self) -> None:
        listeners = [asyncio.create_task(self.listen(s)) for s in self.seats]
        try:
            await self._moves()
        finally:
            for seat in self.seats:
                with contextlib.suppress(Exception):
                    await seat.ws.close()
            for task in listeners:
                task.cancel()

    async def _moves(self) -> None:
        first = self.seats[0]
        if not await self.wait_state(first, -1):
            return
        next_at = time.perf_counter()
        while time.perf_counter() < self.deadline:
            if first.state.get("over"):
                self.stats.finished += 1
                return
            seat = self.to_move()
            if seat is None:  # a bot's turn (or the seats disagree for a moment)
                await self._wait_bot(first)
                continue
            if self.rate > 0:
                next_at += self.rng.expovariate(self.rate)
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            state = seat.state["state"]
            options = [a for a in legal_actions(seat.state) if a != "undo"]
            if not options:
                await self.wait_state(seat, state)
                continue
            action = self.rng.choice(options)
            self.mover = seat.seat
            self.sent_at[state] = time.perf_counter()
            self.stats.moves += 1
            if self.use_http:
                await self._http_move(seat, action, state)
            else:
                await seat.ws.send(orjson.dumps(
                    {"type": "action", "action": action, "state": state}).decode())
            for other in self.seats:
                if not await self.wait_state(other, state):
                    return

    async def _http_move(self, seat: Seat, action: str, state: int) -> None:
        server = self.servers[seat.seat % len(self.servers)]
        start = time.perf_counter()
        reply = await self.http.post(
            f"http://{server.url}/api/games/{self.game_id}/actions",
            json={"action": action, "state": state}, headers={"X-Tikal-Token": seat.token},
        )
        self.stats.http_moves.append(time.perf_counter() - start)
        if reply.status_code != 200:
            self.stats.error(f"http {reply.status_code}")

    async def _wait_bot(self, seat: Seat) -> None:
        """Wait for the bot's move; its delay counts from the state that handed it the turn."""
        state = seat.state.get("state", -1)
        start = time.perf_counter()
        if await self.wait_state(seat, state):
            self.stats.bot_delays.append(time.perf_counter() - start)


# ------------------------------------------------------------------ the run


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


@dataclass
class Played:
    """What the clients measured, and the timed window (``time.time()``) the servers'
    collector pauses are counted in."""

    stats: Stats
    elapsed: float
    server_cpu: float
    client_cpu: float
    window: tuple[float, float]


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
        start, began = time.perf_counter(), time.time()
        cpu = sum(s.cpu_seconds() for s in servers)
        own = time.process_time()
        for driver in drivers:
            driver.deadline = start + opts.duration
        await asyncio.gather(*(d.play() for d in drivers), return_exceptions=True)
        elapsed = time.perf_counter() - start
        cpu = sum(s.cpu_seconds() for s in servers) - cpu
        own = time.process_time() - own
    return Played(stats, elapsed, cpu, own, (began, time.time()))


def _event_loop() -> asyncio.AbstractEventLoop:
    """uvloop's loop where it is installed (uvicorn's standard extra brings it, and the
    server runs on it too): the client shares the machine with the server it measures,
    so every microsecond it spends per move is one the server does not get."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] installs it
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def run(opts: Options) -> Result:
    """Start the servers, play, stop them; the measurements."""
    with tempfile.TemporaryDirectory(prefix="tikal-load-") as tmp:
        db = opts.db or str(Path(tmp) / "load.sqlite3")
        extra = list(opts.server_args)
        if not opts.server_path or has_option(opts.server_path, "--no-limits"):
            extra.append("--no-limits")  # servers older than the limits have none to lift
        servers = start_servers(opts.processes, db, opts.server_path, opts.bot_delay, extra,
                                Path(tmp))
        try:
            with asyncio.Runner(loop_factory=_event_loop) as runner:
                played = runner.run(_run_clients(opts, servers))
            rss = [s.peak_rss_mb() for s in servers]
        finally:
            stop_servers(servers)
        pauses = [s.gc_pauses(*played.window) for s in servers]
    return Result(opts, played.stats, played.elapsed, rss, played.server_cpu,
                  played.client_cpu, pauses)


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

    errors = ", ".join(f"{k}: {v}" for k, v in sorted(s.errors.items())) or "0"
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
        "server CPU ms/move": f"{result.cpu_seconds * 1000 / s.moves:.1f}" if s.moves else "-",
        "client CPU ms/move":
            f"{result.client_cpu_seconds * 1000 / s.moves:.1f}" if s.moves else "-",
        "GC pauses n/max ms": gc_cell(result.gc),
        "errors": errors,
    }
