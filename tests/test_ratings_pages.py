"""Leaderboards and profiles (issue 28 point 4): the JSON routes and the server-rendered
pages, on a real SQLite file and a real PostgreSQL server.  Ratings are written through the
rating store as a finished game writes them (asked for, then applied once), games are
played through the HTTP API; the pages are read as a browser gets them.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from html.parser import HTMLParser
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from pg_helpers import database_of_kind
from test_accounts import PASSWORD, client_on, create_invite_game, csrf_of, sign_up
from test_i18n_web import Visible, leftovers
from test_ratings_games import account_id, play_to_the_end, rated_game
from tikal.cli import app as cli
from tikal.messages import text
from tikal.server.rating import display
from tikal.server.rating.bots import shipped_ratings
from tikal.server.rating.graph import rating_graph
from tikal.server.rating.model import Rating
from tikal.server.rating.pages import leaderboard_page, profile_page
from tikal.server.rating.result import RatedResult
from tikal.server.rating.store import HistoryPoint, RatingStore, bot_player


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_of_kind(request.param, tmp_path)


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[str]:
    yield from database_of_kind("sqlite", tmp_path)


def store_of(client: TestClient) -> RatingStore:
    found: RatingStore = client.app.state.ratings.store  # type: ignore[attr-defined]
    return found


def rate(client: TestClient, players: list[str], scores: tuple[int, ...], at: float,
         rules: str = "demo") -> str:
    """A stored game rated as the server rates one: asked for, then applied once (the
    result is the test's, not the game's: the pages show what the store holds)."""
    game_id = str(create_invite_game(client)["id"])
    store = store_of(client)
    store.ask(game_id, rules, players[0])
    assert store.apply(RatedResult(game_id, rules, scores), players, now=at) is not None
    return game_id


def names_on(board: dict[str, Any]) -> list[str]:
    return [entry["name"] for entry in board["players"]]


class Links(HTMLParser):
    """The ``href`` of every link of a page, and the ids of its elements."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "a" and found.get("href"):
            self.hrefs.append(str(found["href"]))
        if found.get("id"):
            self.ids.add(str(found["id"]))


def links_of(page: str) -> Links:
    parser = Links()
    parser.feed(page)
    return parser


def visible_text(page: str) -> list[str]:
    parser = Visible()
    parser.feed(page)
    return parser.texts


# ---------------------------------------------------------------- the leaderboard


def test_the_leaderboard_ranks_by_display_rating_with_the_bots_and_pages(db: str) -> None:
    with client_on(db) as client:
        for name in ("Ana", "Ben", "Cleo"):
            assert sign_up(client, name).status_code == 201
        store = store_of(client)
        ana, ben, cleo = (account_id(db, n) for n in ("Ana", "Ben", "Cleo"))
        rate(client, [ana, ben], (40, 20), at=1_000.0)
        rate(client, [ana, cleo], (35, 30), at=2_000.0)
        store.set(bot_player("greedy"), "demo", Rating(30.0, 2.0, 200), wins=120)
        board = client.get("/api/ratings/demo").json()
        shown = [entry["rating"] for entry in board["players"]]
        assert shown == sorted(shown, reverse=True)
        assert [e["rank"] for e in board["players"]] == [1, 2, 3, 4]
        assert names_on(board)[0] == "bot:greedy"  # 200 games: a narrow, high rating
        assert names_on(board).index("Ana") < min(names_on(board).index(n) for n in ("Ben", "Cleo"))
        ana_entry = next(e for e in board["players"] if e["name"] == "Ana")
        assert ana_entry | {"rating": 0} == {
            "rank": ana_entry["rank"], "name": "Ana", "bot": False, "level": None, "rating": 0,
            "provisional": True, "games": 2, "wins": 2, "profile": "/players/Ana"}
        bot_entry = board["players"][0]
        assert bot_entry["bot"] and bot_entry["level"] == "greedy"
        assert not bot_entry["provisional"] and bot_entry["profile"] == "/players/bot:greedy"
        # pages of two: the same order, cut in two, with "more" on the first only
        first = client.get("/api/ratings/demo", params={"limit": 2}).json()
        second = client.get("/api/ratings/demo", params={"limit": 2, "offset": 2}).json()
        assert first["more"] and not second["more"]
        assert names_on(first) + names_on(second) == names_on(board)
        assert [e["rank"] for e in second["players"]] == [3, 4]
        # another rule set keeps its own board
        assert client.get("/api/ratings/standard").json()["players"] == []


def test_a_deleted_account_leaves_the_leaderboard_and_has_no_profile(sqlite_db: str) -> None:
    with client_on(sqlite_db) as client, client_on(sqlite_db) as other:
        sign_up(client, "Stays")
        sign_up(other, "Leaves")
        stays, leaves = account_id(sqlite_db, "Stays"), account_id(sqlite_db, "Leaves")
        rate(client, [stays, leaves], (10, 30), at=1_000.0)
        assert set(names_on(client.get("/api/ratings/demo").json())) == {"Stays", "Leaves"}
        gone = other.post("/api/account/delete", headers={"X-CSRF-Token": csrf_of(other)},
                          json={"password": PASSWORD})
        assert gone.status_code == 200
        board = client.get("/api/ratings/demo").json()
        assert names_on(board) == ["Stays"] and board["players"][0]["rank"] == 1
        assert client.get("/api/players/Leaves").status_code == 404
        # the rating of the one who stayed keeps the game
        assert [g["id"] for g in client.get("/api/players/Stays").json()["games"]] == []
        assert client.get("/api/players/Stays").json()["ratings"][0]["games"] == 1


@pytest.mark.parametrize(("path", "status", "code"), [
    ("/api/ratings/chess", 404, "not_found"),
    ("/api/ratings/demo?limit=0", 422, None),
    ("/api/ratings/demo?limit=101", 422, None),
    ("/api/ratings/demo?offset=-1", 422, None),
    ("/api/players/nobody", 404, "not_found"),
    ("/api/players/bot:nosuchlevel", 404, "not_found"),
    ("/api/players/" + "x" * 65, 400, "bad_request"),
])
def test_a_bad_request_is_named_and_changes_nothing(sqlite_db: str, path: str, status: int,
                                                    code: str | None) -> None:
    with client_on(sqlite_db) as client:
        answer = client.get(path)
        assert answer.status_code == status, answer.text
        if code is not None:
            assert answer.json()["code"] == code and answer.json()["message"]
        assert client.get("/api/ratings/demo").json()["players"] == []


# ---------------------------------------------------------------- profiles


def test_a_rated_game_against_a_bot_shows_in_both_profiles_and_on_the_board(db: str) -> None:
    with client_on(db) as alice:
        sign_up(alice, "Alice")
        game = rated_game(alice, {"kind": "bot", "level": "random"}).json()
        scores = play_to_the_end(alice, game, {0: game["seats"][0]["token"]})
        mine = alice.get("/api/players/aLiCe").json()  # any case finds the account
        assert mine["name"] == "Alice" and not mine["bot"] and mine["mine"]
        (demo,) = mine["ratings"]
        assert demo["rules"] == "demo" and demo["games"] == 1 and demo["provisional"]
        assert demo["wins"] == (scores[0] >= scores[1]) == mine["games_won"]
        assert [p["game"] for p in demo["history"]] == [game["id"]]
        assert demo["history"][0]["rating"] == demo["rating"]
        (listed,) = mine["games"]
        assert listed["id"] == game["id"] and listed["status"] == "over"
        assert listed["seats"] == [0] and not listed["in_progress"]
        assert listed["play_url"] is None
        assert listed["replay_url"] == f"/replay/{game['id']}"
        assert listed["analysis_url"] == f"/replay/{game['id']}#analysis"
        assert [p["bot"] for p in listed["players"]] == [False, True]
        bot = alice.get("/api/players/bot:random").json()
        assert bot["bot"] and bot["level"] == "random" and not bot["mine"]
        assert bot["ratings"][0]["games"] == 1 and bot["ratings"][0]["history"]
        assert game["id"] in [g["id"] for g in bot["games"]]
        board = alice.get("/api/ratings/demo").json()
        assert set(names_on(board)) == {"Alice", "bot:random"}
        won = scores[0] > scores[1]
        if scores[0] != scores[1]:
            assert names_on(board)[0] == ("Alice" if won else "bot:random")
        # the replay and analysis links lead to pages that exist
        assert alice.get(listed["replay_url"].split("#")[0]).status_code == 200


def test_my_own_profile_lists_my_games_in_progress_first(sqlite_db: str) -> None:
    with client_on(sqlite_db) as me, client_on(sqlite_db) as visitor:
        sign_up(me, "Owner")
        sign_up(visitor, "Visitor")
        finished = rated_game(me, {"kind": "bot", "level": "random"}).json()
        play_to_the_end(me, finished, {0: finished["seats"][0]["token"]})
        playing = rated_game(me, {"kind": "bot", "level": "random"}).json()
        own = me.get("/api/players/Owner").json()
        assert own["mine"]
        assert [g["id"] for g in own["games"]] == [playing["id"], finished["id"]]
        assert own["games"][0]["in_progress"]
        assert own["games"][0]["play_url"] == f"/play/{playing['id']}"
        assert own["games"][0]["analysis_url"] is None
        seen = visitor.get("/api/players/Owner").json()
        assert not seen["mine"]
        assert {g["id"] for g in seen["games"]} == {playing["id"], finished["id"]}
        # no invite token ever reaches a profile, the owner's own included
        for answer in (me.get("/api/players/Owner"), me.get("/players/Owner")):
            assert playing["seats"][0]["token"] not in answer.text


def test_the_profile_page_reads_without_a_script(sqlite_db: str) -> None:
    with client_on(sqlite_db) as client:
        sign_up(client, "Reader")
        game = rated_game(client, {"kind": "bot", "level": "random"}).json()
        play_to_the_end(client, game, {0: game["seats"][0]["token"]})
        page = client.get("/players/reader")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        links = links_of(page.text)
        assert f"/replay/{game['id']}" in links.hrefs
        assert f"/replay/{game['id']}#analysis" in links.hrefs
        assert {"profile-name", "profile-summary", "profile-games", "rating-demo"} <= links.ids
        svg = re.search(r"<svg.*?</svg>", page.text, re.S)
        assert svg is not None and 'role="img"' in svg.group(0)
        board = client.get("/leaderboard?rules=demo")
        assert board.status_code == 200
        hrefs = links_of(board.text).hrefs
        assert "/players/Reader" in hrefs and "/players/bot:random" in hrefs
        assert "/leaderboard?rules=standard" in hrefs and "/leaderboard?rules=auction" in hrefs
        assert 'aria-current="page"' in board.text


def test_the_pages_of_no_such_player_or_rule_set_are_404(sqlite_db: str) -> None:
    with client_on(sqlite_db) as client:
        for path in ("/players/nobody", "/players/bot:nosuchlevel", "/leaderboard?rules=chess",
                     "/players/" + "y" * 80):
            answer = client.get(path)
            assert answer.status_code == 404 and "text/html" in answer.headers["content-type"]


def test_the_leaderboard_page_pages_with_links(sqlite_db: str) -> None:
    with client_on(sqlite_db) as client:
        store = store_of(client)
        for i in range(55):  # more than a page (50) of rated players
            store.set(f"acct-{i:02d}", "standard", Rating(25.0 + i / 10, 3.0, 12))
        # the ratings of accounts that no longer exist are left out: only bots show here
        store.set(bot_player("random"), "standard", Rating(20.0, 2.0, 100))
        store.set(bot_player("greedy"), "standard", Rating(24.0, 2.0, 100))
        page = client.get("/leaderboard?rules=standard").text
        assert page.index("/players/bot:greedy") < page.index("/players/bot:random")
        assert "rel=\"next\"" not in page and "rel=\"prev\"" not in page


def test_the_leaderboard_page_has_next_and_previous_links(sqlite_db: str) -> None:
    with client_on(sqlite_db) as client:
        store = store_of(client)
        signed = []
        for i in range(3):
            sign_up(client, f"Pager{i}")
            signed.append(account_id(sqlite_db, f"Pager{i}"))
        for i, player in enumerate(signed):
            store.set(player, "auction", Rating(20.0 + i, 2.0, 50))
        board = client.get("/api/ratings/auction", params={"limit": 1, "offset": 1}).json()
        page = leaderboard_page(board, "en")
        hrefs = links_of(page).hrefs
        assert "/leaderboard?rules=auction" in hrefs  # previous: the first page
        assert "/leaderboard?rules=auction&offset=2" in hrefs  # next
        assert names_on(board) == ["Pager1"]


def test_a_game_list_names_the_accounts_on_the_seats_and_a_deleted_one(db: str) -> None:
    with client_on(db) as alice, client_on(db) as bob:
        sign_up(alice, "Alice")
        sign_up(bob, "Bob")
        game = rated_game(alice).json()  # seats typed "A" and "B"
        claimed = bob.post("/api/account/seats", headers={"X-CSRF-Token": csrf_of(bob)},
                           json={"seats": [{"game": game["id"],
                                            "token": game["seats"][1]["token"]}]})
        assert claimed.status_code == 200
        (listed,) = alice.get("/api/players/Alice").json()["games"]
        assert [(p["name"], p["account"], p["profile"]) for p in listed["players"]] == [
            ("A", "Alice", "/players/Alice"), ("B", "Bob", "/players/Bob")]
        assert links_of(alice.get("/players/Alice").text).hrefs.count("/players/Bob") == 1
        bob.post("/api/account/delete", headers={"X-CSRF-Token": csrf_of(bob)},
                 json={"password": PASSWORD})
        (listed,) = alice.get("/api/players/Alice").json()["games"]
        assert listed["players"][1] | {"name": ""} == {
            "name": "", "bot": False, "level": None, "account": None, "deleted": True,
            "profile": None}
        page = alice.get("/players/Alice").text
        assert "/players/Bob" not in page
        assert text("web.profile.deleted_player", "en") in page


# ---------------------------------------------------------------- words and escaping


def a_profile(name: str, bot: bool = False) -> dict[str, Any]:
    """A profile as the API sends it, with two rated games and one in progress."""
    history = [{"game": "g1", "at": 1_700_000_000.0, "rating": 1_510},
               {"game": "g2", "at": 1_700_090_000.0, "rating": 1_560}]
    game = {"id": "g3", "rules": "standard", "status": "playing", "in_progress": True,
            "created": 1_700_100_000.0, "updated": 1_700_100_500.0, "seats": [0],
            "players": [{"name": "Blue", "bot": False, "level": None, "account": name,
                         "deleted": False, "profile": "/players/x"},
                        {"name": "Green", "bot": False, "level": None, "account": None,
                         "deleted": True, "profile": None},
                        {"name": "Red", "bot": True, "level": "medium", "account": None,
                         "deleted": False, "profile": "/players/bot:medium"}],
            "play_url": "/play/g3", "replay_url": "/replay/g3", "analysis_url": None}
    return {"name": name, "bot": bot, "level": "medium" if bot else None, "mine": True,
            "ratings": [{"rules": "standard", "rating": 1_560, "provisional": True, "games": 2,
                         "wins": 1, "history": history}],
            "games_rated": 2, "games_won": 1, "games": [game]}


def test_every_name_is_escaped_on_the_pages() -> None:
    hostile = '<script>alert("x")</script>&'
    page = profile_page(a_profile(hostile), "en")
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert" in page
    board = {"rules": "demo", "limit": 50, "offset": 0, "more": False, "players": [
        {"rank": 1, "name": hostile, "bot": False, "level": None, "rating": 1_200,
         "provisional": False, "games": 9, "wins": 3, "profile": "/players/%3Cscript%3E"}]}
    assert "<script>alert" not in leaderboard_page(board, "en")


@pytest.mark.parametrize("language", ["de", "ja"])
def test_the_pages_leave_no_english_in_german_and_japanese(language: str) -> None:
    board = {"rules": "standard", "limit": 50, "offset": 50, "more": True, "players": [
        {"rank": 51, "name": "bot:hard", "bot": True, "level": "hard", "rating": 1_700,
         "provisional": True, "games": 3, "wins": 2, "profile": "/players/bot:hard"}]}
    for page in (profile_page(a_profile("Kim"), language),
                 profile_page(a_profile("bot:medium", bot=True), language),
                 leaderboard_page(board, language, me="/players/Kim")):
        assert f'lang="{language}"' in page
        assert leftovers(visible_text(page), language) == []
        assert page != profile_page(a_profile("Kim"), "en")
    assert "1.560" in profile_page(a_profile("Kim"), "de")  # numbers as the language writes them


def test_the_rating_graph_is_a_named_image_with_one_mark_per_game() -> None:
    points = [HistoryPoint(f"g{i}", 1_700_000_000.0 + i * 86_400, 1_500 + 7 * i)
              for i in range(6)]
    picture = rating_graph(points, "en", name="Kim", rules="standard")
    assert picture.get("role") == "img"
    title = picture.find("title")
    desc = picture.find("desc")
    assert title is not None and "Kim" in (title.text or "")
    assert desc is not None and "6" in (desc.text or "")  # six rated games
    assert picture.get("aria-label") == title.text
    uses = picture.findall(".//use")
    assert len(uses) == len(points)
    heights = [float(use.get("y", "0")) for use in uses]
    assert heights == sorted(heights, reverse=True)  # a rising rating climbs the picture
    german = ET.tostring(rating_graph(points, "de", name="Kim", rules="standard"),
                         encoding="unicode")
    assert german != ET.tostring(picture, encoding="unicode")


def test_the_rating_shown_is_the_display_rating_of_the_stored_one(sqlite_db: str) -> None:
    with client_on(sqlite_db) as client:
        store = store_of(client)
        rating = Rating(27.5, 4.0, 3)
        store.set(bot_player("easy"), "demo", rating, wins=2)
        (entry,) = client.get("/api/ratings/demo").json()["players"]
        assert entry["rating"] == display(rating) and entry["wins"] == 2


# ---------------------------------------------------------------- the shipped bot ratings


def shipped_board(rules: str) -> list[tuple[str, int]]:
    """The bots of the package's data/bot_ratings.json in a rule set, best first."""
    found = [(player, display(rating)) for player, name, rating, _ in shipped_ratings()
             if name == rules]
    return sorted(found, key=lambda entry: (-entry[1], entry[0]))


def test_a_new_server_shows_every_bot_with_its_shipped_rating(db: str) -> None:
    with client_on(db, shipped=True) as client:
        meta = client.get("/api/meta").json()
        for rules in ("standard", "auction", "demo"):
            board = client.get(f"/api/ratings/{rules}").json()
            assert [(e["name"], e["rating"]) for e in board["players"]] == shipped_board(rules)
            rated = {p.removeprefix("bot:") for p, name, _, _ in shipped_ratings()
                     if name == rules}
            # every level with a shipped rating; a newer one (expert) is unrated until played
            assert {e["level"] for e in board["players"]} == rated & set(meta["bots"])
            assert rated & set(meta["bots"]) >= {"random", "easy", "medium", "hard"}
        bot = client.get("/api/players/bot:hard").json()
        assert {r["rules"] for r in bot["ratings"]} == {"standard", "auction", "demo"}
        assert all(r["history"] == [] for r in bot["ratings"])  # no game played here yet
        page = client.get("/players/bot:hard").text
        assert "rating-graph" not in page and 'id="rating-standard"' in page


def test_the_shipped_ratings_never_overwrite_what_games_moved(db: str) -> None:
    with client_on(db, shipped=True) as alice:
        sign_up(alice, "Alice")
        game = rated_game(alice, {"kind": "bot", "level": "random"}).json()
        play_to_the_end(alice, game, {0: game["seats"][0]["token"]})
        moved = store_of(alice).rating(bot_player("random"), "demo")
    (start,) = [r for p, rules, r, _ in shipped_ratings()
                if p == bot_player("random") and rules == "demo"]
    assert moved.games == start.games + 1 and moved != start
    with client_on(db, shipped=True) as again:  # a restart (or a second process) seeds again
        assert store_of(again).rating(bot_player("random"), "demo") == moved
        assert store_of(again).seed(shipped_ratings()) == 0


def test_tikal_ratings_export_writes_the_shipped_form(sqlite_db: str, tmp_path: Path) -> None:
    with client_on(sqlite_db, shipped=True):
        pass  # started once: the bots have the shipped ratings
    out = tmp_path / "bots.json"
    done = CliRunner().invoke(cli, ["ratings", "export", "--db", sqlite_db, "--out", str(out),
                                    "--about", "a test", "--lang", "en"])
    assert done.exit_code == 0, done.output
    written = json.loads(out.read_text("utf-8"))
    package = json.loads(resources.files("tikal").joinpath("data", "bot_ratings.json")
                         .read_text("utf-8"))
    assert written == {"about": "a test", "ratings": package["ratings"]}
    assert text("cli.ratings.exported", "en", path=str(out), count=18).split("(")[0] in \
        done.output.replace("\n", "")


def test_tikal_ratings_export_of_no_bot_ratings_says_so(tmp_path: Path) -> None:
    done = CliRunner().invoke(cli, ["ratings", "export", "--db", str(tmp_path / "new.sqlite3"),
                                    "--out", str(tmp_path / "bots.json"), "--lang", "de"])
    assert done.exit_code != 0 and not (tmp_path / "bots.json").exists()
    assert text("cli.ratings.none", "de").split(":")[0] in done.output
