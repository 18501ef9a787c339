"""The 2-player demo rule set: [DEMO-1..6]."""

from __future__ import annotations

from collections import Counter

import pytest

from positions import Position
from tikal import (
    END_TURN,
    BuildCamp,
    Dig,
    Game,
    IllegalAction,
    Move,
    Phase,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    SecretPath,
    Swap,
    TakeTreasure,
    rule_set,
)
from tikal.errors import NotationError
from tikal.hexes import (
    DEMO_Q,
    DEMO_R,
    STEP,
    axial,
    label,
    neighbour,
    parse_label,
    ring_of,
    spiral_axial,
)

ORIGIN = parse_label("0")


def at(name: str) -> int:
    return parse_label(name)


def only(pos: Position, *keep: str) -> Position:
    """Leave only ``keep`` in the stack (drawn in this order); discard the others."""
    pos.discard(*[t for t in pos.data["stack"] if t not in keep])
    return pos.next_tiles(*keep)


# ---------------------------------------------------------------- DEMO-1


@pytest.mark.rule("DEMO-1")
def test_DEMO_1_spaces_are_numbered_in_a_spiral_from_the_basecamp() -> None:
    """docs/notation.md: 0 the basecamp, 1..6 around it clockwise from north, each ring
    starting north and holding 6k numbers; every number names one space and back."""
    assert label(ORIGIN) == "0"
    assert [label(neighbour(ORIGIN, d)) for d in range(6)] == ["1", "2", "3", "4", "5", "6"]
    north_two = neighbour(neighbour(ORIGIN, 0), 0)
    assert label(north_two) == "7" and label(neighbour(north_two, 2)) == "8"
    assert label(neighbour(north_two, 4)) == "18"  # the ring closes west of where it began
    numbers = [parse_label(str(n)) for n in range(1 + 3 * 10 * 11)]  # rings 0..10
    assert len(set(numbers)) == len(numbers)
    assert all(label(c) == str(n) for n, c in enumerate(numbers))
    for ring in range(1, 11):  # consecutive numbers of a ring are neighbours
        first = 1 + 3 * ring * (ring - 1)
        cells = numbers[first:first + 6 * ring]
        assert {ring_of(*spiral_axial(n)) for n in range(first, first + 6 * ring)} == {ring}
        for a, b in zip(cells, cells[1:] + cells[:1], strict=True):
            assert b - a in STEP


@pytest.mark.rule("DEMO-1")
def test_DEMO_1_records_with_axial_names_still_read() -> None:
    """Demo records written before the numbers (``q,r`` from the basecamp) replay, and are
    written again with the numbers; far or malformed names are refused as before."""
    assert parse_label("0,0") == ORIGIN and parse_label("0,-1") == parse_label("1")
    assert parse_label("-1,1") == parse_label("5") and parse_label("-1,-1") == parse_label("18")
    game = Game.new("demo", 2, seed=3)
    placement = next(a for a in game.legal_actions() if isinstance(a, PlaceTile))
    old = str(placement).replace(label(placement.cell), "{},{}".format(*_axial(placement.cell)))
    by_numbers, by_axial = game.clone(), game.clone()
    by_numbers.apply(str(placement))
    by_axial.apply(old)
    assert "," in old and by_axial.to_json() == by_numbers.to_json()
    assert str(by_axial.history[-1]) == str(placement)  # written with the number
    for bad in ("99,0", "1,2,3", "x7", "-3"):
        with pytest.raises(NotationError):
            parse_label(bad)


def _axial(c: int) -> tuple[int, int]:
    q, r = axial(c)
    return q - DEMO_Q, r - DEMO_R


@pytest.mark.rule("DEMO-1")
def test_DEMO_1_two_players_only() -> None:
    assert rule_set("demo").player_counts == (2,)
    Game.new("demo", players=2)
    for players in (1, 3, 4):
        with pytest.raises(ValueError):
            Game.new("demo", players=players)


@pytest.mark.rule("DEMO-1")
def test_DEMO_1_fourteen_terrain_tiles_lettered_a_to_c() -> None:
    rs = rule_set("demo")
    assert len(rs.terrain) == 14
    assert {t.letter for t in rs.terrain} == {"A", "B", "C"}
    kinds = Counter(t.kind for t in rs.terrain)
    assert kinds == {"temple": 7, "jungle": 3, "treasure": 3, "volcano": 1}
    assert {t.value for t in rs.terrain if t.kind == "temple"} == {2, 3, 4, 5, 6}
    game = Game.new("demo", players=2, seed=5)
    # 15 tiles in all: the basecamp alone on the table, 14 to come
    assert [t.kind for t in game.tiles.values()] == ["basecamp"]
    assert len(game.stack) + (game.drawn is not None) == 14
    # drawn by letter: every A before any B before any C
    order = [game.drawn, *reversed(game.stack)]
    letters = [t[0] for t in order if t]
    assert letters == sorted(letters)


@pytest.mark.rule("DEMO-1")
def test_DEMO_1_no_board_tiles_go_next_to_any_tile() -> None:
    game = Game.new("demo", players=2, seed=1)
    assert game.frontier == {ORIGIN + s for s in STEP}
    assert {a.cell for a in game.legal_actions()} <= game.frontier
    # a line of tiles straight south goes as far as the tiles allow
    pos = Position("demo", players=2)
    pos.tile("4", "A.2")  # jungle: a stone on its north edge, towards the basecamp
    pos.tile("13", "B.5", rotation=3)  # jungle turned: 2 stones north, 1 south
    pos.tile("28", "C.1")  # temple: 3 stones on its south edge
    pos.draw("A.5")
    game = pos.game()
    frontier = game.frontier
    assert at("49") in frontier
    assert at("27") in frontier and at("29") in frontier
    assert len(frontier) == 2 * 4 + 4  # every free neighbour of a line of 4 tiles
    # the new tile may go next to the farthest tile, turned any way (it faces 3 stones)
    placements = game.legal_actions()
    assert {a.rotation for a in placements if a.cell == at("49")} == set(range(6))
    game.apply(PlaceTile(at("49"), 0))
    assert game.tiles[at("49")].spec.tile_id == "A.5"


@pytest.mark.rule("DEMO-1")
def test_DEMO_1_tile_rules_2_to_4_still_apply() -> None:
    pos = Position("demo", players=2)
    pos.tile("1", "C.3", rotation=0)  # temple: stones only on its south edge
    pos.draw("C.4")  # temple, stones S=2, SW=1
    game = pos.game()
    north = at("7")  # shares only the temple's north edge, which is bare
    rotations = {a.rotation for a in game.legal_actions() if a.cell == north}
    spec_stones = game.rules.tile("C.4").stones
    # a path needs the new tile's own south edge (direction 3) to show stones
    expected = {r for r in range(6) if spec_stones[(3 - r) % 6]}
    assert rotations == expected and rotations != set(range(6))
    bad = next(r for r in range(6) if r not in expected)
    with pytest.raises(IllegalAction) as info:
        game.apply(PlaceTile(north, bad))
    assert info.value.rule == "TILE-3"


# ---------------------------------------------------------------- DEMO-2


@pytest.mark.rule("DEMO-2")
def test_DEMO_2_five_action_points_per_turn() -> None:
    game = Game.new("demo", players=2, seed=2)
    game.apply(game.legal_actions()[0])
    assert game.phase is Phase.TURN and game.ap == 5
    for _ in range(5):
        game.apply(PutFigure(ORIGIN, False))
    assert game.ap == 0
    assert game.legal_actions() == [END_TURN]
    with pytest.raises(IllegalAction):
        game.apply(PutFigure(ORIGIN, False))
    game.apply(END_TURN)
    game.apply(game.legal_actions()[0])
    assert game.current == 1 and game.ap == 5


@pytest.mark.rule("DEMO-2")
def test_DEMO_2_one_leader_and_twelve_workers() -> None:
    game = Game.new("demo", players=2, seed=2)
    for p in range(2):
        assert game.figures_total(p) == (13, 0, 0)
        assert game.supply[p] == 12
    pos = Position("demo", players=2)
    pos.figures(0, workers={"0": 12})
    game = pos.game()
    assert game.supply[0] == 0
    legal = game.legal_actions()
    assert PutFigure(ORIGIN, True) in legal
    assert PutFigure(ORIGIN, False) not in legal
    with pytest.raises(IllegalAction):
        game.apply(PutFigure(ORIGIN, False))


# ---------------------------------------------------------------- DEMO-3


def demo_turn() -> Game:
    pos = Position("demo", players=2)
    pos.tile("4", "A.3", tokens="aaaa")  # treasure, 4 tokens
    pos.tile("2", "A.2")  # jungle
    pos.tile("1", "A.1")  # temple
    pos.figures(0, workers={"0": 1, "4": 2, "2": 1, "1": 2}, leader="1")
    pos.treasures(0, "a")
    pos.treasures(1, "a")
    return pos.game()


@pytest.mark.rule("DEMO-3")
def test_DEMO_3_only_put_move_and_take_exist() -> None:
    game = demo_turn()
    kinds = {type(a) for a in game.legal_actions()}
    assert kinds == {PutFigure, Move, TakeTreasure, type(END_TURN)}
    forbidden = [
        Dig(at("1")),
        BuildCamp(at("2")),
        PlaceGuard(at("1"), False),
        PlaceGuard(at("1"), True),
        Swap(0, 0, 1),
        SecretPath(ORIGIN, at("2"), False),
    ]
    before = game.to_json()
    for action in forbidden:
        with pytest.raises(IllegalAction) as info:
            game.apply(action)
        assert info.value.rule == "DEMO-3", action
    assert game.to_json() == before


@pytest.mark.rule("DEMO-3")
def test_DEMO_3_costs_put_1_move_per_stone_take_2() -> None:
    game = demo_turn()
    game.apply(PutFigure(ORIGIN, False))
    assert game.ap == 4
    cost = game.edge_cost(ORIGIN, at("4"))
    assert cost == 1  # basecamp 1 stone, treasure tile none on that edge
    game.apply(Move(ORIGIN, at("4"), False))
    assert game.ap == 3
    game.apply(TakeTreasure(at("4")))
    assert game.ap == 1
    assert game.treasures[0] == (2,)
    with pytest.raises(IllegalAction):
        game.apply(TakeTreasure(at("4")))  # 2 AP needed, 1 left


@pytest.mark.rule("DEMO-3")
def test_DEMO_3_figures_enter_on_the_basecamp_only() -> None:
    game = demo_turn()
    puts = [a for a in game.legal_actions() if isinstance(a, PutFigure)]
    assert {a.cell for a in puts} == {ORIGIN}
    with pytest.raises(IllegalAction):
        game.apply(PutFigure(at("2"), False))


@pytest.mark.rule("DEMO-3")
def test_DEMO_3_treasure_needs_a_figure_per_token_and_at_most_two() -> None:
    pos = Position("demo", players=2)
    pos.tile("4", "A.3", tokens="aaaa")
    pos.figures(0, workers={"4": 1})
    game = pos.game()
    game.apply(TakeTreasure(at("4")))
    with pytest.raises(IllegalAction) as info:
        game.apply(TakeTreasure(at("4")))
    assert info.value.rule == "TREASURE-2"
    pos.figures(0, workers={"4": 3})
    game = pos.game()
    game.apply(TakeTreasure(at("4")))
    game.apply(TakeTreasure(at("4")))
    assert TakeTreasure(at("4")) not in game.legal_actions()
    with pytest.raises(IllegalAction) as info:
        game.apply(TakeTreasure(at("4")))
    assert info.value.rule == "TREASURE-3"
    assert game.treasures[0] == (2,)


# ---------------------------------------------------------------- DEMO-4


@pytest.mark.rule("DEMO-4")
def test_DEMO_4_eight_generic_tokens_two_or_four_per_tile() -> None:
    rs = rule_set("demo")
    assert rs.token_types == 1 and rs.token_count == 8
    assert sorted(t.masks for t in rs.terrain if t.kind == "treasure") == [2, 2, 4]
    game = Game.new("demo", players=2, seed=4)
    assert game.token_pool == [0] * 8
    while game.tiles_placed < 14 and not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[0] if game.phase is Phase.TILE else END_TURN)
    counts = sorted(len(t) for t in game.tokens.values())
    assert counts == [2, 2, 4]
    assert game.token_pool == []


@pytest.mark.rule("DEMO-4")
def test_DEMO_4_each_token_is_worth_one_point() -> None:
    pos = Position("demo", players=2)
    pos.treasures(0, "aaa")
    pos.treasures(1, "a")
    pos.discard("B.3")
    pos.set(
        phase="scoring",
        scoring={"queue": [0, 1], "final": True, "volcano": None, "holder": None, "rounds": 2},
    )
    game = pos.game()
    assert game.treasure_points(0) == 3  # not a set of three (6)
    game.apply(END_TURN)
    game.apply(END_TURN)
    assert game.scores == [3, 1]
    assert [(e.player, e.treasures) for e in game.score_events] == [(0, 3), (1, 1)]


# ---------------------------------------------------------------- DEMO-5


@pytest.mark.rule("DEMO-5")
def test_DEMO_5_temples_keep_printed_value_and_scoring_turns_have_5_ap() -> None:
    pos = Position("demo", players=2)
    pos.tile("1", "C.3")  # temple 6
    pos.tile("4", "B.1")  # temple 4
    only(pos, "B.3", "C.1")  # the volcano comes next
    pos.figures(0, workers={"1": 2})
    pos.figures(1, workers={"4": 1}, leader="1")
    game = pos.game()
    assert Dig(at("1")) not in game.legal_actions()
    game.apply(END_TURN)  # seat 1 draws the volcano: scoring round, seat 1 first
    assert game.phase is Phase.SCORING and game.current == 1
    assert game.scoring_queue == [1, 0]
    assert game.ap == 5
    game.apply(END_TURN)
    assert game.ap == 5 and game.current == 0
    game.apply(END_TURN)
    # seat 1: leader (3) beats 2 workers on the 6; alone on the 4
    assert game.scores == [0, 10]
    assert [game.temple_value(c) for c in (at("1"), at("4"))] == [6, 4]
    # then the volcano is placed by the drawer and a normal 5 AP turn follows [SCORE-5]
    assert game.phase is Phase.TILE and game.current == 1 and game.drawn == "B.3"
    game.apply(game.legal_actions()[0])
    assert game.phase is Phase.TURN and game.ap == 5


# ---------------------------------------------------------------- DEMO-6


@pytest.mark.rule("DEMO-6")
@pytest.mark.parametrize("placer", [0, 1])
def test_DEMO_6_other_player_begins_final_scoring(placer: int) -> None:
    pos = only(Position("demo", players=2), "C.3")
    pos.set(current=1 - placer)
    pos.figures(placer, workers={"0": 1})
    game = pos.game()
    game.apply(END_TURN)  # the placer draws the last tile
    assert game.current == placer and game.phase is Phase.TILE
    game.apply(game.legal_actions()[0])
    assert game.phase is Phase.TURN and game.ap == 5  # the last tile's turn is played
    game.apply(END_TURN)
    assert game.phase is Phase.SCORING and game.scoring_final
    assert game.current == 1 - placer
    assert game.ap == 5
    game.apply(END_TURN)
    assert game.current == placer and game.ap == 5
    game.apply(END_TURN)
    assert game.is_over
    assert game.scoring_rounds == 1


@pytest.mark.rule("DEMO-6")
def test_DEMO_6_full_demo_game_has_two_scoring_rounds() -> None:
    game = Game.new("demo", players=2, seed=9)
    while not game.is_over:
        actions = game.legal_actions()
        game.apply(actions[0] if game.phase is Phase.TILE else END_TURN)
    assert game.scoring_rounds == 2
    assert game.tiles_placed + game.tiles_discarded == 14
    assert [e.round for e in game.score_events] == [1, 1, 2, 2]
    last = game.score_events[-2]
    assert last.player == (game.last_placer + 1) % 2
