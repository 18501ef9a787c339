"""Build test positions through the public snapshot format (``Game.to_json``/``from_json``).

Start from a fresh game's snapshot, edit it with these helpers, then load it::

    pos = Position("standard", players=2)
    pos.tile("B2", "A.4", rotation=1)
    pos.figures(0, workers={"A5": 2}, leader="B2")
    game = pos.game()
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tikal import Game, IllegalAction


class Position:
    def __init__(self, rules: str = "standard", players: int = 2, seed: int = 0, **options: Any):
        game = Game.new(rules, players, seed=seed, **options)
        self.data: dict[str, Any] = game.to_json()
        # Put back whatever setup drew, and start a normal turn for seat 0 with full AP.
        drawn = [t for t in ([self.data["drawn"]] + self.data["display"]) if t]
        self.data["stack"] = sorted(drawn + self.data["stack"], key=_letter_key)
        self.data["drawn"] = None
        self.data["display"] = []
        self.data["phase"] = "turn"
        self.data["current"] = 0
        self.data["ap"] = game.rules.action_points

    # -- board -----------------------------------------------------------
    def tile(
        self,
        at: str,
        tile_id: str,
        rotation: int = 0,
        level: int | None = None,
        tokens: str | None = None,
    ) -> Position:
        """Put ``tile_id`` (taken from the stack) on ``at``; treasure tokens come from the pool."""
        self.data["stack"].remove(tile_id)
        entry: dict[str, Any] = {"at": at, "tile": tile_id, "rotation": rotation}
        game_rules = Game.new(self.data["rules"], self.data["players"]).rules
        spec = game_rules.tile(tile_id)
        if spec.kind == "temple":
            entry["level"] = spec.value if level is None else level
            for v in range(spec.value + 1, entry["level"] + 1):
                self.data["level_supply"][str(v)] -= 1
        if spec.kind == "treasure":
            pool = self.data["token_pool"]
            if tokens is None:
                tokens = pool[len(pool) - spec.masks :]
            for t in tokens:
                pool = pool.replace(t, "", 1)
            self.data["token_pool"] = pool
            entry["tokens"] = tokens
        self.data["board"].append(entry)
        self.data["tiles_placed"] += 1
        return self

    def entry(self, at: str) -> dict[str, Any]:
        return next(e for e in self.data["board"] if e["at"] == at)

    def camp(self, at: str, player: int) -> Position:
        self.entry(at)["camp"] = player
        return self

    # -- players ---------------------------------------------------------
    def figures(
        self, player: int, workers: dict[str, int] | None = None, leader: str | None = None
    ) -> Position:
        """Set a player's board figures; the supply is adjusted to keep 19 (13)."""
        fig = self.data["figures"][player]
        total = sum(fig["workers"].values()) + fig["supply"]
        fig["workers"] = dict(workers or {})
        fig["supply"] = total - sum(fig["workers"].values())
        if leader is not None:
            fig["leader"] = leader
        return self

    def treasures(self, player: int, tokens: str) -> Position:
        """Give ``tokens`` (letters) to ``player``, taking them from the hidden pool."""
        pool = self.data["token_pool"]
        for t in tokens:
            if t not in pool:
                raise ValueError(f"no hidden token {t} left in the pool")
            pool = pool.replace(t, "", 1)
        self.data["token_pool"] = pool
        self.data["figures"][player]["treasures"] += tokens
        return self

    def set(self, **fields: Any) -> Position:
        """Set top-level snapshot fields (``current``, ``ap``, ``phase`` ...)."""
        self.data.update(fields)
        return self

    # -- stack, guards, levels (added for tests/test_rules_*.py) -------------
    def next_tiles(self, *tile_ids: str) -> Position:
        """Put ``tile_ids`` on top of the stack, drawn in this order (keep letter order valid)."""
        rest = [t for t in self.data["stack"] if t not in tile_ids]
        self.data["stack"] = [*tile_ids, *rest]
        return self

    def discard(self, *tile_ids: str) -> Position:
        """Take tiles out of the stack and put them on the discard pile."""
        for tile_id in tile_ids:
            self.data["stack"].remove(tile_id)
            self.data["discarded"].append(tile_id)
        return self

    def draw(self, tile_id: str) -> Position:
        """The current seat has just drawn ``tile_id`` and must place it (tile phase)."""
        self.data["stack"].remove(tile_id)
        self.data["drawn"] = tile_id
        self.data["phase"] = "tile"
        return self

    def guard(self, at: str, player: int, leader: bool = False) -> Position:
        """``player`` guards the temple on ``at`` with a worker from the supply (or the leader)."""
        self.entry(at)["guard"] = {"player": player, "figure": "L" if leader else "W"}
        fig = self.data["figures"][player]
        if leader:
            fig["leader"] = "guard"
        else:
            fig["supply"] -= 1
        return self

    def level(self, at: str, level: int) -> Position:
        """Raise the temple on ``at`` to ``level``, taking the level tiles from the supply."""
        entry = self.entry(at)
        for v in range(entry["level"] + 1, level + 1):
            self.data["level_supply"][str(v)] -= 1
        entry["level"] = level
        return self

    def game(self) -> Game:
        return Game.from_json(copy.deepcopy(self.data))


def _letter_key(tile_id: str) -> tuple[str, str]:
    return tile_id.split(".")[0], tile_id


def assert_illegal(game: Game, action: str, rule: str, *fragments: str) -> IllegalAction:
    """``action`` is rejected citing ``rule`` (message mentions ``fragments``), game unchanged."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.rule == rule, str(info.value)
    for fragment in fragments:
        assert fragment in info.value.message, info.value.message
    assert game.to_json() == before
    return info.value


def legal(game: Game) -> set[str]:
    """The legal actions in notation."""
    return {str(a) for a in game.legal_actions()}
