"""Camp candidates: walk a figure to a camp site and build a camp there [CAMP-1..3].

Where a camp may stand is the rules core's one camp-site rule
(:meth:`~tikal.state.GameState.is_camp_site`, listed by
:meth:`~tikal.state.GameState.camp_sites`); these candidates are needed only where a camp
needs an own figure on its tile (``camp_needs_own_figure``), since otherwise the
engine offers every camp directly.
"""

from __future__ import annotations

from ...actions import BuildCamp
from ...state import GameState
from ..evaluate import Evaluator
from .paths import FAR
from .trials import ARRIVE, LEAVE, Candidate, Node, step_delta, walk_delta


def camp_sites(game: GameState, p: int, own_camps: tuple[int, ...]) -> list[int]:
    """The camp sites worth a walk: none unless ``p`` may build one more camp with AP to
    spare after it and needs a figure there [CAMP-2][CAMP-3]."""
    rules = game.rules
    if not (
        "camp" in rules.actions
        and len(own_camps) < rules.camps_max
        and game.ap > rules.costs.get("camp", FAR)
        and game.options.get("camp_needs_own_figure")
    ):
        return []
    return game.camp_sites()


class Camps:
    """The camp candidates of one search node for the player to act, ``p``."""

    __slots__ = ("cost", "ev", "node", "p", "sites", "worth")

    def __init__(self, node: Node, ev: Evaluator, p: int, own_camps: tuple[int, ...]) -> None:
        game = node.game
        self.node, self.ev, self.p = node, ev, p
        self.sites = camp_sites(game, p, own_camps)
        self.cost = game.rules.costs.get("camp", FAR)
        #: a camp's worth: its weight times min(future rounds, 2) / 2, as the evaluation
        self.worth = min(ev.future[p], 2) / 2 * ev.weights.camp

    def add(
        self, src: int, leader: bool, dist: dict[int, int], pred: dict[int, object],
        out: list[Candidate],
    ) -> None:
        """Walks of the figure on ``src`` to every site it reaches with the camp's AP left,
        where no own figure stands yet, each ending with the camp."""
        if not self.sites:
            return
        node, ev, p = self.node, self.ev, self.p
        game = node.game
        left = step_delta(node, ev, p, src, leader, LEAVE)  # once per figure, as routes do
        for dst in self.sites:
            d = dist.get(dst)
            if d is None or d == 0 or d + self.cost > game.ap or game.figures_on(p, dst):
                continue
            delta = walk_delta(left, step_delta(node, ev, p, dst, leader, ARRIVE), game.players)
            delta[p] += self.worth
            out.append(Candidate(delta, (BuildCamp(dst),), route=(pred, src, dst, leader)))
