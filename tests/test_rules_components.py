"""Rules COMP-1..7 (components) and SETUP-1..4 (setup) of docs/rules.md."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from positions import Position, assert_illegal
from tikal import Game, PositionError, hexes, label, parse_label, rule_set
from tikal.components import BASECAMP, JUNGLE, TEMPLE, TREASURE, VOLCANO

STANDARD = rule_set("standard")


def play_tiles_only(game: Game, rng: random.Random) -> list[tuple[str, str]]:
    """Play a whole game placing random legal tiles and ending every turn at once.

    Returns (space, tile id) of every placement, in order.
    """
    placed = []
    while not game.is_over:
        if game.phase.value == "tile":
            tile_id = game.drawn
            action = rng.choice(game.legal_actions())
            game.apply(action)
            placed.append((label(action.cell), tile_id))
        else:
            game.apply("end")
    return placed


# ---------------------------------------------------------------- COMP


@pytest.mark.rule("COMP-1")
def test_COMP_1_thirty_six_terrain_tiles_by_kind_and_letter() -> None:
    terrain = STANDARD.terrain
    assert len(terrain) == 36
    assert Counter(t.kind for t in terrain) == {TEMPLE: 15, JUNGLE: 10, TREASURE: 8, VOLCANO: 3}
    assert {t.letter for t in terrain} == set("ABCDEFG")
    assert STANDARD.letters == tuple("ABCDEFG")
    assert all(t.tile_id.startswith(t.letter + ".") for t in terrain)
    assert len({t.tile_id for t in terrain}) == 36


@pytest.mark.rule("COMP-1")
def test_COMP_1_a_new_game_holds_every_terrain_tile_once() -> None:
    game = Game.new("standard", players=3, seed=11)
    in_game = [*game.stack, game.drawn]
    assert sorted(in_game) == sorted(t.tile_id for t in STANDARD.terrain)
    # only the four pre-printed spaces are on the board at the start
    assert sorted(s.kind for s in (t.spec for t in game.tiles.values())) == sorted(
        [BASECAMP, TEMPLE, TEMPLE, JUNGLE]
    )


@pytest.mark.rule("COMP-2")
def test_COMP_2_every_non_volcano_tile_has_three_stones() -> None:
    for tile in STANDARD.terrain:
        assert len(tile.stones) == 6, tile
        assert all(0 <= s <= 3 for s in tile.stones), tile
        if tile.kind == VOLCANO:
            assert sum(tile.stones) == 0, tile
        else:
            assert sum(tile.stones) == 3, tile


@pytest.mark.rule("COMP-2")
def test_COMP_2_placed_tiles_keep_their_three_stones_in_every_rotation() -> None:
    for rotation in range(6):
        game = Position().draw("C.3").game()
        game.apply(f"tile A3 {rotation}")
        placed = game.tiles[parse_label("A3")]
        assert sum(placed.stones) == 3
        assert sorted(placed.stones) == sorted(STANDARD.tile("C.3").stones)


@pytest.mark.rule("COMP-3")
def test_COMP_3_temple_values_one_to_six_and_treasure_masks_two_to_four() -> None:
    temples = [t for t in STANDARD.terrain if t.kind == TEMPLE]
    treasures = [t for t in STANDARD.terrain if t.kind == TREASURE]
    assert {t.value for t in temples} <= set(range(1, 7))
    assert {t.masks for t in treasures} == {2, 3, 4}
    assert all(t.masks == 0 for t in STANDARD.terrain if t.kind != TREASURE)


@pytest.mark.rule("COMP-3")
def test_COMP_3_a_placed_temple_is_worth_its_printed_value() -> None:
    game = Position().draw("C.1").game()  # temple 4, three stones on S
    game.apply("tile A3 0")
    assert game.temple_value(parse_label("A3")) == 4
    entry = next(e for e in game.to_json()["board"] if e["at"] == "A3")
    assert entry["printed"] == 4 and entry["level"] == 4


@pytest.mark.rule("COMP-4")
def test_COMP_4_temple_level_supply_is_48_tiles() -> None:
    expected = {2: 3, 3: 6, 4: 9, 5: 11, 6: 8, 7: 5, 8: 3, 9: 2, 10: 1}
    assert {v: STANDARD.level_supply[v] for v in range(2, 11)} == expected
    assert sum(STANDARD.level_supply) == 48
    game = Game.new("standard", players=2, seed=1)
    assert game.to_json()["level_supply"] == {str(v): n for v, n in expected.items()}


@pytest.mark.rule("COMP-4")
def test_COMP_4_all_temples_draw_from_one_shared_supply() -> None:
    game = Position().figures(0, workers={"A4": 1, "B5": 1}).game()
    game.apply("dig A4")
    game.apply("dig B5")
    assert game.to_json()["level_supply"]["2"] == 1
    assert game.temple_value(parse_label("A4")) == game.temple_value(parse_label("B5")) == 2


@pytest.mark.rule("COMP-5")
def test_COMP_5_twenty_four_treasure_tokens_eight_types_three_each() -> None:
    assert STANDARD.token_types == 8 and STANDARD.token_copies == 3
    assert STANDARD.token_count == 24
    game = Game.new("standard", players=2, seed=5)
    hidden = game.token_pool + [t for stack in game.tokens.values() for t in stack]
    assert Counter(hidden) == {t: 3 for t in range(8)}


@pytest.mark.rule("COMP-5")
def test_COMP_5_tokens_are_conserved_when_treasure_tiles_are_placed() -> None:
    game = Position().draw("A.2").game()  # treasure, 4 masks
    game.apply("tile A3 0")
    hidden = game.token_pool + [t for stack in game.tokens.values() for t in stack]
    assert len(game.token_pool) == 20
    assert Counter(hidden) == {t: 3 for t in range(8)}


@pytest.mark.rule("COMP-6")
def test_COMP_6_each_player_has_a_leader_18_workers_2_camps_2_guards() -> None:
    assert (STANDARD.leaders, STANDARD.workers) == (1, 18)
    assert STANDARD.figures_per_player == 19
    assert (STANDARD.camps_max, STANDARD.guards_max) == (2, 2)
    game = Game.new("standard", players=4, seed=2)
    for p in range(4):
        assert game.figures_total(p) == (19, 0, 0)


@pytest.mark.rule("COMP-6")
def test_COMP_6_no_nineteenth_worker_and_only_one_leader() -> None:
    game = Position().figures(0, workers={"A5": 18}).game()
    assert_illegal(game, "put W A5", "PLACE-1", "no workers left")
    game.apply("put L A5")
    assert_illegal(game, "put L A5", "PLACE-1", "leader is not in your supply")
    assert game.figures_total(0) == (0, 19, 0)
    assert not any(str(a).startswith("put") for a in game.legal_actions())


@pytest.mark.rule("COMP-7")
def test_COMP_7_board_has_forty_spaces_a1_to_h5() -> None:
    assert len(hexes.STANDARD_CELLS) == 40
    labels = {label(c) for c in hexes.STANDARD_CELLS}
    assert labels == {f"{col}{row}" for col in "ABCDEFGH" for row in range(1, 6)}
    assert all(parse_label(label(c)) == c for c in hexes.STANDARD_CELLS)


@pytest.mark.rule("COMP-7")
def test_COMP_7_preprinted_basecamp_with_temples_and_jungle_around_it() -> None:
    game = Game.new("standard", players=2, seed=0)
    base = game.basecamp
    assert label(base) == "A5"
    kinds = {label(c): (t.kind, t.spec.value) for c, t in game.tiles.items()}
    assert kinds == {
        "A5": (BASECAMP, 0), "A4": (TEMPLE, 1), "B4": (JUNGLE, 0), "B5": (TEMPLE, 1),
    }
    north, north_east, south_east = (hexes.neighbour(base, d) for d in (0, 1, 2))
    assert game.tiles[north].kind == TEMPLE
    assert game.tiles[north_east].kind == JUNGLE
    assert game.tiles[south_east].kind == TEMPLE
    assert game.temple_value(north) == game.temple_value(south_east) == 1


@pytest.mark.rule("COMP-7")
def test_COMP_7_tiles_cannot_go_off_the_board() -> None:
    game = Position().draw("A.3").game()
    assert_illegal(game, "tile 0 0", "COMP-7", "not a space of the board")
    # the spaces around the corner H1 are off the board: never offered
    legal = game.legal_actions()
    assert legal and all(a.cell in hexes.STANDARD_CELL_SET for a in legal)


@pytest.mark.rule("COMP-7")
def test_COMP_7_a_whole_game_places_every_tile_on_the_board() -> None:
    game = Game.new("standard", players=2, seed=21)
    placed = play_tiles_only(game, random.Random(21))
    spaces = [at for at, _ in placed]
    assert len(placed) == 36
    assert len(set(spaces)) == 36
    assert all(parse_label(at) in hexes.STANDARD_CELL_SET for at in spaces)
    assert len(game.tiles) == 40


# ---------------------------------------------------------------- SETUP


def draw_order(game: Game) -> list[str]:
    """Tile ids in the order they will be drawn (the one already drawn first)."""
    return [*([game.drawn] if game.drawn else []), *reversed(game.stack)]


@pytest.mark.rule("SETUP-1")
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_SETUP_1_stack_draws_all_a_tiles_first_then_b_up_to_g(seed: int) -> None:
    game = Game.new("standard", players=2, seed=seed)
    order = draw_order(game)
    letters = [STANDARD.tile(t).letter for t in order]
    assert letters == sorted(letters)
    assert letters[0] == "A" and letters[-1] == "G"
    assert Counter(letters) == Counter(t.letter for t in STANDARD.terrain)


@pytest.mark.rule("SETUP-1")
def test_SETUP_1_each_letter_is_shuffled_separately() -> None:
    orders = {tuple(draw_order(Game.new("standard", players=2, seed=s))) for s in range(8)}
    assert len(orders) > 1
    # within a letter the order varies between seeds (not just across letters)
    a_orders = {tuple(t for t in order if t.startswith("A.")) for order in orders}
    assert len(a_orders) > 1
    # same seed, same stack
    assert draw_order(Game.new("standard", 2, seed=4)) == draw_order(Game.new("standard", 2, 4))


@pytest.mark.rule("SETUP-1")
def test_SETUP_1_tiles_come_off_the_stack_in_letter_order_during_play() -> None:
    game = Game.new("standard", players=3, seed=9)
    placed = play_tiles_only(game, random.Random(9))
    letters = [STANDARD.tile(tile_id).letter for _, tile_id in placed]
    # volcanoes are placed after their scoring round but still in stack order
    assert letters == sorted(letters)


@pytest.mark.rule("SETUP-1")
def test_SETUP_1_a_snapshot_with_an_unsorted_stack_is_rejected() -> None:
    data = Position().data
    data["stack"] = ["B.1", *[t for t in data["stack"] if t != "B.1"]]
    with pytest.raises(PositionError) as info:
        Game.from_json(data)
    assert info.value.field == "stack"
    assert "SETUP-1" in info.value.reason


@pytest.mark.rule("SETUP-2")
def test_SETUP_2_treasure_tokens_are_shuffled_face_down() -> None:
    pools = [tuple(Game.new("standard", 2, seed=s).token_pool) for s in range(6)]
    assert all(Counter(pool) == {t: 3 for t in range(8)} for pool in pools)
    assert len(set(pools)) > 1
    assert Game.new("standard", 2, seed=3).token_pool == Game.new("standard", 2, 3).token_pool
    # face down: a player's view does not show the real order of the hidden tokens
    views = {tuple(Game.new("standard", 2, seed=s).view(0).state.token_pool) for s in range(6)}
    assert len(views) == 1


@pytest.mark.rule("SETUP-3")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_SETUP_3_everything_starts_in_the_supply_and_scores_at_zero(players: int) -> None:
    game = Game.new("standard", players=players, seed=1)
    data = game.to_json()
    assert len(data["figures"]) == players
    for p, fig in enumerate(data["figures"]):
        assert fig["leader"] == "supply"
        assert fig["workers"] == {}
        assert fig["supply"] == 18
        assert fig["out"] == 0
        assert fig["treasures"] == ""
        assert fig["score"] == 0
        assert game.figures_total(p) == (19, 0, 0)
        assert game.own_camps(p) == []
        assert game.guards_of(p) == 0
    assert game.scores == [0] * players
    assert all("camp" not in e and "guard" not in e for e in data["board"])


@pytest.mark.rule("SETUP-4")
@pytest.mark.parametrize("seed", [0, 1, 7, 123])
def test_SETUP_4_seat_zero_starts(seed: int) -> None:
    game = Game.new("standard", players=4, seed=seed)
    assert game.current_player == 0
    assert game.phase.value == "tile"


@pytest.mark.rule("SETUP-4")
def test_SETUP_4_play_goes_clockwise_in_seat_order() -> None:
    game = Game.new("standard", players=3, seed=5)
    seen = []
    for _ in range(5):  # five normal turns, all with A tiles (no volcano yet)
        assert game.phase.value == "tile"
        seen.append(game.current_player)
        game.apply(game.legal_actions()[0])
        game.apply("end")
    assert seen == [0, 1, 2, 0, 1]
