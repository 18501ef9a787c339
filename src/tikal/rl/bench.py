"""Environment speed: AEC steps per second with observations and action masks.

``python -m tikal.rl.bench [--seconds 5] [--rules standard] [--players 2]`` plays random
legal ids (drawn from the mask) through ``env.last()`` / ``env.step()``, as a learner
loop does, and prints steps/s (wall time) and steps per CPU second (this process's CPU
time, the figure that a machine shared with other work does not distort) for each
configuration; docs/rl.md quotes the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import asdict, dataclass

import numpy as np

from .aec import raw_env


@dataclass(frozen=True, slots=True)
class BenchResult:
    rules: str
    players: int
    steps: int
    games: int
    seconds: float
    cpu_seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def steps_per_cpu_second(self) -> float:
        """Steps per second of this process's CPU time: what a busy machine leaves out."""
        return self.steps / self.cpu_seconds


def bench(rules: str, players: int, seconds: float, seed: int = 0) -> BenchResult:
    """Random masked play for ``seconds``: every step observes (vector and mask) and acts."""
    env = raw_env(rules=rules, players=players)
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = games = 0
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while True:
        obs, _, terminated, _, _ = env.last()
        if terminated:
            games += 1
            if time.perf_counter() > deadline:
                break
            env.reset()
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return BenchResult(rules, players, steps, games, time.perf_counter() - start,
                       time.process_time() - cpu)


CONFIGS = (("standard", 2), ("standard", 4), ("auction", 3), ("demo", 2))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Steps/s of the Tikal PettingZoo env.")
    parser.add_argument("--seconds", type=float, default=5.0, help="per configuration")
    parser.add_argument("--rules", help="one rule set only (with --players)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(argv)
    configs = [(args.rules, args.players)] if args.rules else list(CONFIGS)
    for rules, players in configs:
        result = bench(rules, players, args.seconds)
        if args.json:
            print(json.dumps(asdict(result) | {
                "steps_per_second": result.steps_per_second,
                "steps_per_cpu_second": result.steps_per_cpu_second,
            }))
        else:
            print(f"{rules:9} {players}p  {result.steps_per_second:8.0f} steps/s  "
                  f"{result.steps_per_cpu_second:8.0f} steps/CPU-s  ({result.steps} steps, "
                  f"{result.games} games, {result.seconds:.1f} s)")


if __name__ == "__main__":
    main()
