"""One game of a load test: its seats, each over its own WebSocket (or HTTP for its
moves), playing random legal actions and timing what comes back."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from ..wire.client import apply_message, legal_actions
from ..wire.codec import decode, encode
from ..wire.schema import ActionMessage, DeltaMessage, HelloMessage, StateMessage, SyncMessage
from .servers import Server


@dataclass
class Stats:
    """What the clients measured (seconds, bytes)."""

    acks: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    http_moves: list[float] = field(default_factory=list)
    sizes_other: list[int] = field(default_factory=list)
    sizes_mover: list[int] = field(default_factory=list)
    bot_delays: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    finished: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


@dataclass
class Seat:
    """One seat's connection and what it knows of the game."""

    seat: int
    token: str
    ws: Any = None
    state: dict[str, Any] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class GameDriver:
    """Plays one game from both seats until ``deadline``."""

    def __init__(
        self, stats: Stats, servers: list[Server], http: httpx.AsyncClient, rate: float,
        deadline: float, use_http: bool, rng: random.Random,
    ) -> None:
        self.stats = stats
        self.servers = servers
        self.http = http
        self.rate = rate
        self.deadline = deadline
        self.use_http = use_http
        self.rng = rng
        self.seats: list[Seat] = []
        self.game_id = ""
        self.sent_at: dict[int, float] = {}  # state the move was for -> send time
        self.mover = -1
        self.bot_level = "medium"

    async def create(self, bots: bool) -> None:
        seats = [{"kind": "human"}, {"kind": "bot", "level": self.bot_level} if bots
                 else {"kind": "human"}]
        reply = await self.http.post(
            f"http://{self.servers[0].url}/api/games", json={"rules": "standard", "seats": seats}
        )
        if reply.status_code != 201:
            self.stats.error(f"create {reply.status_code}")
            raise RuntimeError("could not create a game")
        data = reply.json()
        self.game_id = data["id"]
        self.seats = [Seat(s["seat"], s["token"]) for s in data["seats"] if s["token"]]
        self.stats.games += 1

    async def listen(self, seat: Seat) -> None:
        """Read one seat's messages: timings, sizes, its copy of the state."""
        async for raw in seat.ws:
            now = time.perf_counter()
            try:
                msg = decode(raw)
            except ValueError:
                self.stats.error("undecodable")
                continue
            if msg["type"] == "ack":
                sent = self.sent_at.get(msg.get("base", msg["state"] - 1))
                if sent is not None and seat.seat == self.mover:
                    self.stats.acks.append(now - sent)
            elif msg["type"] == "error":
                self.stats.error(str(msg.get("code")))
                if msg.get("code") in ("stale", "illegal"):
                    await self._sync(seat)
            elif msg["type"] == "state" or msg["type"] == "delta":
                await self._apply(seat, msg, now, len(raw))

    async def _apply(self, seat: Seat, msg: StateMessage | DeltaMessage, now: float,
                     size: int) -> None:
        """Bring the seat's copy up to date (or ask for the whole state), timing the
        update that follows on a move."""
        before = seat.state.get("state", -1)
        if not apply_message(seat.state, msg):
            await self._sync(seat)
            return
        if msg["state"] > before >= 0:
            sent = self.sent_at.get(before)
            if sent is not None:
                if seat.seat != self.mover:
                    self.stats.updates.append(now - sent)
                    self.stats.sizes_other.append(size)
                else:
                    self.stats.sizes_mover.append(size)
        seat.changed.set()

    @staticmethod
    async def _sync(seat: Seat) -> None:
        sync: SyncMessage = {"type": "sync"}
        await seat.ws.send(encode(sync))

    async def connect(self) -> None:
        for seat in self.seats:
            server = self.servers[seat.seat % len(self.servers)]
            seat.ws = await websockets.connect(
                f"ws://{server.url}/ws/{self.game_id}", max_size=2**24
            )
            hello: HelloMessage = {"type": "hello", "token": seat.token}
            await seat.ws.send(encode(hello))

    async def wait_state(self, seat: Seat, newer_than: int) -> bool:
        while seat.state.get("state", -1) <= newer_than:
            seat.changed.clear()
            remaining = self.deadline - time.perf_counter()
            if remaining <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(seat.changed.wait(), min(remaining, 5))
        return True

    def to_move(self) -> Seat | None:
        for seat in self.seats:
            s = seat.state
            if s and not s.get("over") and s.get("your_turn"):
                return seat
        return None

    async def play(self) -> None:
        listeners = [asyncio.create_task(self.listen(s)) for s in self.seats]
        try:
            await self._moves()
        finally:
            for seat in self.seats:
                with contextlib.suppress(Exception):
                    await seat.ws.close()
            for task in listeners:
                task.cancel()

    async def _moves(self) -> None:
        first = self.seats[0]
        if not await self.wait_state(first, -1):
            return
        next_at = time.perf_counter()
        while time.perf_counter() < self.deadline:
            if first.state.get("over"):
                self.stats.finished += 1
                return
            seat = self.to_move()
            if seat is None:  # a bot's turn (or the seats disagree for a moment)
                await self._wait_bot(first)
                continue
            if self.rate > 0:
                next_at += self.rng.expovariate(self.rate)
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
            state = seat.state["state"]
            options = [a for a in legal_actions(seat.state) if a != "undo"]
            if not options:
                await self.wait_state(seat, state)
                continue
            action = self.rng.choice(options)
            self.mover = seat.seat
            self.sent_at[state] = time.perf_counter()
            self.stats.moves += 1
            if self.use_http:
                await self._http_move(seat, action, state)
            else:
                move: ActionMessage = {"type": "action", "action": action, "state": state}
                await seat.ws.send(encode(move))
            for other in self.seats:
                if not await self.wait_state(other, state):
                    return

    async def _http_move(self, seat: Seat, action: str, state: int) -> None:
        server = self.servers[seat.seat % len(self.servers)]
        start = time.perf_counter()
        reply = await self.http.post(
            f"http://{server.url}/api/games/{self.game_id}/actions",
            json={"action": action, "state": state}, headers={"X-Tikal-Token": seat.token},
        )
        self.stats.http_moves.append(time.perf_counter() - start)
        if reply.status_code != 200:
            self.stats.error(f"http {reply.status_code}")

    async def _wait_bot(self, seat: Seat) -> None:
        """Wait for the bot's move; its delay counts from the state that handed it the turn."""
        state = seat.state.get("state", -1)
        start = time.perf_counter()
        if await self.wait_state(seat, state):
            self.stats.bot_delays.append(time.perf_counter() - start)
