"""The PettingZoo AEC environment: one agent per seat, the seat to act selects.

Each agent observes ``{"observation": float32 vector, "action_mask": int8 vector}``
built from its own view [HIDDEN-1]; the mask marks the legal ids of the action table
(all zeros for an agent not to act).  Rewards come only at the end of the game:

* ``reward="win"`` (default): +1 to a sole winner, 0 to seats tied for first, -1 to the
  others [END-2];
* ``reward="margin"``: own score minus the best other score, divided by
  ``margin_scale`` (default 10).

An illegal id ends the game at once: the actor gets ``illegal_reward`` (default -1),
the others 0, and ``infos[agent]["illegal"]`` is set.  Games always end (tiles run out
and every turn spends action points), so there is no truncation.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..errors import IllegalAction
from ..game import Game
from .actions import ActionTable, Mask, action_table
from .observe import HIGH, Encoder, Obs

REWARDS: Final = ("win", "margin")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


def final_rewards(game: Game, reward: str, margin_scale: float) -> list[float]:
    """Every seat's reward at the end of ``game``."""
    scores = game.scores
    result = []
    for p in range(game.players):
        best_other = max(s for o, s in enumerate(scores) if o != p)
        if reward == "margin":
            result.append((scores[p] - best_other) / margin_scale)
        else:
            result.append(1.0 if scores[p] > best_other else 0.0 if scores[p] == best_other
                          else -1.0)
    return result


class raw_env(AECEnv[str, dict[str, Any], int | None]):
    """Tikal for PettingZoo; see the module docstring and docs/rl.md."""

    metadata = {"render_modes": ["ansi"], "name": "tikal_v0", "is_parallelizable": False}

    def __init__(
        self,
        rules: str = "standard",
        players: int = 2,
        reward: str = "win",
        margin_scale: float = 10.0,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        Game.new(rules, players, seed=0)  # rejects a bad rule set or player count early
        self.rules, self.players, self.reward = rules, players, reward
        self.margin_scale, self.illegal_reward = margin_scale, illegal_reward
        self.render_mode = render_mode
        self.table: ActionTable = action_table(rules)
        self.encoder = Encoder(rules)
        self.possible_agents = [agent_name(p) for p in range(players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self._obs_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.game = Game.new(rules, players, seed=0)
        self.game.undo_enabled = False

    def _obs_space(self) -> spaces.Dict:
        size = self.encoder.layout.size
        return spaces.Dict({
            "observation": spaces.Box(0.0, HIGH, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.table.size,), np.int8),
        })

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes it and the seeds of the games after it."""
        if seed is not None:
            self._seeds.seed(seed)
        self.game = Game.new(self.rules, self.players, seed=self._seeds.randrange(1 << 31))
        self.game.undo_enabled = False
        self.encoder.reset()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.game.current_player)

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        return {"observation": self.observation(seat), "action_mask": self.action_mask(seat)}

    def observation(self, seat: int) -> Obs:
        """The observation vector of ``seat``, from its view only."""
        return self.encoder.encode(self.game.view(seat))

    def action_mask(self, seat: int) -> Mask:
        """Legal ids for ``seat`` (all zero unless it is to act)."""
        game = self.game
        if game.is_over or game.current_player != seat:
            return np.zeros(self.table.size, dtype=np.int8)
        return self.table.mask(game.legal_actions(), seat, self.players)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("a live agent must act; None is only for agents that are done")
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        try:
            self.game.apply(self.table.decode(int(action), seat, self.players))
        except (IllegalAction, IndexError, KeyError):
            self._end({a: 0.0 for a in self.agents} | {agent: self.illegal_reward})
            self.infos[agent]["illegal"] = True
            return
        if self.game.is_over:
            rewards = final_rewards(self.game, self.reward, self.margin_scale)
            self._end({agent_name(p): r for p, r in enumerate(rewards)})
        else:
            self.agent_selection = agent_name(self.game.current_player)

    def _end(self, rewards: dict[str, float]) -> None:
        self.rewards = rewards
        self.terminations = {a: True for a in self.agents}
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The text board of the public position (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        from ..terminal.textboard import board_text

        view = self.game.view(None)
        status = (f"{self.rules}, {self.players} players, phase {view.phase}, "
                  f"seat {view.current_player} to act, scores {list(view.state.scores)}")
        return f"{board_text(view.state).plain}\n{status}"

    def close(self) -> None:
        """Nothing to release."""


def env(**kwargs: Any) -> Any:
    """The AEC env wrapped in PettingZoo's order enforcement (the usual entry point)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["REWARDS", "agent_name", "env", "final_rewards", "raw_env"]
