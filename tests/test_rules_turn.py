"""Rules TURN-1..4, TILE-1..6, FIG-1, PLACE-1, MOVE-1..5 and CAMPMOVE-1 of docs/rules.md.

Board reminders: basecamp A5 (stones N, NE, SE), temple A4 north of it (N, NE, S),
jungle B4 north-east (N, NE, SE), temple B5 south-east (NE, NW).  So A5-A4 costs 2,
A5-B4 costs 1, A5-B5 costs 2, and A4-B4 and B4-B5 have no stones at all.
"""

from __future__ import annotations

import pytest

from positions import Position, assert_illegal, legal
from tikal import END_TURN, Game, PositionError, hexes, label, parse_label
from tikal.position import position_to_json


def workers(game: Game, player: int) -> dict[str, int]:
    return {label(c): n for c, n in game.workers[player].items()}


def leader_at(game: Game, player: int) -> str:
    return game.to_json()["figures"][player]["leader"]


def placements(game: Game, at: str) -> set[int]:
    """Rotations at which the drawn tile may go on ``at``."""
    cell = parse_label(at)
    return {a.rotation for a in game.legal_actions() if a.cell == cell}


# ---------------------------------------------------------------- TURN


@pytest.mark.rule("TURN-1")
def test_TURN_1_a_turn_starts_by_drawing_and_placing_a_tile() -> None:
    game = Game.new("standard", players=2, seed=3)
    assert game.phase.value == "tile"
    assert game.drawn is not None and game.drawn.startswith("A.")
    assert all(str(a).startswith("tile ") for a in game.legal_actions())
    assert_illegal(game, "put W A5", "TURN-1", "place the drawn tile first")
    assert_illegal(game, "end", "TURN-1", "place the drawn tile first")
    drawn = game.drawn
    action = game.legal_actions()[0]
    game.apply(action)
    assert game.tiles[action.cell].spec.tile_id == drawn
    assert game.drawn is None
    assert game.phase.value == "turn"
    assert game.ap == 10


@pytest.mark.rule("TURN-1")
def test_TURN_1_no_second_tile_during_the_action_phase() -> None:
    game = Position().game()
    assert_illegal(game, "tile A3 0", "TURN-1")


@pytest.mark.rule("TURN-1")
def test_TURN_1_ten_action_points_spent_in_any_order() -> None:
    game = Position().game()
    for action in ["put W A5", "move W A5 B4", "put L A5", "move L A5 A4", "put W A5",
                   "move W A5 B4", "put W A5", "dig A4"]:
        game.apply(action)
    assert game.ap == 0
    assert game.temple_value(parse_label("A4")) == 2
    assert workers(game, 0) == {"A5": 1, "B4": 2}
    assert leader_at(game, 0) == "A4"
    assert game.legal_actions() == [END_TURN]
    assert_illegal(game, "put W A5", "PLACE-1", "costs 1 AP, you have 0")


@pytest.mark.rule("TURN-2")
def test_TURN_2_unused_action_points_are_lost() -> None:
    game = Position().game()
    game.apply("put W A5")
    assert game.ap == 9
    game.apply("end")
    assert game.current_player == 1
    game.apply(game.legal_actions()[0])  # seat 1 places its tile
    assert game.ap == 10
    game.apply("end")
    assert game.current_player == 0
    game.apply(game.legal_actions()[0])
    assert game.ap == 10  # not 19: nothing carried over


@pytest.mark.rule("TURN-2")
def test_TURN_2_the_turn_may_end_at_any_time() -> None:
    game = Position().game()
    assert END_TURN in game.legal_actions()  # with all 10 AP unused
    game.apply("put W A5")
    assert END_TURN in game.legal_actions()
    game.apply("end")
    assert game.current_player == 1


@pytest.mark.rule("TURN-3")
def test_TURN_3_the_leader_costs_the_same_as_a_worker() -> None:
    game = Position().game()
    game.apply("put L A5")
    assert game.ap == 9
    game.apply("put W A5")
    assert game.ap == 8
    game.apply("move L A5 A4")
    assert game.ap == 6
    game.apply("move W A5 A4")
    assert game.ap == 4
    game.apply("dig A4")  # the leader counts as the first figure there
    assert game.ap == 2


@pytest.mark.rule("TURN-3")
def test_TURN_3_the_leader_counts_as_one_figure_for_digging() -> None:
    game = Position().figures(0, leader="A4").game()
    game.apply("dig A4")
    assert_illegal(game, "dig A4", "DIG-2", "needs 2 own figures there, you have 1")
    game = Position().figures(0, workers={"A4": 1}, leader="A4").game()
    game.apply("dig A4")
    game.apply("dig A4")
    assert game.temple_value(parse_label("A4")) == 3


@pytest.mark.rule("TURN-3")
def test_TURN_3_the_leader_counts_as_one_figure_for_treasures() -> None:
    game = Position().tile("A3", "A.2", tokens="abcd").figures(0, leader="A3").game()
    game.apply("take A3")
    assert_illegal(game, "take A3", "TREASURE-2", "you have 1")


@pytest.mark.rule("TURN-3")
def test_TURN_3_the_leader_counts_three_only_in_majorities() -> None:
    game = (
        Position()
        .figures(0, workers={"A4": 1}, leader="A4")
        .figures(1, workers={"A4": 3})
        .game()
    )
    a4 = parse_label("A4")
    assert game.figures_on(0, a4) == 2
    assert game.strength(0, a4) == 4
    assert game.strength(1, a4) == 3
    assert game.temple_points(0) == 1 and game.temple_points(1) == 0
    assert "guard W A4" in legal(game)


def volcano_next_position() -> Position:
    """Seat 0 in its action phase; the next tile drawn is the volcano B.1."""
    pos = Position().discard("A.1", "A.2", "A.3", "A.4", "A.5", "A.6").next_tiles("B.1")
    return pos.figures(1, workers={"A4": 1}).figures(0, workers={"B5": 1})


@pytest.mark.rule("TURN-4")
def test_TURN_4_a_volcano_starts_a_scoring_round_then_the_drawer_plays_on() -> None:
    game = volcano_next_position().game()
    game.apply("end")
    # seat 1 drew the volcano: the scoring round comes first, seat 1 first
    assert game.phase.value == "scoring"
    assert game.current_player == 1
    assert game.ap == 10
    assert game.volcano == "B.1" and game.drawn is None
    stack_after_draw = list(game.stack)
    game.apply("end")
    assert game.current_player == 0 and game.phase.value == "scoring"
    game.apply("end")
    assert [(e.player, e.temples) for e in game.score_events] == [(1, 1), (0, 1)]
    # then the drawer places the volcano
    assert game.phase.value == "tile"
    assert game.current_player == 1
    assert game.drawn == "B.1"
    game.apply("tile A3 0")
    assert game.tiles[parse_label("A3")].spec.tile_id == "B.1"
    # ... and takes a normal 10 AP turn without drawing another tile
    assert game.phase.value == "turn"
    assert game.current_player == 1
    assert game.ap == 10
    assert game.stack == stack_after_draw
    game.apply("end")
    assert game.current_player == 0
    assert game.drawn == "B.2"


# ---------------------------------------------------------------- TILE


@pytest.mark.rule("TILE-1")
def test_TILE_1_tiles_go_next_to_placed_tiles() -> None:
    game = Position().draw("A.3").game()
    spaces = {label(a.cell) for a in game.legal_actions()}
    assert spaces == {"A3", "B3", "C4", "C5"}  # the free neighbours of the pre-printed four


@pytest.mark.rule("TILE-1")
def test_TILE_1_an_occupied_or_isolated_space_is_refused() -> None:
    game = Position().draw("A.3").game()
    assert_illegal(game, "tile A4 0", "TILE-1", "A4 is already taken")
    assert_illegal(game, "tile E3 0", "TILE-1", "E3 is not next to a placed tile")
    game.apply("tile A3 0")
    assert game.tiles[parse_label("A3")].spec.tile_id == "A.3"


@pytest.mark.rule("TILE-1")
def test_TILE_1_each_placed_tile_opens_its_free_neighbours() -> None:
    game = Position().tile("A3", "A.3").draw("A.1").game()
    spaces = {label(a.cell) for a in game.legal_actions()}
    assert {"A2", "B2"} <= spaces
    game.apply("tile A2 0")
    assert label(parse_label("A2")) == "A2" and parse_label("A2") in game.tiles


@pytest.mark.rule("TILE-2")
def test_TILE_2_any_of_six_rotations() -> None:
    game = Position().draw("A.3").game()
    assert placements(game, "B3") == set(range(6))
    assert_illegal(game, "tile B3 6", "TILE-2", "rotation must be 0-5")


@pytest.mark.rule("TILE-2")
@pytest.mark.parametrize("rotation", range(6))
def test_TILE_2_rotation_turns_the_stones_clockwise(rotation: int) -> None:
    spec_stones = (1, 1, 0, 1, 0, 0)  # A.3: N, NE, S
    game = Position().draw("A.3").game()
    game.apply(f"tile A3 {rotation}")
    stones = game.tiles[parse_label("A3")].stones
    for d in range(6):
        assert stones[(d + rotation) % 6] == spec_stones[d]
    # the S edge of A3 faces the temple A4 (1 stone on its N edge)
    assert game.edge_cost(parse_label("A3"), parse_label("A4")) == stones[3] + 1


@pytest.mark.rule("TILE-2")
def test_TILE_2_rotation_changes_what_a_move_costs() -> None:
    straight = Position().draw("A.3").figures(0, workers={"A4": 1}).game()
    straight.apply("tile A3 0")  # S edge has 1 stone: A4-A3 costs 2
    straight.apply("move W A4 A3")
    assert straight.ap == 8
    turned = Position().draw("A.3").figures(0, workers={"A4": 1}).game()
    turned.apply("tile A3 1")  # S edge now empty: A4-A3 costs 1
    turned.apply("move W A4 A3")
    assert turned.ap == 9


@pytest.mark.rule("TILE-3")
def test_TILE_3_a_path_must_lead_to_the_new_tile() -> None:
    # temple A.1 on A3 shows no stones to the north (A2) or north-east (B2)
    game = Position().tile("A3", "A.1").draw("A.3").game()
    assert placements(game, "A2") == {0, 2, 3}  # A.3 must show a stone on its S edge
    assert placements(game, "B2") == {1, 3, 4}  # ... or on its SW edge
    assert placements(game, "B3") == set(range(6))  # old tiles show stones: any rotation
    assert_illegal(game, "tile A2 1", "TILE-3", "no path leads", "A2")
    game.apply("tile A2 2")
    assert game.edge_cost(parse_label("A2"), parse_label("A3")) == 1


@pytest.mark.rule("TILE-3")
def test_TILE_3_stones_towards_a_volcano_are_no_path() -> None:
    game = Position().tile("A3", "B.1").draw("A.3").game()
    assert placements(game, "A2") == set()
    assert placements(game, "B2") == set()
    for rotation in range(6):
        assert_illegal(game, f"tile A2 {rotation}", "TILE-3")


@pytest.mark.rule("TILE-4")
def test_TILE_4_a_volcano_needs_no_path() -> None:
    game = Position().tile("A3", "A.1").draw("B.1").game()
    assert placements(game, "A2") == set(range(6))
    game.apply("tile A2 1")
    assert game.tiles[parse_label("A2")].kind == "volcano"
    assert game.phase.value == "turn"


def nearly_full_board(drawn: str) -> Position:
    """Every space but H1 covered, its three neighbours volcanoes; ``drawn`` still to place."""
    pos = Position()
    volcanoes = {"G1": "B.1", "G2": "D.3", "H2": "F.2"}
    for at, tile_id in volcanoes.items():
        pos.tile(at, tile_id)
    rest = [t for t in list(pos.data["stack"]) if t != drawn]
    taken = {"A5", "A4", "B4", "B5", "H1", *volcanoes}
    free = [label(c) for c in hexes.STANDARD_CELLS if label(c) not in taken]
    assert len(free) == len(rest)
    for at, tile_id in zip(free, rest, strict=True):
        pos.tile(at, tile_id)
    return pos.draw(drawn)


@pytest.mark.rule("TILE-5")
def test_TILE_5_without_any_path_the_tile_goes_on_any_adjacent_space() -> None:
    game = nearly_full_board("G.2").game()
    assert {str(a) for a in game.legal_actions()} == {f"tile H1 {r}" for r in range(6)}
    game.apply("tile H1 4")
    assert game.tiles[parse_label("H1")].spec.tile_id == "G.2"
    assert game.tiles_discarded == 0


@pytest.mark.rule("TILE-5")
def test_TILE_5_with_some_path_the_pathless_spaces_stay_refused() -> None:
    # A2 can only be reached past a volcano; B3 is reachable, so A2 is not allowed
    game = Position().tile("A3", "B.1").draw("A.3").game()
    assert placements(game, "B3") == set(range(6))
    assert_illegal(game, "tile A2 0", "TILE-3")


@pytest.mark.rule("TILE-6")
@pytest.mark.parametrize(("tile_id", "masks"), [("A.2", 4), ("C.4", 3), ("E.2", 2)])
def test_TILE_6_a_treasure_tile_gets_one_hidden_token_per_mask(tile_id: str, masks: int) -> None:
    game = Position().draw(tile_id).game()
    pool = list(game.token_pool)
    rotation = next(a.rotation for a in game.legal_actions() if label(a.cell) == "A3")
    game.apply(f"tile A3 {rotation}")
    a3 = parse_label("A3")
    assert len(game.tokens[a3]) == masks
    assert len(game.token_pool) == len(pool) - masks
    assert sorted(game.tokens[a3] + tuple(game.token_pool)) == sorted(pool)
    # nobody learns the types: the public snapshot only counts them
    public = position_to_json(game, public=True)
    entry = next(e for e in public["board"] if e["at"] == "A3")
    assert entry["tokens"] == masks
    assert all(p["treasures"] == "" for p in public["figures"])


# ---------------------------------------------------------------- FIG / PLACE


@pytest.mark.rule("FIG-1")
def test_FIG_1_figures_of_all_players_share_a_tile() -> None:
    game = (
        Position(players=3)
        .figures(1, workers={"B4": 2}, leader="B4")
        .figures(2, workers={"B4": 1, "A5": 1})
        .figures(0, workers={"A5": 2})
        .game()
    )
    game.apply("move W A5 B4")
    game.apply("move W A5 B4")
    game.apply("put L A5")
    b4 = parse_label("B4")
    assert [game.figures_on(p, b4) for p in range(3)] == [2, 3, 1]
    a5 = game.basecamp
    assert game.figures_on(0, a5) == 1 and game.figures_on(2, a5) == 1


@pytest.mark.rule("FIG-1")
def test_FIG_1_figures_never_stand_on_a_volcano() -> None:
    pos = Position().tile("C4", "B.1").figures(0, workers={"C4": 1})
    with pytest.raises(PositionError, match="walkable"):
        pos.game()
    game = Position().tile("C4", "B.1").figures(0, workers={"B4": 1}, leader="B4").game()
    assert not any(getattr(a, "dst", None) == parse_label("C4") for a in game.legal_actions())
    assert_illegal(game, "move L B4 C4", "MOVE-3")


def camp_position() -> Position:
    """Seat 0 camps on B4; seat 1 camps on a jungle on C4."""
    return Position().tile("C4", "A.3").camp("B4", 0).camp("C4", 1)


@pytest.mark.rule("PLACE-1")
def test_PLACE_1_one_ap_brings_a_figure_to_the_basecamp() -> None:
    game = Position().game()
    game.apply("put W A5")
    assert game.ap == 9
    assert workers(game, 0) == {"A5": 1}
    assert game.figures_total(0) == (18, 1, 0)
    game.apply("put L A5")
    assert game.ap == 8
    assert leader_at(game, 0) == "A5"


@pytest.mark.rule("PLACE-1")
def test_PLACE_1_figures_enter_only_on_the_basecamp_or_own_camps() -> None:
    game = camp_position().game()
    puts = {a for a in legal(game) if a.startswith("put")}
    assert puts == {"put W A5", "put L A5", "put W B4", "put L B4"}
    assert_illegal(game, "put W C4", "PLACE-1", "not on C4")  # seat 1's camp
    assert_illegal(game, "put W A4", "PLACE-1", "not on A4")
    game.apply("put W B4")
    assert workers(game, 0) == {"B4": 1}
    assert game.ap == 9


@pytest.mark.rule("PLACE-1")
def test_PLACE_1_needs_a_figure_in_the_supply_and_one_ap() -> None:
    game = Position().figures(0, leader="A4").set(ap=1).game()
    assert_illegal(game, "put L A5", "PLACE-1", "leader is not in your supply")
    game.apply("put W A5")
    assert_illegal(game, "put W A5", "PLACE-1", "bringing in a figure costs 1 AP, you have 0")


# ---------------------------------------------------------------- MOVE


def c2_on_b3() -> Position:
    """Jungle C.2 (3 stones on S) on B3: B4 -> B3 costs 1 + 3 = 4."""
    return Position().tile("B3", "C.2")


@pytest.mark.rule("MOVE-1")
def test_MOVE_1_cost_is_the_stones_of_both_tiles_on_the_shared_edge() -> None:
    game = c2_on_b3().figures(0, workers={"B4": 1, "A5": 1}).game()
    assert game.edge_cost(parse_label("B4"), parse_label("B3")) == 4
    game.apply("move W B4 B3")
    assert game.ap == 6
    assert workers(game, 0) == {"B3": 1, "A5": 1}
    game.apply("move W A5 A4")  # 1 stone on each side
    assert game.ap == 4
    assert workers(game, 0) == {"B3": 1, "A4": 1}


@pytest.mark.rule("MOVE-1")
def test_MOVE_1_all_stones_of_an_edge_are_paid_at_once() -> None:
    game = c2_on_b3().figures(0, workers={"B4": 1}).set(ap=2).game()
    assert "move W B4 B3" not in legal(game)
    assert_illegal(game, "move W B4 B3", "MOVE-1", "moving from B4 to B3 costs 4 AP, you have 2")


@pytest.mark.rule("MOVE-1")
def test_MOVE_1_only_to_an_adjacent_tile() -> None:
    game = c2_on_b3().figures(0, workers={"A5": 1, "A4": 1}).game()
    assert_illegal(game, "move W A5 B3", "MOVE-1", "not neighbours")
    assert_illegal(game, "move W A4 A3", "MOVE-1", "no tile on A3")


@pytest.mark.rule("MOVE-2")
def test_MOVE_2_edge_without_stones_is_impassable() -> None:
    game = Position().figures(0, workers={"A4": 1, "B4": 1}).game()
    assert game.edge_cost(parse_label("A4"), parse_label("B4")) == 0
    moves = legal(game)
    assert "move W A4 B4" not in moves and "move W B4 A4" not in moves
    assert "move W B4 B5" not in moves
    assert_illegal(game, "move W A4 B4", "MOVE-2", "impassable")
    assert_illegal(game, "move W B4 B5", "MOVE-2", "impassable")


@pytest.mark.rule("MOVE-3")
def test_MOVE_3_a_volcano_is_never_entered() -> None:
    # B4 shows a stone towards C4 (its NE edge), but C4 is a volcano
    game = Position().tile("C4", "B.1").figures(0, workers={"B4": 1}).game()
    assert not any(str(a).endswith(" C4") for a in game.legal_actions())
    assert_illegal(game, "move W B4 C4", "MOVE-3", "volcano")


@pytest.mark.rule("MOVE-3")
def test_MOVE_3_a_volcano_is_never_crossed() -> None:
    # a worker on B4 and a jungle on D4 behind the volcano C4; from B4 the only
    # way on would lead over the volcano (C5 and B3 are empty spaces)
    game = Position().tile("C4", "B.1").tile("D4", "D.4").figures(0, workers={"B4": 1}).game()
    reachable = {parse_label("B4")}
    frontier = [parse_label("B4")]
    while frontier:
        cell = frontier.pop()
        for exit_ in game.exits[cell]:
            if exit_.dst not in reachable:
                reachable.add(exit_.dst)
                frontier.append(exit_.dst)
    assert parse_label("C4") not in reachable
    assert parse_label("D4") not in reachable


@pytest.mark.rule("MOVE-4")
def test_MOVE_4_each_figure_pays_for_itself() -> None:
    game = Position().tile("A3", "A.3").figures(0, workers={"A5": 2}, leader="A5").game()
    game.apply("move W A5 A4")
    game.apply("move W A5 A4")
    assert game.ap == 6
    game.apply("move L A5 A4")
    assert game.ap == 4
    game.apply("move W A4 A3")  # further on: any distance while AP remain
    assert game.ap == 2
    assert workers(game, 0) == {"A4": 1, "A3": 1}
    assert leader_at(game, 0) == "A4"


@pytest.mark.rule("MOVE-4")
def test_MOVE_4_only_own_figures_that_are_there_move() -> None:
    game = Position().figures(1, workers={"B4": 1}, leader="B4").figures(0, workers={"A5": 1})
    game = game.game()
    assert_illegal(game, "move W B4 A5", "MOVE-4", "you have no worker on B4")
    assert_illegal(game, "move L B4 A5", "MOVE-4", "your leader is not on B4")
    movers = {str(a) for a in game.legal_actions() if str(a).startswith("move")}
    assert movers == {"move W A5 A4", "move W A5 B4", "move W A5 B5"}


@pytest.mark.rule("MOVE-5")
def test_MOVE_5_anyone_may_enter_cross_and_leave_a_guarded_temple() -> None:
    game = (
        Position()
        .tile("A3", "A.3")
        .guard("A4", 1)
        .figures(0, workers={"A5": 1, "A4": 1})
        .figures(1, workers={"A5": 1})
        .game()
    )
    game.apply("move W A5 A4")  # enter
    game.apply("move W A4 A3")  # and cross on to A3
    game.apply("move W A4 A5")  # a figure leaves
    assert game.ap == 4
    assert workers(game, 0) == {"A3": 1, "A5": 1}
    game.apply("end")
    game.apply(game.legal_actions()[0])  # seat 1 places its tile
    game.apply("move W A5 A4")  # the guard's owner may enter too
    assert workers(game, 1) == {"A4": 1}
    game.apply("move W A4 A3")  # ... and leave again (that was not the guard)
    assert workers(game, 1) == {"A3": 1}
    assert game.guards[parse_label("A4")] == (1, False)
    assert_illegal(game, "move W A4 A3", "GUARD-3", "guard")


# ---------------------------------------------------------------- CAMPMOVE


def secret_path_position() -> Position:
    """Seat 0: camps on E3 and G2 (far away); seat 1: camp on B4."""
    return (
        Position()
        .tile("E3", "A.3")
        .tile("G2", "B.3")
        .camp("E3", 0)
        .camp("G2", 0)
        .camp("B4", 1)
        .figures(0, workers={"A5": 2}, leader="E3")
    )


@pytest.mark.rule("CAMPMOVE-1")
def test_CAMPMOVE_1_one_ap_between_basecamp_and_own_camps() -> None:
    game = secret_path_position().game()
    paths = {a for a in legal(game) if a.startswith("path")}
    assert paths == {
        "path W A5 E3", "path W A5 G2", "path L E3 A5", "path L E3 G2",
    }
    game.apply("path W A5 E3")
    assert game.ap == 9
    game.apply("path L E3 G2")  # camp to camp
    assert game.ap == 8
    game.apply("path W E3 A5")  # and back to the basecamp
    assert game.ap == 7
    assert workers(game, 0) == {"A5": 2}
    assert leader_at(game, 0) == "G2"


@pytest.mark.rule("CAMPMOVE-1")
def test_CAMPMOVE_1_other_players_camps_give_no_shortcut() -> None:
    game = secret_path_position().game()
    assert_illegal(game, "path W A5 B4", "CAMPMOVE-1", "A5 to B4")
    assert_illegal(game, "path L E3 A4", "CAMPMOVE-1")
    game.apply("move W A5 B4")  # walking onto their camp is fine
    assert game.ap == 9
    assert_illegal(game, "path W B4 E3", "CAMPMOVE-1")


@pytest.mark.rule("CAMPMOVE-1")
def test_CAMPMOVE_1_costs_one_ap() -> None:
    game = secret_path_position().set(ap=0).game()
    assert_illegal(game, "path W A5 E3", "CAMPMOVE-1", "a secret path costs 1 AP, you have 0")
    assert game.legal_actions() == [END_TURN]
