"""The auction variant: [AUC-1..9]."""

from __future__ import annotations

import pytest

from positions import Position
from tikal import (
    END_TURN,
    PASS,
    Bid,
    Draw,
    Game,
    IllegalAction,
    Phase,
    PickTile,
    PlaceTile,
)


def new(players: int, seed: int = 3) -> Game:
    return Game.new("auction", players=players, seed=seed)


def take_turn(game: Game, tile: str | None = None) -> int:
    """The auction winner picks ``tile`` (default: the first shown), places it, ends the turn."""
    assert game.phase is Phase.PICK
    player = game.current
    game.apply(PickTile(tile or game.display[0]))
    if game.phase is Phase.SCORING:
        while game.phase is Phase.SCORING:
            game.apply(END_TURN)
    assert game.phase is Phase.TILE and game.current == player
    game.apply(game.legal_actions()[0])
    assert game.phase is Phase.TURN and game.current == player
    game.apply(END_TURN)
    return player


def auction_position(players: int, markers: list[bool], current: int, stack: list[str]) -> Game:
    """Seat ``current`` is in a normal turn with ``markers``; ``stack`` is what is left."""
    pos = Position("auction", players=players)
    pos.discard(*[t for t in pos.data["stack"] if t not in stack]).next_tiles(*stack)
    pos.set(current=current, markers=markers, last_placer=current)
    return pos.game()


def set_scores(game: Game, scores: list[int]) -> Game:
    data = game.to_json()
    for p, s in enumerate(scores):
        data["figures"][p]["score"] = s
    return Game.from_json(data)


# ---------------------------------------------------------------- AUC-1


@pytest.mark.rule("AUC-1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_AUC_1_scores_start_at_20_and_markers_face_up(players: int) -> None:
    game = new(players)
    assert game.scores == [20] * players
    assert game.markers == [True] * players
    assert game.bids_paid == [0] * players
    assert Game.new("standard", players=players).scores == [0] * players


@pytest.mark.rule("AUC-1")
def test_AUC_1_score_is_the_bidding_capital() -> None:
    game = new(2)
    game.apply(Bid(20))  # the whole capital may be bid
    game.apply(PASS)
    assert game.phase is Phase.PICK and game.current == 0
    assert game.scores == [0, 20]
    assert game.bids_paid == [20, 0]


# ---------------------------------------------------------------- AUC-2


@pytest.mark.rule("AUC-2")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_AUC_2_round_reveals_one_tile_per_player_then_auctions(players: int) -> None:
    game = new(players)
    assert len(game.display) == players
    assert {t[0] for t in game.display} == {"A"}  # the top of the stack
    assert game.history == [Draw(t) for t in game.display]
    assert not set(game.display) & set(game.stack)
    assert len(game.stack) == 36 - players
    assert game.drawn is None
    assert game.phase is Phase.AUCTION
    assert game.bid_order == list(range(players))
    assert not any(isinstance(a, PlaceTile) for a in game.legal_actions())


@pytest.mark.rule("AUC-2")
def test_AUC_2_fewer_tiles_when_the_stack_runs_short() -> None:
    game = auction_position(3, [True, False, False], current=0, stack=["G.1", "G.2"])
    game.apply(END_TURN)
    assert game.display == ["G.1", "G.2"]
    assert game.stack == []
    assert game.markers == [True, True, True]
    assert game.phase is Phase.AUCTION


# ---------------------------------------------------------------- AUC-3


@pytest.mark.rule("AUC-3")
def test_AUC_3_opener_bids_first_then_clockwise() -> None:
    game = new(4)
    assert game.current == 0
    seen = []
    for amount in range(4):
        seen.append(game.current)
        game.apply(Bid(amount))
    assert seen == [0, 1, 2, 3]
    assert game.current == 0  # back to the opener, who is outbid


@pytest.mark.rule("AUC-3")
def test_AUC_3_bid_must_beat_the_highest_bid() -> None:
    game = new(3)
    game.apply(Bid(5))
    before = game.to_json()
    for low in (0, 4, 5):
        with pytest.raises(IllegalAction) as info:
            game.apply(Bid(low))
        assert info.value.rule == "AUC-3"
    assert game.to_json() == before
    legal = game.legal_actions()
    assert Bid(5) not in legal and Bid(6) in legal and PASS in legal
    game.apply(Bid(6))
    assert game.high_bid == 6 and game.high_bidder == 1


@pytest.mark.rule("AUC-3")
def test_AUC_3_zero_bid_allowed() -> None:
    game = new(2)
    assert Bid(0) in game.legal_actions()
    game.apply(Bid(0))
    game.apply(PASS)
    assert game.phase is Phase.PICK and game.current == 0
    assert game.scores == [20, 20]


@pytest.mark.rule("AUC-3")
def test_AUC_3_bid_may_not_exceed_own_score() -> None:
    game = set_scores(new(2), [4, 20])
    legal = game.legal_actions()
    assert Bid(4) in legal and Bid(5) not in legal
    with pytest.raises(IllegalAction) as info:
        game.apply(Bid(5))
    assert info.value.rule == "AUC-3"
    game.apply(Bid(4))
    game.apply(Bid(5))  # seat 1 has 20: fine
    # seat 0 cannot go higher than 4: only passing is left
    assert game.current == 0
    assert game.legal_actions() == [PASS]


@pytest.mark.rule("AUC-3")
def test_AUC_3_pass_is_final_and_highest_bidder_wins_when_all_others_passed() -> None:
    game = new(3)
    game.apply(PASS)  # seat 0
    game.apply(Bid(1))  # seat 1
    game.apply(Bid(2))  # seat 2
    assert game.current == 1  # seat 0 passed: skipped for the rest of this auction
    game.apply(Bid(3))
    assert game.current == 2
    game.apply(PASS)
    assert game.phase is Phase.PICK
    assert game.current == 1
    assert game.scores == [20, 17, 20]


@pytest.mark.rule("AUC-3")
def test_AUC_3_auction_goes_on_while_two_bidders_remain() -> None:
    game = new(2)
    for amount in range(6):
        assert game.phase is Phase.AUCTION
        game.apply(Bid(amount))
    assert game.current == 0 and game.high_bid == 5 and game.high_bidder == 1
    game.apply(PASS)
    assert game.phase is Phase.PICK and game.current == 1
    assert game.scores == [20, 15]


# ---------------------------------------------------------------- AUC-4


@pytest.mark.rule("AUC-4")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_AUC_4_nobody_bids_first_passer_gets_turn_free(players: int) -> None:
    game = new(players)
    for _ in range(players):
        assert game.phase is Phase.AUCTION
        game.apply(PASS)
    assert game.phase is Phase.PICK
    assert game.current == 0
    assert game.scores == [20] * players
    assert game.bids_paid == [0] * players


@pytest.mark.rule("AUC-4")
def test_AUC_4_first_passer_of_a_later_auction() -> None:
    game = new(3)
    for _ in range(3):
        game.apply(PASS)
    take_turn(game)  # seat 0 played; seat 1 opens the next auction
    assert game.current == 1
    game.apply(PASS)
    game.apply(PASS)
    assert game.phase is Phase.PICK and game.current == 1
    assert game.scores == [20, 20, 20]


# ---------------------------------------------------------------- AUC-5


@pytest.mark.rule("AUC-5")
def test_AUC_5_winner_pays_picks_places_and_takes_10_ap() -> None:
    game = new(3)
    game.apply(PASS)
    game.apply(Bid(7))
    game.apply(PASS)
    assert game.phase is Phase.PICK and game.current == 1
    assert game.scores == [20, 13, 20]
    assert game.bids_paid == [0, 7, 0]
    shown = list(game.display)
    assert game.legal_actions() == [PickTile(t) for t in sorted(set(shown))]
    with pytest.raises(IllegalAction) as info:
        game.apply(PickTile(game.stack[-1]))  # not on display
    assert info.value.rule == "AUC-5"
    chosen = shown[-1]
    game.apply(PickTile(chosen))
    assert game.display == shown[:-1]
    assert game.phase is Phase.TILE and game.drawn == chosen and game.current == 1
    game.apply(game.legal_actions()[0])
    assert game.phase is Phase.TURN and game.ap == 10 and game.current == 1
    assert game.markers == [True, True, True]
    game.apply(END_TURN)
    assert game.markers == [True, False, True]
    assert 1 not in game.bid_order


@pytest.mark.rule("AUC-5")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_AUC_5_each_player_wins_one_turn_per_round(players: int) -> None:
    game = new(players)
    for _round in range(3):
        turns = []
        for _ in range(players):
            while game.phase is Phase.AUCTION:
                game.apply(PASS)
            turns.append(take_turn(game))
        assert sorted(turns) == list(range(players))


# ---------------------------------------------------------------- AUC-6


@pytest.mark.rule("AUC-6")
def test_AUC_6_next_auction_opened_after_last_turn_player_skipping_face_down() -> None:
    game = new(4)
    game.apply(PASS)  # 0
    game.apply(Bid(0))  # 1
    game.apply(PASS)  # 2
    game.apply(PASS)  # 3
    assert take_turn(game) == 1
    assert game.markers == [True, False, True, True]
    assert game.current == 2 and game.bid_order == [2, 3, 0]
    game.apply(PASS)  # 2
    game.apply(PASS)  # 3
    game.apply(Bid(0))  # 0
    assert take_turn(game) == 0
    # seat 1 (next after 0) already played this round: seat 2 opens
    assert game.markers == [False, False, True, True]
    assert game.current == 2 and game.bid_order == [2, 3]


@pytest.mark.rule("AUC-6")
def test_AUC_6_last_player_of_round_takes_last_tile_free() -> None:
    game = new(3)
    game.apply(Bid(3))
    game.apply(PASS)
    game.apply(PASS)
    take_turn(game)
    game.apply(Bid(2))
    game.apply(PASS)
    take_turn(game)
    assert game.markers == [False, False, True]
    assert len(game.display) == 1
    # no auction: seat 2 picks straight away and pays nothing
    assert game.phase is Phase.PICK and game.current == 2
    assert game.legal_actions() == [PickTile(game.display[0])]
    assert game.scores == [17, 18, 20]
    take_turn(game)
    assert game.scores == [17, 18, 20]


# ---------------------------------------------------------------- AUC-7


@pytest.mark.rule("AUC-7")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_AUC_7_new_round_markers_up_opened_by_left_of_last_player(players: int) -> None:
    game = new(players)
    stack = len(game.stack)
    last = None
    while len(game.stack) == stack:
        while game.phase is Phase.AUCTION:
            game.apply(PASS)
        last = take_turn(game)
    assert last is not None
    assert game.markers == [True] * players
    assert len(game.display) == players
    assert len(game.stack) == stack - players
    assert game.phase is Phase.AUCTION
    assert game.current == (last + 1) % players
    assert game.bid_order == [(last + 1 + i) % players for i in range(players)]


@pytest.mark.rule("AUC-7")
def test_AUC_7_opener_follows_the_last_turn_not_the_previous_opener() -> None:
    game = auction_position(3, [False, True, False], current=1, stack=["C.1", "C.2", "C.3"])
    game.apply(END_TURN)
    assert game.markers == [True, True, True]
    assert game.display == ["C.1", "C.2", "C.3"]
    assert game.current == 2


# ---------------------------------------------------------------- AUC-8


@pytest.mark.rule("AUC-8")
def test_AUC_8_volcano_from_display_scores_chooser_first_markers_unchanged() -> None:
    game = auction_position(
        3, [True, False, False], current=0, stack=["B.1", "B.2", "B.3", "C.1", "C.2", "C.3"]
    )
    game.apply(END_TURN)  # new round, seat 1 opens
    assert game.display == ["B.1", "B.2", "B.3"]
    game.apply(PASS)  # 1
    game.apply(Bid(0))  # 2
    game.apply(PASS)  # 0
    assert game.phase is Phase.PICK and game.current == 2
    game.apply(PickTile("B.1"))
    assert game.phase is Phase.SCORING
    assert game.scoring_queue == [2, 0, 1]
    assert game.current == 2
    assert game.scoring_rounds == 1
    scorers = []
    while game.phase is Phase.SCORING:
        assert game.markers == [True, True, True]
        scorers.append(game.current)
        game.apply(END_TURN)
    assert scorers == [2, 0, 1]
    assert game.markers == [True, True, True]
    assert game.display == ["B.2", "B.3"]
    assert game.phase is Phase.TILE and game.current == 2 and game.drawn == "B.1"
    game.apply(game.legal_actions()[0])
    assert game.phase is Phase.TURN and game.ap == 10 and game.current == 2
    game.apply(END_TURN)
    assert game.markers == [True, True, False]
    assert game.phase is Phase.AUCTION and game.current == 0


# ---------------------------------------------------------------- AUC-9


@pytest.mark.rule("AUC-9")
def test_AUC_9_final_round_lowest_score_first_ties_after_last_placer() -> None:
    game = auction_position(4, [True, False, False, False], current=0, stack=["G.3"])
    game = set_scores(game, [12, 30, 12, 5])
    game.apply(END_TURN)  # new round with one tile; seat 1 opens
    for _ in range(4):
        game.apply(PASS)
    assert game.phase is Phase.PICK and game.current == 1
    take_turn(game)  # seat 1 placed the last tile
    assert game.phase is Phase.SCORING and game.scoring_final
    # 5 (seat 3), then the 12s: seat 2 is nearer after seat 1 than seat 0, then 30
    assert game.scoring_queue == [3, 2, 0, 1]
    scorers = []
    while not game.is_over:
        scorers.append(game.current)
        assert game.ap == 10
        game.apply(END_TURN)
    assert scorers == [3, 2, 0, 1]


@pytest.mark.rule("AUC-9")
def test_AUC_9_all_tied_start_after_last_placer() -> None:
    game = auction_position(3, [False, False, True], current=2, stack=[])
    game.apply(END_TURN)
    assert game.scoring_final
    assert game.scoring_queue == [0, 1, 2]
    game = auction_position(3, [True, False, False], current=0, stack=[])
    game = set_scores(game, [9, 9, 9])
    game.apply(END_TURN)
    assert game.scoring_queue == [1, 2, 0]
