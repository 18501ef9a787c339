"""Process pools whose workers end with their parent (:mod:`tikal.workers`): a process
holding a pool is killed with SIGKILL, so no shutdown code of its own runs, and every
worker must end anyway.  Forked workers are the arena's and ``tikal analyze``'s, spawned
ones the server's (``tests/test_server_durability.py`` kills a real server)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from web_helpers import children, command_line, running, wait_until

HOLDER = """
import os, sys, time
from tikal.workers import process_pool

def worker_pid(_):
    time.sleep(0.2)  # long enough that the pool starts its second worker
    return os.getpid()

if __name__ == "__main__":
    with process_pool(2, start=sys.argv[1]) as pool:
        print(" ".join(str(pid) for pid in set(pool.map(worker_pid, range(4)))), flush=True)
        time.sleep(120)
"""


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_every_worker_ends_when_the_process_holding_the_pool_is_killed(
    tmp_path: Path, start: str,
) -> None:
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    holder = subprocess.Popen([sys.executable, str(script), start], stdout=subprocess.PIPE,
                              text=True)
    workers: set[int] = set()
    try:
        assert holder.stdout is not None
        workers = {int(pid) for pid in holder.stdout.readline().split()}
        assert workers and workers <= children(holder.pid)
        assert all(running(pid) for pid in workers)
        holder.kill()
        holder.wait(timeout=10)
        ended = wait_until(lambda: not any(running(pid) for pid in workers), timeout=15)
        assert ended, [(pid, command_line(pid)) for pid in workers if running(pid)]
    finally:
        holder.kill()
        for pid in workers:  # never leave one behind, whatever failed
            if running(pid):
                subprocess.run(["kill", "-9", str(pid)], check=False)
