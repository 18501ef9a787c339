"""The chat of the games on this server: a line posted by a seat is stored, then sent to
every connection of the game on this process as one ``chat`` message encoded once; the
other processes hear of it by ``NOTIFY`` and send the lines they had not sent yet
(:meth:`Chat.changed_elsewhere`).  Spectators read, and write (as seat -1, under a
name they give) only if the game's creator, its first human seat, lets them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..hub import Hub
from ..manager import Manager
from ..wire.codec import encode
from ..wire.schema import ChatMessage
from .model import Line, checked, line_json, refused, spectator_name
from .store import ChatStore


class Chat:
    def __init__(self, store: ChatStore, manager: Manager, hub: Hub,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.manager = manager
        self.hub = hub
        self.clock = clock
        self.loop: asyncio.AbstractEventLoop | None = None
        #: the last line number sent to this process's connections, per game
        self.sent: dict[str, int] = {}

    def speaker(self, game_id: str, seats: Sequence[int],
                name: Any = None) -> tuple[int, str, int]:
        """(seat, name, state) of who says a line with a token of ``seats``: the seat to
        act when the token holds several (hot-seat), else its one seat; a spectator is
        seat -1 under ``name``, if the creator lets spectators write."""
        session = self.manager.get(game_id)
        if not seats:
            if not self.store.spectators_write(game_id):
                raise refused("chat_spectator", "spectator", 403)
            return -1, spectator_name(name), session.state
        current = session.game.current
        seat = current if current in seats else seats[0]
        return seat, session.record.seats[seat].name, session.state

    async def post(self, game_id: str, seats: Sequence[int], text: Any,
                   phrase: Any, name: Any = None) -> Line:
        """A line said by a seat of the game (see :func:`~.model.checked`)."""
        said, key = checked(text, phrase)
        seat, name, state = await asyncio.to_thread(self.speaker, game_id, seats, name)
        line = await asyncio.to_thread(self.store.append, game_id, seat, name, said, key,
                                       state, self.clock())
        self.publish(game_id, [line])
        return line

    def creator(self, game_id: str, seats: Sequence[int]) -> None:
        """The token's seats hold the game's first human seat (its creator's), else 403
        ``not_creator``."""
        humans = self.manager.get(game_id).human_seats
        if not humans or humans[0] not in seats:
            raise refused("not_creator", "not_creator", 403)

    async def let_spectators_write(self, game_id: str, seats: Sequence[int],
                                   allowed: bool) -> None:
        await asyncio.to_thread(self.creator, game_id, seats)
        await asyncio.to_thread(self.store.let_spectators_write, game_id, allowed,
                                self.clock())
        text = encode({"type": "chat", "spectators": allowed})
        for conn in list(self.hub.games.get(game_id, ())):
            conn.put_text(text)

    def history(self, game_id: str) -> list[dict[str, Any]]:
        """The game's lines as clients get them (the game must exist: 404 otherwise)."""
        self.manager.get(game_id)
        return [dict(line_json(line)) for line in self.store.lines(game_id)]

    def publish(self, game_id: str, lines: Sequence[Line]) -> None:
        """Lines not sent yet to this process's connections of the game, sent."""
        fresh = [line for line in lines if line.seq > self.sent.get(game_id, 0)]
        if not fresh:
            return
        self.sent[game_id] = fresh[-1].seq
        for line in fresh:
            message: ChatMessage = {"type": "chat", "line": line_json(line)}
            text = encode(message)
            for conn in list(self.hub.games.get(game_id, ())):
                conn.put_text(text)

    def changed_elsewhere(self, game_id: str) -> None:
        """Another process stored a line of ``game_id`` (its NOTIFY, from the bridge's
        thread): the lines after the last one sent here go to this process's clients."""
        if game_id not in self.hub.games:
            return  # nobody here follows the game
        lines = self.store.lines(game_id, self.sent.get(game_id, 0))
        loop = self.loop
        if lines and loop is not None:
            loop.call_soon_threadsafe(self.publish, game_id, lines)
