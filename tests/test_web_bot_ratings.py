"""The bot list shows each level's rating (issue 28 point 3): after ``tikal ratings
calibrate`` the start page's seat menus name every calibrated level with its rating in the
chosen rule set, in the page's language, and ``/api/meta`` carries the same figures; the
levels left out of the calibration have the shipped ratings the server gave them at
start-up.  Chromium through Playwright against a real ``tikal serve``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from babel.numbers import format_decimal
from typer.testing import CliRunner

from tikal.cli import app
from tikal.messages import text
from tikal.server.rating import display
from tikal.server.rating.bots import bot_ratings, shipped_ratings
from tikal.server.rating.model import is_provisional
from tikal.server.rating.store import RatingStore, bot_player
from tikal.server.store import open_storage
from web_helpers import ARTIFACTS, ServerProcess, chromium, errors_of

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "web-bot-ratings"


def stored(db: Path) -> dict[str, Any]:
    storage = open_storage(db)
    try:
        return bot_ratings(RatingStore(storage))
    finally:
        storage.close()


def calibrated(db: Path) -> dict[str, Any]:
    """Demo ratings of random and easy (12 seeded games), as the store keeps them."""
    done = CliRunner().invoke(app, ["ratings", "calibrate", "--db", str(db), "--rules", "demo",
                                    "--levels", "random,easy", "--games", "12", "--lang", "en"])
    assert done.exit_code == 0, done.output
    return stored(db)


def shipped(level: str, rules: str) -> dict[str, Any]:
    """A level's rating in the package's data/bot_ratings.json, as the bot list shows it."""
    (rating,) = [(r, wins) for player, name, r, wins in shipped_ratings()
                 if player == bot_player(level) and name == rules]
    return {"shown": display(rating[0]), "provisional": is_provisional(rating[0]),
            "games": rating[0].games}


Served = tuple[ServerProcess, dict[str, Any], dict[str, Any]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("bot-ratings") / "bots.sqlite3"
    before = calibrated(db)
    proc = ServerProcess(db).start()
    yield proc, before, stored(db)
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def test_meta_names_each_levels_rating(server: Served) -> None:
    proc, calibrated_ones, ratings = server
    meta = httpx.get(proc.url + "/api/meta").json()
    assert meta["bot_ratings"] == ratings
    assert set(meta["bot_ratings"]) == set(meta["bots"])
    # the calibrated ratings are kept; everything else is the shipped ones
    assert ratings["easy"]["demo"] == calibrated_ones["easy"]["demo"]
    assert ratings["easy"]["demo"]["games"] == 12 and calibrated_ones["hard"] == {}
    for level in meta["bots"]:
        has = {name for player, name, _, _ in shipped_ratings() if player == bot_player(level)}
        for rules in ("standard", "auction", "demo"):
            if rules not in has:  # a level newer than the shipped calibration: not rated yet
                assert rules not in ratings[level], (level, rules)
            elif not (rules == "demo" and level in ("random", "easy")):
                assert ratings[level][rules] == shipped(level, rules), (level, rules)
    # easy wins nearly every demo game against random: its rating is the higher one
    assert ratings["easy"]["demo"]["shown"] > ratings["random"]["demo"]["shown"]


def label(rated: dict[str, Any], level: str, language: str) -> str:
    key = "web.index.bot_rated_provisional" if rated["provisional"] else "web.index.bot_rated"
    return text(key, language, level=level, rating=format_decimal(rated["shown"],
                                                                  locale=language))


@pytest.mark.parametrize("language", ["de", "ja"])
def test_the_seat_menu_shows_the_rating_of_the_chosen_rule_set(
        server: Served, browser: Any, language: str) -> None:
    proc, _, ratings = server
    context = browser.new_context(locale=language)
    page = context.new_page()
    problems = errors_of(page)
    page.goto(f"{proc.url}/?lang={language}")
    page.wait_for_selector(".seat-row")
    easy = ratings["easy"]["demo"]
    level = text("web.level.easy", language)
    option = ".seat-row[data-seat='1'] option[value='bot:easy']"
    wait = "([sel, want]) => document.querySelector(sel).textContent === want"
    page.check("input[name=rules][value=standard]", force=True)
    page.wait_for_function(wait, arg=[option, label(ratings["easy"]["standard"], level,
                                                    language)])  # the shipped one
    page.check("input[name=rules][value=demo]", force=True)
    page.wait_for_function(wait, arg=[option, label(easy, level, language)])  # calibrated
    hard = ".seat-row[data-seat='1'] option[value='bot:hard']"
    assert page.inner_text(hard) == label(shipped("hard", "demo"),
                                          text("web.level.hard", language), language)
    assert problems == []
    page.screenshot(path=str(SHOTS / f"seat-menu-{language}.png"))
    context.close()
