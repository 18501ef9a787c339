"""Committing the moves that the event loop applied: one writer thread, batched commits.

A move used to run whole in a worker thread of asyncio's default executor (check,
apply, store).  Under load that cost more than the move: with 100 games moving as fast
as answered, a move waited 216 ms (p50) for one of the executor's 6 threads and then
spent 15 ms of wall time in the thread for about 0.3 ms of CPU, because the thread gave
up the GIL at every SQLite call and had to win it back from the busy event loop.

So the move is checked and applied on the event loop (a fraction of a millisecond) and
only its log entry is handed over, to :class:`CommitQueue`: one thread takes every entry
queued while it was committing the last batch and commits them all in one transaction
(one sync to disk), then wakes the loop once for the whole batch
(:meth:`~tikal.server.store.GameStorage.append_many`).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from typing import Any

from .store import GameStorage, LogEntry

_Item = tuple[str, LogEntry, asyncio.AbstractEventLoop, "asyncio.Future[None]"]


class CommitQueue:
    """Durable appends for moves applied on the event loop (see the module docstring)."""

    def __init__(self, storage: GameStorage) -> None:
        self.storage = storage
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False
        #: Batches committed so far, and the entries in them (``entries / batches`` is
        #: the mean batch).
        self.batches = 0
        self.entries = 0

    async def append(self, game_id: str, entry: LogEntry) -> None:
        """Store ``entry`` durably; raises what the storage raised (``StorageConflict``)."""
        if self._closed:
            await asyncio.to_thread(self.storage.append, game_id, entry)
            return
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._start()
        self._queue.put((game_id, entry, loop, done))
        await done

    def close(self) -> None:
        """Stop the writer once it has committed what is queued."""
        self._closed = True
        with self._lock:
            thread = self._thread
        if thread is not None:
            self._queue.put(None)
            thread.join(timeout=10)

    def _start(self) -> None:
        if self._thread is None:
            with self._lock:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, name="tikal-commits", daemon=True)
                    self._thread.start()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while True:  # everything that came while the last batch was committing
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Item]) -> None:
        try:
            errors = self.storage.append_many([(gid, entry) for gid, entry, _, _ in batch])
        except BaseException as exc:  # the whole transaction failed
            errors = [exc] * len(batch)
        self.batches += 1
        self.entries += len(batch)
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[Any, BaseException | None]]] = {}
        for (_, _, loop, done), error in zip(batch, errors, strict=True):
            by_loop.setdefault(loop, []).append((done, error))
        for loop, results in by_loop.items():  # one wake-up of each loop per batch
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
                loop.call_soon_threadsafe(_settle, results)


def _settle(results: list[tuple[asyncio.Future[None], BaseException | None]]) -> None:
    """On the loop: finish each waiting append with its result."""
    for done, error in results:
        if done.done():  # cancelled meanwhile (the client went away)
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)
