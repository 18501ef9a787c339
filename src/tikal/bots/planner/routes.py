"""Route candidates: walk a figure along its cheapest path to a temple or a treasure
tile, and maybe take a treasure or dig there at the end [MOVE-1][TREASURE-1][DIG-1]."""

from __future__ import annotations

from ...actions import Dig, TakeTreasure
from ...state import GameState
from ..evaluate import Evaluator, token_tiles
from .paths import FAR
from .trials import (
    ARRIVE,
    DIG,
    LEAVE,
    TAKE,
    Candidate,
    Node,
    after_walk,
    step_delta,
    take_reach,
    walk_delta,
)


def route_targets(game: GameState) -> list[int]:
    """Where walking pays: unguarded temples, then treasure tiles with tokens left."""
    targets = [c for c in game.levels if c not in game.guards]
    targets.extend(token_tiles(game))
    return targets


class Routes:
    """The route candidates of one search node for the player to act, ``p``."""

    __slots__ = ("dig_cost", "ev", "node", "p", "take_cost", "targets")

    def __init__(self, node: Node, ev: Evaluator, p: int) -> None:
        rules = node.game.rules
        self.node, self.ev, self.p = node, ev, p
        self.targets = route_targets(node.game)
        self.dig_cost = rules.costs.get("dig", FAR) if "dig" in rules.actions else FAR
        self.take_cost = rules.costs.get("take", FAR)

    def add(
        self, src: int, leader: bool, dist: dict[int, int], pred: dict[int, object],
        out: list[Candidate],
    ) -> None:
        """Walks of the figure on ``src`` to every target within the AP left (``dist`` and
        ``pred`` from :func:`~tikal.bots.planner.paths.shortest_paths`); a walk that can
        end with a take or a dig gives that candidate too."""
        node, ev, p = self.node, self.ev, self.p
        game = node.game
        ap = game.ap
        left = step_delta(node, ev, p, src, leader, LEAVE)  # once per figure, not per walk
        for dst in self.targets:
            d = dist.get(dst)
            if d is None or d == 0 or d > ap:
                continue
            delta = walk_delta(left, step_delta(node, ev, p, dst, leader, ARRIVE), game.players)
            route = (pred, src, dst, leader)
            out.append(Candidate(delta, (), route=route))
            if d + self.take_cost <= ap and dst in game.tokens:
                extra = after_walk(node, ev, p, dst, leader, TAKE)
                if extra is not None:
                    both = [a + b for a, b in zip(delta, extra, strict=True)]
                    both[p] += take_reach(node, ev, p, dst, src)
                    out.append(Candidate(both, (TakeTreasure(dst),), full=True, route=route))
            elif d + self.dig_cost <= ap and dst in game.levels:
                extra = after_walk(node, ev, p, dst, leader, DIG)
                if extra is not None:
                    both = [a + b for a, b in zip(delta, extra, strict=True)]
                    out.append(Candidate(both, (Dig(dst),), route=route))
