"""Debian's nginx in front of a real ``tikal serve``, for the proxy tests.

nginx runs as one process in the foreground (``master_process off``, ``daemon off``) with
its pid file, logs and temporary files in a test's own directory (``-p``/``-c``), so it
needs no root and touches nothing of the system's nginx.  Its ``location`` blocks are the
README's example (``README.md``, "behind a proxy"), which the test reads from there.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx

from web_helpers import ROOT, free_port, stop_process

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def readme_locations() -> str:
    """The ``location`` blocks of the README's nginx example (its ``server { ... }``
    without ``listen``), so the test proves the example that users copy."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```nginx\n(.*?)```", readme, re.S)
    assert block is not None, "README.md has no nginx example"
    server = block.group(1).split("server {", 1)[1]
    body = server.rsplit("}", 1)[0]
    return "\n".join(line for line in body.splitlines()
                     if not line.strip().startswith(("listen", "server_name")))


def config(prefix: Path, port: int, upstream: int, locations: str) -> str:
    """An nginx.conf that keeps everything under ``prefix`` and proxies to ``upstream``."""
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""
master_process off;
daemon off;
worker_processes 1;
pid {prefix / 'nginx.pid'};
error_log {prefix / 'error.log'} warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
{temp}
    upstream tikal {{ server 127.0.0.1:{upstream}; }}
    server {{
        listen 127.0.0.1:{port};
{locations}
    }}
}}
"""


class Nginx:
    """nginx on a free loopback port, proxying to ``upstream`` (a port on 127.0.0.1)."""

    def __init__(self, prefix: Path, upstream: int, locations: str | None = None) -> None:
        self.prefix = prefix
        self.port = free_port()
        self.upstream = upstream
        self.locations = readme_locations() if locations is None else locations
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10) -> Nginx:
        self.prefix.mkdir(parents=True, exist_ok=True)
        conf = self.prefix / "nginx.conf"
        conf.write_text(config(self.prefix, self.port, self.upstream, self.locations))
        self.proc = subprocess.Popen([NGINX, "-p", str(self.prefix), "-c", str(conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {self.log()}")
            try:
                httpx.get(f"{self.url}/api/meta", timeout=1)
                return self
            except httpx.HTTPError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"nginx did not start: {self.log()}")

    def log(self) -> str:
        path = self.prefix / "error.log"
        return path.read_text()[-2000:] if path.exists() else ""

    def stop(self) -> None:
        stop_process(self.proc)
