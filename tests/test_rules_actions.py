"""Rules DIG-1..5, TREASURE-1..4, SWAP-1, SET-1, CAMP-1..4 and GUARD-1..4 of docs/rules.md.

Board reminders: basecamp A5, temples (value 1) A4 and B5, jungle B4.  Treasure tokens
are letters a-h; a treasure tile's tokens are listed bottom to top (the last is taken first).
"""

from __future__ import annotations

import pytest

from positions import Position, assert_illegal, legal
from tikal import END_TURN, Game, parse_label
from tikal.actions import Reveal, parse_token
from tikal.position import position_to_json


def of_verb(game: Game, verb: str) -> set[str]:
    return {a for a in legal(game) if a.split()[0] == verb}


def level(game: Game, at: str) -> int:
    return game.temple_value(parse_label(at))


def supply(game: Game, value: int) -> int:
    return int(game.to_json()["level_supply"][str(value)])


def tokens(game: Game, at: str) -> str:
    return next(e["tokens"] for e in game.to_json()["board"] if e["at"] == at)


def treasures(game: Game, player: int) -> str:
    return str(game.to_json()["figures"][player]["treasures"])


def figures(game: Game, player: int) -> dict[str, object]:
    fig = game.to_json()["figures"][player]
    return {"leader": fig["leader"], "workers": fig["workers"], "out": fig["out"]}


def next_turn_of_seat_0(game: Game) -> None:
    """End seat 0's turn, let seat 1 place a tile and pass, then seat 0 places its tile."""
    assert game.current_player == 0
    game.apply("end")
    game.apply(game.legal_actions()[0])
    game.apply("end")
    game.apply(game.legal_actions()[0])
    assert game.current_player == 0 and game.phase.value == "turn" and game.ap == 10


# ---------------------------------------------------------------- DIG


@pytest.mark.rule("DIG-1")
def test_DIG_1_two_ap_put_the_next_level_on_the_temple() -> None:
    game = Position().figures(0, workers={"A4": 2}).game()
    assert "dig A4" in legal(game)
    game.apply("dig A4")
    assert (level(game, "A4"), game.ap, supply(game, 2)) == (2, 8, 2)
    game.apply("dig A4")
    assert (level(game, "A4"), game.ap, supply(game, 3)) == (3, 6, 5)
    assert supply(game, 2) == 2
    assert level(game, "B5") == 1


@pytest.mark.rule("DIG-1")
def test_DIG_1_costs_two_ap() -> None:
    game = Position().figures(0, workers={"A4": 1}).set(ap=1).game()
    assert "dig A4" not in legal(game)
    assert_illegal(game, "dig A4", "DIG-1", "digging a level costs 2 AP, you have 1")


@pytest.mark.rule("DIG-1")
def test_DIG_1_only_temples_are_dug() -> None:
    game = Position().figures(0, workers={"B4": 1, "A5": 1}).game()
    assert_illegal(game, "dig B4", "DIG-1", "B4 is not a temple")
    assert_illegal(game, "dig A5", "DIG-1", "not a temple")
    assert not of_verb(game, "dig")


@pytest.mark.rule("DIG-2")
def test_DIG_2_an_own_figure_must_be_on_the_temple() -> None:
    game = Position().figures(1, workers={"A4": 3}, leader="A4").game()
    assert "dig A4" not in legal(game)
    assert_illegal(game, "dig A4", "DIG-2", "needs one own figure there, you have 0")


@pytest.mark.rule("DIG-2")
def test_DIG_2_the_second_level_needs_two_own_figures() -> None:
    game = Position().figures(0, workers={"A4": 1, "A5": 1}).figures(1, workers={"A4": 2}).game()
    game.apply("dig A4")
    assert "dig A4" not in legal(game)
    assert_illegal(game, "dig A4", "DIG-2", "needs 2 own figures there, you have 1")
    game.apply("move W A5 A4")
    game.apply("dig A4")
    assert level(game, "A4") == 3


@pytest.mark.rule("DIG-3")
def test_DIG_3_at_most_two_levels_per_temple_and_turn() -> None:
    game = Position().figures(0, workers={"A4": 3, "B5": 1}).game()
    game.apply("dig A4")
    game.apply("dig A4")
    assert "dig A4" not in legal(game)
    assert_illegal(game, "dig A4", "DIG-3", "already dug 2 levels on A4 this turn")
    game.apply("dig B5")  # another temple in the same turn
    assert (level(game, "A4"), level(game, "B5"), game.ap) == (3, 2, 4)


@pytest.mark.rule("DIG-3")
def test_DIG_3_the_limit_is_per_turn() -> None:
    game = Position().figures(0, workers={"A4": 2}).game()
    game.apply("dig A4")
    game.apply("dig A4")
    next_turn_of_seat_0(game)
    game.apply("dig A4")
    assert level(game, "A4") == 4


def high_temples() -> Position:
    """Level 9 is used up (two temples at 9), level 10 is still in the supply."""
    return (
        Position()
        .tile("A3", "C.1", level=9)
        .tile("B3", "D.1", level=9)
        .tile("C4", "E.1", level=8)
        .figures(0, workers={"C4": 2, "A3": 2})
    )


@pytest.mark.rule("DIG-4")
def test_DIG_4_a_temple_cannot_be_dug_when_its_next_level_is_gone() -> None:
    game = high_temples().game()
    assert supply(game, 9) == 0 and supply(game, 10) == 1
    assert "dig C4" not in legal(game)
    # numbers are never skipped: level 10 is there but the temple needs a 9
    assert_illegal(game, "dig C4", "DIG-4", "no temple level 9 is left")
    game.apply("dig A3")  # the other temple takes the last 10
    assert level(game, "A3") == 10 and supply(game, 10) == 0
    assert_illegal(game, "dig A3", "DIG-4")  # nothing above 10
    assert not of_verb(game, "dig")


@pytest.mark.rule("DIG-5")
def test_DIG_5_a_guarded_temple_is_never_dug_again() -> None:
    game = (
        Position()
        .guard("A4", 1)
        .guard("B5", 0)
        .figures(0, workers={"A4": 2, "B5": 2})
        .game()
    )
    assert not of_verb(game, "dig")
    assert_illegal(game, "dig A4", "DIG-5", "guarded")
    assert_illegal(game, "dig B5", "DIG-5", "guarded")  # not even by the guard's owner
    assert level(game, "A4") == level(game, "B5") == 1


# ---------------------------------------------------------------- TREASURE


def treasure_tile(tokens_on_a3: str = "abcd", **figs: int) -> Position:
    return Position().tile("A3", "A.2", tokens=tokens_on_a3).figures(0, workers=figs)


@pytest.mark.rule("TREASURE-1")
def test_TREASURE_1_three_ap_take_the_top_token_face_up() -> None:
    game = treasure_tile(A3=1).game()
    assert "take A3" in legal(game)
    game.apply("take A3")
    assert game.ap == 7
    assert treasures(game, 0) == "d"
    assert tokens(game, "A3") == "abc"
    assert game.history[-1] == Reveal(parse_token("d"))
    public = position_to_json(game, public=True)
    assert public["figures"][0]["treasures"] == "d"  # its type is public now
    assert next(e["tokens"] for e in public["board"] if e["at"] == "A3") == 3


@pytest.mark.rule("TREASURE-1")
def test_TREASURE_1_costs_three_ap() -> None:
    game = treasure_tile(A3=1).set(ap=2).game()
    assert "take A3" not in legal(game)
    assert_illegal(game, "take A3", "TREASURE-1", "taking a treasure costs 3 AP, you have 2")


@pytest.mark.rule("TREASURE-1")
def test_TREASURE_1_only_where_tokens_remain() -> None:
    game = treasure_tile("", A3=1, B4=1).game()
    assert not of_verb(game, "take")
    assert_illegal(game, "take A3", "TREASURE-1", "no treasure is left on A3")
    assert_illegal(game, "take B4", "TREASURE-1", "B4 is not a treasure tile")


@pytest.mark.rule("TREASURE-2")
def test_TREASURE_2_one_own_figure_per_token_taken() -> None:
    game = treasure_tile(A3=1, A4=1).figures(1, workers={"A3": 4}).game()
    game.apply("take A3")
    assert "take A3" not in legal(game)
    assert_illegal(game, "take A3", "TREASURE-2", "needs 2 own figure(s) there, you have 1")
    game.apply("move W A4 A3")  # A.2's S edge has 2 stones, A4's N edge 1
    assert game.ap == 4
    game.apply("take A3")
    assert treasures(game, 0) == "cd"


@pytest.mark.rule("TREASURE-2")
def test_TREASURE_2_no_own_figure_no_treasure() -> None:
    game = treasure_tile().figures(1, workers={"A3": 2}).game()
    assert_illegal(game, "take A3", "TREASURE-2", "you have 0")


@pytest.mark.rule("TREASURE-3")
def test_TREASURE_3_at_most_two_tokens_per_tile_and_turn() -> None:
    game = treasure_tile(A3=3, B3=1).tile("B3", "C.4", tokens="efg").game()
    game.apply("take A3")
    game.apply("take A3")
    assert "take A3" not in legal(game)
    assert_illegal(game, "take A3", "TREASURE-3", "already took 2 treasures on A3 this turn")
    game.apply("take B3")  # another treasure tile in the same turn
    assert treasures(game, 0) == "cdg"
    assert (tokens(game, "A3"), tokens(game, "B3"), game.ap) == ("ab", "ef", 1)


@pytest.mark.rule("TREASURE-3")
def test_TREASURE_3_the_limit_is_per_turn() -> None:
    game = treasure_tile(A3=2).game()
    game.apply("take A3")
    game.apply("take A3")
    next_turn_of_seat_0(game)
    game.apply("take A3")
    assert treasures(game, 0) == "bcd"


@pytest.mark.rule("TREASURE-4")
def test_TREASURE_4_an_emptied_treasure_tile_takes_a_camp() -> None:
    game = treasure_tile("a", A3=1).game()
    assert "camp A3" not in legal(game)
    assert_illegal(game, "camp A3", "TREASURE-4", "treasures are still left on A3")
    game.apply("take A3")
    assert "camp A3" in legal(game)
    game.apply("camp A3")
    assert game.camps == {parse_label("A3"): 0}
    assert game.ap == 2


# ---------------------------------------------------------------- SWAP / SET


@pytest.mark.rule("SWAP-1")
def test_SWAP_1_three_ap_exchange_two_single_treasures() -> None:
    game = Position().treasures(0, "abb").treasures(1, "cdd").game()
    assert of_verb(game, "swap") == {"swap a c 1"}
    game.apply("swap a c 1")  # seat 1 is not asked
    assert game.ap == 7
    assert (treasures(game, 0), treasures(game, 1)) == ("bbc", "add")


@pytest.mark.rule("SWAP-1")
def test_SWAP_1_pairs_and_triples_cannot_be_exchanged() -> None:
    game = Position().treasures(0, "abbeee").treasures(1, "cddfff").game()
    assert of_verb(game, "swap") == {"swap a c 1"}
    assert_illegal(game, "swap b c 1", "SWAP-1", "exactly one of (b)")
    assert_illegal(game, "swap e c 1", "SWAP-1", "exactly one of (e)")
    assert_illegal(game, "swap a d 1", "SWAP-1", "seat 1 must hold exactly one treasure d")
    assert_illegal(game, "swap a f 1", "SWAP-1", "exactly one treasure f")
    assert_illegal(game, "swap h c 1", "SWAP-1", "exactly one of (h)")  # not held at all


@pytest.mark.rule("SWAP-1")
def test_SWAP_1_the_two_tokens_must_differ_in_type() -> None:
    game = Position().treasures(0, "ab").treasures(1, "a").game()
    assert of_verb(game, "swap") == {"swap b a 1"}
    assert_illegal(game, "swap a a 1", "SWAP-1", "two different treasure types")


@pytest.mark.rule("SWAP-1")
def test_SWAP_1_with_any_other_player_but_not_oneself() -> None:
    game = Position(players=3).treasures(0, "a").treasures(1, "b").treasures(2, "c").game()
    assert of_verb(game, "swap") == {"swap a b 1", "swap a c 2"}
    assert_illegal(game, "swap a b 0", "SWAP-1", "not another player")
    assert_illegal(game, "swap a b 3", "SWAP-1", "not another player")
    game.apply("swap a c 2")
    assert [treasures(game, p) for p in range(3)] == ["c", "b", "a"]


@pytest.mark.rule("SWAP-1")
def test_SWAP_1_costs_three_ap() -> None:
    game = Position().treasures(0, "a").treasures(1, "b").set(ap=2).game()
    assert not of_verb(game, "swap")
    assert_illegal(game, "swap a b 1", "SWAP-1", "an exchange costs 3 AP, you have 2")


@pytest.mark.rule("SET-1")
@pytest.mark.parametrize(
    ("held", "points"),
    [("", 0), ("a", 1), ("aa", 3), ("aaa", 6), ("ab", 2), ("abbccc", 10), ("aabbcc", 9)],
)
def test_SET_1_one_two_three_of_a_type_score_1_3_6(held: str, points: int) -> None:
    game = Position().treasures(0, held).game()
    assert game.treasure_points(0) == points
    assert game.treasure_points(1) == 0


@pytest.mark.rule("SET-1")
def test_SET_1_treasures_are_scored_in_a_scoring_round() -> None:
    pos = Position().treasures(0, "abbccc").treasures(1, "dd")
    pos.data["stack"].remove("B.1")
    pos.set(
        phase="scoring",
        scoring={"queue": [0, 1], "final": False, "volcano": "B.1", "holder": 0, "rounds": 1},
    )
    game = pos.game()
    game.apply("end")
    game.apply("end")
    assert game.scores == [10, 3]


# ---------------------------------------------------------------- CAMP


@pytest.mark.rule("CAMP-1")
def test_CAMP_1_five_ap_build_a_camp_on_a_jungle() -> None:
    game = Position().figures(0, workers={"B4": 1, "A4": 1, "A5": 1}).game()
    assert of_verb(game, "camp") == {"camp B4"}
    game.apply("camp B4")
    assert game.ap == 5
    assert game.camps == {parse_label("B4"): 0}
    assert next(e for e in game.to_json()["board"] if e["at"] == "B4")["camp"] == 0


@pytest.mark.rule("CAMP-1")
def test_CAMP_1_costs_five_ap() -> None:
    game = Position().figures(0, workers={"B4": 1}).set(ap=4).game()
    assert not of_verb(game, "camp")
    assert_illegal(game, "camp B4", "CAMP-1", "building a camp costs 5 AP, you have 4")


@pytest.mark.rule("CAMP-1")
def test_CAMP_1_never_on_basecamp_temple_or_volcano() -> None:
    game = (
        Position(camp_needs_own_figure=False)
        .tile("C4", "B.1")
        .figures(0, workers={"A5": 1, "A4": 1})
        .game()
    )
    assert of_verb(game, "camp") == {"camp B4"}
    assert_illegal(game, "camp A5", "CAMP-1", "basecamp")
    assert_illegal(game, "camp A4", "CAMP-1", "temple")
    assert_illegal(game, "camp C4", "CAMP-1", "volcano")
    assert_illegal(game, "camp C5", "CAMP-1", "no tile on C5")


@pytest.mark.rule("CAMP-2")
def test_CAMP_2_one_camp_per_tile() -> None:
    game = Position().camp("B4", 1).figures(0, workers={"B4": 1}).game()
    assert not of_verb(game, "camp")
    assert_illegal(game, "camp B4", "CAMP-2", "B4 already has a camp")


@pytest.mark.rule("CAMP-2")
def test_CAMP_2_at_most_two_camps_per_player() -> None:
    pos = Position().tile("C4", "A.3").tile("C5", "B.3").tile("B3", "B.4")
    game = pos.camp("C4", 0).figures(0, workers={"C5": 1, "B3": 1}).game()
    game.apply("camp C5")  # the second camp
    assert sorted(game.own_camps(0)) == sorted(map(parse_label, ["C4", "C5"]))
    next_turn_of_seat_0(game)
    assert not of_verb(game, "camp")
    assert_illegal(game, "camp B3", "CAMP-2", "already built your 2 camps")


@pytest.mark.rule("CAMP-3")
def test_CAMP_3_default_needs_an_own_figure_on_the_tile() -> None:
    game = Position().figures(1, workers={"B4": 2}, leader="B4").game()
    assert game.options["camp_needs_own_figure"] is True
    assert not of_verb(game, "camp")
    assert_illegal(game, "camp B4", "CAMP-3", "own figures on B4")


@pytest.mark.rule("CAMP-3")
def test_CAMP_3_other_players_figures_may_stand_on_the_tile() -> None:
    game = Position().figures(1, workers={"B4": 2}).figures(0, workers={"B4": 1}).game()
    game.apply("camp B4")
    assert game.camps == {parse_label("B4"): 0}
    assert game.workers[1] == {parse_label("B4"): 2}


@pytest.mark.rule("CAMP-3")
def test_CAMP_3_option_off_needs_no_figure_there() -> None:
    pos = Position(camp_needs_own_figure=False).tile("E3", "A.3").figures(1, workers={"B4": 1})
    game = pos.game()
    assert game.options["camp_needs_own_figure"] is False
    assert of_verb(game, "camp") == {"camp B4", "camp E3"}
    game.apply("camp E3")  # far away, no figure anywhere near it
    assert game.camps == {parse_label("E3"): 0}
    game.apply("camp B4")  # only an opponent stands here
    assert game.own_camps(0) == [parse_label("E3"), parse_label("B4")]


@pytest.mark.rule("CAMP-3")
def test_CAMP_3_the_option_is_an_ordinary_game_option() -> None:
    assert Game.new("standard", 2, seed=1).options == {"camp_needs_own_figure": True}
    game = Game.new("standard", 2, seed=1, camp_needs_own_figure=False)
    assert game.options == {"camp_needs_own_figure": False}
    assert game.to_json()["options"] == {"camp_needs_own_figure": False}


@pytest.mark.rule("CAMP-4")
def test_CAMP_4_a_camp_lets_figures_enter_and_take_secret_paths() -> None:
    pos = Position().tile("E3", "A.3").figures(0, workers={"E3": 1, "A5": 1})
    game = pos.game()
    assert "put W E3" not in legal(game) and not of_verb(game, "path")
    game.apply("camp E3")
    assert {"put W E3", "put L E3"} <= legal(game)
    assert {"path W A5 E3", "path W E3 A5"} <= legal(game)
    game.apply("put W E3")
    game.apply("path W A5 E3")
    assert game.ap == 3
    assert game.workers[0] == {parse_label("E3"): 3}


@pytest.mark.rule("CAMP-4")
def test_CAMP_4_camps_are_permanent() -> None:
    pos = Position().tile("E3", "A.3").figures(0, workers={"E3": 1})
    game = pos.game()
    game.apply("camp E3")
    game.apply("path W E3 A5")  # nobody of seat 0 is left on E3
    next_turn_of_seat_0(game)
    assert game.camps == {parse_label("E3"): 0}
    game.apply("put L E3")
    assert game.to_json()["figures"][0]["leader"] == "E3"


# ---------------------------------------------------------------- GUARD


@pytest.mark.rule("GUARD-1")
def test_GUARD_1_five_ap_with_the_strictly_highest_strength() -> None:
    game = Position().figures(0, workers={"A4": 2}).figures(1, workers={"A4": 1}).game()
    assert of_verb(game, "guard") == {"guard W A4"}
    game.apply("guard W A4")
    assert game.ap == 5
    assert game.guards == {parse_label("A4"): (0, False)}
    entry = next(e for e in game.to_json()["board"] if e["at"] == "A4")
    assert entry["guard"] == {"player": 0, "figure": "W"}


@pytest.mark.rule("GUARD-1")
def test_GUARD_1_a_tie_is_not_enough() -> None:
    game = Position().figures(0, workers={"A4": 1}).figures(1, workers={"A4": 1}).game()
    assert not of_verb(game, "guard")
    assert_illegal(game, "guard W A4", "GUARD-1", "yours is 1, the best opponent has 1")
    game = Position().figures(0, leader="A4").figures(1, workers={"A4": 3}).game()
    assert_illegal(game, "guard L A4", "GUARD-1", "yours is 3, the best opponent has 3")


@pytest.mark.rule("GUARD-1")
def test_GUARD_1_strength_counts_all_players_and_the_leader_as_three() -> None:
    pos = Position(players=3).figures(0, leader="A4").figures(1, workers={"A4": 2})
    game = pos.game()
    assert of_verb(game, "guard") == {"guard L A4"}
    pos.figures(2, workers={"A4": 3})
    game = pos.game()
    assert_illegal(game, "guard L A4", "GUARD-1", "yours is 3, the best opponent has 3")


@pytest.mark.rule("GUARD-1")
def test_GUARD_1_the_player_chooses_leader_or_worker() -> None:
    pos = Position().figures(0, workers={"A4": 1}, leader="A4").figures(1, workers={"A4": 2})
    assert of_verb(pos.game(), "guard") == {"guard W A4", "guard L A4"}
    game = pos.game()
    game.apply("guard L A4")
    assert game.guards == {parse_label("A4"): (0, True)}
    assert figures(game, 0)["leader"] == "guard"
    game = pos.game()
    game.apply("guard W A4")
    assert game.guards == {parse_label("A4"): (0, False)}


@pytest.mark.rule("GUARD-1")
def test_GUARD_1_only_on_an_unguarded_temple_with_the_chosen_figure() -> None:
    game = (
        Position()
        .guard("B5", 1)
        .figures(0, workers={"B5": 2, "B4": 2}, leader="A5")
        .game()
    )
    assert_illegal(game, "guard W B5", "GUARD-1", "already has a guard")
    assert_illegal(game, "guard W B4", "GUARD-1", "B4 is not one")
    assert_illegal(game, "guard L A4", "GUARD-1", "your leader is not on A4")
    assert_illegal(game, "guard W A4", "GUARD-1", "you have no worker on A4")
    assert not of_verb(game, "guard")


@pytest.mark.rule("GUARD-1")
def test_GUARD_1_costs_five_ap() -> None:
    game = Position().figures(0, workers={"A4": 1}).set(ap=4).game()
    assert not of_verb(game, "guard")
    assert_illegal(game, "guard W A4", "GUARD-1", "placing a guard costs 5 AP, you have 4")


@pytest.mark.rule("GUARD-2")
def test_GUARD_2_own_other_figures_leave_the_game() -> None:
    game = (
        Position()
        .figures(0, workers={"A4": 3, "A5": 1}, leader="A4")
        .figures(1, workers={"A4": 2})
        .game()
    )
    supply_before = game.figures_total(0)[0]
    game.apply("guard W A4")
    assert figures(game, 0) == {"leader": "out", "workers": {"A5": 1}, "out": 3}
    assert game.figures_total(0) == (supply_before, 2, 3)  # not back to the supply
    assert game.workers[1] == {parse_label("A4"): 2}  # the others stay
    game.apply("end")
    game.apply(game.legal_actions()[0])
    game.apply("move W A4 A5")  # ... and may move away
    assert game.workers[1] == {parse_label("A4"): 1, parse_label("A5"): 1}


@pytest.mark.rule("GUARD-2")
def test_GUARD_2_a_leader_guard_sends_the_workers_out() -> None:
    game = Position().figures(0, workers={"A4": 2}, leader="A4").game()
    game.apply("guard L A4")
    assert figures(game, 0) == {"leader": "guard", "workers": {}, "out": 2}
    assert game.figures_total(0) == (16, 1, 2)


@pytest.mark.rule("GUARD-3")
def test_GUARD_3_the_guard_never_moves() -> None:
    game = Position().guard("A4", 0).guard("B5", 0, leader=True).game()
    assert not of_verb(game, "move")
    assert_illegal(game, "move W A4 A5", "GUARD-3", "never moves")
    assert_illegal(game, "move L B5 A5", "GUARD-3", "never moves")
    assert_illegal(game, "path W A4 A5", "GUARD-3")


@pytest.mark.rule("GUARD-3")
def test_GUARD_3_the_guards_owner_scores_the_temple_whatever_stands_there() -> None:
    game = (
        Position()
        .level("A4", 3)
        .guard("A4", 0)
        .figures(1, workers={"A4": 4}, leader="A4")
        .game()
    )
    assert game.temple_points(0) == 3
    assert game.temple_points(1) == 0
    assert_illegal(game, "dig A4", "DIG-5")  # the value stays frozen
    assert level(game, "A4") == 3


@pytest.mark.rule("GUARD-4")
def test_GUARD_4_at_most_two_guarded_temples_per_player() -> None:
    pos = Position().tile("A3", "A.1").figures(0, workers={"A3": 2}).guard("A4", 0)
    game = pos.game()
    assert "guard W A3" in legal(game)  # one guard so far: a second is fine
    game = pos.guard("B5", 0).game()
    assert game.guards_of(0) == 2
    assert not of_verb(game, "guard")
    assert_illegal(game, "guard W A3", "GUARD-4", "already guard 2 temples")


@pytest.mark.rule("GUARD-4")
def test_GUARD_4_counts_only_the_own_guards() -> None:
    game = (
        Position()
        .tile("A3", "A.1")
        .guard("A4", 1)
        .guard("B5", 1)
        .figures(0, workers={"A3": 1})
        .game()
    )
    assert of_verb(game, "guard") == {"guard W A3"}
    game.apply("guard W A3")
    assert game.guards_of(0) == 1
    assert game.legal_actions()[-1] == END_TURN
