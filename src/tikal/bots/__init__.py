"""Bots: each one sees only its player's :class:`~tikal.view.View` [HIDDEN-1].

Interface (stable; the web app and the arena use only this)::

    bot = make_bot("random", seed=1)        # or "greedy", "mcts", "easy", "medium", "hard"
    action = bot.choose(game.view(seat))    # the next action for the player to act
"""

from __future__ import annotations

import random
from typing import Protocol

from ..actions import Action
from ..view import View


class Bot(Protocol):
    name: str

    def choose(self, view: View) -> Action:
        """The next action for ``view.current_player``; must be legal in that view."""
        ...


class RandomBot:
    """Uniform over the legal actions."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "random"
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return self.rng.choice(view.legal_actions())


BOT_NAMES: tuple[str, ...] = ("random",)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by level or preset name."""
    if name == "random":
        return RandomBot(seed)
    raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOT_NAMES)}")
