"""Gymnasium wrapper: one seat learns, bots play the other seats.

``TikalGymEnv(rules, players, seat=0, opponent="random")`` exposes the learner's
observation vector (the PettingZoo env's ``"observation"``) and a ``Discrete`` action
space of the same ids; :meth:`TikalGymEnv.action_masks` returns the legal ids, the
convention of sb3-contrib's ``MaskablePPO``.  Opponents are :func:`tikal.bots.make_bot`
bots choosing on their own view [HIDDEN-1]; each episode's bots are seeded from the
episode seed, so ``reset(seed=s)`` replays the same game for the same actions.
``seat=None`` draws the learner's seat at random each episode.  Rewards are the AEC
env's (see :mod:`tikal.rl.aec`); an illegal id ends the episode with ``illegal_reward``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..errors import IllegalAction
from ..game import Game
from .actions import ActionTable, Mask, action_table
from .aec import REWARDS, final_rewards
from .observe import HIGH, Encoder, Obs


class TikalGymEnv(gym.Env[Obs, np.int64]):
    """Single-agent Tikal: the learner's seat against bots of one level."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        rules: str = "standard",
        players: int = 2,
        seat: int | None = 0,
        opponent: str = "random",
        reward: str = "win",
        margin_scale: float = 10.0,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"no seat {seat} in a {players}-player game")
        make_bot(opponent)  # rejects an unknown level early
        self.rules, self.players, self.seat_choice, self.opponent = rules, players, seat, opponent
        self.reward, self.margin_scale, self.illegal_reward = reward, margin_scale, illegal_reward
        self.render_mode = render_mode
        self.table: ActionTable = action_table(rules)
        self.encoder = Encoder(rules)
        self.observation_space = spaces.Box(0.0, HIGH, (self.encoder.layout.size,), np.float32)
        self.action_space = spaces.Discrete(self.table.size)
        self._seeds = random.Random()
        self.seat = seat or 0
        self.game = Game.new(rules, players, seed=0)
        self.bots: list[Bot | None] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds.seed(seed)
        game_seed = self._seeds.randrange(1 << 31)
        rng = random.Random(game_seed)
        self.seat = rng.randrange(self.players) if self.seat_choice is None else self.seat_choice
        self.game = Game.new(self.rules, self.players, seed=game_seed)
        self.game.undo_enabled = False
        self.bots = [None if p == self.seat else make_bot(self.opponent, seed=game_seed * 8 + p,
                                                       players=self.players)
                     for p in range(self.players)]
        self.encoder.reset()
        self._play_bots()
        return self._observation(), {"seat": self.seat}

    def _play_bots(self) -> None:
        """Let the bots act until the learner is to act or the game is over."""
        game = self.game
        while not game.is_over and game.current_player != self.seat:
            p = game.current_player
            bot = self.bots[p]
            assert bot is not None
            game.apply(bot.choose(game.view(p)))

    def _observation(self) -> Obs:
        return self.encoder.encode(self.game.view(self.seat))

    def action_masks(self) -> Mask:
        """The legal ids now (sb3-contrib's ``MaskablePPO`` reads this)."""
        game = self.game
        if game.is_over or game.current_player != self.seat:
            return np.zeros(self.table.size, dtype=np.int8)
        return self.table.mask(game.legal_actions(), self.seat, self.players)

    def step(self, action: np.int64) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        game = self.game
        try:
            game.apply(self.table.decode(int(action), self.seat, self.players))
        except (IllegalAction, IndexError, KeyError):
            return self._observation(), self.illegal_reward, True, False, {"illegal": True}
        self._play_bots()
        if not game.is_over:
            return self._observation(), 0.0, False, False, {}
        reward = final_rewards(game, self.reward, self.margin_scale)[self.seat]
        info = {"scores": list(game.scores), "won": self.seat in game.winners}
        return self._observation(), reward, True, False, info

    def render(self) -> str | None:
        """The text board of the public position (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        from ..terminal.textboard import board_text

        view = self.game.view(None)
        return f"{board_text(view.state).plain}\nscores {list(view.state.scores)}"


__all__ = ["TikalGymEnv"]
