"""Tile placement and picking for the planner: cheap heuristics, no play-out.

Placements [TILE-*] are ranked by how much nearer they bring a tile's worth to the
player to act than to the others; the planner then checks the most promising ones with
a fast plan of the turn that follows.
"""

from __future__ import annotations

from typing import Final

from ... import hexes
from ...components import JUNGLE, TEMPLE, TREASURE, VOLCANO, TileSpec
from ...state import OPPOSITE, STEP, SUPPLY, GameState
from ..evaluate import walk_costs
from .paths import FAR

#: How far (AP) :func:`reach_fields` looks: a bit beyond one turn [TURN-1].
REACH_LIMIT: Final = 12


def tile_worth(spec: TileSpec) -> float:
    if spec.kind == TEMPLE:
        return float(spec.value) + 1.0
    if spec.kind == TREASURE:
        return 1.5 * spec.masks
    if spec.kind == JUNGLE:
        return 1.0
    return 0.0


def reach_fields(game: GameState) -> list[dict[int, int]]:
    """Per player: AP needed to bring a figure to each tile (own figures 0, entries 1)."""
    fields = []
    basecamp = game.rules.basecamp
    for q in range(game.players):
        start: dict[int, int] = {}
        for c in game.workers[q]:
            start[c] = 0
        if game.leader[q] >= 0:
            start[game.leader[q]] = 0
        if game.supply[q] or game.leader[q] == SUPPLY:
            for c in (basecamp, *[c for c, o in game.camps.items() if o == q]):
                start.setdefault(c, 1)
        fields.append(walk_costs(game, start, REACH_LIMIT))
    return fields


def placement_score(
    game: GameState, spec: TileSpec, cell: int, rotation: int, fields: list[dict[int, int]], p: int
) -> float:
    """How much a placement helps ``p`` compared with the others (cheap, no play-out)."""
    stones = hexes.rotate(spec.stones, rotation)
    n = game.players
    tiles = game.tiles
    if spec.kind == VOLCANO:
        score = 0.0
        for d in range(6):
            if cell + STEP[d] not in tiles:
                continue
            for q in range(n):
                r = fields[q].get(cell + STEP[d], FAR)
                near = 1.0 / (1 + r)
                score += -near if q == p else near / (n - 1)
        return score
    reach = [FAR] * n
    total_cost = 0
    for d in range(6):
        other = tiles.get(cell + STEP[d])
        if other is None or other.spec.kind == VOLCANO:
            continue
        cost = stones[d] + other.stones[OPPOSITE[d]]
        if not cost:
            continue
        total_cost += cost
        nb = cell + STEP[d]
        for q in range(n):
            here = fields[q].get(nb, FAR) + cost
            if here < reach[q]:
                reach[q] = here
    worth = tile_worth(spec)
    mine = worth * max(0.0, 1 - reach[p] / 11)
    theirs = max(worth * max(0.0, 1 - reach[q] / 11) for q in range(n) if q != p)
    return mine - theirs - 0.01 * total_cost
