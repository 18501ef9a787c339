"""Process pools whose workers end with the process that started them.

A ``ProcessPoolExecutor``'s workers wait for work on a queue whose write end they
hold themselves, so a parent that dies without shutting the pool down (SIGKILL, the
OOM killer, a crash in C) leaves them waiting forever: seven idle workers outlived
the three tests that kill a server with -9 in every CI run.  Each worker here
watches its parent's sentinel (the pipe multiprocessing keeps for
``parent_process()``, closed by the kernel when the parent dies) from a daemon
thread and exits when it closes.  The thread only blocks on that pipe, so it takes
nothing from a search.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from concurrent.futures import ProcessPoolExecutor

#: What a worker exits with when its parent is gone (no one reads it).
ORPHANED_EXIT = 70


def exit_with_parent() -> None:
    """A pool initializer: end this worker as soon as its parent process is gone."""
    parent = multiprocessing.parent_process()
    if parent is None:  # called in a main process: nothing to watch
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(ORPHANED_EXIT)  # no cleanup: the work's owner is gone

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def process_pool(workers: int, start: str | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that exit when this process dies, however it dies.

    ``start`` is the start method's name (``"spawn"``, ``"fork"``; None: the platform's
    default): the server spawns, so no state is forked from its threads."""
    context = multiprocessing.get_context(start)
    return ProcessPoolExecutor(workers, mp_context=context, initializer=exit_with_parent)
