"""Property tests over random games of every rule set and player count.

A hypothesis example is a seed: it fixes the shuffle and the random legal play
(``random_games.play``).  The invariants below must hold in every reachable
position, whatever the seed.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from random_games import (
    CONFIG_IDS,
    CONFIGS,
    choose,
    finished,
    perturb_hidden,
    play,
    state,
    token_counter,
)
from tikal import (
    END_TURN,
    PASS,
    Action,
    Bid,
    BuildCamp,
    Dig,
    Draw,
    EndTurn,
    Game,
    IllegalAction,
    Move,
    Pass,
    Phase,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    Reveal,
    SecretPath,
    Swap,
    TakeTreasure,
)
from tikal.hexes import STEP, parse_label

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
configs = pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=CONFIG_IDS)


def fast(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
        database=None,
    )


def terrain_count(game: Game) -> int:
    return len(game.rules.terrain)


# ---------------------------------------------------------------- invariants


def check_invariants(game: Game) -> None:
    rs = game.rules
    tiles = game.tiles
    # figures: supply + board + out is the whole set, counted independently as well
    for p in range(game.players):
        supply, board, out = game.figures_total(p)
        assert min(supply, board, out) >= 0
        assert supply + board + out == rs.figures_per_player == (13 if rs.name == "demo" else 19)
        on_board = sum(game.workers[p].values()) + (game.leader[p] >= 0)
        guards = sum(1 for owner, _ in game.guards.values() if owner == p)
        in_supply = game.supply[p] + (game.leader[p] == -1)
        assert in_supply + on_board + guards + game.out[p] == rs.figures_per_player
        # no figure on a volcano, nor off the placed tiles
        for cell, count in game.workers[p].items():
            assert count > 0
            assert cell in tiles and tiles[cell].kind != "volcano"
        if game.leader[p] >= 0:
            assert tiles[game.leader[p]].kind != "volcano"
        # score = start + everything scored - everything bid
        scored = sum(e.total for e in game.score_events if e.player == p)
        assert game.scores[p] == rs.starting_score + scored - game.bids_paid[p]
        assert game.scores[p] >= 0
    # treasure tokens: hidden on tiles + hidden in the pool + held
    assert token_counter(game) == {t: rs.token_copies for t in range(rs.token_types)}
    assert sum(token_counter(game).values()) == (8 if rs.name == "demo" else 24)
    for cell in game.tokens:
        assert tiles[cell].kind == "treasure"
    # temple level tiles: the supply plus every level dug
    dug = Counter(
        v for cell, top in game.levels.items() for v in range(tiles[cell].spec.value + 1, top + 1)
    )
    for v in range(2, 11):
        assert game.level_supply[v] >= 0
        assert game.level_supply[v] + dug[v] == rs.level_supply[v]
    assert sum(game.level_supply) + sum(dug.values()) == (0 if rs.name == "demo" else 48)
    # action points
    assert 0 <= game.ap <= rs.action_points
    # terrain tiles: placed + discarded + still to come
    waiting = len(game.stack) + len(game.display) + (game.drawn is not None)
    waiting += game.volcano is not None
    assert game.tiles_placed + game.tiles_discarded + waiting == terrain_count(game)
    assert len(tiles) == game.tiles_placed + len(rs.preprinted)
    # guards stand on temples, camps on jungles or emptied treasure tiles
    for cell, (owner, _) in game.guards.items():
        assert tiles[cell].kind == "temple" and 0 <= owner < game.players
    for cell in game.camps:
        assert tiles[cell].kind in ("jungle", "treasure") and not game.tokens.get(cell)
    assert all(len(game.own_camps(p)) <= rs.camps_max for p in range(game.players))
    assert all(game.guards_of(p) <= rs.guards_max for p in range(game.players))


def check_finished(game: Game) -> None:
    rs = game.rules
    assert game.is_over
    assert game.legal_actions() == []
    assert game.scoring_rounds == (2 if rs.name == "demo" else 4)
    assert game.tiles_placed + game.tiles_discarded == (14 if rs.name == "demo" else 36)
    assert not game.stack and not game.display and game.drawn is None
    # every player scored exactly once in every round
    rounds = Counter((e.round, e.player) for e in game.score_events)
    assert rounds == Counter(
        {(r, p): 1 for r in range(1, game.scoring_rounds + 1) for p in range(game.players)}
    )
    best = max(game.scores)
    assert game.winners == [p for p in range(game.players) if game.scores[p] == best]


@configs
@fast(4)
@given(seed=SEEDS)
def test_invariants_hold_in_every_position(rules: str, players: int, seed: int) -> None:
    game = None
    for game in play(rules, players, seed):
        check_invariants(game)
        assert len(set(game.legal_actions())) == len(game.legal_actions())
    assert game is not None
    check_finished(game)


# ---------------------------------------------------------------- records


@configs
@fast(4)
@given(seed=SEEDS, cut=st.floats(min_value=0.0, max_value=1.2))
def test_record_replays_to_identical_state(
    rules: str, players: int, seed: int, cut: float
) -> None:
    steps = int(cut * (90 if rules == "demo" else 350))
    game = finished(rules, players, seed, max_steps=steps)
    record = game.record()
    replayed = Game.from_record(record)
    assert state(replayed) == state(game)
    through_json = Game.from_record(json.loads(json.dumps(record)))
    assert state(through_json) == state(game)
    # the replayed game goes on exactly like the original
    assert replayed.legal_actions() == game.legal_actions()
    # and the position snapshot survives JSON too
    snapshot = json.loads(json.dumps(game.to_json()))
    assert Game.from_json(snapshot).to_json() == game.to_json()


# ---------------------------------------------------------------- legality


def candidate_actions(game: Game, rng: random.Random) -> list[Action]:
    """Plausible actions for ``game``: many well-formed, most of them illegal now."""
    rs = game.rules
    cells = sorted(game.tiles)
    frontier = sorted(game.frontier)
    odd = [parse_label("H1"), parse_label("5,-3"), -1, 10**6]  # off the board, nonsense
    found: list[Action] = [END_TURN, PASS]
    for cell in cells + odd:
        found += [Dig(cell), TakeTreasure(cell), BuildCamp(cell), PlaceTile(cell, 0)]
        for leader in (False, True):
            found += [PutFigure(cell, leader), PlaceGuard(cell, leader)]
            found += [Move(cell, cell + step, leader) for step in STEP]
    for cell in frontier:
        found += [PlaceTile(cell, r) for r in range(-1, 7)]
    ends = [game.basecamp, *game.camps]
    ends += [c for c in cells if game.tiles[c].kind == "jungle"][:2]
    for src in ends:
        for dst in ends:
            found += [SecretPath(src, dst, False), SecretPath(src, dst, True)]
    kinds = range(-1, rs.token_types + 1)
    found += [
        Swap(give, take, other)
        for give in kinds
        for take in kinds
        for other in range(-1, game.players + 1)
        if rng.random() < 0.15
    ]
    found += [Bid(k) for k in range(-1, max(game.scores) + 2)]
    found += [PickTile(t) for t in [*game.display, *game.stack[-2:], *game.discarded[:2], "Z.9"]]
    return found


@configs
@fast(3)
@given(seed=SEEDS)
def test_legal_actions_are_exact(rules: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    for game in play(rules, players, seed):
        if game.is_over or rng.random() > 0.08:
            continue
        legal = game.legal_actions()
        legal_set = set(legal)
        for action in legal:  # every listed action can be played
            game.clone().apply(action)
        before = state(game)
        for action in candidate_actions(game, rng):
            if action in legal_set:
                continue
            with pytest.raises(IllegalAction):
                game.apply(action)
        assert state(game) == before


def ill_formed(game: Game, rng: random.Random, foreign: list[Action]) -> list[object]:
    """Actions of other positions, chance events, garbage text and non-actions."""
    picks = rng.sample(foreign, min(len(foreign), 25))
    text = [
        "", "fly W A1 B1", "move W A5", "tile Z9 0", "tile A1 x", "bid x", "swap a b c",
        "put Q A5", "guard W", "*draw A.1", "*token a", "end now",
    ]
    chance = [Draw(game.stack[-1]) if game.stack else Draw("A.1"), Reveal(0)]
    return [*picks, *rng.sample(text, 4), *chance, None, 42, object()]


@configs
@fast(3)
@given(seed=SEEDS)
def test_illegal_actions_change_nothing(rules: str, players: int, seed: int) -> None:
    rng = random.Random(seed + 1)
    seen: list[Action] = []
    for game in play(rules, players, seed):
        if game.is_over:
            break
        legal = game.legal_actions()
        if rng.random() < 0.15:
            seen.extend(rng.sample(legal, min(3, len(legal))))
        if rng.random() > 0.1:
            continue
        legal_set = set(legal)
        for action in ill_formed(game, rng, seen):
            if action in legal_set:
                continue
            before = state(game)
            with pytest.raises(IllegalAction):
                game.apply(action)  # type: ignore[arg-type]
            assert state(game) == before, action


# ---------------------------------------------------------------- hidden information


@configs
@fast(3)
@given(seed=SEEDS)
def test_views_never_depend_on_hidden_parts(rules: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    for game in play(rules, players, seed):
        if rng.random() > 0.05 and not game.is_over:
            continue
        other = perturb_hidden(game, rng)
        assert other.to_json() != game.to_json() or not (game.stack or game.token_pool)
        for viewer in [None, *range(players)]:
            view = game.view(viewer)
            mine = view.to_json()
            assert mine == other.view(viewer).to_json()
            assert view.legal_actions() == game.legal_actions()
            assert "seed" not in mine
            assert all(isinstance(e.get("tokens", 0), int) for e in mine["board"])
            assert isinstance(mine["token_pool"], int)


# ---------------------------------------------------------------- undo


UNDOABLE = (Phase.TILE, Phase.TURN, Phase.SCORING, Phase.PICK)


@configs
@fast(3)
@given(seed=SEEDS)
def test_undo_restores_previous_state_and_is_refused_after_a_reveal(
    rules: str, players: int, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game.new(rules, players=players, seed=seed)
    trail: list[tuple[tuple[object, ...], Action]] = []  # states since the last barrier
    undone = 0
    while not game.is_over:
        phase = game.phase
        action = choose(game, rng)
        before = state(game)
        length = len(game.history)
        game.apply(action)
        revealed = len(game.history) > length + 1
        barrier = revealed or isinstance(action, (EndTurn, Bid, Pass)) or phase not in UNDOABLE
        if barrier:
            trail = []
            assert not game.can_undo()
            after = state(game)
            with pytest.raises(IllegalAction):
                game.undo()
            assert state(game) == after
            continue
        trail.append((before, action))
        assert game.can_undo()
        if rng.random() < 0.25:
            for _ in range(rng.randint(1, len(trail))):
                previous, last = trail.pop()
                assert game.undo() == last
                assert state(game) == previous
                undone += 1
            assert game.can_undo() == bool(trail)
    check_invariants(game)
    check_finished(game)
    # the game with its undos replays from its record like any other
    assert state(Game.from_record(game.record())) == state(game)
