"""The lobby (issue 29): tables created, joined, left and started by guests and accounts,
on a real SQLite file and a real PostgreSQL database; every refusal checked for its
status and code (docs/web.md, Lobby) and for changing nothing; the live topic.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pg_helpers import database_of_kind
from test_accounts import client_on as accounts_client_on
from test_accounts import rows
from tikal.server.limits import LimitSettings, Rate
from tikal.server.lobby import model
from tikal.server.lobby.model import Player, Spec, Table, public_tag
from tikal.server.lobby.routes import guest_id

GENEROUS = LimitSettings(signup=Rate(6000, 1000), signin=Rate(6000, 1000),
                         signin_account=Rate(6000, 1000), create=Rate(6000, 1000),
                         lobby=Rate(6000, 1000))
PASSWORD = "correct horse battery"


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_of_kind(request.param, tmp_path)


def client_on(db: str, limits: LimitSettings = GENEROUS) -> TestClient:
    """A server on ``db`` whose limits let a test make many lobby changes."""
    return accounts_client_on(db, limits)


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with client_on(db) as c:
        yield c


def guest() -> dict[str, str]:
    return {"X-Tikal-Guest": secrets.token_urlsafe(18)}


def stored(db: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The lobby's rows, for checking that a refusal changed nothing."""
    return (rows(db, "SELECT id, status, game_id FROM lobby_tables ORDER BY id"),
            rows(db, "SELECT table_id, seat, player, name, token FROM lobby_seats "
                     "ORDER BY table_id, seat"))


def open_table(client: TestClient, who: dict[str, str], **body: Any) -> dict[str, Any]:
    answer = client.post("/api/lobby/tables", headers=who,
                         json={"rules": "standard", "players": 3, "name": "Ana", **body})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    data: dict[str, Any] = answer.json()
    assert data["type"] == "error" and data["code"] == code, data
    assert data["message"] and not data["message"].startswith("lobby."), data
    return data


# ------------------------------------------------------------------ pure logic


def spec(players: int = 2, rated: bool = False) -> Spec:
    return Spec("standard", players, {}, rated, "medium")


def test_join_gives_the_first_free_seat_and_refuses_a_full_table_or_a_second_seat() -> None:
    alice, bob, cleo = (Player(f"guest:{n}", n) for n in ("a", "b", "c"))
    table = Table("t", spec(2), alice.player_id, model.OPEN,
                  (model.Seat(0, alice.player_id, "a"),), 0.0)
    assert model.check_join(table, bob, None) == 1
    full = Table("t", spec(2), alice.player_id, model.OPEN,
                 (*table.seats, model.Seat(1, bob.player_id, "b")), 0.0)
    for who, code in ((cleo, "table_full"), (bob, "already_seated")):
        with pytest.raises(Exception) as caught:
            model.check_join(full, who, None)
        assert caught.value.code == code  # type: ignore[attr-defined]


def test_a_table_shows_tags_never_player_ids() -> None:
    alice = Player("guest:0123456789abcdef", "Ana")
    table = Table("t", spec(3), alice.player_id, model.OPEN,
                  (model.Seat(0, alice.player_id, "Ana", "secret-token"),), 0.0)
    shown = model.table_json(table)
    assert alice.player_id not in str(shown) and "secret-token" not in str(shown)
    assert shown["creator"] == public_tag(alice.player_id) == shown["seats"][0]["tag"]
    assert [s["name"] for s in shown["seats"]] == ["Ana", None, None]
    assert model.game_seats(table) == [{"kind": "human", "name": "Ana"},
                                       {"kind": "bot", "level": "medium"},
                                       {"kind": "bot", "level": "medium"}]


@pytest.mark.parametrize("secret", [None, "", "short", "x" * 65, "has space in it!!", "ü" * 20])
def test_a_malformed_guest_secret_names_no_player(secret: str | None) -> None:
    assert guest_id(secret) is None


def test_a_guest_id_is_a_digest_of_the_secret() -> None:
    secret = "A" * 20
    found = guest_id(secret)
    assert found is not None and found.startswith("guest:") and secret not in found
    assert guest_id(secret) == found and guest_id("B" * 20) != found


# ------------------------------------------------------------------ the API


def test_guests_open_join_and_start_a_table_with_bots_for_the_free_seat(
        db: str, client: TestClient) -> None:
    ana, ben = guest(), guest()
    table = open_table(client, ana)
    assert table["status"] == "open" and table["your_seat"] == 0 and table["token"] is None
    joined = client.post(f"/api/lobby/tables/{table['id']}/join", headers=ben,
                         json={"name": "Ben"})
    assert joined.status_code == 200 and joined.json()["your_seat"] == 1
    listed = client.get("/api/lobby", headers=ben).json()
    assert [t["id"] for t in listed["tables"]] == [table["id"]]
    assert listed["you"] == joined.json()["seats"][1]["tag"]
    assert [t["id"] for t in listed["mine"]] == [table["id"]]
    started = client.post(f"/api/lobby/tables/{table['id']}/start", headers=ana)
    assert started.status_code == 200, started.text
    game_id, token = started.json()["game"], started.json()["token"]
    assert started.json()["status"] == "started" and token
    game = client.get(f"/api/games/{game_id}", headers={"X-Tikal-Token": token}).json()
    assert [s["kind"] for s in game["seats"]] == ["human", "human", "bot"]
    assert [s["name"] for s in game["seats"]][:2] == ["Ana", "Ben"]
    assert game["you"] == [0]
    ben_token = client.get("/api/lobby", headers=ben).json()["mine"][0]["token"]
    assert ben_token and ben_token != token
    again = client.get("/api/lobby", headers=ana).json()
    assert again["tables"] == [] and [t["game"] for t in again["playing"]] == [game_id]
    assert rows(db, "SELECT COUNT(*) FROM games WHERE kind = 'game'") == [(1,)]


def test_refusals_have_their_code_and_change_nothing(db: str, client: TestClient) -> None:
    ana, ben, cleo, dan = guest(), guest(), guest(), guest()
    table = open_table(client, ana, players=2)
    tid = table["id"]
    assert client.post(f"/api/lobby/tables/{tid}/join", headers=ben, json={}).status_code == 200
    before = stored(db)
    refused(client.post(f"/api/lobby/tables/{tid}/join", headers=cleo, json={}), 409,
            "table_full")
    refused(client.post(f"/api/lobby/tables/{tid}/join", headers=ben, json={}), 409,
            "already_seated")
    refused(client.post(f"/api/lobby/tables/{tid}/start", headers=ben), 403, "not_creator")
    refused(client.post(f"/api/lobby/tables/{tid}/leave", headers=dan), 409, "not_seated")
    refused(client.post("/api/lobby/tables/nope/join", headers=dan, json={}), 404,
            "unknown_table")
    refused(client.post(f"/api/lobby/tables/{tid}/join", json={}), 401, "no_player")
    refused(client.post("/api/lobby/tables", headers=dan,
                        json={"rules": "demo", "players": 3}), 422, "bad_table")
    refused(client.post("/api/lobby/tables", headers=dan,
                        json={"rules": "standard", "players": 2, "fill": "random"}), 422,
            "bad_table")
    bad = refused(client.post("/api/lobby/tables", headers=dan,
                              json={"players": 2, "name": "<b>x</b>"}), 422, "bad_name")
    assert bad["field"] == "name"
    refused(client.post("/api/lobby/tables", headers=dan,
                        json={"players": 2, "name": "tab\there"}), 422, "bad_name")
    refused(client.post("/api/lobby/tables", headers=dan, json={"players": 2, "rated": True}),
            403, "rated_needs_account")
    assert stored(db) == before
    assert client.post(f"/api/lobby/tables/{tid}/start", headers=ana).status_code == 200
    after = stored(db)
    refused(client.post(f"/api/lobby/tables/{tid}/start", headers=ana), 409, "table_closed")
    refused(client.post(f"/api/lobby/tables/{tid}/leave", headers=ben), 409, "table_closed")
    assert stored(db) == after
    assert rows(db, "SELECT COUNT(*) FROM games WHERE kind = 'game'") == [(1,)]


def test_a_seat_asked_for_and_taken_is_refused_by_number(client: TestClient) -> None:
    table = open_table(client, guest(), players=4)
    tid = table["id"]
    assert client.post(f"/api/lobby/tables/{tid}/join", headers=guest(),
                       json={"seat": 2}).json()["your_seat"] == 2
    data = refused(client.post(f"/api/lobby/tables/{tid}/join", headers=guest(),
                               json={"seat": 2}), 409, "seat_taken")
    assert "3" in data["message"]  # seats are named 1-4 to people
    refused(client.post(f"/api/lobby/tables/{tid}/join", headers=guest(), json={"seat": 9}),
            422, "bad_request")


def test_leaving_frees_the_seat_and_the_creator_leaving_closes_the_table(
        client: TestClient) -> None:
    ana, ben = guest(), guest()
    tid = open_table(client, ana)["id"]
    client.post(f"/api/lobby/tables/{tid}/join", headers=ben, json={})
    left = client.post(f"/api/lobby/tables/{tid}/leave", headers=ben)
    assert [s["name"] for s in left.json()["seats"]] == ["Ana", None, None]
    closed = client.post(f"/api/lobby/tables/{tid}/leave", headers=ana)
    assert closed.json()["status"] == "closed"
    assert client.get("/api/lobby").json()["tables"] == []


def test_open_tables_per_player_are_capped(db: str, client: TestClient) -> None:
    ana = guest()
    cap = model.settings()["tables_per_player"]
    for _ in range(cap):
        open_table(client, ana)
    before = stored(db)
    refused(client.post("/api/lobby/tables", headers=ana, json={"players": 2}), 429,
            "too_many_tables")
    assert stored(db) == before


def test_lobby_changes_are_rate_limited(tmp_path: Path) -> None:
    with client_on(str(tmp_path / "rl.sqlite3"), LimitSettings(lobby=Rate(60, 2))) as c:
        ana = guest()
        tid = open_table(c, ana)["id"]
        c.post(f"/api/lobby/tables/{tid}/leave", headers=ana)
        answer = refused(c.post("/api/lobby/tables", headers=ana, json={"players": 2}), 429,
                         "rate_limited")
        assert "retry-after" in {k.lower() for k in answer} or answer["retry_after"] > 0


def test_a_rated_table_takes_accounts_only_and_binds_them_to_their_seats(
        db: str, client: TestClient) -> None:
    for name in ("Ixchel", "Kukul"):
        with client_on(db) as other:
            assert other.post("/api/account/signup", json={
                "name": name, "password": PASSWORD}).status_code == 201
    ix, ku = client_on(db), client_on(db)
    with ix, ku:
        for c, name in ((ix, "Ixchel"), (ku, "Kukul")):
            c.post("/api/account/signin", json={"name": name, "password": PASSWORD})
        csrf = {c: {"X-CSRF-Token": c.get("/api/account").json()["csrf"]} for c in (ix, ku)}
        refused(ix.post("/api/lobby/tables", json={"players": 2, "rated": True}), 403, "csrf")
        table = ix.post("/api/lobby/tables", headers=csrf[ix],
                        json={"players": 3, "rated": True})
        assert table.status_code == 201, table.text
        tid = table.json()["id"]
        refused(client.post(f"/api/lobby/tables/{tid}/join", headers=guest(), json={}),
                403, "rated_needs_account")
        joined = ku.post(f"/api/lobby/tables/{tid}/join", headers=csrf[ku], json={})
        assert [s["name"] for s in joined.json()["seats"]][:2] == ["Ixchel", "Kukul"]
        game = ix.post(f"/api/lobby/tables/{tid}/start", headers=csrf[ix]).json()["game"]
    bound = rows(db, "SELECT s.seat, a.name FROM seat_accounts s JOIN accounts a "
                     f"ON a.id = s.account_id WHERE s.game_id = '{game}' ORDER BY s.seat")
    assert bound == [(0, "Ixchel"), (1, "Kukul")]
    assert rows(db, f"SELECT rules FROM rated_games WHERE game_id = '{game}'") == [("standard",)]


def test_two_players_asking_for_the_last_seat_at_once_get_one_seat(db: str) -> None:
    """Two servers on one database (PostgreSQL) or one file (SQLite), two threads: the
    seat's primary key decides; the other is told the table is full."""
    with client_on(db) as one, client_on(db) as two:
        tid = open_table(one, guest(), players=2)["id"]
        answers: list[Any] = []
        gate = threading.Barrier(2)

        def grab(c: TestClient) -> None:
            gate.wait()
            answers.append(c.post(f"/api/lobby/tables/{tid}/join", headers=guest(), json={}))

        threads = [threading.Thread(target=grab, args=(c,)) for c in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sorted(a.status_code for a in answers) == [200, 409]
    assert {a.json().get("code") for a in answers if a.status_code == 409} <= {
        "table_full", "seat_taken"}
    assert rows(db, f"SELECT COUNT(*) FROM lobby_seats WHERE table_id = '{tid}'") == [(2,)]


# ------------------------------------------------------------------ the live topic


def test_every_lobby_connection_sees_each_change(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as first, \
            client.websocket_connect("/ws/lobby") as second:
        assert first.receive_json()["type"] == "lobby"
        assert second.receive_json()["tables"] == []
        ana = guest()
        tid = open_table(client, ana)["id"]
        for ws in (first, second):
            update = ws.receive_json()
            assert update["type"] == "table" and update["table"]["id"] == tid
            assert update["table"]["seats"][0]["name"] == "Ana"
        client.post(f"/api/lobby/tables/{tid}/join", headers=guest(), json={"name": "Ben"})
        assert [s["name"] for s in first.receive_json()["table"]["seats"]] == [
            "Ana", "Ben", None]
        first.send_json({"type": "ping"})
        second.receive_json()
        assert first.receive_json() == {"type": "pong"}
        first.send_text("not json")
        assert first.receive_json()["code"] == "bad_request"


def test_a_new_lobby_connection_gets_the_listing_as_it_is_after_a_change(
        client: TestClient) -> None:
    """The first listing is made once for every connection until a table changes: a
    connection after the change must see it (the cache is dropped at each change)."""
    with client.websocket_connect("/ws/lobby") as early:
        assert early.receive_json()["tables"] == []
    tid = open_table(client, guest())["id"]
    with client.websocket_connect("/ws/lobby") as late:
        assert [t["id"] for t in late.receive_json()["tables"]] == [tid]
    client.post(f"/api/lobby/tables/{tid}/join", headers=guest(), json={"name": "Ben"})
    with client.websocket_connect("/ws/lobby") as later:
        seats = later.receive_json()["tables"][0]["seats"]
        assert [s["name"] for s in seats][:2] == ["Ana", "Ben"]


# ------------------------------------------------------------------ quick match


def test_the_rating_window_widens_with_waiting_time_up_to_its_cap() -> None:
    window = model.settings()["quick_window"]
    assert model.rating_window(0) == window["start"]
    assert model.rating_window(120) == window["start"] + 2 * window["per_minute"]
    assert model.rating_window(10 ** 6) == window["max"]
    ana, ben = Player("account:a", "Ana", "a"), Player("account:b", "Ben", "b")
    waiting = Table("t", spec(2, rated=True), ana.player_id, model.OPEN,
                    (model.Seat(0, ana.player_id, "Ana"),), 0.0, quick=True, rating=1000)
    near, far = 1000 + window["start"], 1000 + window["start"] + 1
    assert model.quick_fits(waiting, spec(2, rated=True), ben, near, now=0.0)
    assert not model.quick_fits(waiting, spec(2, rated=True), ben, far, now=0.0)
    assert model.quick_fits(waiting, spec(2, rated=True), ben, far, now=60.0)  # waited
    assert not model.quick_fits(waiting, spec(3, rated=True), ben, near, now=0.0)
    assert not model.quick_fits(waiting, spec(2, rated=True), ana, near, now=0.0)  # itself


def quick(client: TestClient, who: dict[str, str], **body: Any) -> Any:
    return client.post("/api/lobby/quick", headers=who,
                       json={"rules": "demo", "players": 2, **body})


def test_two_guests_asking_for_a_quick_match_get_one_game(db: str, client: TestClient) -> None:
    ana, ben = guest(), guest()
    first = quick(client, ana, name="Ana")
    assert first.status_code == 200, first.text
    waiting = first.json()
    assert (waiting["matched"], waiting["status"], waiting["quick"]) == (False, "open", True)
    assert client.get("/api/lobby").json()["tables"] == []  # not listed: matched, not joined
    second = quick(client, ben, name="Ben").json()
    assert (second["matched"], second["status"], second["id"]) == (True, "started", waiting["id"])
    assert second["your_seat"] == 1 and second["token"]
    mine = client.get("/api/lobby", headers=ana).json()["mine"]
    assert [(t["id"], t["your_seat"], bool(t["token"])) for t in mine] == [
        (waiting["id"], 0, True)]
    game = client.get(f"/api/games/{second['game']}").json()
    assert [(s["name"], s["kind"]) for s in game["seats"]] == [("Ana", "human"), ("Ben", "human")]
    assert client.get(f"/api/games/{second['game']}",
                      params={"token": second["token"]}).status_code == 200


def test_quick_match_refusals_have_their_code_and_change_nothing(
        db: str, client: TestClient) -> None:
    ana = guest()
    tid = quick(client, ana, name="Ana").json()["id"]
    before = stored(db)
    refused(quick(client, ana), 409, "already_queued")
    refused(quick(client, ana, rules="standard", players=3), 409, "already_queued")
    refused(client.post(f"/api/lobby/tables/{tid}/join", headers=guest(), json={}), 409,
            "quick_table")
    refused(client.post(f"/api/lobby/tables/{tid}/start", headers=ana), 409, "quick_table")
    refused(quick(client, guest(), rated=True), 403, "rated_needs_account")
    refused(quick(client, guest(), players=3), 422, "bad_table")  # demo is for two
    assert stored(db) == before
    cancelled = client.post("/api/lobby/quick/cancel", headers=ana)
    assert cancelled.json()["status"] == "closed"
    refused(client.post("/api/lobby/quick/cancel", headers=ana), 409, "not_queued")
    again = quick(client, ana).json()  # waiting again, at a new table
    assert again["id"] != tid and again["status"] == "open"


def test_rated_quick_matches_pair_near_ratings_first_and_widen_with_waiting(
        db: str) -> None:
    from tikal.server.rating.model import display, initial
    from tikal.server.rating.params import rating_params

    now = [1_000_000.0]
    clients = {}
    with client_on(db) as setup:
        lobby = setup.app.state.lobby  # type: ignore[attr-defined]
        lobby.clock = lambda: now[0]
        base = initial()
        step = 1 / rating_params().display.scale  # mu per shown point
        for name, shown in (("Ana", 1000), ("Ben", 1700), ("Cho", 1050), ("Dov", 1000)):
            assert setup.post("/api/account/signup", json={
                "name": name, "password": PASSWORD}).status_code == 201
            (account_id,), = rows(db, f"SELECT id FROM accounts WHERE name = '{name}'")
            rating = type(base)(base.mu + (shown - display(base)) * step, base.sigma)
            lobby.ratings.store.set(account_id, "demo", rating)
            clients[name] = {"cookie": setup.cookies.get("tikal_session"),
                             "csrf": setup.get("/api/account").json()["csrf"]}
            setup.cookies.clear()

        def ask(name: str) -> dict[str, Any]:
            setup.cookies.set("tikal_session", clients[name]["cookie"])
            try:
                answer = quick(setup, {"X-CSRF-Token": clients[name]["csrf"]}, rated=True)
            finally:
                setup.cookies.clear()
            assert answer.status_code == 200, answer.text
            found: dict[str, Any] = answer.json()
            return found

        ana, ben = ask("Ana"), ask("Ben")
        assert not ana["matched"] and not ben["matched"] and ana["id"] != ben["id"]
        cho = ask("Cho")  # 50 from Ana, 650 from Ben: Ana's table
        assert cho["matched"] and cho["id"] == ana["id"]
        now[0] += 7 * 60  # Ben has waited 7 minutes: his window reaches 800
        dov = ask("Dov")
        assert dov["matched"] and dov["id"] == ben["id"]
    assert rows(db, "SELECT COUNT(*) FROM rated_games") == [(2,)]


def test_two_quick_matches_asked_at_once_make_one_table(db: str) -> None:
    """Seekers are matched one at a time (an advisory lock on PostgreSQL, the writer's
    lock on SQLite): two asking at once on two servers are paired, not left waiting at
    two tables."""
    with client_on(db) as one, client_on(db) as two:
        answers: list[Any] = []
        gate = threading.Barrier(2)

        def ask(c: TestClient) -> None:
            gate.wait()
            answers.append(quick(c, guest()))

        threads = [threading.Thread(target=ask, args=(c,)) for c in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sorted(a.json()["matched"] for a in answers) == [False, True]
    assert rows(db, "SELECT COUNT(*), MIN(status) FROM lobby_tables") == [(1, "started")]


def test_my_tables_put_the_games_waiting_for_my_move_first(client: TestClient) -> None:
    ana, ben = guest(), guest()
    game = quick(client, ana, name="Ana").json()
    game = quick(client, ben, name="Ben").json()
    current = client.get(f"/api/games/{game['game']}").json()["current"]
    mover, other = (ana, ben) if current == 0 else (ben, ana)
    later = open_table(client, mover)  # an open table, newer than the game
    mine = client.get("/api/lobby", headers=mover).json()["mine"]
    assert [(t["id"], t.get("turn")) for t in mine] == [
        (game["id"], "yours"), (later["id"], None)]
    theirs = client.get("/api/lobby", headers=other).json()["mine"]
    assert [t.get("turn") for t in theirs] == ["theirs"]


def test_a_table_with_a_time_control_starts_a_timed_game(db: str, client: TestClient) -> None:
    ana, ben = guest(), guest()
    bad = client.post("/api/lobby/tables", headers=ana, json={
        "rules": "demo", "players": 2, "name": "Ana", "clock": "sundial"})
    assert refused(bad, 422, "bad_table")["field"] == "clock"
    assert rows(db, "SELECT COUNT(*) FROM lobby_tables") == [(0,)]
    table = open_table(client, ana, rules="demo", players=2, clock="rapid", fill="easy")
    assert client.get("/api/lobby").json()["tables"][0]["clock"] == "rapid"
    client.post(f"/api/lobby/tables/{table['id']}/join", headers=ben, json={"name": "Ben"})
    started = client.post(f"/api/lobby/tables/{table['id']}/start", headers=ana).json()
    game = client.get(f"/api/games/{started['game']}").json()
    assert game["clock"]["control"]["preset"] == "rapid" and game["clock"]["running"] == 0
    assert game["clock"]["control"]["standin"] == "easy"  # the table's bot level


def test_quick_match_pairs_only_players_asking_for_the_same_time_control(
        client: TestClient) -> None:
    ana, ben, cem = guest(), guest(), guest()
    first = quick(client, ana, name="Ana", clock="blitz").json()
    other = quick(client, ben, name="Ben", clock="day1").json()
    assert (other["matched"], other["id"] != first["id"]) == (False, True)
    paired = quick(client, cem, name="Cem", clock="blitz").json()
    assert (paired["matched"], paired["id"]) == (True, first["id"])
    game = client.get(f"/api/games/{paired['game']}").json()
    assert game["clock"]["control"]["preset"] == "blitz"
