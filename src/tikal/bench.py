"""Speed figures for random play; the logic behind ``tikal bench`` (no I/O here).

* **steps/s** (4-player standard): one step is "compute the full legal action
  list, pick one uniformly, apply it", the figure comparable to python-chess's
  plies per second (``legal_moves`` + ``random.choice`` + ``push``).
* **playouts/s** per rule set: whole random games from setup to the end.
* **clone µs**: median time of :meth:`Game.clone` on mid-game states.

Every figure is measured for a fixed time budget, not a fixed amount of work,
so the caller decides how long a run takes.  Undo snapshots are off during the
measurements, as in :mod:`tikal.simulate` (bots and simulations never undo).
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .game import Game
from .loop import Chooser, play_game

#: python-chess 1.x, random legal plies per second on the project's reference machine
#: (2-core VM, CPython 3.11): ``random.choice(list(board.legal_moves))`` + ``board.push``.
PYTHON_CHESS_PLIES_PER_SECOND = 24_000

#: (rules, players) of the playout figures.
PLAYOUT_SETS: tuple[tuple[str, int], ...] = (("standard", 4), ("auction", 4), ("demo", 2))

#: Names of the measurements in the order they run (for progress displays).
TASKS: tuple[str, ...] = (
    "steps standard/4",
    *(f"playouts {rules}/{players}" for rules, players in PLAYOUT_SETS),
    "clone",
)

Progress = Callable[[str, float], None]
"""Called as ``progress(task, fraction_done)`` while a measurement runs."""


def _new(rules: str, players: int, seed: int) -> Game:
    game = Game.new(rules, players, seed=seed)
    game.undo_enabled = False
    return game


def _noop(task: str, fraction: float) -> None:
    pass


def _uniform(rng: random.Random) -> Chooser[Game]:
    """Uniform among the legal actions (what every figure here measures)."""
    choice = rng.choice
    return lambda game: choice(game.legal_actions())


@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` things in ``seconds``; ``best`` is the fastest of the measuring windows."""

    count: int
    seconds: float
    best: float = 0.0

    @property
    def per_second(self) -> float:
        return self.count / self.seconds if self.seconds > 0 else 0.0


WINDOWS = 5
"""Each measurement is split into this many windows; the best window shows the speed with the
least interference from other processes on a shared machine."""


def measure_steps(
    seconds: float, rules: str = "standard", players: int = 4, seed: int = 0,
    progress: Progress = _noop, task: str = "steps",
) -> Rate:
    """Random steps (legal list + uniform pick + apply) for ``seconds``, over fresh games."""
    rng = random.Random(seed)
    steps = 0
    game_index = 0
    game = _new(rules, players, seed)
    start = time.perf_counter()
    now = window_start = start
    window_steps, best = 0, 0.0
    while now - start < seconds:
        for _ in range(256):
            if game.is_over:
                game_index += 1
                game = _new(rules, players, seed + game_index)
            game.apply(rng.choice(game.legal_actions()))
        steps += 256
        window_steps += 256
        now = time.perf_counter()
        if now - window_start >= seconds / WINDOWS:
            best = max(best, window_steps / (now - window_start))
            window_start, window_steps = now, 0
        progress(task, min(1.0, (now - start) / seconds))
    return Rate(steps, now - start, best or steps / (now - start))


def measure_playouts(
    seconds: float, rules: str, players: int, seed: int = 0,
    progress: Progress = _noop, task: str = "playouts",
) -> Rate:
    """Whole random games (setup included) for at least ``seconds`` and at least one game."""
    rng = random.Random(seed)
    games = 0
    start = time.perf_counter()
    now = window_start = start
    window_games, best = 0, 0.0
    choose = _uniform(rng)
    while games == 0 or now - start < seconds:
        play_game(_new(rules, players, seed + games), choose)
        games += 1
        window_games += 1
        now = time.perf_counter()
        if now - window_start >= seconds / WINDOWS:
            best = max(best, window_games / (now - window_start))
            window_start, window_games = now, 0
        progress(task, min(1.0, (now - start) / seconds))
    return Rate(games, now - start, best or games / (now - start))


def midgame_states(
    count: int, rules: str = "standard", players: int = 4, seed: int = 0
) -> list[Game]:
    """``count`` states taken from the middle third of random games (by action count)."""
    rng = random.Random(seed)
    states: list[Game] = []
    game_index = 0
    while len(states) < count:
        game = _new(rules, players, seed + game_index)
        game_index += 1
        trace = _random_trace(game, rng)
        third = len(trace) // 3
        middle = trace[third : 2 * third] or trace
        states.extend(rng.sample(middle, min(len(middle), 8, count - len(states))))
    return states


def _random_trace(game: Game, rng: random.Random) -> list[Game]:
    """Copies of the states a random game passes through, each before its action."""
    trace: list[Game] = []
    choice = rng.choice

    def keep_then_choose(state: Game) -> Action:
        trace.append(state.clone())
        return choice(state.legal_actions())

    play_game(game, keep_then_choose)
    return trace


def measure_clone(
    seconds: float, states: list[Game] | None = None, batch: int = 200,
    progress: Progress = _noop, task: str = "clone",
) -> list[float]:
    """Per-clone times in µs, one per batch of ``batch`` clones of one mid-game state."""
    if states is None:
        states = midgame_states(32)
    samples: list[float] = []
    start = time.perf_counter()
    now = start
    i = 0
    while len(samples) < len(states) or now - start < seconds:
        state = states[i % len(states)]
        clone = state.clone
        t0 = time.perf_counter_ns()
        for _ in range(batch):
            clone()
        samples.append((time.perf_counter_ns() - t0) / batch / 1000)
        i += 1
        now = time.perf_counter()
        progress(task, min(1.0, (now - start) / seconds))
    return samples


def run_bench(seconds: float = 2.0, seed: int = 0, progress: Progress = _noop) -> dict[str, Any]:
    """All figures as one JSON-ready dict; each measurement runs about ``seconds``."""
    if seconds <= 0:
        raise ValueError("seconds must be > 0")
    steps = measure_steps(seconds, seed=seed, progress=progress, task=TASKS[0])
    playouts: dict[str, Any] = {}
    for (rules, players), task in zip(PLAYOUT_SETS, TASKS[1:-1], strict=True):
        rate = measure_playouts(seconds, rules, players, seed=seed, progress=progress, task=task)
        playouts[f"{rules}/{players}"] = {
            "rules": rules,
            "players": players,
            "games": rate.count,
            "seconds": round(rate.seconds, 3),
            "per_second": round(rate.per_second, 2),
            "best_window_per_second": round(rate.best, 2),
        }
    states = midgame_states(32, seed=seed)
    samples = measure_clone(seconds, states, progress=progress, task=TASKS[-1])
    return {
        "steps_per_second": round(steps.per_second),
        "steps": {"rules": "standard", "players": 4, "count": steps.count,
                  "seconds": round(steps.seconds, 3),
                  "best_window_per_second": round(steps.best)},
        "playouts_per_second": {key: value["per_second"] for key, value in playouts.items()},
        "playouts": playouts,
        "clone_us": round(statistics.median(samples), 2),
        "clone": {"states": len(states), "samples": len(samples),
                  "min_us": round(min(samples), 2), "max_us": round(max(samples), 2)},
        "python_chess_plies_per_second": PYTHON_CHESS_PLIES_PER_SECOND,
        "seconds_per_measurement": seconds,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
    }
