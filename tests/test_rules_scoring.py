"""Scoring rounds and the end of the game: [SCORE-1..5], [END-1..2].

Positions are built through the snapshot format (``positions.Position``); the
stack is arranged so that the tile drawn next is known.
"""

from __future__ import annotations

from typing import Any

import pytest

from positions import Position
from tikal import END_TURN, Dig, Draw, Game, IllegalAction, Move, Phase, PlaceTile, PutFigure
from tikal.hexes import parse_label

BASECAMP = "A5"
TEMPLE_N = "A4"  # pre-printed temple (value 1) north of the basecamp
TEMPLE_SE = "B5"  # pre-printed temple (value 1) south-east of the basecamp


def stack_of(pos: Position, *top: str, keep: tuple[str, ...] = ()) -> Position:
    """Make ``top`` the next tiles drawn (in that order), then ``keep``; discard the rest."""
    pos.discard(*[t for t in pos.data["stack"] if t not in top and t not in keep])
    return pos.next_tiles(*top, *keep)


def scoring(
    pos: Position, first: int, final: bool = False, volcano: str | None = "B.1"
) -> Position:
    """Put ``pos`` into a scoring round whose first scorer is ``first``."""
    n = pos.data["players"]
    if volcano is not None and not final:
        pos.data["stack"].remove(volcano)
    pos.set(
        phase="scoring",
        current=first,
        ap=10,
        scoring={
            "queue": [(first + i) % n for i in range(n)],
            "final": final,
            "volcano": None if final else volcano,
            "holder": None if final else first,
            "rounds": 4 if final else 1,
        },
    )
    return pos


def end_scoring_turn(game: Game) -> tuple[int, int, int]:
    """End the current scoring turn; (player, temple points, treasure points) it scored."""
    assert game.phase is Phase.SCORING
    player = game.current
    before = len(game.score_events)
    game.apply(END_TURN)
    assert len(game.score_events) == before + 1
    event = game.score_events[-1]
    assert event.player == player
    return player, event.temples, event.treasures


def set_score(pos: Position, player: int, score: int) -> None:
    pos.data["figures"][player]["score"] = score


def cells(*names: str) -> list[int]:
    return [parse_label(n) for n in names]


# ---------------------------------------------------------------- SCORE-1


@pytest.mark.rule("SCORE-1")
def test_SCORE_1_volcano_starts_scoring_round_with_drawer_then_clockwise() -> None:
    pos = stack_of(Position("standard", players=3), "B.1", keep=("C.1", "C.2"))
    game = pos.game()
    stack_before = list(game.stack)
    game.apply(END_TURN)  # seat 1 draws the volcano
    assert game.history[-1] == Draw("B.1")
    assert game.phase is Phase.SCORING
    assert game.current == 1
    assert game.scoring_queue == [1, 2, 0]
    assert game.ap == 10
    assert game.drawn is None  # set aside, not placed yet
    assert game.volcano == "B.1"
    assert game.scoring_rounds == 1
    assert game.stack == stack_before[:-1]
    # seat 1 scores, then seat 2, then seat 0: a full 10 AP turn each, no tile drawn
    order = []
    while game.phase is Phase.SCORING:
        assert game.ap == 10
        assert game.stack == stack_before[:-1]
        order.append(end_scoring_turn(game)[0])
    assert order == [1, 2, 0]


@pytest.mark.rule("SCORE-1")
def test_SCORE_1_each_scores_for_themself_at_the_end_of_their_scoring_turn() -> None:
    pos = stack_of(Position("standard", players=3), "B.1", keep=("C.1",))
    game = pos.game()
    game.apply(END_TURN)  # seat 1 draws the volcano and scores first
    assert game.current == 1
    # seat 1 walks one worker onto the temple north of the basecamp (1 + 2 AP)
    game.apply(PutFigure(parse_label(BASECAMP), False))
    game.apply(Move(parse_label(BASECAMP), parse_label(TEMPLE_N), False))
    assert game.ap == 7
    assert game.scores == [0, 0, 0]  # nothing is scored before the turn ends
    assert end_scoring_turn(game) == (1, 1, 0)
    assert game.scores == [0, 1, 0]  # only seat 1 scored
    # seat 2 uses its scoring turn to take the majority away, then scores it
    assert game.current == 2
    for _ in range(2):
        game.apply(PutFigure(parse_label(BASECAMP), False))
        game.apply(Move(parse_label(BASECAMP), parse_label(TEMPLE_N), False))
    assert end_scoring_turn(game) == (2, 1, 0)
    # seat 1's points were scored at its moment and are not revised
    assert game.scores == [0, 1, 1]
    assert end_scoring_turn(game) == (0, 0, 0)
    assert game.scores == [0, 1, 1]


@pytest.mark.rule("SCORE-1")
def test_SCORE_1_scoring_turn_allows_actions_but_no_tile() -> None:
    game = scoring(Position("standard", players=2), first=0).game()
    actions = game.legal_actions()
    assert not any(isinstance(a, PlaceTile) for a in actions)
    assert PutFigure(parse_label(BASECAMP), False) in actions
    with pytest.raises(IllegalAction):
        game.apply(PlaceTile(parse_label("A3"), 0))


# ---------------------------------------------------------------- SCORE-2


def temple_game(players: int = 2, **figures: Any) -> Game:
    """Seat 0 in a scoring turn; ``figures`` maps 'p0'.. to Position.figures kwargs."""
    pos = Position("standard", players=players)
    for key, kwargs in figures.items():
        pos.figures(int(key[1:]), **kwargs)
    return scoring(pos, first=0).game()


def score_all(game: Game) -> dict[int, int]:
    """Temple points of every seat in one scoring round."""
    result = {}
    for _ in range(game.players):
        player, temples, _ = end_scoring_turn(game)
        result[player] = temples
    return result


@pytest.mark.rule("SCORE-2")
def test_SCORE_2_strict_majority_scores_temple_value() -> None:
    game = temple_game(p0={"workers": {TEMPLE_N: 2}}, p1={"workers": {TEMPLE_N: 1}})
    assert score_all(game) == {0: 1, 1: 0}


@pytest.mark.rule("SCORE-2")
def test_SCORE_2_tie_scores_nobody() -> None:
    game = temple_game(
        players=3,
        p0={"workers": {TEMPLE_N: 2, TEMPLE_SE: 1}},
        p1={"workers": {TEMPLE_N: 2}},
        p2={"workers": {TEMPLE_N: 1}},
    )
    # A4: 2 v 2 v 1, nobody; B5: seat 0 alone
    assert score_all(game) == {0: 1, 1: 0, 2: 0}


@pytest.mark.rule("SCORE-2")
def test_SCORE_2_leader_counts_three() -> None:
    game = temple_game(
        p0={"workers": {}, "leader": TEMPLE_N},
        p1={"workers": {TEMPLE_N: 2, TEMPLE_SE: 3}, "leader": "supply"},
    )
    assert score_all(game) == {0: 1, 1: 1}
    # three workers against the leader are a tie: nobody scores
    game = temple_game(
        p0={"workers": {}, "leader": TEMPLE_N}, p1={"workers": {TEMPLE_N: 3}}
    )
    assert score_all(game) == {0: 0, 1: 0}
    # leader + 1 worker (4) beats 3 workers
    game = temple_game(
        p0={"workers": {TEMPLE_N: 1}, "leader": TEMPLE_N}, p1={"workers": {TEMPLE_N: 3}}
    )
    assert score_all(game) == {0: 1, 1: 0}


@pytest.mark.rule("SCORE-2")
def test_SCORE_2_guarded_temple_scores_for_its_guard_whatever_stands_there() -> None:
    pos = Position("standard", players=2)
    pos.tile("C4", "C.1", level=6)  # printed 4, dug to 6
    pos.entry("C4")["guard"] = {"player": 0, "figure": "W"}
    pos.data["figures"][0]["supply"] -= 1  # the guard is one of seat 0's workers
    pos.figures(1, workers={"C4": 5}, leader="C4")
    game = scoring(pos, first=0).game()
    assert score_all(game) == {0: 6, 1: 0}


@pytest.mark.rule("SCORE-2")
def test_SCORE_2_value_is_top_level_or_printed_value() -> None:
    pos = Position("standard", players=2)
    pos.tile("C4", "C.1")  # printed 4, not dug
    pos.tile("C5", "D.1", level=7)  # printed 5, dug to 7
    pos.figures(0, workers={"C4": 1, "C5": 1, TEMPLE_N: 1})
    game = scoring(pos, first=0).game()
    assert [game.temple_value(c) for c in cells("C4", "C5", TEMPLE_N)] == [4, 7, 1]
    assert score_all(game) == {0: 4 + 7 + 1, 1: 0}


@pytest.mark.rule("SCORE-2")
def test_SCORE_2_digging_during_the_scoring_turn_counts() -> None:
    pos = Position("standard", players=2)
    pos.figures(0, workers={TEMPLE_N: 2})
    game = scoring(pos, first=0).game()
    game.apply(Dig(parse_label(TEMPLE_N)))
    game.apply(Dig(parse_label(TEMPLE_N)))
    assert game.temple_value(parse_label(TEMPLE_N)) == 3
    assert end_scoring_turn(game) == (0, 3, 0)


# ---------------------------------------------------------------- SCORE-3


@pytest.mark.rule("SCORE-3")
def test_SCORE_3_treasure_sets_score_1_3_6() -> None:
    pos = Position("standard", players=2)
    pos.treasures(0, "abbccc")  # 1 + 3 + 6
    pos.treasures(1, "dde")  # 3 + 1
    game = scoring(pos, first=0).game()
    assert end_scoring_turn(game) == (0, 0, 10)
    assert end_scoring_turn(game) == (1, 0, 4)
    assert game.scores == [10, 4]


@pytest.mark.rule("SCORE-3")
def test_SCORE_3_treasures_and_temples_add_up() -> None:
    pos = Position("standard", players=2)
    pos.treasures(0, "aa")
    pos.figures(0, workers={TEMPLE_SE: 1})
    game = scoring(pos, first=0).game()
    assert end_scoring_turn(game) == (0, 1, 3)
    assert game.scores[0] == 4


# ---------------------------------------------------------------- SCORE-4


@pytest.mark.rule("SCORE-4")
def test_SCORE_4_points_add_up_over_scoring_rounds() -> None:
    pos = stack_of(Position("standard", players=2), "B.1", "D.3", keep=("E.1", "E.2"))
    pos.figures(0, workers={}, leader=TEMPLE_N)
    pos.treasures(1, "a")
    game = pos.game()
    game.apply(END_TURN)  # seat 1 draws B.1: round 1, seat 1 first
    assert game.scoring_rounds == 1
    assert end_scoring_turn(game) == (1, 0, 1)
    assert end_scoring_turn(game) == (0, 1, 0)
    assert game.scores == [1, 1]
    assert game.phase is Phase.TILE and game.current == 1
    game.apply(game.legal_actions()[0])  # seat 1 places its volcano
    game.apply(END_TURN)  # seat 0 draws D.3: round 2, seat 0 first
    assert game.history[-1] == Draw("D.3")
    assert game.scoring_rounds == 2
    assert end_scoring_turn(game) == (0, 1, 0)
    assert end_scoring_turn(game) == (1, 0, 1)
    assert game.scores == [2, 2]
    assert [e.round for e in game.score_events] == [1, 1, 2, 2]


@pytest.mark.rule("SCORE-4")
def test_SCORE_4_scoring_adds_to_the_existing_score() -> None:
    pos = Position("standard", players=2)
    set_score(pos, 0, 7)
    set_score(pos, 1, 11)
    pos.figures(0, workers={TEMPLE_N: 1})
    game = scoring(pos, first=0).game()
    score_all(game)
    assert game.scores == [8, 11]


# ---------------------------------------------------------------- SCORE-5


@pytest.mark.rule("SCORE-5")
def test_SCORE_5_drawer_places_volcano_then_takes_normal_turn() -> None:
    pos = stack_of(Position("standard", players=3), "B.1", keep=("C.1", "C.2"))
    game = pos.game()
    game.apply(END_TURN)  # seat 1 draws the volcano
    while game.phase is Phase.SCORING:
        end_scoring_turn(game)
    assert game.phase is Phase.TILE
    assert game.current == 1
    assert game.drawn == "B.1"
    assert game.volcano is None
    stack = list(game.stack)
    placements = game.legal_actions()
    assert placements and all(isinstance(a, PlaceTile) for a in placements)
    # [TILE-4]: every free space next to the placed tiles, any rotation, path or not
    assert {a.cell for a in placements} == set(game.frontier)
    assert len(placements) == 6 * len(game.frontier)
    game.apply(PlaceTile(parse_label("A3"), 0))  # no stones face the temple below
    assert game.tiles[parse_label("A3")].kind == "volcano"
    assert game.phase is Phase.TURN
    assert game.current == 1
    assert game.ap == 10
    assert game.stack == stack  # no further tile drawn
    assert game.scoring_rounds == 1
    game.apply(END_TURN)
    assert game.current == 2
    assert game.history[-1] == Draw("C.1")
    assert game.phase is Phase.TILE


# ---------------------------------------------------------------- END-1


@pytest.mark.rule("END-1")
def test_END_1_final_scoring_after_last_tile_turn_starts_with_next_player() -> None:
    pos = stack_of(Position("standard", players=3), "G.3")
    game = pos.game()
    game.apply(END_TURN)  # seat 1 draws the last tile
    assert game.current == 1 and game.phase is Phase.TILE
    game.apply(game.legal_actions()[0])
    assert not game.stack
    # the turn in which the last tile was placed is played in full
    assert game.phase is Phase.TURN and game.ap == 10
    game.apply(PutFigure(parse_label(BASECAMP), False))
    assert game.phase is Phase.TURN
    game.apply(END_TURN)
    assert game.phase is Phase.SCORING
    assert game.scoring_final
    assert game.scoring_queue == [2, 0, 1]
    assert game.current == 2
    assert game.ap == 10
    assert game.scoring_rounds == 1


@pytest.mark.rule("END-1")
def test_END_1_final_round_is_a_scoring_round_like_score_1() -> None:
    pos = stack_of(Position("standard", players=2), "G.3")
    pos.figures(1, workers={TEMPLE_N: 1})
    pos.treasures(0, "hh")
    game = pos.game()
    game.apply(END_TURN)
    game.apply(game.legal_actions()[0])
    game.apply(END_TURN)  # seat 1 placed the last tile: seat 0 scores first
    assert game.current == 0
    assert end_scoring_turn(game) == (0, 0, 3)
    assert game.phase is Phase.SCORING and game.current == 1
    assert end_scoring_turn(game) == (1, 1, 0)
    assert game.scores == [3, 1]
    assert game.is_over


@pytest.mark.rule("END-1")
def test_END_1_last_placer_decides_not_the_seat_order() -> None:
    # the last tile is placed by seat 2 of 3: seat 0 begins the final round
    pos = stack_of(Position("standard", players=3), "G.3")
    pos.set(current=1)
    game = pos.game()
    game.apply(END_TURN)
    assert game.current == 2
    game.apply(game.legal_actions()[0])
    game.apply(END_TURN)
    assert game.scoring_queue == [0, 1, 2]


# ---------------------------------------------------------------- END-2


def final_round(scores: list[int]) -> Game:
    pos = Position("standard", players=len(scores))
    for p, s in enumerate(scores):
        set_score(pos, p, s)
    stack_of(pos)
    return scoring(pos, first=0, final=True).game()


@pytest.mark.rule("END-2")
def test_END_2_game_ends_after_final_round_and_nothing_more_is_legal() -> None:
    game = final_round([5, 3, 4])
    for _ in range(2):
        game.apply(END_TURN)
        assert not game.is_over
    game.apply(END_TURN)
    assert game.is_over
    assert game.phase is Phase.OVER
    assert game.legal_actions() == []
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(END_TURN)
    assert info.value.rule == "END-2"
    with pytest.raises(IllegalAction):
        game.apply(PutFigure(parse_label(BASECAMP), False))
    assert game.to_json() == before
    assert game.winners == [0]


@pytest.mark.rule("END-2")
def test_END_2_tied_highest_scores_share_the_win() -> None:
    game = final_round([5, 3, 5])
    assert game.winners == []  # nobody has won before the end
    assert game.win_shares == [0.0, 0.0, 0.0]
    while not game.is_over:
        game.apply(END_TURN)
    assert game.scores == [5, 3, 5]
    assert game.winners == [0, 2]
    assert game.win_shares == [0.5, 0.0, 0.5]  # the tied winners split one win


@pytest.mark.rule("END-2")
def test_END_2_final_points_decide_the_winner() -> None:
    pos = Position("standard", players=2)
    set_score(pos, 0, 10)
    set_score(pos, 1, 8)
    pos.figures(1, workers={TEMPLE_N: 1, TEMPLE_SE: 1})
    pos.treasures(1, "a")
    stack_of(pos)
    game = scoring(pos, first=0, final=True).game()
    while not game.is_over:
        game.apply(END_TURN)
    assert game.scores == [10, 11]
    assert game.winners == [1]
    assert game.win_shares == [0.0, 1.0]
    assert game.record()["result"] == {"over": True, "scores": [10, 11], "winners": [1]}

