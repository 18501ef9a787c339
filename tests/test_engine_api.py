"""The engine is the one place that knows what an action is: its cost, whether it is legal
(and why not), the spaces it touches and how it reads.  Also the public chance API that
records and replays use, and the log model (action + its chance entries)."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tikal
from positions import Position
from random_games import CONFIG_IDS, CONFIGS, choose, finished, play, state
from test_properties import SEEDS, fast, ill_formed
from tikal import (
    END_TURN,
    PASS,
    Action,
    Bid,
    BuildCamp,
    Dig,
    Draw,
    Game,
    IllegalAction,
    Move,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    Reveal,
    SecretPath,
    Swap,
    TakeTreasure,
    label,
    parse_action,
    rule_set,
)
from tikal.actions import log_steps
from tikal.components import KINDS
from tikal.errors import ChanceError, NotationError
from tikal.messages import Message, catalog, render
from tikal.state import ScoreEvent

configs = pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=CONFIG_IDS)
SRC = Path(tikal.__file__).parent

EVERY_KIND: list[Action] = [
    PlaceTile(parse_action("tile C3 4").cells[0], 4), PickTile("B.2"),
    PutFigure(parse_action("put W A5").cells[0], False), Move.parse("move L A5 A4"),
    SecretPath.parse("path W A5 C2"), Dig.parse("dig B3"), TakeTreasure.parse("take D2"),
    Swap(0, 7, 3), BuildCamp.parse("camp E4"), PlaceGuard.parse("guard L F1"), END_TURN,
    Bid(12), PASS, Draw("C.4"), Reveal(2),
]


# ---------------------------------------------------------------- actions as values


@pytest.mark.parametrize("action", EVERY_KIND, ids=str)
def test_repr_rebuilds_the_action_and_str_is_the_notation(action: Action) -> None:
    namespace = vars(tikal)
    assert eval(repr(action), namespace) == action
    assert repr(action) == f"{type(action).__name__}.parse({str(action)!r})"
    assert parse_action(str(action)) == action


@pytest.mark.parametrize("action", EVERY_KIND, ids=str)
def test_json_round_trip_names_spaces_by_label(action: Action) -> None:
    data = action.to_json()
    assert data["verb"] == action.verb
    assert Action.from_json(data) == action
    labels = [v for k, v in data.items() if k in ("cell", "src", "dst")]
    assert labels == [label(c) for c in action.cells]


def test_parse_on_a_subclass_insists_on_that_kind() -> None:
    assert Dig.parse("dig B3") == Dig(parse_action("dig B3").cells[0])
    with pytest.raises(NotationError, match="is not a 'dig' action"):
        Dig.parse("take B3")
    with pytest.raises(NotationError, match="needs 'dst'"):
        Action.from_json({"verb": "move", "src": "A5", "leader": False})


def test_cells_are_the_spaces_named() -> None:
    move = Move.parse("move W A5 A4")
    assert [label(c) for c in move.cells] == ["A5", "A4"]
    assert [label(c) for c in Dig.parse("dig B3").cells] == ["B3"]
    assert Swap(0, 1, 1).cells == END_TURN.cells == Bid(3).cells == ()
    assert Draw("A.1").is_chance and Reveal(0).is_chance and not move.is_chance


def test_notation_errors_carry_a_message_key() -> None:
    with pytest.raises(NotationError) as info:
        parse_action("fly W A1 B1")
    assert info.value.reason.key == "notation.unknown_verb"
    assert info.value.reason.params["word"] == "fly"
    assert "unknown action 'fly'" in str(info.value)


# ---------------------------------------------------------------- cost, check, describe


def _walk_position() -> Game:
    pos = Position("standard", players=2)
    pos.figures(0, workers={"A5": 2}, leader="A5")
    return pos.game()


def test_cost_of_a_walk_is_the_stones_of_the_edge() -> None:
    game = _walk_position()
    moves = [a for a in game.legal_actions() if a.verb == "move"]
    assert moves
    for move in moves:
        assert game.cost(move) == game.edge_cost(*move.cells) > 0
        trial = game.clone()
        trial.apply(move)
        assert game.ap - trial.ap == game.cost(move)


def test_cost_of_other_actions_is_the_rule_set_price() -> None:
    game = _walk_position()
    costs = game.rules.costs
    assert game.cost(PutFigure(game.basecamp, False)) == costs["put"] == 1
    assert game.cost(Dig.parse("dig B3")) == costs["dig"] == 2
    assert game.cost(END_TURN) == game.cost(PlaceTile(0, 0)) == game.cost(Bid(4)) == 0


def test_check_explains_without_playing() -> None:
    game = _walk_position()
    before = game.to_json()
    refusal = game.check(Dig.parse("dig A5"))
    assert isinstance(refusal, IllegalAction)
    assert refusal.rule == "DIG-1"
    assert refusal.key == "refuse.not_temple_dig"
    assert refusal.params == {"cell": "A5"}
    assert refusal.message == "A5 is not a temple"
    assert game.check(PutFigure(game.basecamp, False)) is None
    assert game.is_legal(PutFigure(game.basecamp, False))
    assert not game.is_legal(Draw("A.1"))
    assert game.to_json() == before


def test_check_can_leave_out_the_action_points() -> None:
    game = _walk_position()
    game.ap = 0
    put = PutFigure(game.basecamp, False)
    refusal = game.check(put)
    assert refusal is not None and refusal.key == "refuse.costs"
    assert refusal.message == "bringing in a figure costs 1 AP, you have 0"
    assert game.check(put, afford=False) is None


@configs
@fast(3)
@given(seed=SEEDS)
def test_check_agrees_with_apply(rules: str, players: int, seed: int) -> None:
    """For legal and ill-formed actions alike: check() refuses exactly what apply() refuses,
    with the same rule and message, and changes nothing."""
    rng = random.Random(seed + 7)
    seen: list[Action] = []
    for game in play(rules, players, seed):
        if game.is_over:
            break
        legal = game.legal_actions()
        seen.extend(rng.sample(legal, min(2, len(legal))))
        if rng.random() > 0.08:
            continue
        candidates = [a for a in ill_formed(game, rng, seen) if isinstance(a, Action)]
        for action in [*rng.sample(legal, min(5, len(legal))), *candidates]:
            before = state(game)
            refusal = game.check(action)
            assert state(game) == before
            assert (refusal is None) == (action in legal), action
            trial = game.clone()
            if refusal is None:
                trial.apply(action)
                continue
            with pytest.raises(IllegalAction) as info:
                trial.apply(action)
            assert (info.value.rule, info.value.message) == (refusal.rule, refusal.message)


@configs
@fast(2)
@given(seed=SEEDS)
def test_every_offer_and_every_logged_action_reads(rules: str, players: int, seed: int) -> None:
    """Every legal action and every history entry renders in both forms, naming its spaces."""
    rng = random.Random(seed)
    for game in play(rules, players, seed):
        if rng.random() > 0.1 or game.is_over:
            continue
        for action in game.legal_actions():
            _assert_reads(game, action)
    for action in game.history:
        _assert_reads(game, action)


def _assert_reads(game: Game, action: Action) -> None:
    message = game.describe(action)
    assert message.key == action.verb.lstrip("*").replace("token", "reveal")
    for form in ("action", "log"):
        text = render(message, form, names=["Ann", "Bo", "Cy", "Di"])
        assert "{" not in text
        for cell in action.cells:
            assert label(cell) in text


def test_describe_gives_key_and_parameters() -> None:
    game = _walk_position()
    move = next(a for a in game.legal_actions() if a.verb == "move" and not a.leader)
    message = game.describe(move)
    src, dst = (label(c) for c in move.cells)
    assert message.key == "move"
    assert message.params["from"] == src and message.params["to"] == dst
    assert message.params["cost"] == game.cost(move)
    assert message.params["figure"] == Message("figure.worker")
    assert render(message, "log") == f"moved a worker {src} \u2192 {dst}"
    assert render(message, "action") == f"move a worker {src} \u2192 {dst}"
    swap = game.describe(Swap(0, 3, 1))
    assert render(swap, "log", names=["Ann", "Bo"]) == "exchanged treasure A for Bo's D"
    assert render(swap, "log") == "exchanged treasure A for seat 1's D"


def test_a_placed_tile_is_described_by_what_was_placed() -> None:
    game = Game.new("standard", 2, seed=3)
    place = game.legal_actions()[0]
    spec = game.tile_to_place()
    assert spec is not None
    before = render(game.describe(place), "log")
    game.apply(place)
    assert render(game.describe(place), "log") == before
    assert before.startswith("placed ") and label(place.cells[0]) in before


# ---------------------------------------------------------------- messages


def _keys_in(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if is_text and re.fullmatch(r"(refuse|notation)\.[a-z_]+", node.value):
            found.add(node.value)
    return found


def test_every_message_key_the_engine_uses_has_english_text() -> None:
    texts = catalog("en")
    used = _keys_in(SRC / "state.py") | _keys_in(SRC / "actions.py")
    assert len(used) > 50
    assert sorted(used - set(texts)) == []
    built = [f"phase.{p.value}" for p in tikal.Phase]
    built += [f"{group}.{kind}" for group in ("kind", "tile") for kind in KINDS]
    built += [f"deed.{verb}" for name in ("standard", "demo") for verb in rule_set(name).costs
              if verb != "move_per_stone"]
    built += [f"{form}.{verb}" for form in ("action", "log") for verb in (
        "tile", "pick", "put", "move", "path", "dig", "take", "swap", "camp", "guard", "end",
        "bid", "pass", "draw", "reveal")]
    assert sorted(set(built) - set(texts)) == []


def test_plural_forms_follow_the_count() -> None:
    one = IllegalAction("DIG-2", "refuse.dig_needs", {"cell": "B3", "need": 1, "have": 0})
    two = IllegalAction("DIG-2", "refuse.dig_needs", {"cell": "B3", "need": 2, "have": 1})
    assert one.message == "digging on B3 needs one own figure there, you have 0"
    assert two.message == "digging on B3 needs 2 own figures there, you have 1"
    assert str(two) == "[DIG-2] digging on B3 needs 2 own figures there, you have 1"


def test_messages_travel_as_json() -> None:
    refusal = _walk_position().check(Dig.parse("dig A5"))
    assert refusal is not None
    data = refusal.reason.to_json()
    assert data == {"key": "refuse.not_temple_dig", "params": {"cell": "A5"}}
    nested = Message("tile", {"tile": Message("tile.temple", {"value": 3}), "cell": "B2"})
    assert Message.from_json(nested.to_json()) == nested


# ---------------------------------------------------------------- chance and the log


def test_log_steps_split_a_log_into_actions_and_their_chance() -> None:
    game = finished("standard", 2, seed=5)
    steps = log_steps(game.history)
    assert steps[0].action is None and steps[0].chance
    assert all(step.action is not None for step in steps[1:])
    flat = [entry for step in steps for entry in ((step.action,) if step.action else ())
            + step.chance]
    assert flat == game.history
    assert all(c.is_chance for step in steps for c in step.chance)
    assert sum(1 for s in steps if s.action == END_TURN) == sum(
        1 for a in game.history if a == END_TURN
    )


@configs
@fast(2)
@given(seed=SEEDS, other=st.integers(min_value=0, max_value=2**16))
def test_naming_the_chance_outcomes_replays_any_game(
    rules: str, players: int, seed: int, other: int
) -> None:
    """A game set up with another seed reproduces a game exactly when each step is given the
    outcomes it must produce (what records and replays do)."""
    original = finished(rules, players, seed)
    steps = log_steps(original.history)
    replay = Game.setup(rules, players, seed=other)
    replay.start(chance=steps[0].chance)
    for step in steps[1:]:
        assert step.action is not None
        replay.apply(step.action, chance=step.chance)
    assert replay.history == original.history
    assert replay.scores == original.scores and replay.is_over


def test_chance_that_cannot_happen_changes_nothing() -> None:
    game = Game.new("standard", 2, seed=1)
    place = game.legal_actions()[0]
    before = game.to_json()
    stack_top = game.stack[-1]
    wrong = next(t for t in game.stack if t[0] != stack_top[0])
    with pytest.raises(ChanceError) as info:
        game.apply(place, chance=[Draw("A.1")])  # placing a tile draws nothing
    assert info.value.offset == 0
    assert game.to_json() == before
    game.apply(place)
    game.apply(END_TURN, chance=[Draw(stack_top)])  # the next tile, named
    assert game.history[-1] == Draw(stack_top)
    game2 = Game.new("standard", 2, seed=1)
    game2.apply(place)
    snapshot = game2.to_json()
    with pytest.raises(ChanceError, match="next tiles are"):
        game2.apply(END_TURN, chance=[Draw(wrong)])
    assert game2.to_json() == snapshot


def test_a_game_starts_once() -> None:
    game = Game.setup("demo", 2, seed=4)
    assert game.history == [] and game.drawn is None
    game.start()
    assert game.history and game.legal_actions()
    with pytest.raises(ValueError, match="already started"):
        game.start()


def test_an_empty_position_holds_only_the_preprinted_tiles() -> None:
    rs = rule_set("standard")
    game = Game.empty(rs, 2, dict(rs.default_options))
    assert {c for c, _ in rs.preprinted} == set(game.tiles)
    assert game.stack == [] and game.token_pool == []
    spec = rs.tile("A.4")
    cell = next(iter(sorted(game.frontier)))
    game.set_tile(cell, spec, 0)
    assert game.tiles[cell].spec == spec and cell not in game.frontier


def test_score_events_round_trip_and_read() -> None:
    event = ScoreEvent(1, 0, 12, 5, 40)
    assert event.to_json() == {"round": 1, "player": 0, "temples": 12, "treasures": 5, "at": 40}
    assert ScoreEvent.from_json(event.to_json()) == event and event.total == 17
    text = render(event.describe(), "log")
    assert text == "scored 17 (temples 12, treasures 5) in scoring round 1"


def test_tiles_read_by_kind() -> None:
    game = Game.new("standard", 2, seed=0)
    assert render(game.describe_tile("A.4")) == "temple 2"
    masks = game.rules.tile("A.5").masks
    assert render(game.describe_tile("A.5")) == f"treasure ({masks} masks)"


def test_choose_helper_ends_turns() -> None:
    game = Game.new("demo", 2, seed=2)
    rng = random.Random(0)
    actions = {choose(game, rng) for _ in range(20)}
    assert actions <= set(game.legal_actions())
