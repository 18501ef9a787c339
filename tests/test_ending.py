"""Ending a game early by unanimous agreement (issue 29, point 3): offered, agreed by
every player, the scores as they stand; a no or a move withdraws the offers; every
refusal with its code and the game unchanged; a rated game rated on the scores as they
stood.  Real SQLite files and PostgreSQL databases.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from test_accounts import rows
from test_rematch import new_game, refused, tokens_of
from tikal.server.ending.model import DECLINE, ENDED, OFFER, end_offers, ended_early
from tikal.server.store import LogEntry

TRIO = [{"kind": "human", "name": n} for n in ("Ana", "Ben", "Cem")]


def log_of(*kinds: tuple[str, int]) -> list[LogEntry]:
    return [LogEntry(seq=0, kind="start", seat=-1),
            *(LogEntry(seq=n, kind=k, seat=s) for n, (k, s) in enumerate(kinds, start=1))]


def test_offers_stand_until_a_move_an_undo_or_a_no() -> None:
    assert end_offers(log_of(("action", 0), (OFFER, 1), (OFFER, 0))) == [1, 0]
    assert end_offers(log_of((OFFER, 1), ("action", 0))) == []
    assert end_offers(log_of((OFFER, 1), ("undo", 0), (OFFER, 2))) == [2]
    assert end_offers(log_of((OFFER, 1), (DECLINE, 0))) == []
    assert end_offers(log_of((OFFER, 1), ("standin", 0), (OFFER, 1))) == [1]
    assert not ended_early(log_of((OFFER, 0), (OFFER, 1)))
    assert ended_early(log_of((OFFER, 0), (OFFER, 1), (ENDED, 1)))


def end(client: TestClient, game: dict[str, Any], seat: int | None, suffix: str = "") -> Any:
    token = tokens_of(game).get(seat) if seat is not None else None
    return client.post(f"/api/games/{game['id']}/end{suffix}", json={"token": token})


def state_of(client: TestClient, game: dict[str, Any]) -> Any:
    return client.get(f"/api/games/{game['id']}").json()


def move(client: TestClient, game: dict[str, Any]) -> Any:
    session = client.app.state.manager.sessions[game["id"]]  # type: ignore[attr-defined]
    action = next(str(a) for a in session.game.legal_actions() if str(a) != "end")
    return client.post(f"/api/games/{game['id']}/actions",
                       headers={"X-Tikal-Token": tokens_of(game)[session.game.current]},
                       json={"action": action, "state": session.state})


def test_every_player_agrees_and_the_game_ends_with_the_scores_as_they_stand(
        db: str, client: TestClient) -> None:
    game = new_game(client, TRIO, rules="standard")
    assert move(client, game).status_code == 200
    first = end(client, game, 1).json()
    assert (first["end_offers"], first["ended_early"]) == ([1], False)
    refused(end(client, game, 1), 409, "already_offered")
    assert end(client, game, 0).json()["end_offers"] == [1, 0]
    state = state_of(client, game)
    assert state["end_offers"] == [1, 0] and not state["over"]
    last = end(client, game, 2).json()
    assert last["ended_early"] is True
    state = state_of(client, game)
    scores = state["scores"]
    assert state["over"] and state["ended_early"] and state["end_offers"] == [1, 0, 2]
    assert state["winners"] == [n for n, s in enumerate(scores) if s == max(scores)]
    assert state["your_turn"] is False
    refused(move(client, game), 422, "illegal")  # [END-2]: no more moves
    refused(end(client, game, 0), 409, "game_over")
    assert rows(db, f"SELECT status FROM games WHERE id = '{game['id']}'") == [("over",)]
    assert client.get(f"/replay/{game['id']}").status_code == 200  # it can be replayed now


def test_a_no_or_a_move_withdraws_the_offers(client: TestClient) -> None:
    game = new_game(client, TRIO[:2])
    refused(end(client, game, 0, "/decline"), 409, "no_end_offer")
    end(client, game, 0)
    assert end(client, game, 1, "/decline").json()["end_offers"] == []
    end(client, game, 1)
    assert move(client, game).status_code == 200
    assert state_of(client, game)["end_offers"] == []
    assert not state_of(client, game)["over"]


def test_only_players_offer_and_not_against_bots_alone(client: TestClient) -> None:
    game = new_game(client, TRIO[:2])
    before = state_of(client, game)["state"]
    refused(end(client, game, None), 403, "not_a_player")
    solo = new_game(client, [TRIO[0], {"kind": "bot", "level": "random"}])
    refused(end(client, solo, 0), 409, "end_needs_players")
    assert state_of(client, game)["state"] == before


def test_the_replay_says_which_moves_a_bot_made_and_that_the_game_ended_early(
        client: TestClient) -> None:
    game = new_game(client, TRIO[:2])
    gid = game["id"]
    client.post(f"/api/games/{gid}/away", json={"token": tokens_of(game)[0]})
    session = client.app.state.manager.sessions[gid]  # type: ignore[attr-defined]
    for _ in range(400):  # the stand-in plays seat 0's turn
        if session.game.current == 1:
            break
        time.sleep(0.02)
    client.post(f"/api/games/{gid}/back", json={"token": tokens_of(game)[0]})
    assert move(client, game).status_code == 200  # Ben's own move
    end(client, game, 0)
    end(client, game, 1)
    replay = client.get(f"/api/replays/{gid}").json()
    assert replay["ended_early"] is True
    by = replay["by"]
    assert by and by[0] is not None and by[-1] is None  # the bot's first, Ben's last
    assert len(by) == replay["total"]
