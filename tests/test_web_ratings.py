"""Leaderboard and profiles in a real browser (issue 28): a signed-in player plays a rated
demo game against a bot to the end in the page, then finds both on the leaderboard, opens
the profiles (rating graph, game list with its replay), in English, German and Japanese,
axe-checked; the rule-set switcher answers the arrow keys; the seat menu shows the bot's
rating (the bots start with the shipped ratings, as on every new server).  Chromium
through Playwright; screenshots go to ``artifacts/web-ratings/``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest

from test_i18n_web import leftovers
from test_web_a11y import serious
from test_web_accounts import signed_up_page
from test_web_e2e import play_simple_turn
from tikal.bots import BOT_NAMES
from tikal.messages import text
from tikal.server.rating.bots import shipped_ratings
from web_helpers import ARTIFACTS, ServerProcess, chromium, errors_of, serve, state

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "web-ratings"
PLAYER = "Itzamna"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-ratings", options=("--rate-scale", "20"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def shipped_games(level: str, rules: str = "demo") -> int:
    """Games behind a level's shipped rating (data/bot_ratings.json), which a new server
    starts the level with."""
    (games,) = [r.games for p, name, r, _ in shipped_ratings()
                if p == f"bot:{level}" and name == rules]
    return games


def rated_levels(rules: str = "demo") -> list[str]:
    """The bot levels a new server starts rated in ``rules``: those with a shipped rating
    (a level newer than the shipped calibration is unrated until it plays a rated game)."""
    shipped = {p.removeprefix("bot:") for p, name, _, _ in shipped_ratings() if name == rules}
    return [level for level in BOT_NAMES if level in shipped]


def demo_ratings(server: ServerProcess) -> dict[str, int]:
    """Player id -> rated games in the demo rule set, read from the server's file."""
    with sqlite3.connect(server.db) as conn:
        found = conn.execute("SELECT player, games FROM ratings WHERE rules = 'demo'").fetchall()
    return dict(found)


def start_rated_bot_game(page: Any, server: ServerProcess) -> str:
    """From the start page: a rated demo game against the random bot; the game's id."""
    page.goto(server.url + "/")
    page.wait_for_selector("#rated-box:visible")
    page.check("#rulesets input[value=demo]")
    page.select_option("#seats .seat-row:nth-child(2) select", "bot:random")
    page.check("#rated")
    page.click("#create-btn")
    page.wait_for_url("**/play/**")
    return str(page.url.split("/play/")[1].split("#")[0])


@pytest.fixture(scope="module")
def played(server: ServerProcess, browser: Any) -> Iterator[dict[str, Any]]:
    """One rated game against a bot, played to the end in the browser by a signed-in
    player; the page stays signed in for the tests that follow."""
    context, page = signed_up_page(browser, server, PLAYER)
    problems = errors_of(page)
    game_id = start_rated_bot_game(page, server)
    deadline = time.monotonic() + 240
    while not (state(page) or {}).get("over"):
        assert time.monotonic() < deadline, "the rated game did not end"
        if (state(page) or {}).get("your_turn"):
            play_simple_turn(page)
        else:
            time.sleep(0.05)
    deadline = time.monotonic() + 10
    while len(demo_ratings(server)) < 1 + len(rated_levels()) and time.monotonic() < deadline:
        time.sleep(0.05)
    shot(page, "01-rated-game-over")
    yield {"context": context, "page": page, "game": game_id, "problems": problems,
           "scores": state(page).get("scores")}
    context.close()


def test_a_rated_game_against_a_bot_puts_both_on_the_leaderboard(
        server: ServerProcess, played: dict[str, Any]) -> None:
    games = demo_ratings(server)
    assert games["bot:random"] == shipped_games("random") + 1  # the shipped ones, then ours
    assert sorted(n for p, n in games.items() if not p.startswith("bot:")) == [1]
    page = played["page"]
    page.goto(server.url + "/leaderboard?rules=demo")
    page.wait_for_selector("#ratings-table tbody tr")
    rows = page.locator("#ratings-table tbody tr")
    levels = rated_levels()
    assert {"random", "easy", "medium", "hard"} <= set(levels)
    assert rows.count() == 1 + len(levels)  # the player and every rated bot level
    names = [rows.nth(i).locator("td").nth(1).locator("a").inner_text()
             for i in range(rows.count())]
    bots = [text("web.index.bot", "en", level=text(f"web.level.{b}", "en")) for b in levels]
    assert sorted(names) == sorted([PLAYER, *bots])
    assert page.locator("#ratings-table tr.bot").count() == len(levels)
    assert page.locator("#rule-sets a[aria-current=page]").inner_text() == text(
        "web.ruleset.demo", "en")
    assert page.get_attribute("#my-profile", "href") == f"/players/{PLAYER}"
    assert serious(page) == []
    shot(page, "02-leaderboard")

    page.click(f"#ratings-table a:text-is('{PLAYER}')")
    page.wait_for_selector("#profile-name")
    assert page.inner_text("#profile-name") == PLAYER
    assert page.locator("#rating-demo").count() == 1
    graph = page.locator("svg.rating-graph")
    assert graph.get_attribute("role") == "img" and PLAYER in str(graph.get_attribute(
        "aria-label"))
    assert graph.locator("use").count() == 1  # one rated game, one point
    item = page.locator(f"#profile-games li[data-game='{played['game']}']")
    assert item.count() == 1
    assert serious(page) == []
    shot(page, "03-profile")
    item.locator(f"a[href='/replay/{played['game']}']").click()
    page.wait_for_url(f"**/replay/{played['game']}")
    assert played["problems"] == []


def test_the_seat_menu_shows_the_bots_rating(server: ServerProcess, played: dict[str, Any],
                                             ) -> None:
    page = played["page"]
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row")
    page.check("#rulesets input[value=demo]")
    label = page.locator("#seats .seat-row:nth-child(2) option[value='bot:random']").inner_text()
    ratings = page.evaluate("() => fetch('/api/meta').then(r => r.json())")["bot_ratings"]
    random = ratings["random"]["demo"]
    assert random["games"] == shipped_games("random") + 1 and not random["provisional"]
    assert label == text("web.index.bot_rated", "en",
                         level=text("web.level.random", "en"), rating=f"{random['shown']:,}")
    page.check("#rulesets input[value=standard]")  # its standard rating: the shipped one
    label = page.locator("#seats .seat-row:nth-child(2) option[value='bot:random']").inner_text()
    standard = ratings["random"]["standard"]
    assert standard["games"] == shipped_games("random", "standard")
    assert label == text("web.index.bot_rated", "en",
                         level=text("web.level.random", "en"), rating=f"{standard['shown']:,}")


@pytest.mark.parametrize("language", ["de", "ja"])
def test_leaderboard_and_profile_speak_the_language(
        server: ServerProcess, browser: Any, played: dict[str, Any], language: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    for path in (f"/leaderboard?rules=demo&lang={language}",
                 f"/players/{PLAYER}?lang={language}", f"/players/bot:random?lang={language}"):
        page.goto(server.url + path)
        page.wait_for_selector("main")
        assert page.get_attribute("html", "lang") == language
        body = page.inner_text("body")
        assert leftovers([body], language) == [], path
        assert serious(page) == [], path
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390, path
        name = path.split("?")[0].strip("/").replace("/", "-").replace(":", "-")
        shot(page, f"04-{name}-{language}")
    page.goto(f"{server.url}/leaderboard?rules=demo&lang={language}")
    caption = page.inner_text("#ratings-table caption")
    assert caption == text("web.ratings.caption", language,
                           rules=text("web.ruleset.demo", language))
    page.goto(f"{server.url}/players/{PLAYER}?lang={language}")
    title = page.locator("svg.rating-graph title").first.text_content()
    assert title == text("web.profile.graph_title", language, name=PLAYER,
                         rules=text("web.ruleset.demo", language))
    page.close()


def test_the_rule_set_switcher_goes_along_with_the_arrow_keys(
        server: ServerProcess, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(server.url + "/leaderboard?rules=standard")
    page.wait_for_selector("#rule-sets a")
    links = page.locator("#rule-sets a")
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert len(hrefs) == 3
    focused = "() => document.activeElement.getAttribute('href')"
    links.first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == hrefs[1]
    page.keyboard.press("End")
    assert page.evaluate(focused) == hrefs[2]
    page.keyboard.press("ArrowRight")  # round to the first
    assert page.evaluate(focused) == hrefs[0]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(focused) == hrefs[2]
    page.keyboard.press("Home")
    assert page.evaluate(focused) == hrefs[0]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{hrefs[1]}")
    assert page.get_attribute("#rule-sets a[aria-current=page]", "href") == hrefs[1]
    page.close()


def test_my_game_in_progress_links_back_to_my_seat(server: ServerProcess,
                                                   played: dict[str, Any]) -> None:
    page = played["page"]
    game_id = start_rated_bot_game(page, server)
    token = page.url.split("#t=")[1]
    page.goto(f"{server.url}/players/{PLAYER}")
    link = page.locator(f"#profile-games li[data-game='{game_id}'] a.play-link")
    assert link.get_attribute("href") == f"/play/{game_id}#t={token}"
    assert link.inner_text() == text("web.profile.play_on", "en")
    first = page.locator("#profile-games li").first.get_attribute("data-game")
    assert first == game_id  # my own page: the game in progress first
