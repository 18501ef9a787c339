"""``tikal db bench``: how long ``tikal serve`` takes to start, and how much memory it
holds, on a database of many finished games (issue 35).

A database is built quickly: a few real games are played to their end (random legal
actions, stored by a real manager), then their rows are copied under many ids, with a
few games still in play beside them.  A real ``tikal serve`` process is started on it
(optionally from another source tree, to compare versions) and timed from its start to
its first answer; its resident memory is read from ``/proc`` once it answers.  The
server's own marks (``startup.py``) split the time into its imports and what the
database took, the one part that could grow with the stored games.
"""

from __future__ import annotations

import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..manager import Manager
from ..startup import REPORT_ENV
from ..startup import read as read_marks
from .protocol import GameRecord, LogEntry
from .rows import INSERT_ENTRY, INSERT_GAME, entry_values, game_values
from .sqlite import SqliteStorage

#: Real games played to be copied (each copy of one is a stored game of its own).
TEMPLATES = 4


@dataclass(frozen=True)
class StartUp:
    """One start of ``tikal serve``: the database, the time to its first answer, memory."""

    finished: int
    playing: int
    seconds: float
    rss_mb: float
    peak_mb: float
    #: seconds from the start to the end of the imports, and those the database took (the
    #: storage opened, the games in play loaded: ``startup.py``); None from a server too
    #: old to say
    import_seconds: float | None = None
    database_seconds: float | None = None


def play_templates(rules: str, seed: int, moves_in_play: int = 12,
                   ) -> list[tuple[GameRecord, list[LogEntry], bool]]:
    """:data:`TEMPLATES` finished games and one in play, stored by a real manager: their
    records and logs, and whether each is over."""
    rng = random.Random(seed)
    games: list[tuple[GameRecord, list[LogEntry], bool]] = []
    with tempfile.TemporaryDirectory() as folder:
        manager = Manager(SqliteStorage(Path(folder) / "templates.sqlite3"), bot_delay=0.0)
        try:
            for index in range(TEMPLATES + 1):
                session, links = manager.create(rules, [{"kind": "human"}] * 2,
                                                seed=seed + index)
                tokens = [seat["token"] for seat in links["seats"]]
                limit = moves_in_play if index == TEMPLATES else None
                while not session.game.is_over and (limit is None or session.state < limit):
                    action = str(rng.choice(session.game.legal_actions()))
                    manager.act_blocking(session.game_id, tokens[session.game.current], action,
                                session.state)
                games.append((session.record, list(session.log), session.game.is_over))
        finally:
            manager.close()
            manager.storage.close()
    return games


def build(path: Path, finished: int, playing: int, rules: str = "demo", seed: int = 1) -> None:
    """A database at ``path`` (a new file) of ``finished`` finished games and ``playing``
    games in play, copies of real games under their own ids."""
    SqliteStorage(path).close()  # the schema
    templates = play_templates(rules, seed)
    over = [t for t in templates if t[2]]
    in_play = [t for t in templates if not t[2]]
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA synchronous=OFF")  # a file for measuring, not for keeping
        with conn:
            for index in range(finished + playing):
                pool = over if index < finished else in_play
                record, log, _ = pool[index % len(pool)]
                copy = GameRecord(f"b{index:010d}", record.rules, record.players,
                                  record.options, record.seed, record.seats, record.tokens,
                                  created=record.created + index)
                status = "over" if index < finished else "playing"
                conn.execute(INSERT_GAME, game_values(copy, log[-1].seq, status=status))
                conn.executemany(INSERT_ENTRY, [entry_values(copy.game_id, e) for e in log])
    finally:
        conn.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def memory_of(pid: int) -> tuple[float, float]:
    """(resident, peak resident) MB of process ``pid``."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.split()
    return int(fields["VmRSS"][0]) / 1024, int(fields["VmHWM"][0]) / 1024


def measure(path: Path, finished: int, playing: int, server_path: str | None = None,
            timeout: float = 900) -> StartUp:
    """Start ``tikal serve`` on ``path`` (from ``server_path``'s source if given), time
    it to its first answer, read its memory, stop it."""
    port = free_port()
    env = dict(os.environ)
    if server_path:
        env["PYTHONPATH"] = server_path
    marks_file = path.with_suffix(".startup.json")
    marks_file.unlink(missing_ok=True)
    env[REPORT_ENV] = str(marks_file)
    # A server as installed: pip writes the bytecode of what it installs, so the warm-up
    # start may too (with PYTHONDONTWRITEBYTECODE set, as on some machines, every start
    # compiled the server's source again: 0.13-0.2 s of each).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    command = [sys.executable, "-c", "from tikal.cli import main; main()", "serve", "--db",
               str(path), "--port", str(port), "--log-level", "warning"]
    started = time.perf_counter()
    started_at = time.time()
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        while True:
            if server.poll() is not None:
                raise RuntimeError(f"tikal serve exited with status {server.returncode}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=1):
                    break
            except OSError:
                if time.perf_counter() - started > timeout:
                    raise RuntimeError("tikal serve did not answer in time") from None
                time.sleep(0.02)
        seconds = time.perf_counter() - started
        rss, peak = memory_of(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=30)
    marks = read_marks(marks_file)
    imported, loaded = marks.get("imported"), marks.get("loaded")
    return StartUp(finished, playing, seconds, rss, peak,
                   None if imported is None else imported - started_at,
                   None if imported is None or loaded is None else loaded - imported)


def run(finished: list[int], playing: int, rules: str, server_path: str | None,
        folder: Path, starts: int = 5) -> list[StartUp]:
    """Build a database for each count of finished games in ``folder`` and measure
    ``starts`` starts on each, giving the median one (on this 2-core machine one start
    varied by 0.15 s from the next).  The first start of a file migrates it, if the
    server is of another version, and writes the bytecode: a warm-up start is made
    first."""
    results = []
    for count in finished:
        path = folder / f"bench-{count}.sqlite3"
        if not path.exists():
            build(path, count, playing, rules)
        measure(path, count, playing, server_path)  # warm-up: caches, a migration
        timed = sorted((measure(path, count, playing, server_path) for _ in range(starts)),
                       key=lambda start: start.seconds)
        results.append(timed[len(timed) // 2])
    return results
