"""The servers a load test measures: ``tikal serve`` in child processes on 127.0.0.1,
their CPU time, peak memory and garbage-collection pauses."""

from __future__ import annotations

import contextlib
import math
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson

from ..gcstats import REPORT_ENV, read_summary

STARTUP_TIMEOUT = 30.0


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

    def rss_mb(self) -> float:
        """Resident memory of the server process now (VmRSS), in MB."""
        return self._status_mb("VmRSS:")

    def peak_rss_mb(self) -> float:
        """Peak resident memory of the server process (VmHWM), in MB."""
        return self._status_mb("VmHWM:")

    def _status_mb(self, key: str) -> float:
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                if line.startswith(key):
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
