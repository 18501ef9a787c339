"""Game records, position snapshots and the action notation.

Round trips (record -> game, position -> game, action -> text -> action), and
the errors a broken record or snapshot raises: ``RecordError.index`` is the
log entry at fault, ``PositionError.field`` the snapshot field at fault.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from random_games import CONFIG_IDS, CONFIGS, choose, finished, play, state
from tikal import (
    Draw,
    Game,
    IllegalAction,
    Phase,
    PositionError,
    RecordError,
    Reveal,
    parse_action,
)

configs = pytest.mark.parametrize(("rules", "players"), CONFIGS, ids=CONFIG_IDS)


def replay_error(record: dict[str, Any]) -> RecordError:
    with pytest.raises(RecordError) as info:
        Game.from_record(record)
    return info.value


def with_log(record: dict[str, Any], log: list[Any]) -> dict[str, Any]:
    """The record with another log (its now-stale scoring and result dropped)."""
    broken = copy.deepcopy(record)
    broken["log"] = log
    broken.pop("scoring", None)
    broken.pop("result", None)
    return broken


def indices(log: list[str], prefix: str) -> list[int]:
    return [i for i, entry in enumerate(log) if entry.startswith(prefix)]


def action_indices(log: list[str]) -> list[int]:
    return [i for i, entry in enumerate(log) if not entry.startswith("*")]


# ---------------------------------------------------------------- record round trips


@configs
def test_finished_record_round_trip(rules: str, players: int) -> None:
    game = finished(rules, players, seed=11)
    record = game.record()
    again = Game.from_record(json.loads(json.dumps(record)))
    assert state(again) == state(game)
    assert again.record() == record
    assert record["result"] == {"over": True, "scores": game.scores, "winners": game.winners}
    # every scoring event points at the "end" that closed its scoring turn
    for event in record["scoring"]:
        assert record["log"][event["at"]] == "end"


@configs
def test_every_prefix_of_a_record_is_a_game_in_progress(rules: str, players: int) -> None:
    game = finished(rules, players, seed=5, max_steps=120)
    log = game.record()["log"]
    rng = random.Random(1)
    cuts = sorted(rng.sample(range(1, len(log) + 1), 12))
    for cut in cuts:
        # a cut inside a chance run is incomplete, the game itself would produce more
        if cut < len(log) and log[cut].startswith("*"):
            continue
        partial = Game.from_record(with_log(game.record(), log[:cut]))
        assert [str(a) for a in partial.history] == log[:cut]


def test_record_of_a_new_game_replays() -> None:
    for rules, players in CONFIGS:
        game = Game.new(rules, players=players, seed=3)
        assert state(Game.from_record(game.record())) == state(game)


# ---------------------------------------------------------------- corrupted records


@configs
def test_illegal_action_in_record_names_its_index(rules: str, players: int) -> None:
    game = finished(rules, players, seed=21)
    record = game.record()
    log = record["log"]
    rng = random.Random(2)
    for i in rng.sample(action_indices(log), 6):
        before = Game.from_record(with_log(record, log[:i]))
        legal = {str(a) for a in before.legal_actions()}
        bad = next(
            text
            for text in ("bid 999", "move W A1 H5", "dig H5", "pick Z.9", "tile A1 0", "end")
            if text not in legal
        )
        error = replay_error(with_log(record, [*log[:i], bad, *log[i + 1 :]]))
        assert error.index == i, (i, bad)
        assert error.rule is not None
        with pytest.raises(IllegalAction) as info:
            before.apply(bad)
        assert error.rule == info.value.rule


@configs
def test_garbage_entry_in_record_names_its_index(rules: str, players: int) -> None:
    game = finished(rules, players, seed=4, max_steps=80)
    record = game.record()
    log = record["log"]
    rng = random.Random(3)
    for garbage in ("xyzzy", "move W", "", "tile A1 x", "*draw", 42, None, ["end"]):
        i = rng.randrange(len(log))
        error = replay_error(with_log(record, [*log[:i], garbage, *log[i + 1 :]]))
        assert error.index == i, garbage
        assert error.rule is None


@configs
def test_bad_draw_entry_names_its_index(rules: str, players: int) -> None:
    game = finished(rules, players, seed=8)
    record = game.record()
    log = record["log"]
    draws = indices(log, "*draw ")
    last_tile = log[draws[-1]].split()[1]
    rng = random.Random(4)
    for j in rng.sample(draws[1:], 5):
        drawn = log[j].split()[1]
        wrong = ["Z.9", log[draws[0]].split()[1]]  # unknown; drawn before, so no longer there
        if last_tile[0] != drawn[0]:
            wrong.append(last_tile)  # a tile of a later letter group
        for tile in wrong:
            error = replay_error(with_log(record, [*log[:j], f"*draw {tile}", *log[j + 1 :]]))
            assert error.index == j, (j, tile, error)
        assert error.rule is None


@configs
def test_missing_or_extra_chance_entry_names_its_index(rules: str, players: int) -> None:
    game = finished(rules, players, seed=9)
    record = game.record()
    log = record["log"]
    rng = random.Random(5)
    for j in rng.sample(indices(log, "*draw "), 4):
        # a draw left out: the fault is found where the game draws a tile the record lacks
        shorter = [*log[:j], *log[j + 1 :]]
        error = replay_error(with_log(record, shorter))
        run_end = next((k for k in range(j, len(shorter)) if not shorter[k].startswith("*")), j)
        if rules != "auction":
            assert error.index == j  # one draw per turn: nothing else can stand there
        else:
            # a round reveals several tiles, forced in the record's order: the fault shows at
            # the first draw that no longer fits, at the latest where the run falls short
            assert j <= error.index <= max(j, run_end)
    moves = [i for i in action_indices(log) if log[i].startswith(("move", "put"))]
    for i in rng.sample(moves, 4):
        # a draw where the game draws nothing
        extra = [*log[: i + 1], log[indices(log, "*draw ")[-1]], *log[i + 1 :]]
        error = replay_error(with_log(record, extra))
        assert error.index == i + 1


def test_bad_token_entry_names_its_index() -> None:
    for seed in range(40):
        game = finished("demo", 2, seed=seed)
        log = game.record()["log"]
        tokens = indices(log, "*token ")
        if tokens:
            break
    else:
        pytest.fail("no demo game recovered a treasure")
    j = tokens[0]
    # the demo has a single type, "a": no "b" is hidden anywhere
    error = replay_error(with_log(game.record(), [*log[:j], "*token b", *log[j + 1 :]]))
    assert error.index == j
    # a draw instead of the token
    error = replay_error(with_log(game.record(), [*log[:j], "*draw C.1", *log[j + 1 :]]))
    assert error.index == j


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bad_draw_in_an_auction_round_reveal_names_its_index(players: int) -> None:
    game = finished("auction", players, seed=6, max_steps=150)
    record = game.record()
    log = record["log"]
    # the opening reveal: entries 0..players-1 are draws
    assert all(entry.startswith("*draw A.") for entry in log[:players])
    for j in range(players):
        error = replay_error(with_log(record, [*log[:j], "*draw G.1", *log[j + 1 :]]))
        assert error.index == j
    # a later round: a run of draws after an "end"
    runs = [
        i for i in range(1, len(log) - players) if log[i - 1] == "end" and log[i].startswith("*")
    ]
    start = next(i for i in runs if all(e.startswith("*draw") for e in log[i : i + players]))
    last = start + players - 1
    error = replay_error(with_log(record, [*log[:last], "*draw Z.9", *log[last + 1 :]]))
    assert error.index == last


def test_record_header_errors_have_index_minus_one() -> None:
    record = Game.new("standard", players=3, seed=1).record()
    for key, value in [
        ("rules", "chess"),
        ("players", 7),
        ("players", "3"),
        ("options", {"no_such_option": True}),
        ("seed", "x"),
    ]:
        broken = copy.deepcopy(record)
        broken[key] = value
        assert replay_error(broken).index == -1, key
    for broken_record in ({**record, "format": "pgn"}, [], "record", None):
        assert replay_error(broken_record).index == -1  # type: ignore[arg-type]
    assert replay_error({**record, "log": "end"}).index == 0


def test_edited_result_or_scoring_is_caught_at_the_end_of_the_log() -> None:
    game = finished("standard", 2, seed=13)
    record = game.record()
    n = len(record["log"])
    broken = copy.deepcopy(record)
    broken["result"]["scores"][0] += 1
    assert replay_error(broken).index == n
    broken = copy.deepcopy(record)
    broken["scoring"][0]["temples"] += 1
    assert replay_error(broken).index == n


# ---------------------------------------------------------------- position round trips


@configs
def test_position_round_trip_in_every_phase(rules: str, players: int) -> None:
    seen: set[Phase] = set()
    for game in play(rules, players, seed=17):
        if game.phase in seen and random.Random(len(game.history)).random() > 0.1:
            continue
        seen.add(game.phase)
        data = game.to_json()
        loaded = Game.from_json(json.loads(json.dumps(data)))
        assert loaded.to_json() == data
        assert loaded.legal_actions() == game.legal_actions()
        # the loaded game plays on exactly like the original
        a, b = game.clone(), loaded
        rng_a, rng_b = random.Random(1), random.Random(1)
        for _ in range(25):
            if a.is_over:
                break
            action = choose(a, rng_a)
            assert choose(b, rng_b) == action
            a.apply(action)
            b.apply(action)
            assert a.to_json() == b.to_json()
    expected = {Phase.TILE, Phase.TURN, Phase.SCORING, Phase.OVER}
    if rules == "auction":
        expected |= {Phase.AUCTION, Phase.PICK}
    assert seen == expected


# ---------------------------------------------------------------- malformed positions


def _board_index(data: dict[str, Any], at: str) -> int:
    return next(i for i, e in enumerate(data["board"]) if e["at"] == at)


def _mid_game() -> dict[str, Any]:
    """A standard 3-player snapshot with temples, a treasure tile, figures and treasures."""
    for seed in range(200):
        game = finished("standard", 3, seed=seed, max_steps=160)
        data = game.to_json()
        kinds = {e["kind"] for e in data["board"]}
        if game.phase is Phase.TURN and "treasure" in kinds and game.workers[0]:
            return data
    raise AssertionError("no suitable position found")


MID = _mid_game()


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return edit


def _delete(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key)


def _treasure_entry(data: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in data["board"] if e["kind"] == "treasure")


MALFORMED: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("format", _set("format", "tikal-record"), "format"),
    ("rules unknown", _set("rules", "chess"), "rules"),
    ("rules missing", _delete("rules"), "rules"),
    ("players", _set("players", 5), "players"),
    ("players type", _set("players", "3"), "players"),
    ("options", _set("options", {"fly": True}), "options"),
    ("board type", _set("board", {}), "board"),
    ("board entry", _set("board/0", "A4"), "board[0]"),
    ("board at", _set("board/0/at", "Z9"), "board[0].at"),
    ("board tile", _set("board/1/tile", "Q.1"), "board[1].tile"),
    ("board rotation", _set("board/1/rotation", 6), "board[1].rotation"),
    ("board level", _set("board/0/level", 11), "board[0].level"),
    ("board camp", _set("board/2/camp", 3), "board[2].camp"),
    ("board guard", _set("board/0/guard", {"player": -1, "figure": "W"}), "board[0].guard.player"),
    ("pre-printed gone", lambda d: d["board"].pop(_board_index(d, "A5")), "board"),
    ("figures length", lambda d: d["figures"].pop(), "figures"),
    ("figures entry", _set("figures/1", 3), "figures[1]"),
    ("leader", _set("figures/0/leader", "nowhere"), "figures[0].leader"),
    ("workers space", _set("figures/1/workers", {"Z9": 1}), "figures[1].workers.Z9"),
    ("workers count", _set("figures/1/workers", {"A5": 0}), "figures[1].workers.A5"),
    ("supply", _set("figures/2/supply", 3), "figures[2]"),
    ("score missing", lambda d: d["figures"][0].pop("score"), "figures[0].score"),
    ("treasures", _set("figures/0/treasures", "xyz"), "figures[0].treasures"),
    ("level supply key", _set("level_supply/11", 1), "level_supply.11"),
    ("level supply count", _set("level_supply/9", 5), "level_supply"),
    ("stack tile", _set("stack/0", "Q.7"), "stack[0]"),
    ("stack order", lambda d: d["stack"].reverse(), "stack"),
    ("stack lost a tile", lambda d: d["stack"].pop(), "board/stack"),
    ("token pool", _set("token_pool", "zz"), "token_pool"),
    ("tokens lost", _set("token_pool", ""), "tokens"),
    ("markers", _set("markers", [True]), "markers"),
    ("phase", _set("phase", "lunch"), "phase"),
    ("current", _set("current", 3), "current"),
    ("ap", _set("ap", 11), "ap"),
    ("ap type", _set("ap", "ten"), "ap"),
    ("drawn", _set("drawn", "Q.1"), "drawn"),
    ("tile phase without tile", _set("phase", "tile"), "drawn"),
    ("scoring queue", _set("phase", "scoring"), "scoring.queue"),
    ("scoring holder", _set("scoring/holder", 9), "scoring.holder"),
    ("auction order", _set("auction/order", [0, 5]), "auction.order"),
    ("last placer", _set("last_placer", -2), "last_placer"),
]


@pytest.mark.parametrize(
    ("edit", "field"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_malformed_position_names_the_field(
    edit: Callable[[dict[str, Any]], None], field: str
) -> None:
    data = copy.deepcopy(MID)
    Game.from_json(copy.deepcopy(data))  # the unedited snapshot loads
    edit(data)
    with pytest.raises(PositionError) as info:
        Game.from_json(data)
    assert info.value.field == field


def test_treasure_tokens_and_figure_on_volcano_are_checked() -> None:
    data = copy.deepcopy(MID)
    entry = _treasure_entry(data)
    i = data["board"].index(entry)
    entry["tokens"] = "q"
    with pytest.raises(PositionError) as info:
        Game.from_json(data)
    assert info.value.field == f"board[{i}].tokens"
    data = copy.deepcopy(MID)
    data["figures"][0]["workers"] = {"H1": 1}  # a space with no tile
    data["figures"][0]["supply"] += sum(MID["figures"][0]["workers"].values()) - 1
    with pytest.raises(PositionError) as info:
        Game.from_json(data)
    assert info.value.field == "figures[0].workers.H1"
    data = copy.deepcopy(MID)
    volcano = next((e["at"] for e in data["board"] if e["kind"] == "volcano"), None)
    if volcano is not None:
        data["figures"][1]["leader"] = volcano
        with pytest.raises(PositionError) as info:
            Game.from_json(data)
        assert info.value.field == "figures[1].leader"


def test_malformed_types_in_optional_parts_raise_position_error() -> None:
    """Wrong types anywhere raise PositionError (never a bare ValueError or TypeError)."""
    edits: list[tuple[Callable[[dict[str, Any]], None], str]] = [
        (_set("turn", []), "turn"),
        (_set("turn", {"dug": {"A4": "x"}, "taken": {}}), "turn.dug.A4"),
        (_set("turn", {"dug": {}, "taken": {"A4": 3}}), "turn.taken.A4"),
        (_set("turn", {"dug": {"Z0": 1}}), "turn.dug"),
        (_set("scoring", "x"), "scoring"),
        (_set("scoring/rounds", "x"), "scoring.rounds"),
        (_set("scoring/queue", 0), "scoring.queue"),
        (_set("scoring/volcano", ["B.1"]), "scoring.volcano"),
        (_set("auction", 5), "auction"),
        (_set("auction/high_bid", "x"), "auction.high_bid"),
        (_set("auction/passed", None), "auction.passed"),
        (_set("figures/0/bids_paid", "x"), "figures[0].bids_paid"),
        (_set("display", "A.1"), "display"),
        (_set("display", [["A.1"]]), "display[0]"),
        (_set("discarded", 5), "discarded"),
        (_set("drawn", ["A.1"]), "drawn"),
        (_set("tiles_placed", "many"), "tiles_placed"),
        (_set("history", ["fly away"]), "history[0]"),
        (_set("history", [7]), "history[0]"),
        (_set("score_events", [{"who": 1}]), "score_events[0]"),
        (_set("score_events", "x"), "score_events"),
    ]
    for edit, field in edits:
        data = copy.deepcopy(MID)
        edit(data)
        with pytest.raises(PositionError) as info:
            Game.from_json(data)
        assert info.value.field == field, (field, info.value)


# ---------------------------------------------------------------- notation


@configs
@settings(max_examples=3, deadline=None, database=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_notation_round_trips_every_legal_action(rules: str, players: int, seed: int) -> None:
    for game in play(rules, players, seed):
        for action in game.legal_actions():
            text = str(action)
            assert parse_action(text) == action
            assert parse_action(text.upper()) == action or text != text.upper()
    for entry in game.history:
        assert parse_action(str(entry)) == entry


def test_notation_of_chance_events_and_errors() -> None:
    assert parse_action("*draw B.2") == Draw("B.2")
    assert parse_action("*token c") == Reveal(2)
    for bad in ("", "fly", "move W A1", "tile A1 x", "put X A5", "swap a z 1", "*token q"):
        with pytest.raises(ValueError):
            parse_action(bad)
