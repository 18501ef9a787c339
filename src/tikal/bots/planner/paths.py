"""Walks for the planner: cheapest AP costs over the board and the steps of one walk.

A walk is kept as a :data:`Route` (a predecessor map and its two ends) and only turned
into atomic :class:`~tikal.actions.Move` / :class:`~tikal.actions.SecretPath` actions when
the candidate it belongs to is played.
"""

from __future__ import annotations

import heapq
from typing import Final

from ...actions import Action, SecretPath
from ...state import Exit, GameState

#: A cost no walk reaches (turns have 10 AP [TURN-1]).
FAR: Final = 99


def shortest_paths(
    game: GameState, src: int, ends: tuple[int, ...], path_cost: int, limit: int = 10
) -> tuple[dict[int, int], dict[int, object]]:
    """Cheapest AP cost from ``src`` to every tile within ``limit`` [MOVE-1][CAMPMOVE-1].

    ``ends`` are the basecamp and own camps when secret paths are available.
    The second map gives each tile's predecessor step (an ``Exit`` or a cell).
    """
    dist = {src: 0}
    pred: dict[int, object] = {}
    heap = [(0, src)]
    exits = game.exits
    while heap:
        d, c = heapq.heappop(heap)
        if d > dist[c]:
            continue
        for ex in exits.get(c, ()):
            nd = d + ex.cost
            if nd <= limit and nd < dist.get(ex.dst, FAR):
                dist[ex.dst] = nd
                pred[ex.dst] = ex
                heapq.heappush(heap, (nd, ex.dst))
        if c in ends:
            nd = d + path_cost
            if nd <= limit:
                for e in ends:
                    if e != c and nd < dist.get(e, FAR):
                        dist[e] = nd
                        pred[e] = c
                        heapq.heappush(heap, (nd, e))
    return dist, pred


#: One figure's walk: a predecessor map of :func:`shortest_paths`, its start, its end and
#: whether the leader walks (a plain tuple: a candidate is made for every walk).
Route = tuple[dict[int, object], int, int, bool]


def route_actions(route: Route) -> tuple[Action, ...]:
    """The walk's atomic actions, first step first."""
    pred, src, dst, leader = route
    steps: list[Action] = []
    cell = dst
    while cell != src:
        step = pred[cell]
        if isinstance(step, Exit):
            steps.append(step.leader_move if leader else step.worker_move)
            cell = step.leader_move.src
        else:
            assert isinstance(step, int)
            steps.append(SecretPath(step, cell, leader))
            cell = step
    steps.reverse()
    return tuple(steps)
