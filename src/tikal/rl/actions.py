"""One fixed discrete action space per rule set: every engine action has one id.

The table is built once per rule set (cached) from the rule set's static facts: the
spaces of its window (:mod:`tikal.rl.window`), its action kinds, its tiles and its
largest possible bid.  Ids come in blocks, one per action kind, in the order of
:data:`KINDS`; docs/rl.md lists the ranges.  A swap names the other seat relative to
the actor (1 = next seat clockwise), so the table does not depend on who acts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Final, cast

import numpy as np
import numpy.typing as npt

from ..actions import (
    END_TURN,
    PASS,
    Action,
    Bid,
    BuildCamp,
    Dig,
    Move,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    SecretPath,
    Swap,
    TakeTreasure,
)
from ..components import TEMPLE, VOLCANO, RuleSet, rule_set
from ..hexes import STEP
from ..state import MAX_LEVEL
from .window import Window, window

#: Action kinds in id order (a kind the rule set lacks has an empty block).
KINDS: Final = (
    "tile", "pick", "put", "move", "path", "dig", "take", "swap", "camp", "guard", "end",
    "bid", "pass",
)

Mask = npt.NDArray[np.int8]


def max_score(rs: RuleSet) -> int:
    """An upper bound of any score, so of any bid [AUC-3]: each scoring round adds at most
    every temple at the top level plus every treasure token to one player's score."""
    temples = sum(t.kind == TEMPLE for t in rs.terrain) + sum(
        spec.kind == TEMPLE for _, spec in rs.preprinted
    )
    rounds = sum(t.kind == VOLCANO for t in rs.terrain) + 1
    if rs.token_points_each:
        treasure = rs.token_count * rs.token_points_each
    else:
        treasure = rs.token_types * max(rs.set_points)
    return rs.starting_score + rounds * (temples * MAX_LEVEL + treasure)


@dataclass(slots=True)
class ActionTable:
    """Id <-> action for one rule set; swaps are stored by relative seat."""

    rules: str
    window: Window
    max_players: int
    actions: list[Action | None] = field(default_factory=list)
    swaps: dict[int, tuple[int, int, int]] = field(default_factory=dict)
    ranges: dict[str, tuple[int, int]] = field(default_factory=dict)
    _ids: dict[Action, int] = field(default_factory=dict)
    swap_ids: dict[tuple[int, int, int], int] = field(default_factory=dict)
    _by_object: dict[int, tuple[Action, int]] = field(default_factory=dict)

    @property
    def size(self) -> int:
        return len(self.actions)

    def add(self, action: Action) -> None:
        self._ids[action] = len(self.actions)
        self.actions.append(action)

    def id_of(self, action: Action, seat: int, players: int) -> int:
        """The id of a legal ``action`` of ``seat``; KeyError for one outside the table."""
        hit = self._by_object.get(id(action))
        if hit is not None and hit[0] is action:
            return hit[1]
        if action.verb == Swap.verb:
            swap = cast(Swap, action)
            return self.swap_ids[(swap.give, swap.take, (swap.other - seat) % players)]
        index = self._ids[action]
        self._by_object[id(action)] = (action, index)  # engine actions are cached objects
        return index

    def decode(self, index: int, seat: int, players: int) -> Action:
        """The engine action of id ``index`` played by ``seat``."""
        action = self.actions[index]
        if action is not None:
            return action
        give, take, offset = self.swaps[index]
        return Swap(give, take, (seat + offset) % players)

    def mask(self, legal: list[Action], seat: int, players: int) -> Mask:
        """1 at the id of every legal action, 0 elsewhere."""
        by_object = self._by_object
        ids = []
        for action in legal:
            hit = by_object.get(id(action))
            ids.append(hit[1] if hit is not None and hit[0] is action
                       else self.id_of(action, seat, players))
        mask = np.zeros(self.size, dtype=np.int8)
        mask[ids] = 1
        return mask


def _cells_block(table: ActionTable, kind: str, rs: RuleSet) -> None:
    cells = table.window.cells
    if kind == "tile":
        for c in cells:
            for rotation in range(6):
                table.add(PlaceTile(c, rotation))
    elif kind == "pick" and rs.auction:
        for spec in rs.terrain:
            table.add(PickTile(spec.tile_id))
    elif kind in ("put", "guard") and kind in rs.actions:
        build = PutFigure if kind == "put" else PlaceGuard
        # without camps a figure only ever comes in at the basecamp [PLACE-1]
        sites = cells if kind == "guard" or "camp" in rs.actions else (rs.basecamp,)
        for c in sites:
            table.add(build(c, False))
            table.add(build(c, True))
    elif kind in ("dig", "take", "camp") and kind in rs.actions:
        simple = {"dig": Dig, "take": TakeTreasure, "camp": BuildCamp}[kind]
        for c in cells:
            table.add(simple(c))


def _walk_block(table: ActionTable, kind: str, rs: RuleSet) -> None:
    inside = table.window.cell_set
    cells = table.window.cells
    if kind == "move":
        for c in cells:
            for step in STEP:
                if c + step in inside:
                    table.add(Move(c, c + step, False))
                    table.add(Move(c, c + step, True))
    elif kind == "path" and "path" in rs.actions:
        for src in cells:
            for dst in cells:
                if src != dst:
                    table.add(SecretPath(src, dst, False))
                    table.add(SecretPath(src, dst, True))


def _other_block(table: ActionTable, kind: str, rs: RuleSet) -> None:
    if kind == "swap" and "swap" in rs.actions:
        for give in range(rs.token_types):
            for take in range(rs.token_types):
                if give == take:
                    continue
                for offset in range(1, table.max_players):
                    index = len(table.actions)
                    table.swaps[index] = (give, take, offset)
                    table.swap_ids[(give, take, offset)] = index
                    table.actions.append(None)
    elif kind == "end":
        table.add(END_TURN)
    elif kind == "bid" and rs.auction:
        for amount in range(max_score(rs) + 1):
            table.add(Bid(amount))
    elif kind == "pass" and rs.auction:
        table.add(PASS)


@cache
def action_table(rules: str) -> ActionTable:
    """The action table of a rule set (built once per process)."""
    rs = rule_set(rules)
    table = ActionTable(rules, window(rules), max(rs.player_counts))
    for kind in KINDS:
        start = table.size
        _cells_block(table, kind, rs)
        _walk_block(table, kind, rs)
        _other_block(table, kind, rs)
        table.ranges[kind] = (start, table.size)
    return table


__all__ = ["KINDS", "ActionTable", "Mask", "action_table", "max_score"]
