"""Game chat (issue 29): what may be said, who may say it, and that it reaches every
connection of the game, is stored with the game (its state counter with it) and is read
back whole; a refused line is stored nowhere.  Real SQLite files and PostgreSQL
databases.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_accounts import rows
from test_server import create, first, receive_until, ws_hello
from tikal.server import create_app
from tikal.server.chat import model
from tikal.server.errors import ServerError
from tikal.server.limits import LimitSettings


def code_of(text: Any, phrase: Any = None) -> tuple[str, str | None]:
    with pytest.raises(ServerError) as caught:
        model.checked(text, phrase)
    return caught.value.code, caught.value.detail.key if caught.value.detail else None


# ------------------------------------------------------------------ what may be said


def test_text_is_folded_and_kept_plain() -> None:
    assert model.checked("  good\n luck\tall ", None) == ("good luck all", None)
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # an emoji sequence (ZWJ)
    assert model.checked(f"gg {family}", None) == (f"gg {family}", None)
    assert model.checked(None, "good_luck") == (None, "good_luck")
    assert model.checked("x" * 300, None)[0] == "x" * 300


@pytest.mark.parametrize(("text", "phrase", "key"), [
    ("x" * 301, None, "chat.too_long"),
    ("<b>hi</b>", None, "chat.markup"),
    ("fish & chips", None, "chat.markup"),
    ("bell\x07", None, "chat.markup"),
    ("\u202eevil", None, "chat.markup"),  # a bidi override
    ("   ", None, "chat.empty"),
    (None, None, "chat.text_or_phrase"),
    ("hi", "thanks", "chat.text_or_phrase"),
    (None, "rm -rf", "chat.unknown_phrase"),
    (42, None, "chat.text_type"),
])
def test_a_line_that_is_not_plain_text_or_a_known_phrase_is_refused(
        text: Any, phrase: Any, key: str) -> None:
    assert code_of(text, phrase) == ("bad_chat", key)


# ------------------------------------------------------------------ through the server


def test_a_seat_line_reaches_every_connection_and_is_stored_with_the_state(
        db: str, client: TestClient) -> None:
    game = create(client, seed=5, seats=[{"kind": "human", "name": "Ana"},
                                         {"kind": "human", "name": "Ben"}])
    gid = game["id"]
    with client.websocket_connect(f"/ws/{gid}") as ana, \
            client.websocket_connect(f"/ws/{gid}") as watcher:
        state = ws_hello(ana, game["seats"][0]["token"])
        ws_hello(watcher, None)
        ana.send_json({"type": "chat", "text": "Good luck, Ben"})
        for ws in (ana, watcher):
            line = receive_until(ws, lambda m: m["type"] == "chat")["line"]
            assert (line["seq"], line["seat"], line["name"], line["text"], line["phrase"]) == (
                1, 0, "Ana", "Good luck, Ben", None)
            assert line["state"] == state["state"]
        ana.send_json({"type": "action", "action": first(state, "tile"), "state": 0})
        receive_until(ana, lambda m: m["type"] in ("delta", "state") and m["state"] == 1)
        answer = client.post(f"/api/games/{gid}/chat", json={
            "token": game["seats"][1]["token"], "phrase": "thanks"})
        assert answer.status_code == 201, answer.text
        seen = receive_until(watcher, lambda m: m["type"] == "chat")["line"]
        assert (seen["seq"], seen["seat"], seen["phrase"], seen["state"]) == (2, 1, "thanks", 1)
    lines = client.get(f"/api/games/{gid}/chat").json()["lines"]
    assert [(x["seq"], x["name"], x["text"], x["phrase"]) for x in lines] == [
        (1, "Ana", "Good luck, Ben", None), (2, "Ben", None, "thanks")]
    assert rows(db, f"SELECT seq, seat, state FROM game_chat WHERE game_id = '{gid}' "
                "ORDER BY seq") == [(1, 0, 0), (2, 1, 1)]


def test_refused_lines_get_their_code_and_store_nothing(db: str, client: TestClient) -> None:
    game = create(client, seed=5)
    gid = game["id"]
    with client.websocket_connect(f"/ws/{gid}") as watcher, \
            client.websocket_connect(f"/ws/{gid}") as ana:
        ws_hello(watcher, None)
        ws_hello(ana, game["seats"][0]["token"])
        watcher.send_json({"type": "chat", "text": "let me play"})
        assert receive_until(watcher, lambda m: m["type"] == "error")["code"] == "chat_spectator"
        ana.send_json({"type": "chat", "text": "<script>alert(1)</script>"})
        refusal = receive_until(ana, lambda m: m["type"] == "error")
        assert (refusal["code"], refusal["field"]) == ("bad_chat", "text")
    for body, status, code in (
            ({"text": "hi"}, 403, "chat_spectator"),
            ({"token": game["seats"][0]["token"], "text": "x" * 301}, 422, "bad_chat"),
            ({"token": game["seats"][0]["token"], "phrase": "nope"}, 422, "bad_chat"),
            ({"token": "not-a-token", "text": "hi"}, 403, "bad_token")):
        answer = client.post(f"/api/games/{gid}/chat", json=body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    assert client.post("/api/games/nosuchgame/chat", json={"text": "hi"}).status_code == 404
    assert client.get(f"/api/games/{gid}/chat").json()["lines"] == []
    assert rows(db, "SELECT COUNT(*) FROM game_chat") == [(0,)]


def test_a_chat_flood_is_rate_limited(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "g.sqlite3", bot_delay=0.0)) as client:
        game = create(client, seed=5)
        token = game["seats"][0]["token"]
        answers = [client.post(f"/api/games/{game['id']}/chat",
                               json={"token": token, "text": f"spam {n}"}) for n in range(8)]
        statuses = [a.status_code for a in answers]
        burst = LimitSettings().chat.burst
        assert statuses == [201] * burst + [429] * (8 - burst)
        assert answers[-1].json()["code"] == "rate_limited" and answers[-1].headers["Retry-After"]
        lines = client.get(f"/api/games/{game['id']}/chat").json()["lines"]
        assert len(lines) == burst


def test_meta_lists_the_quick_phrases_and_each_has_its_words_in_every_language(
        client: TestClient) -> None:
    from tikal.messages import text

    meta = client.get("/api/meta").json()
    assert meta["chat_phrases"] == model.settings()["phrases"]
    for key in meta["chat_phrases"]:
        words = {lang: text(f"web.chat.phrase.{key}", lang) for lang in ("en", "de", "ja")}
        assert len(set(words.values())) == 3, words


def test_spectators_write_only_when_the_creator_lets_them(db: str, client: TestClient) -> None:
    game = create(client, seed=5, seats=[{"kind": "human", "name": "Ana"},
                                         {"kind": "human", "name": "Ben"}])
    gid = game["id"]
    ana, ben = (s["token"] for s in game["seats"])
    said = client.post(f"/api/games/{gid}/chat", json={"text": "hi all", "name": "Zoe"})
    assert (said.status_code, said.json()["code"]) == (403, "chat_spectator")
    room = client.post(f"/api/games/{gid}/chat/room", json={"token": ben, "spectators": True})
    assert (room.status_code, room.json()["code"]) == (403, "not_creator")
    assert client.get(f"/api/games/{gid}/chat").json()["spectators"] is False
    with client.websocket_connect(f"/ws/{gid}") as watcher:
        ws_hello(watcher, None)
        room = client.post(f"/api/games/{gid}/chat/room", json={"token": ana, "spectators": True})
        assert room.status_code == 200, room.text
        assert receive_until(watcher, lambda m: m["type"] == "chat")["spectators"] is True
        watcher.send_json({"type": "chat", "text": "nice move", "name": " Zoe "})
        line = receive_until(watcher, lambda m: m["type"] == "chat" and "line" in m)["line"]
        assert (line["seat"], line["name"], line["text"]) == (-1, "Zoe", "nice move")
        for name in (None, "", "<Zoe>", "z" * 25):
            bad = client.post(f"/api/games/{gid}/chat", json={"text": "x", "name": name})
            assert (bad.status_code, bad.json()["code"], bad.json()["field"]) == (
                422, "bad_chat", "name"), name
    assert client.get(f"/api/games/{gid}/chat").json()["spectators"] is True
    assert rows(db, f"SELECT seat, name FROM game_chat WHERE game_id = '{gid}'") == [
        (-1, "Zoe")]
    client.post(f"/api/games/{gid}/chat/room", json={"token": ana, "spectators": False})
    again = client.post(f"/api/games/{gid}/chat", json={"text": "hi", "name": "Zoe"})
    assert again.status_code == 403
