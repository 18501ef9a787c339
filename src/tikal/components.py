"""Static game data: tiles and rule sets, read from the package's JSON files.

Nothing here changes during a game; a :class:`RuleSet` is the OpenSpiel-style
"Game" half (static rules and metadata) that every state points at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from . import hexes
from .packaged import data_json

BASECAMP: Final = "basecamp"
TEMPLE: Final = "temple"
JUNGLE: Final = "jungle"
TREASURE: Final = "treasure"
VOLCANO: Final = "volcano"
KINDS: Final = (BASECAMP, TEMPLE, JUNGLE, TREASURE, VOLCANO)

RULE_SET_NAMES: Final = ("standard", "auction", "demo")


@dataclass(frozen=True, slots=True)
class TileSpec:
    """One printed tile. ``tile_id`` is the letter and a 1-based index, e.g. ``C.4``."""

    tile_id: str
    letter: str
    kind: str
    stones: tuple[int, ...]
    value: int = 0
    masks: int = 0

    def describe(self) -> str:
        if self.kind == TEMPLE:
            return f"temple {self.value}"
        if self.kind == TREASURE:
            return f"treasure ({self.masks} masks)"
        return self.kind


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything static about one rule set."""

    name: str
    player_counts: tuple[int, ...]
    action_points: int
    costs: dict[str, int]
    actions: frozenset[str]
    auction: bool
    starting_score: int
    default_options: dict[str, Any]
    bounded_board: bool
    preprinted: tuple[tuple[int, TileSpec], ...]
    terrain: tuple[TileSpec, ...]
    level_supply: tuple[int, ...]
    token_types: int
    token_copies: int
    set_points: tuple[int, ...]
    token_points_each: int
    leaders: int
    workers: int
    camps_max: int
    guards_max: int
    basecamp_cell: int
    tiles_by_id: dict[str, TileSpec] = field(default_factory=dict)

    @property
    def figures_per_player(self) -> int:
        return self.leaders + self.workers

    @property
    def token_count(self) -> int:
        return self.token_types * self.token_copies

    @property
    def letters(self) -> tuple[str, ...]:
        return tuple(sorted({t.letter for t in self.terrain}))

    @property
    def basecamp(self) -> int:
        return self.basecamp_cell

    def tile(self, tile_id: str) -> TileSpec:
        try:
            return self.tiles_by_id[tile_id]
        except KeyError:
            raise ValueError(f"no tile {tile_id!r} in the {self.name} rule set") from None

    def cost(self, action: str) -> int:
        return self.costs[action]


def _read_json(name: str) -> dict[str, Any]:
    data: dict[str, Any] = data_json(name)
    return data


def _tile(tile_id: str, letter: str, raw: dict[str, Any]) -> TileSpec:
    return TileSpec(
        tile_id=tile_id,
        letter=letter,
        kind=raw["kind"],
        stones=tuple(raw["stones"]),
        value=int(raw.get("value", 0)),
        masks=int(raw.get("masks", 0)),
    )


def _terrain(raw: dict[str, list[dict[str, Any]]]) -> tuple[TileSpec, ...]:
    tiles = []
    for letter in sorted(raw):
        for index, entry in enumerate(raw[letter], start=1):
            tiles.append(_tile(f"{letter}.{index}", letter, entry))
    return tuple(tiles)


def _standard_preprinted(board: dict[str, Any]) -> tuple[tuple[int, TileSpec], ...]:
    placed = []
    for index, entry in enumerate(board["preprinted"], start=1):
        col, row = entry["at"]
        spec = _tile(f"P.{index}", "P", entry)
        placed.append((hexes.offset_to_cell(col, row), spec))
    return tuple(placed)


def _demo_preprinted(board: dict[str, Any]) -> tuple[tuple[int, TileSpec], ...]:
    spec = TileSpec("P.1", "P", BASECAMP, tuple(board["basecamp_stones"]))
    return ((hexes.DEMO_ORIGIN, spec),)


@cache
def rule_set(name: str) -> RuleSet:
    """The static rules of ``standard``, ``auction`` or ``demo``."""
    rule_sets = _read_json("rulesets.json")
    if name not in RULE_SET_NAMES:
        raise ValueError(f"unknown rule set {name!r}; choose one of {', '.join(RULE_SET_NAMES)}")
    rs = rule_sets[name]
    comp = _read_json("components.json")[rs["components"]]
    bounded = rs["components"] == "standard"
    preprinted = _standard_preprinted(comp["board"]) if bounded else _demo_preprinted(comp["board"])
    terrain = _terrain(comp["terrain_tiles"])
    levels = comp.get("temple_level_tiles", {})
    level_supply = tuple(int(levels.get(str(v), 0)) for v in range(11))
    tokens = comp["treasure_tokens"]
    set_points = comp.get("treasure_set_points", {})
    per_player = comp["per_player"]
    result = RuleSet(
        name=name,
        player_counts=tuple(rs["players"]),
        action_points=int(rs["action_points"]),
        costs=dict(rs["costs"]),
        actions=frozenset(rs["actions"]),
        auction=bool(rs["auction"]),
        starting_score=int(rs["starting_score"]),
        default_options=dict(rs["options"]),
        bounded_board=bounded,
        preprinted=preprinted,
        terrain=terrain,
        level_supply=level_supply,
        token_types=int(tokens["types"]),
        token_copies=int(tokens["copies_per_type"]),
        set_points=tuple(int(set_points.get(str(n), 0)) for n in range(4)),
        token_points_each=int(tokens.get("points_each", 0)),
        leaders=int(per_player["leader"]),
        workers=int(per_player["workers"]),
        camps_max=int(per_player.get("camps", 0)),
        guards_max=int(per_player.get("guards_max", 0)),
        basecamp_cell=next(c for c, spec in preprinted if spec.kind == BASECAMP),
    )
    result.tiles_by_id.update({t.tile_id: t for t in terrain})
    result.tiles_by_id.update({spec.tile_id: spec for _, spec in preprinted})
    return result
