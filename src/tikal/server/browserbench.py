"""The game page's main-thread time per received move in Chromium; the logic behind
``tikal bench --browser``.

The server sends a delta after every move; what the page then does with it (decode it,
patch or redraw the board, the panels, the log) is the browser's cost of a move, and it
grows with the board if the page redraws everything.  This starts ``tikal serve`` (a
temporary SQLite file, no limits), creates a seeded game of four human seats over HTTP,
plays it far (``warmup`` random legal moves: a late game, the board mostly laid), then
opens the game page in headless Chromium twice, as a spectator and as the first seat,
and plays ``moves`` more while reading each page's Chrome DevTools performance metrics
(``Performance.getMetrics``) before and after every move.

The metrics are the renderer main thread's CPU time (``timeDomain: threadTicks``), so
another busy core does not count: ``ScriptDuration`` (JavaScript), ``LayoutDuration``,
``RecalcStyleDuration`` and ``TaskDuration`` (every task of the main thread, those above
included) less ``DevToolsCommandDuration``.  The benchmark itself waits for the page from
outside (DevTools evaluations, which count as DevTools commands, never as the page's
script); a row of the same waits without a move shows what the instrument adds.

Playwright is a test dependency, imported only here; Chromium is the system's
(``/usr/bin/chromium``), never a downloaded one.
"""

from __future__ import annotations

import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from .loadtest.run import percentile
from .loadtest.servers import start_servers, stop_servers
from .wire.legal import expand_legal

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]
#: Random moves played before the measured ones: a random 4-player game lasts about 400
#: (seed 0: 403), so the measured moves are late in it, most tiles laid.
WARMUP = 280
#: The metrics read (seconds of main-thread CPU), by the name the table gives them.
METRICS = {"script": "ScriptDuration", "layout": "LayoutDuration",
           "style": "RecalcStyleDuration", "task": "TaskDuration"}
#: How long after the page holds the new state its timers (the live region's 30 ms) and
#: the next frames (style, layout, paint) are given before the metrics are read.
SETTLE_SECONDS = 0.08
#: The page's state counter, read from outside (``window.tikal``, both the classic
#: script and the ES modules expose it).
STATE_OF_PAGE = "() => (window.tikal && window.tikal.state) ? window.tikal.state.state : -1"
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


class BrowserBenchError(RuntimeError):
    """The benchmark cannot run here (no Playwright, no Chromium, the game ended early,
    a page that never showed a move): ``key`` names the command line's sentence for it
    (``cli.bench.browser.<key>``), ``params`` its parameters."""

    def __init__(self, key: str, **params: str) -> None:
        super().__init__(f"{key}: {params}")
        self.key = key
        self.params = params


@dataclass
class Viewer:
    """One open game page and its DevTools session; the costs of every measured move."""

    name: str
    page: Any
    cdp: Any
    costs: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in METRICS})

    def metrics(self) -> dict[str, float]:
        raw = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        out = {key: float(raw.get(name, 0.0)) for key, name in METRICS.items()}
        out["task"] -= float(raw.get("DevToolsCommandDuration", 0.0))
        return out

    def record(self, before: dict[str, float], after: dict[str, float]) -> None:
        for key in METRICS:
            self.costs[key].append((after[key] - before[key]) * 1000)

    def summary(self) -> dict[str, dict[str, float]]:
        return {key: {"p50": percentile(v, 0.5), "p95": percentile(v, 0.95), "max": max(v)}
                for key, v in self.costs.items()}


class _Game:
    """The seeded game, driven over HTTP with the hot-seat token (any seat may move)."""

    def __init__(self, base: str, seed: int) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        made = self.http.post("/api/games", json={
            "rules": "standard", "seed": seed, "hotseat": True,
            "seats": [{"kind": "human", "name": f"P{p + 1}"} for p in range(4)]})
        made.raise_for_status()
        game = made.json()
        self.id: str = game["id"]
        self.seat_token: str = game["seats"][0]["token"]
        self.headers = {"X-Tikal-Token": game["hotseat_token"]}
        self.rng = random.Random(seed ^ 0xB0A2D)
        self.full: dict[str, Any] = self.http.get(
            f"/api/games/{self.id}", headers=self.headers).json()

    def move(self) -> int:
        """Play a random legal action (now and then the end of the turn); the new state."""
        if self.full["over"]:
            raise BrowserBenchError("game_over")
        actions = [e["action"] for rows in expand_legal(self.full["legal"]).values()
                   for e in rows]
        others = [a for a in actions if a != "end"]
        pick = self.rng.choice(others if others and self.rng.random() < 0.85 else actions)
        reply = self.http.post(f"/api/games/{self.id}/actions?reply=state", headers=self.headers,
                               json={"action": pick, "state": self.full["state"]})
        reply.raise_for_status()
        self.full = reply.json()
        return self.state

    @property
    def state(self) -> int:
        state: int = self.full["state"]
        return state


def _wait_for(viewer: Viewer, state: int, timeout: float = 20.0) -> None:
    """Until the page holds ``state`` (polled from outside, so it costs the page no
    script), then its timers and two frames."""
    deadline = time.monotonic() + timeout
    while viewer.page.evaluate(STATE_OF_PAGE) < state:
        if time.monotonic() > deadline:
            raise BrowserBenchError("stuck", page=viewer.name, state=str(state))
        time.sleep(0.002)
    time.sleep(SETTLE_SECONDS)
    viewer.page.evaluate(TWO_FRAMES)


def _open(browser: Any, name: str, url: str, state: int) -> Viewer:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
    page.goto(url)
    viewer = Viewer(name, page, cdp)
    _wait_for(viewer, state, timeout=60)
    return viewer


def _sync_playwright() -> Any:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as missing:  # a test dependency: not installed with the app
        raise BrowserBenchError("no_playwright") from missing
    return sync_playwright


def _measure(game: _Game, viewers: list[Viewer], floor: Viewer, moves: int) -> None:
    """Play ``moves`` moves, each viewer's metrics read around each; the floor viewer
    gets the same waits with no move."""
    for _ in range(moves):
        before = [v.metrics() for v in viewers]
        state = game.move()
        for viewer, start in zip(viewers, before, strict=True):
            _wait_for(viewer, state)
            viewer.record(start, viewer.metrics())
        start = floor.metrics()
        _wait_for(floor, game.state)
        floor.record(start, floor.metrics())


def _watch(sync_playwright: Any, chromium: str, base: str, game: _Game,
           moves: int) -> tuple[list[Viewer], str]:
    """Open the pages (a spectator, the first seat), measure ``moves`` moves; the viewers
    (and the floor) with their costs, and Chromium's version."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            url = f"{base}/play/{game.id}"
            viewers = [_open(browser, "spectator", url, game.state),
                       _open(browser, "seat", f"{url}#t={game.seat_token}", game.state)]
            floor = Viewer("floor", viewers[0].page, viewers[0].cdp)
            _measure(game, viewers, floor, moves)
            version: str = browser.version
        finally:
            browser.close()
    return [*viewers, floor], version


def measure_browser(moves: int = 60, seed: int = 0, warmup: int = WARMUP,
                    chromium: str = CHROMIUM) -> dict[str, Any]:
    """Main-thread milliseconds per received move (p50, p95, max) of the game page as a
    spectator and as a seat, on a standard 4-player game after ``warmup`` moves."""
    sync_playwright = _sync_playwright()
    if not Path(chromium).exists():
        raise BrowserBenchError("no_chromium", path=chromium)
    with tempfile.TemporaryDirectory() as tmp:
        servers = start_servers(1, str(Path(tmp) / "bench.sqlite3"), None, 0.0,
                                ["--no-limits"])
        try:
            base = f"http://{servers[0].url}"
            game = _Game(base, seed)
            for _ in range(warmup):
                game.move()
            viewers, version = _watch(sync_playwright, chromium, base, game, moves)
        finally:
            stop_servers(servers)
    return {"moves": moves, "warmup": warmup, "seed": seed, "chromium": version,
            "tiles": game.full["position"]["tiles_placed"],
            "viewers": {v.name: v.summary() for v in viewers}}
