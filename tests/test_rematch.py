"""Rematch (issue 29): offered at a game's end, accepted by every player, started once
with the seats rotated and the same options and bots; declined for good; every refusal
with its code and nothing changed.  Real SQLite files and PostgreSQL databases.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from test_accounts import rows
from test_ratings_games import play_to_the_end
from test_server import receive_until, ws_hello
from tikal.server.rematch import model


def new_game(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"rules": "demo", "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()
    return game


def tokens_of(game: dict[str, Any]) -> dict[int, str]:
    return {n: s["token"] for n, s in enumerate(game["seats"]) if s["token"]}


def finished(client: TestClient, seats: list[dict[str, Any]] | None = None,
             **extra: Any) -> dict[str, Any]:
    game = new_game(client, seats or [{"kind": "human", "name": "Ana"},
                                      {"kind": "human", "name": "Ben"}], **extra)
    play_to_the_end(client, game, tokens_of(game))
    return game


def ask(client: TestClient, game: dict[str, Any], seat: int | None, suffix: str = "") -> Any:
    token = tokens_of(game).get(seat) if seat is not None else None
    return client.post(f"/api/games/{game['id']}/rematch{suffix}", json={"token": token})


def refused(answer: Any, status: int, code: str) -> None:
    assert (answer.status_code, answer.json().get("code")) == (status, code), answer.text


def test_seats_move_one_place_on() -> None:
    seats = [{"kind": "human", "name": n} for n in "ABC"]
    assert [s["name"] for s in model.rotated(seats)] == ["C", "A", "B"]
    assert [model.new_seat(n, 3) for n in range(3)] == [1, 2, 0]


def test_both_players_accept_and_the_rematch_starts_once_with_the_seats_rotated(
        db: str, client: TestClient) -> None:
    game = finished(client)
    gid = game["id"]
    with client.websocket_connect(f"/ws/{gid}") as ben_ws, \
            client.websocket_connect(f"/ws/{gid}") as watcher:
        ws_hello(ben_ws, tokens_of(game)[1])
        ws_hello(watcher, None)
        offered = ask(client, game, 0).json()
        assert (offered["status"], offered["by"], offered["waiting"]) == ("offered", 0, [1])
        told = receive_until(ben_ws, lambda m: m["type"] == "rematch")
        assert (told["status"], told["accepted"]) == ("offered", [0])
        accepted = ask(client, game, 1).json()
        assert accepted["status"] == "started" and accepted["token"]
        new_id = accepted["game"]
        for ws in (ben_ws, watcher):
            seen = receive_until(ws, lambda m: m["type"] == "rematch" and m["status"] == "started")
            assert seen["game"] == new_id
        assert seen["token"] is None  # the spectator sees no token
    rematch = client.get(f"/api/games/{new_id}").json()
    assert [s["name"] for s in rematch["seats"]] == ["Ben", "Ana"]  # rotated
    assert rematch["rules"] == "demo"
    ana_token = client.get(f"/api/games/{gid}/rematch",
                           headers={"X-Tikal-Token": tokens_of(game)[0]}).json()["token"]
    mine = client.get(f"/api/games/{new_id}", headers={"X-Tikal-Token": ana_token}).json()
    assert mine["you"] == [1]  # Ana, seat 0 before, plays seat 1 now
    again = ask(client, game, 0).json()  # accepting again changes nothing
    assert (again["status"], again["game"]) == ("started", new_id)
    assert rows(db, "SELECT COUNT(*) FROM games WHERE kind = 'game'") == [(2,)]


def test_a_declined_rematch_is_not_offered_again(db: str, client: TestClient) -> None:
    game = finished(client)
    ask(client, game, 0)
    declined = ask(client, game, 1, "/decline").json()
    assert (declined["status"], declined["declined_by"]) == ("declined", 1)
    before = rows(db, "SELECT status, accepted FROM rematches")
    refused(ask(client, game, 0), 409, "rematch_declined")
    refused(ask(client, game, 1), 409, "rematch_declined")
    refused(ask(client, game, 1, "/decline"), 409, "rematch_declined")
    assert rows(db, "SELECT status, accepted FROM rematches") == before
    assert rows(db, "SELECT COUNT(*) FROM games WHERE kind = 'game'") == [(1,)]


def test_rematch_refusals_have_their_code_and_change_nothing(
        db: str, client: TestClient) -> None:
    playing = new_game(client, [{"kind": "human", "name": "Ana"},
                                {"kind": "human", "name": "Ben"}])
    refused(ask(client, playing, 0), 409, "game_not_over")
    game = finished(client)
    refused(ask(client, game, None), 403, "not_a_player")  # a spectator
    refused(client.post(f"/api/games/{game['id']}/rematch", json={"token": "forged"}),
            403, "bad_token")
    refused(ask(client, game, 1, "/decline"), 409, "no_rematch")
    refused(client.post("/api/games/nosuchgame/rematch", json={}), 404, "unknown_game")
    assert rows(db, "SELECT COUNT(*) FROM rematches") == [(0,)]


def test_a_game_with_a_bot_is_rematched_by_its_one_player_with_the_bot_rotated(
        client: TestClient) -> None:
    game = finished(client, [{"kind": "human", "name": "Ana"},
                             {"kind": "bot", "level": "random"}])
    started = ask(client, game, 0).json()  # the only player: offering is agreeing
    assert started["status"] == "started"
    seats = client.get(f"/api/games/{started['game']}").json()["seats"]
    assert [(s["kind"], s["level"]) for s in seats] == [("bot", "random"), ("human", None)]


def test_a_hot_seat_game_is_rematched_at_once_on_its_screen_and_seat_links_still_work(
        client: TestClient) -> None:
    game = new_game(client, [{"kind": "human", "name": "Ana"},
                             {"kind": "human", "name": "Ben"}], hotseat=True)
    hot = game["hotseat_token"]
    session = client.app.state.manager.sessions[game["id"]]  # type: ignore[attr-defined]
    play_to_the_end(client, game, dict.fromkeys(range(2), hot))
    assert session.game.is_over
    started = client.post(f"/api/games/{game['id']}/rematch", json={"token": hot}).json()
    assert started["status"] == "started"  # one screen played both: both agreed
    assert client.get(f"/api/games/{started['game']}",
                      headers={"X-Tikal-Token": started["token"]}).json()["you"] == [0, 1]
    ben = client.get(f"/api/games/{game['id']}/rematch",
                     headers={"X-Tikal-Token": tokens_of(game)[1]}).json()["token"]
    assert client.get(f"/api/games/{started['game']}",
                      headers={"X-Tikal-Token": ben}).json()["you"] == [0]  # rotated
