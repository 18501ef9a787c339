"""The one loop that plays a whole game: ask whoever is to act, apply, repeat until the end.

Random playouts (:mod:`tikal.simulate`, :mod:`tikal.bench`), bot matches
(:mod:`tikal.bots.arena`) and the terminal game (:mod:`tikal.terminal.play`) differ
only in *who chooses* and *what happens after each action*, so they pass those in and
share this loop.  No I/O here: a chooser may read a keyboard, the loop does not know.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .actions import Action
from .state import GameState

G = TypeVar("G", bound=GameState)

Chooser = Callable[[G], Action]
"""``choose(game)``: the next action for ``game.current_player``."""

ActionHook = Callable[[G, Action], None]
"""``on_action(game, action)``: called after each action is applied."""


class Unfinished(RuntimeError):
    """The game stopped before its end: it ran too long, or a chooser had nothing to play."""


def play_game(
    game: G,
    choose: Chooser[G],
    *,
    on_action: ActionHook[G] | None = None,
    max_actions: int | None = None,
) -> int:
    """Play ``game`` to its end; the number of actions applied.

    Exceptions of ``choose``, ``game.apply`` and ``on_action`` propagate (a chooser may
    raise to stop the game early).  A game still running after ``max_actions`` actions
    raises :class:`Unfinished`, so a broken engine or bot cannot loop forever.
    """
    actions = 0
    apply = game.apply
    while not game.is_over:
        if max_actions is not None and actions >= max_actions:
            raise Unfinished(f"the game did not end after {max_actions} actions")
        action = choose(game)
        apply(action)
        actions += 1
        if on_action is not None:
            on_action(game, action)
    return actions
