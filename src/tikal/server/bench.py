"""The web server's CPU cost per move, phase by phase; the logic behind ``tikal bench --server``.

A move costs the server, besides the event loop: the move itself (:meth:`Manager.act`:
parse, apply, store), the game's new snapshot (:meth:`Publisher.snapshot`: the public
part, the log, the diff to the previous public part), each seat's part (its legal
actions) and each connection's message (:meth:`Snapshot.delta` and
:func:`~tikal.server.wire.codec.encode`).  This drives exactly those over ``games`` random
games of human seats, with a real SQLite file, as the hub does after every move, and
times each phase with :func:`time.process_time`: CPU time, so another busy core does not
count.  The storage's sync waits are not CPU; the move's wall time, which includes them,
is reported apart.  Picking the random action (the load client's work) is not counted.

What is left out is the event loop's share (WebSocket frames, HTTP middlewares, thread
hand-offs): ``tikal loadtest`` measures the whole.
"""

from __future__ import annotations

import asyncio
import cProfile
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .manager import Manager
from .round.snapshot import Publisher, Snapshot
from .store import SqliteStorage
from .wire.codec import encode
from .wire.schema import SeatPart

#: The phases timed, in the order a move goes through them.
PHASES: tuple[str, ...] = ("act", "snapshot", "seats", "messages")


@dataclass
class _Table:
    """One random game as the benchmark drives it: its id, seat tokens, and what each
    seat's connection holds (the snapshot revision and seat part it was sent last)."""

    game_id: str
    tokens: list[str]
    held: dict[int, tuple[int, SeatPart]] = field(default_factory=dict)


@dataclass
class _Clock:
    """CPU seconds per phase (and the move's wall seconds), summed over the moves."""

    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PHASES, 0.0))
    act_wall: float = 0.0
    moves: int = 0

    def time(self, phase: str, work: Callable[[], Any]) -> Any:
        start = time.process_time()
        result = work()
        self.cpu[phase] += time.process_time() - start
        return result


def _open_tables(manager: Manager, publisher: Publisher, seeds: range, players: int,
                 rules: str) -> list[_Table]:
    """A new game per seed, each seat connected and holding the full state."""
    tables = []
    for index in seeds:
        session, links = manager.create(rules, [{"kind": "human"}] * players, seed=index)
        table = _Table(session.game_id, [seat["token"] for seat in links["seats"]])
        snap = publisher.snapshot(session)
        for seat in range(players):
            encode(snap.full((seat,)))
            table.held[seat] = (snap.rev, snap.seat((seat,)))
        tables.append(table)
    return tables


def _messages(snap: Snapshot, table: _Table) -> None:
    """Each seat's message after a change (a delta if it holds the previous snapshot)."""
    for seat, (rev, part) in table.held.items():
        message = (snap.delta((seat,), part) if rev == snap.previous_rev
                   else snap.full((seat,)))
        encode(message)
        table.held[seat] = (snap.rev, snap.seat((seat,)))


def _move(manager: Manager, publisher: Publisher, table: _Table, rng: random.Random,
          clock: _Clock, loop: asyncio.AbstractEventLoop) -> None:
    session = manager.get(table.game_id)
    seat = session.game.current
    action = str(rng.choice(session.game.legal_actions()))
    wall = time.perf_counter()
    clock.time("act", lambda: loop.run_until_complete(
        manager.act(table.game_id, table.tokens[seat], action, session.state)))
    clock.act_wall += time.perf_counter() - wall
    snap: Snapshot = clock.time("snapshot", lambda: publisher.snapshot(session))
    clock.time("seats", lambda: [snap.seat((s,)) for s in table.held])
    clock.time("messages", lambda: _messages(snap, table))
    clock.moves += 1


def measure_server(
    moves: int = 3000, games: int = 20, players: int = 2, seed: int = 1,
    rules: str = "standard", profile: cProfile.Profile | None = None,
    folder: Path | None = None,
) -> dict[str, Any]:
    """``moves`` random moves spread over ``games`` games (a finished game is replaced by
    a new one); CPU µs per move for each phase and in all, as one JSON-ready dict.
    ``profile`` (a :class:`cProfile.Profile`) is enabled around the timed phases only."""
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        storage = SqliteStorage(str(Path(tmp) / "bench.sqlite3"))
        manager = Manager(storage, bot_delay=0.0, bot_workers=1)
        try:
            clock = _play(manager, moves, games, players, seed, rules, profile)
        finally:
            manager.close()
            storage.close()
    per_move = {phase: round(clock.cpu[phase] / clock.moves * 1e6, 1) for phase in PHASES}
    return {
        "moves": clock.moves, "games": games, "players": players, "rules": rules,
        "cpu_us": per_move, "cpu_us_per_move": round(sum(per_move.values()), 1),
        "act_wall_us": round(clock.act_wall / clock.moves * 1e6, 1),
    }


def _play(manager: Manager, moves: int, games: int, players: int, seed: int, rules: str,
          profile: cProfile.Profile | None) -> _Clock:
    publisher = Publisher()
    rng = random.Random(seed)
    tables = _open_tables(manager, publisher, range(games), players, rules)
    opened = games
    clock = _Clock()
    loop = asyncio.new_event_loop()  # the server's one move path runs on an event loop
    try:
        while clock.moves < moves:
            index = clock.moves % games
            if manager.get(tables[index].game_id).game.is_over:
                tables[index] = _open_tables(manager, publisher, range(opened, opened + 1),
                                             players, rules)[0]
                opened += 1
            if profile is not None:
                profile.enable()
            _move(manager, publisher, tables[index], rng, clock, loop)
            if profile is not None:
                profile.disable()
    finally:
        loop.close()
    return clock
