"""Bots: each one sees only its player's :class:`~tikal.view.View` [HIDDEN-1].

Interface (stable; the web app and the arena use only this)::

    bot = make_bot("random", seed=1)   # or "greedy", "mcts", "easy", "medium", "hard", "expert"
    action = bot.choose(game.view(seat))    # the next action for the player to act

Budgets are keyword arguments: ``make_bot("mcts", seed=1, seconds=2.0, iterations=None)``.
``players=`` (the game's player count) picks the evaluation weights tuned for it.
``seconds`` is the thinking time per turn (all decisions of a turn share it),
``iterations`` the number of simulations per search; with ``iterations`` only,
a bot is deterministic for its seed.  Random and greedy ignore budgets.

Levels: ``random`` (uniform over legal actions), ``greedy`` (plans each turn
with a beam search and a hand-made evaluation, see :mod:`tikal.bots.planner`),
``mcts`` (determinized MCTS over whole-turn macro-actions, see
:mod:`tikal.bots.mcts`).  Presets: ``easy`` = a plain greedy (beam 1) that
sometimes plays its second or third best plan, ``medium`` = greedy,
``hard`` = mcts with 1.8 s per turn (its default), ``expert`` = the same search with
the expert level's evaluation (:func:`~tikal.bots.evaluate.expert_weights_for`: weights
tuned by self-play over the temple contests and the control of small leads) and, with
two players, a win chance as calibrated for those weights (a softer one) and a wider
beam for the plans it weighs (:data:`PRESETS_BY_PLAYERS`).  The
learned value model (:mod:`tikal.bots.value`, ``tikal learn``) can score a search's
leaves instead (``make_bot("mcts", value="learned")``); it judges the analysis's win
chances.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..actions import Action
from ..view import View
from .evaluate import expert_weights_for, weights_for
from .greedy import GreedyBot, PlanningBot
from .mcts import MCTSBot
from .value import packaged_model


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


#: Every name :func:`make_bot` accepts: levels first, then presets.
BOT_NAMES: tuple[str, ...] = ("random", "greedy", "mcts", "easy", "medium", "hard", "expert")

#: Levels whose bots take evaluation weights.
WEIGHTED_LEVELS = frozenset({"greedy", "mcts"})

#: A preset's ``weights`` that stands for the expert level's sets, picked by player count.
EXPERT = "expert"

#: What each preset means (name -> level and settings).
PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "easy": ("greedy", {"beam": 1, "placements": 2, "noise": 0.3}),
    "medium": ("greedy", {}),
    "hard": ("mcts", {"seconds": 1.8}),
    "expert": ("mcts", {"seconds": 1.8, "weights": EXPERT, "temperature": 5.0}),
}
# The expert's temperature (its two-player reward's spread, points per scoring round
# ahead): the one that fits its set's estimates best on its games (``tikal learn spread``:
# log loss 0.591 at 5 against 0.637 at hard's 2.5); with it the expert won 70.2% of 200
# games against ``hard`` where it had won 60.5% (docs/bots.md, The expert level).

#: Settings a preset takes for one player count only, where they were measured (the
#: count is two when unknown, as for the expert's weights).
PRESETS_BY_PLAYERS: dict[str, dict[int, dict[str, Any]]] = {
    "expert": {2: {"beam": 6}},
}
# The expert's beam with two players: 6 partial plans per depth instead of 4, for its
# candidates, its simulated replies and its opponent model.  The planner takes 1.42
# times the CPU with it, and at 1.8 s the search ran 101-110 simulations where the beam
# of 4 ran 110-112, yet it won 70.0% of 200 games against ``hard`` where the beam of 4
# had won 61.5% of the same games (+8.5 points, standard error 4.7; docs/bots.md, A
# wider beam).  Four players are not measured with it.


def make_bot(
    name: str,
    seed: int | None = None,
    *,
    players: int | None = None,
    seconds: float | None = None,
    iterations: int | None = None,
    **settings: Any,
) -> Bot:
    """A bot by level or preset name.

    ``players`` is the game's player count: greedy and search bots then play with
    the weights tuned for it (:func:`~tikal.bots.evaluate.weights_for`) unless
    ``weights`` is given.  ``seconds`` / ``iterations`` override the budget of search
    bots (when neither is given the level's default applies); other keyword
    arguments are passed to the bot's constructor (see :class:`GreedyBot`,
    :class:`MCTSBot`).
    """
    level, preset = name, dict[str, Any]()
    if name in PRESETS:
        level, preset = PRESETS[name]
    for_count = PRESETS_BY_PLAYERS.get(name, {}).get(players or 2, {})
    options = {**preset, **for_count, **settings}
    if options.get("value") == "learned":
        options["value"] = packaged_model()
    if options.get("weights") == EXPERT:
        options["weights"] = expert_weights_for(players)
    if level in WEIGHTED_LEVELS and players is not None:
        options.setdefault("weights", weights_for(players))
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        bot: Bot = GreedyBot(seed, **options)
        bot.name = name
        return bot
    if level == "mcts":
        if seconds is not None or iterations is not None:
            options["seconds"] = seconds
            options["iterations"] = iterations
        bot = MCTSBot(seed, **options)
        bot.name = name
        return bot
    raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(BOT_NAMES)}")


__all__ = ["BOT_NAMES", "PRESETS", "PRESETS_BY_PLAYERS", "WEIGHTED_LEVELS", "Bot", "GreedyBot",
           "MCTSBot", "PlanningBot", "RandomBot", "make_bot"]
