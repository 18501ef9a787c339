"""Time controls and stand-in bots (issue 29, points 2 and 3): clocks derived from the
stored log alone, a seat handed to a bot when its time runs out or its player leaves,
taken back with one request, a move after the time ran out refused, the clocks the same
after a restart, and the rated policy for seats a bot played.  Real SQLite files and
PostgreSQL databases.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import PLAY_LIMITS
from test_accounts import client_on, csrf_of, sign_up
from test_ratings_games import account_id, play_to_the_end
from test_rematch import new_game, refused, tokens_of
from tikal.server import create_app
from tikal.server.clock import model
from tikal.server.clock.model import BACK, STANDIN, TimeControl, clock_state, forfeits
from tikal.server.errors import ServerError
from tikal.server.manager import human_to_act
from tikal.server.rating import initial
from tikal.server.rating.service import rated_scores
from tikal.server.store import LogEntry

LEVELS = ("random", "medium")
PAIR = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}]


def entries(*steps: tuple[str, int, float]) -> list[LogEntry]:
    """A log: the start at time 0, then (kind, seat, at) entries."""
    log = [LogEntry(seq=0, kind="start", seat=-1, at=0.0)]
    for seq, (kind, seat, at) in enumerate(steps, start=1):
        log.append(LogEntry(seq=seq, kind=kind, seat=seat, at=at,
                            action="random" if kind == STANDIN else "x"))
    return log


# ---------------------------------------------------------------- the model, no server

def test_a_real_time_bank_pays_each_turn_and_gains_the_increment() -> None:
    control = TimeControl("realtime", bank=60, increment=5)
    log = entries(("action", 0, 10), ("action", 0, 20), ("action", 1, 50))
    clock = clock_state(control, log, 2, current=0)
    # seat 0: 60 + 5 - 20; seat 1: 60 + 5 - 30; seat 0's new turn adds 5 more
    assert clock.left == (50.0, 35.0)
    assert (clock.running, clock.since, clock.deadline) == (0, 50.0, 100.0)
    assert clock.left_at(0, 70.0) == 30.0 and clock.left_at(1, 70.0) == 35.0
    assert not clock.expired(99.9) and clock.expired(100.0)


def test_a_turn_based_clock_gives_every_turn_the_same_time() -> None:
    control = TimeControl("turn", per_turn=100)
    log = entries(("action", 0, 30), ("action", 1, 250))
    clock = clock_state(control, log, 2, current=0)
    assert clock.left == (100.0, -120.0)  # seat 1 took 220 s of its 100
    assert clock.deadline == 350.0


def test_no_clock_runs_for_a_seat_a_stand_in_plays_or_once_the_game_is_over() -> None:
    control = TimeControl("realtime", bank=10, increment=0)
    log = entries(("action", 0, 4), (STANDIN, 1, 14), ("action", 1, 100))
    assert clock_state(control, log, 2, current=1).running is None
    over = clock_state(control, log, 2, current=None)
    assert (over.running, over.deadline) == (None, None)
    # the stand-in's 86 s are not charged: seat 1 ran out (0) and stays there
    assert over.left == (6.0, 0.0)


def test_a_player_who_comes_back_gets_time_to_move_from_the_moment_of_return() -> None:
    control = TimeControl("realtime", bank=100, increment=0)
    log = entries(("action", 0, 10), (STANDIN, 1, 110), ("action", 1, 111), ("action", 0, 130),
                  (BACK, 1, 400))
    clock = clock_state(control, log, 2, current=1)
    back = min(float(model.settings()["return_seconds"]), 100.0)
    assert clock.left[1] == back and clock.since == 400.0 and clock.deadline == 400.0 + back
    assert clock.left[0] == 100 - 10 - 19  # seat 0's second turn began at the bot's move


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.floats(0.0, 50.0)), max_size=40))
def test_without_stand_ins_the_time_charged_is_the_time_that_passed(
        moves: list[tuple[int, float]]) -> None:
    """Every second between the start and the last entry is some seat's, once."""
    at = 0.0
    steps = []
    for seat, gap in moves:
        at += gap
        steps.append(("action", seat, at))
    control = TimeControl("realtime", bank=1000, increment=0)
    clock = clock_state(control, entries(*steps), 3, current=None)
    assert sum(1000 - left for left in clock.left) == pytest.approx(at, abs=1e-6)


def test_a_seat_mostly_played_by_a_stand_in_ranks_last_in_a_rated_game() -> None:
    log = entries(("action", 0, 1), ("action", 1, 2), (STANDIN, 1, 3), ("action", 1, 4),
                  ("action", 0, 5), ("action", 1, 6), ("undo", 1, 7), ("action", 1, 8))
    assert forfeits(log) == {1}  # two of seat 1's three actions (the undone one not)
    assert rated_scores([20, 31], {1}) == (20, 19)
    assert rated_scores([20, 31], set()) == (20, 31)
    assert forfeits(log[:4]) == set()  # one of one before the hand-over: none by the bot


@pytest.mark.parametrize(("clock", "field", "key"), [
    ("bullet", "clock.preset", "server.clock.preset"),
    ({"kind": "realtime", "bank": 0}, "clock.bank", "server.clock.range"),
    ({"kind": "realtime", "bank": True}, "clock.bank", "server.clock.number"),
    ({"kind": "turn"}, "clock.per_turn", "server.clock.number"),
    ({"kind": "sundial"}, "clock.kind", "server.clock.kind"),
    ({"preset": "blitz", "standin": "oracle"}, "clock.standin", "server.clock.level"),
    (7, "clock", "server.clock.type"),
])
def test_a_bad_time_control_names_its_field(clock: Any, field: str, key: str) -> None:
    with pytest.raises(ServerError) as caught:
        TimeControl.from_json(clock, LEVELS)
    assert caught.value.status == 422
    detail = caught.value.detail
    assert detail is not None and detail.key == key and caught.value.field == field


def test_presets_and_custom_controls_round_trip() -> None:
    blitz = TimeControl.from_json("blitz", LEVELS)
    assert (blitz.kind, blitz.bank, blitz.increment, blitz.standin) == (
        "realtime", 300, 15, model.settings()["standin"])
    assert TimeControl.stored(blitz.to_json()) == blitz
    custom = TimeControl.from_json({"kind": "turn", "per_turn": 3600, "standin": "random"},
                                   LEVELS)
    assert TimeControl.stored(custom.to_json()) == custom


# ---------------------------------------------------------------- a real server

def state_of(client: TestClient, game: dict[str, Any], seat: int | None = None) -> Any:
    token = tokens_of(game).get(seat) if seat is not None else None
    headers = {"X-Tikal-Token": token} if token else {}
    answer = client.get(f"/api/games/{game['id']}", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def wait_for(client: TestClient, game: dict[str, Any], test: Any, seconds: float = 20) -> Any:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        state = state_of(client, game)
        if test(state):
            return state
        time.sleep(0.05)
    raise AssertionError("the game never got there")


def move(client: TestClient, game: dict[str, Any], seat: int, state: int) -> Any:
    session = client.app.state.manager.sessions[game["id"]]  # type: ignore[attr-defined]
    action = next(str(a) for a in session.game.legal_actions() if str(a) != "end")
    return client.post(f"/api/games/{game['id']}/actions",
                       headers={"X-Tikal-Token": tokens_of(game)[seat]},
                       json={"action": action, "state": state})


def test_a_timed_game_shows_its_clocks_and_a_bad_one_is_never_made(client: TestClient) -> None:
    before = len(client.get("/api/games").json())
    bad = client.post("/api/games", json={"rules": "demo", "seats": PAIR,
                                          "clock": {"kind": "realtime", "bank": -5}})
    assert bad.status_code == 422 and bad.json()["code"] == "bad_request", bad.text
    assert "clock.bank" in bad.text
    assert len(client.get("/api/games").json()) == before
    game = new_game(client, PAIR, clock="blitz")
    state = state_of(client, game, 0)
    clock = state["clock"]
    assert clock["control"]["preset"] == "blitz" and clock["running"] == 0
    assert clock["left"] == [315.0, 300.0]  # the first turn has its increment
    assert clock["deadline"] == pytest.approx(clock["since"] + 315.0)
    assert abs(state["now"] - time.time()) < 5 and state["standins"] == [None, None]
    untimed = state_of(client, new_game(client, PAIR))
    assert untimed["clock"] is None and "now" not in untimed
    meta = client.get("/api/meta").json()
    assert meta["clock_presets"]["blitz"] == {"kind": "realtime", "bank": 300, "increment": 15}


def test_time_runs_out_a_bot_takes_the_seat_and_the_player_takes_it_back(
        client: TestClient) -> None:
    control = {"kind": "realtime", "bank": 1.5, "increment": 0, "standin": "random"}
    game = new_game(client, PAIR, clock=control)
    state = wait_for(client, game, lambda s: s["standins"][0] == "random")
    assert state["clock"]["running"] != 0  # seat 0's clock stops while the bot plays it
    # the stand-in plays seat 0's turn; a move by its player is refused meanwhile
    state = wait_for(client, game, lambda s: s["current"] == 1)
    gid = game["id"]
    session = client.app.state.manager.sessions[gid]  # type: ignore[attr-defined]
    by_bot = [e for e in session.log if e.kind == "action"]
    assert by_bot and all(e.seat == 0 for e in by_bot)
    assert any(line.get("by") == "random" for line in state["log"])  # the log says who
    # seat 1 now moves in time; then seat 0's player comes back
    answer = client.post(f"/api/games/{gid}/back", json={"token": tokens_of(game)[0]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["standins"] == {}
    refused(client.post(f"/api/games/{gid}/back", json={"token": tokens_of(game)[0]}),
            409, "not_away")
    state = state_of(client, game, 0)
    assert state["standins"] == [None, None]
    assert state["clock"]["left"][0] == pytest.approx(1.5)  # back: min(30 s, the bank)


def test_a_move_after_the_time_ran_out_is_refused_with_the_clock_and_changes_nothing(
        client: TestClient) -> None:
    game = new_game(client, PAIR, clock={"kind": "turn", "per_turn": 3600})
    session = client.app.state.manager.sessions[game["id"]]  # type: ignore[attr-defined]
    deadline = session.clock().deadline
    before = (session.state, list(session.log))
    with session.lock, pytest.raises(ServerError) as caught:
        human_to_act(session, (0,), session.state, now=deadline + 1)
    assert (caught.value.code, caught.value.status) == ("time_out", 409)
    assert caught.value.state == session.state
    assert (session.state, list(session.log)) == before
    assert human_to_act(session, (0,), session.state, now=deadline - 1) == 0


def test_a_player_who_leaves_hands_the_seat_to_a_bot_and_comes_back(client: TestClient) -> None:
    game = new_game(client, PAIR)
    gid = game["id"]
    refused(client.post(f"/api/games/{gid}/away", json={}), 403, "forbidden")
    answer = client.post(f"/api/games/{gid}/away", json={"token": tokens_of(game)[0]})
    assert answer.status_code == 200 and answer.json()["standins"] == {
        "0": model.settings()["standin"]}, answer.text
    refused(client.post(f"/api/games/{gid}/away", json={"token": tokens_of(game)[0]}),
            409, "already_away")
    state = wait_for(client, game, lambda s: s["current"] == 1)
    refused(move(client, game, 0, state["state"]), 403, "not_your_turn")
    assert client.post(f"/api/games/{gid}/back",
                       json={"token": tokens_of(game)[0]}).status_code == 200
    assert state_of(client, game)["standins"] == [None, None]


def test_a_seat_played_by_a_bot_refuses_its_players_moves_until_taken_back(
        client: TestClient) -> None:
    """With the bot slow to start, the player's move names the seat's bot: 409."""
    client.app.state.manager.bots.delay = 30.0  # type: ignore[attr-defined]
    game = new_game(client, PAIR)
    gid = game["id"]
    client.post(f"/api/games/{gid}/away", json={"token": tokens_of(game)[0]})
    state = state_of(client, game)
    refused(move(client, game, 0, state["state"]), 409, "seat_with_bot")
    assert state_of(client, game)["state"] == state["state"]
    client.post(f"/api/games/{gid}/back", json={"token": tokens_of(game)[0]})
    assert move(client, game, 0, state["state"] + 1).status_code == 200


def test_the_clocks_are_the_same_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    control = {"kind": "turn", "per_turn": 86400}
    with TestClient(create_app(db, bot_delay=0.0, limit_settings=PLAY_LIMITS)) as first:
        game = new_game(first, PAIR, clock=control)
        assert move(first, game, 0, 0).status_code == 200
        clock = state_of(first, game)["clock"]
    with TestClient(create_app(db, bot_delay=0.0, limit_settings=PLAY_LIMITS)) as second:
        again = state_of(second, game)["clock"]
        assert again == clock  # derived from the stored log, not from a timer
        assert again["running"] == 0 and again["deadline"] > time.time()


def test_a_rated_real_time_game_whose_player_left_counts_as_a_loss_for_them(db: str) -> None:
    """Bob leaves before his first turn; the stand-in plays him to the end: whatever it
    scored, his rating falls and Alice's rises; the replay marks the bot's moves."""
    with client_on(db) as alice, client_on(db) as bob:
        sign_up(alice, "Alice")
        sign_up(bob, "Bob")
        answer = alice.post("/api/games", json={
            "rules": "demo", "seats": PAIR, "rated": True, "clock": "rapid"})
        assert answer.status_code == 201, answer.text
        game = answer.json()
        tokens = [s["token"] for s in game["seats"]]
        bob.post("/api/account/seats", headers={"X-CSRF-Token": csrf_of(bob)},
                 json={"seats": [{"game": game["id"], "token": tokens[1]}]})
        left = bob.post(f"/api/games/{game['id']}/away", json={"token": tokens[1]})
        assert left.status_code == 200, left.text
        play_to_the_end(alice, game, {0: tokens[0]})
        ratings = alice.app.state.ratings  # type: ignore[attr-defined]
        after = [ratings.store.rating(account_id(db, name), "demo") for name in ("Alice", "Bob")]
        assert after[0].mu > initial().mu > after[1].mu
        replay = alice.get(f"/api/replays/{game['id']}").json()
        seats = [step["seat"] for step in replay["steps"]]
        assert [level is not None for level in replay["by"]] == [seat == 1 for seat in seats]
