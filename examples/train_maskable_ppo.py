"""Train one Tikal seat with sb3-contrib's MaskablePPO: first against random bots, then
against easy bots, and count wins of the trained policy against both.

Not run in CI.  Needs torch and sb3-contrib besides ``tikal[rl]`` (see README.md here)::

    python examples/train_maskable_ppo.py --minutes-random 6 --minutes-easy 6 --eval-games 100

The learner's seat is drawn at random every episode, so it learns to play both seats.
Prints a JSON summary (and writes it with ``--out``); the policy is saved with ``--save``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

from tikal.rl import TikalGymEnv


class StopAfter(BaseCallback):
    """Stops training after a wall-clock budget."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.deadline = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.deadline


def make_env(args: argparse.Namespace, opponent: str) -> TikalGymEnv:
    return TikalGymEnv(args.rules, args.players, seat=None, opponent=opponent,
                       reward=args.reward)


def vec_env(args: argparse.Namespace, opponent: str, seed: int) -> DummyVecEnv:
    """``--envs`` copies stepped together: one policy forward pass serves them all."""
    envs = DummyVecEnv([lambda: make_env(args, opponent) for _ in range(args.envs)])
    envs.seed(seed)
    return envs


def evaluate(model: MaskablePPO | None, env: TikalGymEnv, games: int, seed: int) -> dict[str, Any]:
    """Win share of the policy (``None``: uniformly random legal ids) over ``games`` games;
    the trained policy samples its actions (masked), as in training."""
    rng = np.random.default_rng(seed)
    wins, margins = 0.0, []
    for g in range(games):
        obs, _ = env.reset(seed=seed + g)
        done = False
        info: dict[str, Any] = {}
        while not done:
            masks = get_action_masks(env)
            if model is None:
                action = int(rng.choice(np.flatnonzero(masks)))
            else:
                action = int(model.predict(obs, action_masks=masks, deterministic=False)[0])
            obs, _, done, _, info = env.step(np.int64(action))
        scores = info["scores"]
        best_other = max(s for p, s in enumerate(scores) if p != env.seat)
        winners = [p for p, s in enumerate(scores) if s == max(scores)]
        wins += 1 / len(winners) if env.seat in winners else 0.0
        margins.append(scores[env.seat] - best_other)
    return {"games": games, "wins": wins, "win_rate": wins / games,
            "mean_margin": float(np.mean(margins))}


def train(model: MaskablePPO, minutes: float) -> tuple[int, float]:
    """Train for ``minutes`` of wall time; the steps taken and the seconds used."""
    start, before = time.monotonic(), model.num_timesteps
    model.learn(total_timesteps=10**9, callback=StopAfter(minutes * 60),
                reset_num_timesteps=False)
    return model.num_timesteps - before, time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--reward", default="margin", choices=["win", "margin"])
    parser.add_argument("--minutes-random", type=float, default=6.0)
    parser.add_argument("--minutes-easy", type=float, default=6.0)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", type=int, default=8, help="environments stepped together")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--save", type=Path)
    args = parser.parse_args()
    started = time.monotonic()

    import torch

    torch.set_num_threads(1)
    summary: dict[str, Any] = {"config": vars(args) | {"out": None, "save": None}}
    vs_random, vs_easy = make_env(args, "random"), make_env(args, "easy")
    summary["baseline_random_policy"] = {
        "vs_random": evaluate(None, vs_random, args.eval_games, 10_000),
        "vs_easy": evaluate(None, vs_easy, args.eval_games, 20_000),
    }
    model = MaskablePPO("MlpPolicy", vec_env(args, "random", args.seed), seed=args.seed,
                        n_steps=256, batch_size=512, n_epochs=4, learning_rate=3e-4, gamma=1.0,
                        ent_coef=0.01, verbose=0)
    steps, seconds = train(model, args.minutes_random)
    summary["stage_random"] = {"steps": steps, "seconds": round(seconds)}
    model.set_env(vec_env(args, "easy", args.seed + 1))
    steps, seconds = train(model, args.minutes_easy)
    summary["stage_easy"] = {"steps": steps, "seconds": round(seconds)}
    summary["trained_policy"] = {
        "vs_random": evaluate(model, vs_random, args.eval_games, 10_000),
        "vs_easy": evaluate(model, vs_easy, args.eval_games, 20_000),
    }
    summary["wall_seconds"] = round(time.monotonic() - started)
    if args.save:
        model.save(args.save)
    text = json.dumps(summary, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
