"""Several server processes on one PostgreSQL database: the cross-process notices.

Each process keeps its own in-memory sessions and WebSocket connections.  When one
process stores a log entry, :class:`~tikal.server.store.postgres.PostgresStorage` sends
``NOTIFY tikal, '<game id> <seq> <origin>'`` in the same transaction.  The
:class:`ClusterBridge` of every other process LISTENs on that channel in a thread of its
own and calls ``changed(game_id, seq)`` (:meth:`Manager.refresh`), which reads the new entries
into the session and broadcasts through the manager's listeners, exactly as after a move
made here.

Notices sent while the listening connection is down are lost, so after every
(re)connection the bridge calls ``resync()`` (:meth:`Manager.refresh_all`) to catch up
every game in memory from the log.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

import psycopg

from .store.postgres import CHANNEL

log = logging.getLogger("tikal.server")


def parse_notice(payload: str) -> tuple[str, int, str] | None:
    """``(game id, seq, origin)`` of a notice, or None if it is not one of ours."""
    parts = payload.split(" ")
    if len(parts) != 3 or not parts[1].lstrip("-").isdigit():
        return None
    return parts[0], int(parts[1]), parts[2]


class ClusterBridge:
    """Listens for entries stored by other processes; see the module docstring."""

    def __init__(
        self, url: str, origin: str, changed: Callable[[str, int], None],
        resync: Callable[[], None], *, poll: float = 0.5,
        topics: dict[str, Callable[[str], None]] | None = None,
    ) -> None:
        self.url = url
        #: other channels (the lobby's): each notice ``"<id> <origin>"`` -> ``call(id)``
        self.topics = dict(topics or {})
        self.origin = origin
        self.changed = changed
        self.resync = resync
        self.poll = poll
        self.connected = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="tikal-cluster", daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        pause = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
                    for channel in (CHANNEL, *self.topics):
                        conn.execute(f"LISTEN {channel}")
                    pause = 0.1
                    self.connected.set()
                    self._guarded(self.resync)
                    self._listen(conn)
            except Exception as exc:  # whatever broke, this thread must live on and reconnect
                if self.connected.is_set():
                    log.warning("lost the PostgreSQL notice connection: %s", exc)
                self.connected.clear()
            self._stop.wait(pause)
            pause = min(pause * 2, 2.0)

    def _listen(self, conn: psycopg.Connection[Any]) -> None:
        while not self._stop.is_set():
            for notice in conn.notifies(timeout=self.poll):
                if notice.channel in self.topics:
                    subject, _, origin = notice.payload.rpartition(" ")
                    if subject and origin != self.origin:
                        self._guarded(self.topics[notice.channel], subject)
                    continue
                parsed = parse_notice(notice.payload)
                if parsed is not None and parsed[2] != self.origin:
                    self._guarded(self.changed, parsed[0], parsed[1])

    @staticmethod
    def _guarded(call: Callable[..., None], *args: Any) -> None:
        """A failure for one game (the database went away mid-read) must not stop the
        bridge; the resync after reconnecting catches up."""
        try:
            call(*args)
        except Exception:
            log.exception("catching up with another server process failed")
