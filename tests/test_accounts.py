"""Accounts (issue 28): names, passwords, sessions, CSRF, rate limits, deletion and the
seats a guest brings, on a real SQLite file and a real PostgreSQL database.

Each refusal is checked for its status and code (docs/web.md, Accounts) and for leaving
what is stored as it was.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from pg_helpers import database_of_kind
from tikal.server import create_app
from tikal.server.accounts import names, passwords
from tikal.server.accounts.routes import COOKIE
from tikal.server.limits import LimitSettings, Rate

PASSWORD = "correct horse battery"
#: rates high enough for tests that make many accounts from one address
GENEROUS = LimitSettings(signup=Rate(6000, 1000), signin=Rate(6000, 1000),
                         signin_account=Rate(6000, 1000), create=Rate(6000, 1000))


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_of_kind(request.param, tmp_path)


def client_on(db: str, limits: LimitSettings = GENEROUS, shipped: bool = False) -> TestClient:
    """A server on ``db``; its bots start unrated unless ``shipped`` (the ratings tests
    count from nothing; tikal serve gives them the shipped ratings)."""
    return TestClient(create_app(db, bot_delay=0.0, limit_settings=limits,
                                 shipped_bot_ratings=shipped))


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with client_on(db) as c:
        yield c


def rows(db: str, query: str) -> list[tuple[Any, ...]]:
    """What the database holds, read beside the server (not through it)."""
    if db.startswith("postgresql"):
        with psycopg.connect(db) as conn:
            return [tuple(r) for r in conn.execute(query).fetchall()]
    with sqlite3.connect(db) as conn:
        return [tuple(r) for r in conn.execute(query).fetchall()]


def sign_up(client: TestClient, name: str, password: str = PASSWORD,
            **extra: Any) -> Any:
    return client.post("/api/account/signup", json={"name": name, "password": password,
                                                    **extra})


def csrf_of(client: TestClient) -> str:
    token: str = client.get("/api/account").json()["csrf"]
    return token


# ------------------------------------------------------------------ names and passwords


def test_names_are_normalised_case_free_and_look_alikes_share_a_skeleton() -> None:
    assert names.account_name("\uff34\uff49\uff4b\uff41\uff4cFan").shown == "TikalFan"  # NFKC
    assert names.handle_of("TikalFan") == names.handle_of("tikalfan")
    assert names.skeleton("bill") == names.skeleton("\u0412ill")  # Cyrillic Ve
    assert names.skeleton("paypal") == names.skeleton("p\u0430ypal")  # Cyrillic a
    assert names.skeleton("m0") == names.skeleton("rn0")
    assert names.skeleton("tikal") != names.skeleton("rikal")  # distinct letters stay apart


@pytest.mark.parametrize(("name", "key"), [
    ("ab", "accounts.name_length"), ("a" * 21, "accounts.name_length"),
    ("a b", "accounts.name_character"), ("<script>", "accounts.name_character"),
    ("tab\tname", "accounts.name_character"), ("   ", "accounts.name_length"),
])
def test_a_name_breaking_the_rules_is_named_with_the_rule(name: str, key: str) -> None:
    found = names.problem(name)
    assert found is not None and found.key == key


def test_names_of_letters_of_any_script_are_allowed() -> None:
    for name in ("山田たろう", "Jürgen_K", "tikal-42"):
        assert names.problem(name) is None


def test_a_password_is_stored_as_an_argon2id_hash_and_checked() -> None:
    stored = passwords.hash_now(PASSWORD)
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert passwords.verify_now(stored, PASSWORD)
    assert not passwords.verify_now(stored, PASSWORD + "!")
    assert not passwords.verify_now(None, PASSWORD)  # the dummy check never passes
    assert passwords.length_problem("short") == {"min": 8, "max": 128}
    assert passwords.length_problem("x" * 129) is not None
    assert passwords.length_problem(PASSWORD) is None


# ------------------------------------------------------------------ sign up and sessions


def test_sign_up_signs_in_with_a_cookie_whose_secret_is_not_stored(
        db: str, client: TestClient) -> None:
    answer = sign_up(client, "Ixchel")
    assert answer.status_code == 201, answer.text
    assert answer.json()["name"] == "Ixchel" and answer.json()["signed_in"]
    cookie = answer.headers["set-cookie"]
    assert f"{COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http in the test; https adds it
    secret = client.cookies[COOKIE]
    me = client.get("/api/account").json()
    assert me["signed_in"] and me["name"] == "Ixchel" and len(me["csrf"]) >= 24
    stored = rows(db, "SELECT digest FROM account_sessions")
    assert stored == [(hashlib.sha256(secret.encode()).hexdigest(),)]
    assert rows(db, "SELECT password FROM accounts")[0][0].startswith("$argon2id$")


def test_duplicate_and_look_alike_names_are_refused_and_nothing_is_stored(
        db: str, client: TestClient) -> None:
    assert sign_up(client, "Bill").status_code == 201
    for other in ("bill", "BILL", "\u0412ill", "\u042cill"):  # case, Cyrillic Ve, soft sign
        answer = sign_up(client, other)
        assert answer.status_code == 409, other
        assert answer.json()["code"] == "name_taken" and answer.json()["field"] == "name"
    assert rows(db, "SELECT COUNT(*) FROM accounts") == [(1,)]


@pytest.mark.parametrize(("body", "status", "code", "field"), [
    ({"name": "ab", "password": PASSWORD}, 422, "name_invalid", "name"),
    ({"name": "has space", "password": PASSWORD}, 422, "name_invalid", "name"),
    ({"name": "okname", "password": "short"}, 422, "password_invalid", "password"),
    ({"name": "okname", "password": "x" * 200}, 422, "password_invalid", "password"),
    ({"name": "", "password": PASSWORD}, 422, "bad_request", None),
    ({"name": "okname" * 20, "password": PASSWORD}, 422, "bad_request", None),
    ({"name": "okname"}, 422, "bad_request", None),
])
def test_bad_sign_up_fields_are_refused_with_the_field(
        db: str, client: TestClient, body: dict[str, Any], status: int, code: str,
        field: str | None) -> None:
    answer = client.post("/api/account/signup", json=body)
    assert answer.status_code in (status, 400), answer.text
    assert answer.json()["code"] == code
    if field:
        assert answer.json()["field"] == field
    assert rows(db, "SELECT COUNT(*) FROM accounts") == [(0,)]
    assert COOKIE not in client.cookies


def test_unknown_name_and_wrong_password_get_the_same_answer(client: TestClient) -> None:
    sign_up(client, "Kukulkan")
    client.cookies.clear()
    wrong = client.post("/api/account/signin", json={"name": "Kukulkan", "password": "x" * 9})
    unknown = client.post("/api/account/signin", json={"name": "Nobody", "password": "x" * 9})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["code"] == "bad_credentials"
    assert COOKIE not in client.cookies
    right = client.post("/api/account/signin", json={"name": "kukulkan", "password": PASSWORD})
    assert right.status_code == 200 and right.json()["name"] == "Kukulkan"


def test_wrong_passwords_in_a_loop_meet_429_and_stay_refused(db: str) -> None:
    with client_on(db, LimitSettings()) as client:
        sign_up(client, "Target")
        client.cookies.clear()
        codes = [client.post("/api/account/signin",
                             json={"name": "Target", "password": f"guess{i:04d}"})
                 for i in range(8)]
        assert [c.status_code for c in codes[:5]] == [401] * 5
        limited = codes[-1]
        assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
        assert int(limited.headers["Retry-After"]) >= 1
        # even the right password waits now: the guesser learns nothing more
        again = client.post("/api/account/signin", json={"name": "Target", "password": PASSWORD})
        assert again.status_code == 429
    assert rows(db, "SELECT COUNT(*) FROM account_sessions") == [(1,)]  # sign-up's only


def test_sign_in_starts_a_new_session_and_ends_the_old_one(client: TestClient) -> None:
    sign_up(client, "Rotator")
    first = client.cookies[COOKIE]
    client.post("/api/account/signin", json={"name": "Rotator", "password": PASSWORD})
    second = client.cookies[COOKIE]
    assert second != first
    client.cookies.set(COOKIE, first)
    assert client.get("/api/account").json() == {"signed_in": False}


def test_a_forged_or_ended_cookie_signs_nobody_in(client: TestClient) -> None:
    client.cookies.set(COOKIE, "forged-secret-value")
    assert client.get("/api/account").json() == {"signed_in": False}
    answer = client.get("/api/account/seats")
    assert answer.status_code == 401 and answer.json()["code"] == "not_signed_in"


# ------------------------------------------------------------------ CSRF


def test_a_change_without_the_csrf_token_is_refused_and_changes_nothing(
        client: TestClient) -> None:
    sign_up(client, "Guarded")
    for headers in ({}, {"X-CSRF-Token": "wrong"}):
        answer = client.post("/api/account/signout", headers=headers)
        assert answer.status_code == 403 and answer.json()["code"] == "csrf"
    assert client.get("/api/account").json()["signed_in"]
    answer = client.post("/api/account/delete", json={"password": PASSWORD})
    assert answer.status_code == 403 and answer.json()["code"] == "csrf"
    assert client.get("/api/account").json()["name"] == "Guarded"


def test_a_cross_site_post_is_refused_even_with_the_token(client: TestClient) -> None:
    sign_up(client, "Victim")
    token = csrf_of(client)
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://evil.example"}):
        answer = client.post("/api/account/signout", headers={**headers, "X-CSRF-Token": token})
        assert answer.status_code == 403 and answer.json()["code"] == "csrf"
        login = client.post("/api/account/signin", headers=headers,
                            json={"name": "Victim", "password": PASSWORD})
        assert login.status_code == 403  # no login CSRF either
    assert client.get("/api/account").json()["signed_in"]


# ------------------------------------------------------------------ the account


def test_sign_out_ends_this_session_and_sign_out_everywhere_every_one(db: str) -> None:
    with client_on(db) as laptop, client_on(db) as phone:
        sign_up(laptop, "Traveller")
        phone.post("/api/account/signin", json={"name": "Traveller", "password": PASSWORD})
        answer = laptop.post("/api/account/signout", headers={"X-CSRF-Token": csrf_of(laptop)})
        assert answer.status_code == 200 and not laptop.get("/api/account").json()["signed_in"]
        assert phone.get("/api/account").json()["signed_in"]
        laptop.post("/api/account/signin", json={"name": "Traveller", "password": PASSWORD})
        answer = phone.post("/api/account/signout-everywhere",
                            headers={"X-CSRF-Token": csrf_of(phone)})
        assert answer.status_code == 200
        assert not laptop.get("/api/account").json()["signed_in"]
        assert not phone.get("/api/account").json()["signed_in"]
    assert rows(db, "SELECT COUNT(*) FROM account_sessions") == [(0,)]


def test_changing_the_password_needs_the_old_one_and_ends_other_sessions(db: str) -> None:
    with client_on(db) as here, client_on(db) as there:
        sign_up(here, "Changer")
        there.post("/api/account/signin", json={"name": "Changer", "password": PASSWORD})
        wrong = here.post("/api/account/password", headers={"X-CSRF-Token": csrf_of(here)},
                          json={"current_password": "not it at all",
                                "new_password": "a new long one"})
        assert wrong.status_code == 403 and wrong.json()["code"] == "bad_credentials"
        assert wrong.json()["field"] == "current_password"
        done = here.post("/api/account/password", headers={"X-CSRF-Token": csrf_of(here)},
                         json={"current_password": PASSWORD, "new_password": "a new long one"})
        assert done.status_code == 200 and here.get("/api/account").json()["signed_in"]
        assert not there.get("/api/account").json()["signed_in"]
        there.cookies.clear()
        old = there.post("/api/account/signin", json={"name": "Changer", "password": PASSWORD})
        new = there.post("/api/account/signin",
                         json={"name": "Changer", "password": "a new long one"})
        assert old.status_code == 401 and new.status_code == 200


def create_invite_game(client: TestClient) -> dict[str, Any]:
    answer = client.post("/api/games", json={"rules": "demo", "seats": [
        {"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}], "hotseat": True})
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()
    return game


def test_a_guest_who_signs_up_keeps_the_seats_they_hold(db: str, client: TestClient) -> None:
    game = create_invite_game(client)
    mine, theirs = game["seats"][0]["token"], game["seats"][1]["token"]
    answer = sign_up(client, "Guest1", seats=[
        {"game": game["id"], "token": mine},
        {"game": game["id"], "token": "not-a-token"},  # ignored: no such seat
        {"game": game["id"], "token": game["hotseat_token"]},  # not one seat's own
    ])
    assert answer.status_code == 201
    assert client.get("/api/account/seats").json() == {"seats": [{"game": game["id"],
                                                                  "seat": 0}]}
    # the other seat, claimed later by its holder; a seat bound already stays bound
    with client_on(db) as other:
        sign_up(other, "Guest2")
        token = csrf_of(other)
        claimed = other.post("/api/account/seats", headers={"X-CSRF-Token": token},
                             json={"seats": [{"game": game["id"], "token": theirs},
                                             {"game": game["id"], "token": mine}]})
        assert claimed.json() == {"bound": [{"game": game["id"], "seat": 1}]}
    assert sorted(rows(db, "SELECT seat FROM seat_accounts")) == [(0,), (1,)]


def test_deleting_the_account_frees_the_name_and_keeps_its_games(
        db: str, client: TestClient) -> None:
    game = create_invite_game(client)
    sign_up(client, "Leaver", seats=[{"game": game["id"], "token": game["seats"][0]["token"]}])
    token = csrf_of(client)
    wrong = client.post("/api/account/delete", headers={"X-CSRF-Token": token},
                        json={"password": "not the password"})
    assert wrong.status_code == 403 and client.get("/api/account").json()["signed_in"]
    done = client.post("/api/account/delete", headers={"X-CSRF-Token": token},
                       json={"password": PASSWORD})
    assert done.status_code == 200 and done.json() == {"signed_in": False}
    assert rows(db, "SELECT name, handle, password FROM accounts") == [(None, None, None)]
    assert rows(db, "SELECT COUNT(*) FROM account_sessions") == [(0,)]
    assert rows(db, "SELECT seat FROM seat_accounts") == [(0,)]  # the seat shows "deleted"
    assert client.app.state.accounts.store.players_of(game["id"]) == {0: None}  # type: ignore[attr-defined]
    assert client.get(f"/api/games/{game['id']}").status_code == 200
    assert sign_up(client, "Leaver").status_code == 201  # the name is free again


def test_two_sign_ups_racing_for_one_name_make_one_account(db: str) -> None:
    with client_on(db) as first, client_on(db) as second:
        answers: list[int] = []

        def take(client: TestClient) -> None:
            answers.append(sign_up(client, "Contested").status_code)

        threads = [threading.Thread(target=take, args=(c,)) for c in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert sorted(answers) == [201, 409]
    assert rows(db, "SELECT COUNT(*) FROM accounts") == [(1,)]


# ------------------------------------------------------------------ passkeys (no browser)


def test_passkey_options_need_the_session_and_its_csrf_token(db: str,
                                                             client: TestClient) -> None:
    assert client.post("/api/account/passkeys/options").status_code == 401  # no session
    sign_up(client, "Optioned")
    token = csrf_of(client)
    assert client.post("/api/account/passkeys/options").json()["code"] == "csrf"
    answer = client.post("/api/account/passkeys/options", headers={"X-CSRF-Token": token})
    assert answer.status_code == 200
    options = answer.json()["options"]
    assert options["rp"]["id"] == "testserver" and options["user"]["name"] == "Optioned"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert rows(db, "SELECT purpose FROM passkey_challenges") == [("register",)]


def test_a_passkey_answer_that_does_not_verify_changes_nothing(db: str,
                                                              client: TestClient) -> None:
    sign_up(client, "Forger")
    token = csrf_of(client)
    challenge = client.post("/api/account/passkeys/options",
                            headers={"X-CSRF-Token": token}).json()["challenge_id"]
    forged = {"id": "AAAA", "rawId": "AAAA", "type": "public-key",
              "response": {"clientDataJSON": "e30", "attestationObject": "oA"}}
    answer = client.post("/api/account/passkeys", headers={"X-CSRF-Token": token},
                         json={"challenge_id": challenge, "credential": forged})
    assert answer.status_code == 401 and answer.json()["code"] == "passkey_refused"
    again = client.post("/api/account/passkeys", headers={"X-CSRF-Token": token},
                        json={"challenge_id": challenge, "credential": forged})
    assert again.json()["code"] == "passkey_refused"  # the challenge was used up
    # a sign-in challenge is not a registration's, nor the other way round
    sign_in = client.post("/api/account/passkey-signin/options").json()["challenge_id"]
    swapped = client.post("/api/account/passkeys", headers={"X-CSRF-Token": token},
                          json={"challenge_id": sign_in, "credential": forged})
    assert swapped.status_code == 401
    unknown = client.post("/api/account/passkey-signin",
                          json={"challenge_id": "nope", "credential": forged})
    assert unknown.status_code == 401 and unknown.json()["code"] == "passkey_refused"
    assert rows(db, "SELECT COUNT(*) FROM passkeys") == [(0,)]
    gone = client.post("/api/account/passkeys/AAAA/delete", headers={"X-CSRF-Token": token})
    assert gone.status_code == 404
