"""Hidden information [HIDDEN-1]: views show the public position and nothing else.

Hidden are the order of the tile stack and the types of face-down treasure
tokens.  Two games that differ only there must give identical views, to every
seat and to spectators; a determinized game must keep everything public.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from positions import Position
from random_games import (
    CONFIG_IDS,
    CONFIGS,
    finished,
    hidden_tokens,
    letter_groups,
    perturb_hidden,
    play,
)
from tikal import Draw, Game, IllegalAction, Phase, Reveal, TakeTreasure
from tikal.hexes import parse_label
from tikal.position import position_to_json

configs = pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=CONFIG_IDS)


def viewers(game: Game) -> list[int | None]:
    return [None, *range(game.players)]


def shuffled_within_letters(stack: list[str], rng: random.Random) -> list[str]:
    """A snapshot stack (next draw first) in another order inside each letter group."""
    groups: dict[str, list[str]] = {}
    for tile_id in stack:
        groups.setdefault(tile_id[0], []).append(tile_id)
    result: list[str] = []
    for letter in sorted(groups):
        group = groups[letter]
        rng.shuffle(group)
        result.extend(group)
    return result


def twin_positions() -> tuple[Game, Game]:
    """Two 3-player games equal in every public part, different in every hidden part."""
    games = []
    for seed, tokens in ((1, ("abcd", "eef")), (2, ("hgfe", "dcb"))):
        pos = Position("standard", players=3, seed=seed)
        pos.tile("C4", "A.2", tokens=tokens[0])  # treasure, 4 tokens
        pos.tile("C5", "B.5", tokens=tokens[1])  # treasure, 4 masks, 3 tokens left
        pos.tile("B3", "A.4")  # temple
        pos.figures(0, workers={"C4": 2}, leader="B3")
        pos.figures(1, workers={"C5": 1, "A5": 3})
        pos.treasures(2, "gg")  # recovered: public
        pos.data["token_pool"] = "".join(sorted(pos.data["token_pool"], reverse=seed == 2))
        pos.data["stack"] = shuffled_within_letters(pos.data["stack"], random.Random(seed))
        games.append(pos.game())
    return games[0], games[1]


@pytest.mark.rule("HIDDEN-1")
def test_HIDDEN_1_twins_differ_in_hidden_parts_only() -> None:
    a, b = twin_positions()
    full_a, full_b = a.to_json(), b.to_json()
    assert full_a["stack"] != full_b["stack"]
    assert full_a["token_pool"] != full_b["token_pool"]
    tokens = [[e.get("tokens") for e in g["board"]] for g in (full_a, full_b)]
    assert tokens[0] != tokens[1]
    assert position_to_json(a, public=True) == position_to_json(b, public=True)


@pytest.mark.rule("HIDDEN-1")
def test_HIDDEN_1_views_of_twin_games_are_equal() -> None:
    a, b = twin_positions()
    for viewer in viewers(a):
        assert a.view(viewer).to_json() == b.view(viewer).to_json()
        # the game object a bot receives hides them too
        assert a.view(viewer).state.to_json() == b.view(viewer).state.to_json()


@pytest.mark.rule("HIDDEN-1")
def test_HIDDEN_1_views_still_differ_when_public_parts_differ() -> None:
    a, _ = twin_positions()
    data = a.to_json()
    data["figures"][2]["treasures"] = "gh"  # a recovered token is public
    data["token_pool"] = data["token_pool"].replace("h", "g", 1)
    other = Game.from_json(data)
    assert a.view(0).to_json() != other.view(0).to_json()


@pytest.mark.rule("HIDDEN-1")
def test_HIDDEN_1_view_shows_counts_not_types_or_order() -> None:
    a, _ = twin_positions()
    full = a.to_json()
    view = a.view(1).to_json()
    assert view["viewer"] == 1
    assert "seed" not in view
    assert view["token_pool"] == len(full["token_pool"])
    board = {e["at"]: e for e in view["board"]}
    assert board["C4"]["tokens"] == 4 and board["C5"]["tokens"] == 3
    assert view["stack"] == dict(sorted(Counter(t[0] for t in full["stack"]).items()))
    assert view["unseen_tiles"] == sorted(full["stack"])
    # everything on the board and every recovered token stays visible
    assert view["figures"] == full["figures"]
    for entry in full["board"]:
        public = {k: v for k, v in entry.items() if k != "tokens"}
        assert {k: v for k, v in board[entry["at"]].items() if k != "tokens"} == public
    assert view["legal"] == [str(x) for x in a.legal_actions()]


@pytest.mark.rule("HIDDEN-1")
def test_HIDDEN_1_recovered_token_becomes_public() -> None:
    a, b = twin_positions()
    for game in (a, b):
        game.apply(TakeTreasure(parse_label("C4")))
    assert a.history[-1] == Reveal(3)  # "abcd": the last letter is on top
    assert b.history[-1] == Reveal(4)  # "hgfe"
    assert a.view(2).to_json() != b.view(2).to_json()
    assert a.view(2).to_json()["figures"][0]["treasures"] == "d"
    # and undo cannot take back what was revealed
    assert not a.can_undo()
    with pytest.raises(IllegalAction) as info:
        a.undo()
    assert info.value.rule == "HIDDEN-1"


@pytest.mark.rule("HIDDEN-1")
def test_HIDDEN_1_chance_events_cannot_be_played() -> None:
    game = Game.new("standard", players=2, seed=1)
    before = game.to_json()
    for event in (Draw(game.stack[-1]), Reveal(0), "*draw A.1", "*token a"):
        with pytest.raises(IllegalAction) as info:
            game.apply(event)
        assert info.value.rule == "HIDDEN-1"
    assert game.to_json() == before


@pytest.mark.rule("HIDDEN-1")
@configs
@settings(max_examples=2, deadline=None, database=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_HIDDEN_1_views_in_random_games(rules: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    for game in play(rules, players, seed):
        if rng.random() > 0.04 and game.phase is not Phase.OVER:
            continue
        twin = perturb_hidden(game, rng)
        for viewer in viewers(game):
            view = game.view(viewer)
            assert view.to_json() == twin.view(viewer).to_json()
            assert view.state.to_json() == twin.view(viewer).state.to_json()


# ---------------------------------------------------------------- determinize


def check_determinized(game: Game, sample: Game) -> None:
    """``sample`` agrees with ``game`` on everything public."""
    assert position_to_json(sample, public=True) == position_to_json(game, public=True)
    assert letter_groups(sample) == letter_groups(game)
    assert Counter(sample.stack) == Counter(game.stack)
    assert {c: len(t) for c, t in sample.tokens.items()} == {
        c: len(t) for c, t in game.tokens.items()
    }
    assert Counter(hidden_tokens(sample)) == Counter(hidden_tokens(game))
    assert sample.history == game.history
    assert sample.score_events == game.score_events
    assert sample.legal_actions() == game.legal_actions()


@pytest.mark.rule("HIDDEN-1")
@configs
def test_HIDDEN_1_determinize_keeps_public_parts_and_letter_groups(
    rules: str, players: int
) -> None:
    game = finished(rules, players, seed=31, max_steps=30)
    view = game.view(game.current)
    stacks, tokens = set(), set()
    for k in range(8):
        sample = view.determinize(random.Random(k))
        check_determinized(game, sample)
        stacks.add(tuple(sample.stack))
        tokens.add(tuple(hidden_tokens(sample)))
        # the sample is a full game: it can be played on
        for action in sample.legal_actions()[:1]:
            sample.apply(action)
    # it really samples: the hidden parts vary between draws
    assert len(stacks) > 1
    if rules != "demo":  # demo tokens are all alike
        assert len(tokens) > 1
    # the same rng seed gives the same sample
    one, two = view.determinize(5), view.determinize(5)
    assert one.to_json() == two.to_json()


@pytest.mark.rule("HIDDEN-1")
def test_HIDDEN_1_determinize_of_twins_samples_alike() -> None:
    a, b = twin_positions()
    for k in range(3):
        sa = a.view(0).determinize(random.Random(k))
        sb = b.view(0).determinize(random.Random(k))
        assert sa.to_json() == sb.to_json()
        check_determinized(a, sa)


@pytest.mark.rule("HIDDEN-1")
def test_HIDDEN_1_determinized_game_plays_to_the_end() -> None:
    game = finished("standard", 3, seed=2, max_steps=60)
    sample = game.view(0).determinize(random.Random(1))
    rng = random.Random(0)
    while not sample.is_over:
        sample.apply(rng.choice(sample.legal_actions()))
    assert sample.scoring_rounds == 4


def test_view_rejects_unknown_seat() -> None:
    game = Game.new("demo", players=2, seed=0)
    for seat in (-1, 2):
        with pytest.raises(ValueError):
            game.view(seat)

