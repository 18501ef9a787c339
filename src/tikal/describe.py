"""What an action does, as a message: ``game.describe(action)``.

The rules core decides what is legal; this module only says what an action *is* for
people, as a message key and parameters that :func:`tikal.messages.render` turns into
any language (no words are built here).  It reads a game through :class:`Described`,
the little it needs (the rule set, the placed tiles, the tile to place, what an action
costs), so it depends on no rules code and the rules core can hand describing to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final, Protocol, TypeVar, cast

from . import hexes
from .actions import (
    Action,
    Bid,
    BuildCamp,
    Dig,
    Draw,
    EndTurn,
    Move,
    Pass,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    Reveal,
    SecretPath,
    Swap,
    TakeTreasure,
    token_name,
)
from .components import RuleSet, TileSpec
from .messages import Message


class Placed(Protocol):
    """A tile on the board, as far as describing goes."""

    @property
    def spec(self) -> TileSpec: ...


class Described(Protocol):
    """What describing needs of a game (:class:`tikal.state.GameState` has it all)."""

    @property
    def rules(self) -> RuleSet: ...

    @property
    def tiles(self) -> Mapping[int, Placed]: ...

    def tile_to_place(self) -> TileSpec | None: ...

    def cost(self, action: Action) -> int: ...


A = TypeVar("A", bound=Action)
Describer = Callable[[Described, Action], Message]


def tile_message(spec: TileSpec | None) -> Message:
    """How a terrain tile reads ("temple 5", "treasure (3 masks)"); None: an unknown tile."""
    if spec is None:
        return Message("tile.unknown")
    return Message(f"tile.{spec.kind}", {"value": spec.value, "masks": spec.masks})


def describe_action(game: Described, action: Action) -> Message:
    """What ``action`` does in ``game``, as a message key (its verb) and parameters; works
    for the actions offered now and for every action already played (tiles, once placed,
    never change).  A KeyError for something that is no action."""
    return _DESCRIBERS[type(action)](game, action)


def _figure_message(leader: bool) -> Message:
    return Message("figure.leader" if leader else "figure.worker")


def _tile(game: Described, action: PlaceTile) -> Message:
    placed = game.tiles.get(action.cell)
    spec = placed.spec if placed is not None else game.tile_to_place()
    return Message("tile", {
        "tile": tile_message(spec), "cell": hexes.label(action.cell),
        "rotation": action.rotation,
    })


def _walk(game: Described, action: Move | SecretPath) -> Message:
    return Message(action.verb, {
        "figure": _figure_message(action.leader), "from": hexes.label(action.src),
        "to": hexes.label(action.dst), "cost": game.cost(action),
    })


def _figure(game: Described, action: PutFigure | PlaceGuard) -> Message:
    return Message(action.verb, {
        "figure": _figure_message(action.leader), "cell": hexes.label(action.cell),
        "cost": game.cost(action),
    })


def _site(game: Described, action: Dig | TakeTreasure | BuildCamp) -> Message:
    return Message(action.verb, {"cell": hexes.label(action.cell), "cost": game.cost(action)})


def _swap(game: Described, action: Swap) -> Message:
    return Message("swap", {
        "give": token_name(action.give).upper(), "take": token_name(action.take).upper(),
        "player": action.other, "cost": game.cost(action),
    })


def _tile_id(game: Described, action: PickTile | Draw) -> Message:
    key = "draw" if action.is_chance else "pick"
    spec = game.rules.tile(action.tile_id)
    return Message(key, {"tile": tile_message(spec), "tile_id": action.tile_id})


def _bid(game: Described, action: Bid) -> Message:
    return Message("bid", {"amount": action.amount})


def _reveal(game: Described, action: Reveal) -> Message:
    return Message("reveal", {"token": token_name(action.token).upper()})


def _plain(game: Described, action: EndTurn | Pass) -> Message:
    return Message(action.verb, {})


def _describes(kind: type[A], describe: Callable[[Described, A], Message]) -> tuple[
    type[Action], Describer
]:
    """One entry of the table: mypy checks that ``describe`` takes a ``kind``; the table is
    looked up by the exact type of the action, so it only ever gets one."""
    return kind, cast(Describer, describe)


_DESCRIBERS: Final[dict[type[Action], Describer]] = dict((
    _describes(PlaceTile, _tile),
    _describes(PickTile, _tile_id),
    _describes(Draw, _tile_id),
    _describes(PutFigure, _figure),
    _describes(PlaceGuard, _figure),
    _describes(Move, _walk),
    _describes(SecretPath, _walk),
    _describes(Dig, _site),
    _describes(TakeTreasure, _site),
    _describes(BuildCamp, _site),
    _describes(Swap, _swap),
    _describes(EndTurn, _plain),
    _describes(Bid, _bid),
    _describes(Pass, _plain),
    _describes(Reveal, _reveal),
))
