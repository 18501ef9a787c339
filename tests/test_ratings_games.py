"""Rated games (issue 28 point 2): asked for at creation by a signed-in player, rated once
when the last move is stored, mended at start-up; refused when they could never be rated.
Real SQLite file and real PostgreSQL; the moves go through the HTTP API, each by its
seat's own invite token (the server's game only tells the test which actions are legal).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pg_helpers import database_of_kind
from test_accounts import GENEROUS, client_on, csrf_of, rows, sign_up
from tikal.server.rating import display, initial
from tikal.server.rating.store import bot_player


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_of_kind(request.param, tmp_path)


def rated_game(creator: TestClient, second: dict[str, Any] | None = None,
               **extra: Any) -> Any:
    seats = [{"kind": "human", "name": "A"}, second or {"kind": "human", "name": "B"}]
    return creator.post("/api/games", json={"rules": "demo", "seats": seats, "rated": True,
                                            **extra})


def play_to_the_end(app_client: TestClient, game: dict[str, Any],
                    tokens: dict[int, str], seed: int = 3) -> list[int]:
    """Random legal moves, each sent with the token of the seat to act (a bot seat plays
    itself); the final scores."""
    session = app_client.app.state.manager.sessions[game["id"]]  # type: ignore[attr-defined]
    rng = random.Random(seed)
    deadline = time.monotonic() + 120
    while not session.game.is_over:
        assert time.monotonic() < deadline, "the game did not end"
        seat = session.game.current_player
        if seat not in tokens:
            time.sleep(0.02)  # the bot's turn
            continue
        legal = [str(a) for a in session.game.legal_actions()]
        moves = [a for a in legal if a != "end"]
        action = rng.choice(moves if moves and rng.random() < 0.85 else legal)
        answer = app_client.post(f"/api/games/{game['id']}/actions",
                                 headers={"X-Tikal-Token": tokens[seat]},
                                 json={"action": action, "state": session.state})
        assert answer.status_code in (200, 409), answer.text  # 409: a bot moved meanwhile
    wait_rated(app_client, game["id"])
    return list(session.game.scores)


def wait_rated(client: TestClient, game_id: str) -> None:
    """The rating is applied in a worker thread just after the last move's answer."""
    store = client.app.state.ratings.store  # type: ignore[attr-defined]
    deadline = time.monotonic() + 10
    while store.waiting() and time.monotonic() < deadline:
        time.sleep(0.02)


def account_id(db: str, name: str) -> str:
    return str(rows(db, f"SELECT id FROM accounts WHERE name = '{name}'")[0][0])


def test_a_rated_game_between_two_accounts_moves_both_ratings_once(db: str) -> None:
    with client_on(db) as alice, client_on(db) as bob:
        sign_up(alice, "Alice")
        sign_up(bob, "Bob")
        answer = rated_game(alice)
        assert answer.status_code == 201, answer.text
        game = answer.json()
        tokens = {0: game["seats"][0]["token"], 1: game["seats"][1]["token"]}
        bob.post("/api/account/seats", headers={"X-CSRF-Token": csrf_of(bob)},
                 json={"seats": [{"game": game["id"], "token": tokens[1]}]})
        scores = play_to_the_end(alice, game, tokens)
        ratings = alice.app.state.ratings  # type: ignore[attr-defined]
        ids = [account_id(db, "Alice"), account_id(db, "Bob")]
        after = [ratings.store.rating(player, "demo") for player in ids]
        if scores[0] != scores[1]:
            winner, loser = (0, 1) if scores[0] > scores[1] else (1, 0)
            assert after[winner].mu > initial().mu > after[loser].mu
        assert all(r.games == 1 and r.sigma < initial().sigma for r in after)
        history = rows(db, "SELECT player, game_id, shown FROM rating_history ORDER BY player")
        assert sorted(h[0] for h in history) == sorted(ids)
        assert {h[2] for h in history} == {display(r) for r in after}
        # the same result again (a second process, a retry): nothing changes
        session = alice.app.state.manager.sessions[game["id"]]  # type: ignore[attr-defined]
        assert ratings.game_over(session) is None
        assert [ratings.store.rating(player, "demo") for player in ids] == after
        assert rows(db, "SELECT COUNT(*) FROM rating_history") == [(2,)]


def test_a_rated_game_against_a_bot_rates_the_bot_too(db: str) -> None:
    with client_on(db) as alice:
        sign_up(alice, "Solo")
        game = rated_game(alice, {"kind": "bot", "level": "random"}).json()
        play_to_the_end(alice, game, {0: game["seats"][0]["token"]})
        store = alice.app.state.ratings.store  # type: ignore[attr-defined]
        assert store.rating(bot_player("random"), "demo").games == 1
        assert store.rating(account_id(db, "Solo"), "demo").games == 1


def test_a_game_with_a_guest_seat_is_not_rated(db: str) -> None:
    with client_on(db) as alice:
        sign_up(alice, "Host")
        game = rated_game(alice).json()  # seat 1 never taken by an account
        play_to_the_end(alice, game, {0: game["seats"][0]["token"],
                                      1: game["seats"][1]["token"]})
    assert rows(db, "SELECT COUNT(*) FROM ratings") == [(0,)]
    assert rows(db, "SELECT applied IS NOT NULL FROM rated_games")[0][0] in (1, True)


@pytest.mark.parametrize(("extra", "second", "field"), [
    ({"hotseat": True}, None, "hotseat"),
    ({"seed": 7}, None, "seed"),
    ({}, "bot-first", "seats"),
])
def test_a_rated_game_that_could_never_be_rated_is_refused(
        db: str, extra: dict[str, Any], second: str | None, field: str) -> None:
    with client_on(db) as alice:
        sign_up(alice, "Picky")
        if second == "bot-first":
            answer = alice.post("/api/games", json={"rules": "demo", "rated": True, "seats": [
                {"kind": "bot", "level": "random"}, {"kind": "human", "name": "B"}]})
        else:
            answer = rated_game(alice, **extra)
        assert answer.status_code == 422 and answer.json()["code"] == "unrated"
        assert answer.json()["field"] == field
    assert rows(db, "SELECT COUNT(*) FROM games") == [(0,)]


def test_a_rated_game_needs_a_signed_in_creator(db: str) -> None:
    with client_on(db) as guest:
        answer = rated_game(guest)
        assert answer.status_code == 401 and answer.json()["code"] == "not_signed_in"
    assert rows(db, "SELECT COUNT(*) FROM games") == [(0,)]


def test_a_result_left_unrated_by_a_stop_is_rated_at_the_next_start(db: str) -> None:
    with client_on(db) as alice:
        sign_up(alice, "Again")
        game = rated_game(alice, {"kind": "bot", "level": "random"}).json()
        play_to_the_end(alice, game, {0: game["seats"][0]["token"]})
        before = rows(db, "SELECT player, mu, sigma, games FROM ratings ORDER BY player")
    # as if the server had stopped between the last move and its rating
    for statement in ("DELETE FROM ratings", "DELETE FROM rating_history",
                      "UPDATE rated_games SET applied = NULL"):
        _execute(db, statement)
    with TestClient(_app(db)):
        pass  # start-up mends
    assert rows(db, "SELECT player, mu, sigma, games FROM ratings ORDER BY player") == before


def _app(db: str) -> Any:
    from tikal.server import create_app

    return create_app(db, bot_delay=0.0, limit_settings=GENEROUS, shipped_bot_ratings=False)


def _execute(db: str, statement: str) -> None:
    if db.startswith("postgresql"):
        import psycopg

        with psycopg.connect(db) as conn:
            conn.execute(statement)
        return
    import sqlite3

    with sqlite3.connect(db) as conn:
        conn.execute(statement)

