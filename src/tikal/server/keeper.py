"""Who started which game (for the caps on games), and idle games leaving memory.

A game in memory with no connection whose state has not changed for
``idle_seconds`` is dropped from the manager (and its snapshot from the hub); the next
request for it rebuilds it from the stored log, so memory holds only games in play.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable

from .hub import Hub
from .limits import Limits
from .manager import Manager


class Keeper:
    """The caps on games per client and on bot-only games, and the idle sweep."""

    def __init__(self, manager: Manager, hub: Hub, limits: Limits,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.manager = manager
        self.hub = hub
        self.limits = limits
        self.clock = clock
        self._by_client: dict[str, set[str]] = {}
        self._bot_only: set[str] = set()
        self._seen: dict[str, tuple[int, float]] = {}
        #: places held by creates under way, per client, and of them bot-only games
        self._pending: dict[str, int] = {}
        self._pending_bots = 0
        self._lock = threading.Lock()

    def _running(self, game_id: str) -> bool:
        session = self.manager.sessions.get(game_id)
        return session is not None and not session.over

    def check_create(self, client: str, bot_only: bool) -> None:
        """Refuse (429 ``too_many_games``) a game over the caps, else hold its place until
        :meth:`created` or :meth:`released`: the check and the count are one step, so
        creates at once cannot pass the cap together (before: 40 at once made 40 games
        against a cap of 20)."""
        with self._lock:
            mine = self._by_client.get(client, set())
            mine -= {g for g in mine if not self._running(g)}
            self._bot_only -= {g for g in self._bot_only if not self._running(g)}
            active = len(mine) + self._pending.get(client, 0)
            bots = len(self._bot_only) + self._pending_bots
            self.limits.check_games(active, bot_only, bots)
            self._pending[client] = self._pending.get(client, 0) + 1
            self._pending_bots += bot_only

    def released(self, client: str, bot_only: bool) -> None:
        """A held place given back (the game was not created after all)."""
        with self._lock:
            self._release(client, bot_only)

    def _release(self, client: str, bot_only: bool) -> None:
        left = self._pending.get(client, 0) - 1
        if left > 0:
            self._pending[client] = left
        else:
            self._pending.pop(client, None)
        self._pending_bots -= bot_only

    def created(self, client: str, game_id: str, bot_only: bool) -> None:
        with self._lock:
            self._release(client, bot_only)
            self._by_client.setdefault(client, set()).add(game_id)
            if bot_only:
                self._bot_only.add(game_id)

    def sweep(self) -> int:
        """Drop idle games from memory; how many were dropped."""
        idle = self.limits.settings.idle_seconds
        now = self.clock()
        dropped = 0
        for game_id, session in list(self.manager.sessions.items()):
            mark = (session.state, now)
            seen = self._seen.get(game_id)
            busy = session.bot_busy or self.hub.games.get(game_id)
            if busy or seen is None or seen[0] != session.state:
                self._seen[game_id] = mark
                continue
            if now - seen[1] >= idle:
                self.manager.sessions.pop(game_id, None)
                self.hub.publisher.forget(game_id)
                del self._seen[game_id]
                dropped += 1
        for game_id in set(self._seen) - set(self.manager.sessions):
            del self._seen[game_id]
        return dropped

    async def run(self) -> None:
        """Sweep every quarter of the idle time (at least every minute) until cancelled."""
        period = min(60.0, max(1.0, self.limits.settings.idle_seconds / 4))
        while True:
            await asyncio.sleep(period)
            with contextlib.suppress(Exception):
                await asyncio.to_thread(self.sweep)
