"""The state's fields are named once (tikal.fields): slots, clone, restore and the empty game
all come from that one list, so none of them can miss a field."""

from __future__ import annotations

import dataclasses
import random

from random_games import finished
from tikal import Game, GameState
from tikal.components import rule_set
from tikal.fields import Copy, copy_kind

FIELDS = dataclasses.fields(GameState)  # type: ignore[arg-type]
NAMES = [f.name for f in FIELDS]


def mid_game() -> Game:
    """A standard 4-player game well under way, with undo snapshots kept."""
    game = Game.new("standard", 4, seed=11)
    rng = random.Random(3)
    for _ in range(120):
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_slots_are_the_fields_each_once() -> None:
    assert GameState.__slots__ == tuple(NAMES)
    assert len(set(NAMES)) == len(NAMES) == 48
    assert Game.__slots__ == ()  # the subclass adds none


def test_clone_gives_every_field_as_its_copy_kind_says() -> None:
    game = mid_game()
    copy = game.clone()
    assert type(copy) is Game
    for field in FIELDS:
        mine, theirs = getattr(game, field.name), getattr(copy, field.name)
        kind = copy_kind(field)
        if kind is Copy.SHARE:
            assert theirs is mine, field.name
        elif kind is Copy.EMPTY:
            assert theirs == [] and theirs is not mine, field.name
        else:
            assert theirs == mine and theirs is not mine, field.name
            assert type(theirs) is type(mine), field.name
        if kind is Copy.EACH:
            assert all(a is not b for a, b in zip(theirs, mine, strict=True)), field.name


def test_every_container_of_a_clone_is_its_own() -> None:
    """Changing each copied container of the clone (and each player's worker map) leaves
    the original as it was."""
    game = finished("auction", 3, seed=5, max_steps=150)
    before = game.to_json(), [str(a) for a in game.history]
    copy = game.clone()
    for field in FIELDS:
        value = getattr(copy, field.name)
        if copy_kind(field) is Copy.EACH:
            for each in value:
                each[-99] = 1
        elif copy_kind(field) is Copy.COPY:
            if isinstance(value, dict):
                value[-99] = None
            elif isinstance(value, set):
                value.add(-99)
            else:
                value.append(None)
    assert (game.to_json(), [str(a) for a in game.history]) == before


def test_the_empty_game_sets_every_field_and_shares_no_container() -> None:
    rs = rule_set("standard")
    one, two = Game.empty(rs, 3, {}, seed=4), Game.empty(rs, 3, {}, seed=4)
    for field in FIELDS:
        value = getattr(one, field.name)  # AttributeError if empty() missed it
        if copy_kind(field) is not Copy.SHARE:
            assert value is not getattr(two, field.name), field.name
    assert one.rules is rs and one.players == 3 and one.seed == 4
    assert one.leader == [-1] * 3 and one.supply == [rs.workers] * 3
    assert len(one.tiles) == len(rs.preprinted)


def test_undo_restores_every_field() -> None:
    """undo() puts back the position before the turn's first action (the generated
    restore), every field of it, and replays the rest."""
    game = Game.new("standard", 2, seed=12)
    game.apply(game.legal_actions()[0])  # the tile: the turn's first undoable action
    before = game.clone()
    game.apply(next(a for a in game.legal_actions() if a.verb == "put"))
    game.undo()
    for name in NAMES:
        if name not in ("_undo_base", "_undo_actions"):
            assert getattr(game, name) == getattr(before, name), name
