"""Helpers for the web app tests: a real ``tikal serve`` process on a free local port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """``tikal serve`` in a subprocess, listening on 127.0.0.1 only."""

    def __init__(self, db: Path, port: int | None = None, bot_delay: float = 0.05,
                 options: tuple[str, ...] = ()) -> None:
        self.db = db
        self.port = port or free_port()
        self.bot_delay = bot_delay
        #: more ``tikal serve`` options (``--forwarded-allow-ips``, ``--rate-scale`` ...)
        self.options = options
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> ServerProcess:
        cmd = [
            sys.executable, "-c", "from tikal.cli import main; main()", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--db", str(self.db),
            "--bot-delay", str(self.bot_delay), "--log-level", "warning", *self.options,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/api/meta", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        stop_process(self.proc)


def stop_process(proc: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    if proc and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def rss_mb(pid: int) -> float:
    """A process's resident memory now (VmRSS), in MB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


def _stat_fields(pid: int) -> list[str] | None:
    """Fields of ``/proc/PID/stat`` after the command name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` now (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        fields = _stat_fields(int(entry.name)) if entry.name.isdigit() else None
        if fields and int(fields[1]) == pid:
            found.add(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether a process exists and has not exited (a zombie waiting for its reaper has)."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def wait_until(condition: Any, timeout: float) -> Any:
    """``condition()``'s first true value within ``timeout`` seconds, else its last."""
    deadline = time.monotonic() + timeout
    while not (value := condition()) and time.monotonic() < deadline:
        time.sleep(0.1)
    return value


@contextmanager
def tiny_analysis() -> Iterator[None]:
    """Server processes started inside analyse with one determinization and two plans
    (the environment is as it was afterwards)."""
    names = ("TIKAL_ANALYSIS_BUDGET", "TIKAL_ANALYSIS_CANDIDATES")
    saved = {k: os.environ.get(k) for k in names}
    os.environ.update(TIKAL_ANALYSIS_BUDGET="1", TIKAL_ANALYSIS_CANDIDATES="2")
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


# ------------------------------------------------------------------ browser test fixtures


def serve(factory: Any, name: str, bot_delay: float = 0.05,
          options: tuple[str, ...] = ()) -> Iterator[ServerProcess]:
    """A module's ``tikal serve`` on a fresh SQLite file (``yield from`` it in a fixture)."""
    proc = ServerProcess(factory.mktemp(name) / f"{name}.sqlite3", bot_delay=bot_delay,
                         options=options).start()
    yield proc
    proc.stop()


def chromium(shots: Path) -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a downloaded browser); screenshots go
    to ``shots``.  CI must have it: the tests fail rather than skip without it."""
    import pytest
    from playwright import sync_api

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is needed at {CHROMIUM} for the browser tests")
    shots.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def state(page: Any) -> dict[str, Any]:
    """The game page's state as drawn (``window.tikal.state``)."""
    data: dict[str, Any] = page.evaluate("() => window.tikal && window.tikal.state")
    return data


def wait_state(page: Any, test: str, timeout: float = 20_000) -> None:
    """Wait until the JS expression ``test`` over the page's state ``S`` holds."""
    script = f"() => {{ const S = window.tikal && window.tikal.state; return !!S && ({test}); }}"
    page.wait_for_function(script, timeout=timeout)


def errors_of(page: Any) -> list[str]:
    """The page's uncaught script errors, collected from now on (tests assert none)."""
    found: list[str] = []
    page.on("pageerror", lambda e: found.append(str(e)))
    return found


END_TURN = '#turn-card button[data-action="end"]'


def end_turn(page: Any, selector: str = END_TURN) -> None:
    """Press "End turn"; with action points left the page asks first (issue 32) and ends
    the turn only when that is confirmed: confirmed here.  Returns once the server has
    answered: until then the page still shows the turn just ended, and a caller reading
    it would act on a stale turn (a demo test did, in CI: by its next click the bot had
    played and the button was gone)."""
    before = state(page)["state"]
    page.click(selector)
    if page.locator("#confirm-end").count():
        page.click("#confirm-end-yes")
    wait_state(page, f"S.state > {before}")
