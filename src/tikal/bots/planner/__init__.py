"""Whole-turn planning: a beam search over macro-actions with an incremental evaluation.

A Tikal turn is a chain of atomic actions worth up to 10 AP [TURN-1].  The
planner searches over *macro-actions* instead of single steps: "walk this figure
along the cheapest path to that temple" (several :class:`~tikal.actions.Move` /
:class:`~tikal.actions.SecretPath` actions), "walk there and take a treasure", "walk
there and dig", "walk there and build a camp", plus the single actions of the engine
(put, dig, take, camp, guard, swap).  Each candidate is scored by the change it
makes to the evaluation (:mod:`tikal.bots.evaluate`), computed on the few tiles
it touches; only the best few are then really played on copies of the game,
through :meth:`GameState.apply`, so every plan the planner returns is legal.

Tile placement [TILE-*] is ranked by a cheap reach heuristic, and the most
promising placements are checked with a fast (beam 1) plan of the turn that
follows.  Auction bids [AUC-3] use a small heuristic.

The parts: :mod:`.engine` (the search, :class:`TurnPlanner`), :mod:`.routes` (walks to
temples and treasures), :mod:`.camps` (walks to camp sites), :mod:`.trials` (what a
candidate is worth), :mod:`.paths` (cheapest walks) and :mod:`.tiles` (placements).
"""

from .engine import AP_PHASES, Plan, TurnPlanner, state_key
from .paths import Route, route_actions, shortest_paths
from .tiles import placement_score, reach_fields, tile_worth

__all__ = [
    "AP_PHASES", "Plan", "Route", "TurnPlanner", "placement_score", "reach_fields",
    "route_actions", "shortest_paths", "state_key", "tile_worth",
]
