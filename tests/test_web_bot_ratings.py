"""The bot list shows each level's rating (issue 28 point 3): after ``tikal ratings
calibrate`` the start page's seat menus name every calibrated level with its rating in the
chosen rule set, in the page's language, and ``/api/meta`` carries the same figures.
Chromium through Playwright against a real ``tikal serve``.
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
from tikal.server.rating.bots import bot_ratings
from tikal.server.rating.store import RatingStore
from tikal.server.store import open_storage
from web_helpers import ARTIFACTS, ServerProcess, chromium, errors_of

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "web-bot-ratings"


def calibrated(db: Path) -> dict[str, Any]:
    """Demo ratings of random and easy (12 seeded games), as the store keeps them."""
    done = CliRunner().invoke(app, ["ratings", "calibrate", "--db", str(db), "--rules", "demo",
                                    "--levels", "random,easy", "--games", "12", "--lang", "en"])
    assert done.exit_code == 0, done.output
    storage = open_storage(db)
    try:
        return bot_ratings(RatingStore(storage))
    finally:
        storage.close()


Served = tuple[ServerProcess, dict[str, Any]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    db = tmp_path_factory.mktemp("bot-ratings") / "bots.sqlite3"
    ratings = calibrated(db)
    proc = ServerProcess(db).start()
    yield proc, ratings
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def test_meta_names_each_levels_rating(server: Served) -> None:
    proc, ratings = server
    meta = httpx.get(proc.url + "/api/meta").json()
    assert meta["bot_ratings"] == ratings
    assert set(meta["bot_ratings"]) == set(meta["bots"])
    assert ratings["easy"]["demo"]["games"] == 12 and ratings["hard"] == {}
    # easy wins nearly every demo game against random: its rating is the higher one
    assert ratings["easy"]["demo"]["shown"] > ratings["random"]["demo"]["shown"]


@pytest.mark.parametrize("language", ["de", "ja"])
def test_the_seat_menu_shows_the_rating_of_the_chosen_rule_set(
        server: Served, browser: Any, language: str) -> None:
    proc, ratings = server
    context = browser.new_context(locale=language)
    page = context.new_page()
    problems = errors_of(page)
    page.goto(f"{proc.url}/?lang={language}")
    page.wait_for_selector(".seat-row")
    easy = ratings["easy"]["demo"]
    level = text("web.level.easy", language)
    plain = text("web.index.bot", language, level=level)
    page.check("input[name=rules][value=standard]", force=True)
    option = ".seat-row[data-seat='1'] option[value='bot:easy']"
    assert page.inner_text(option) == plain  # no standard rating yet
    page.check("input[name=rules][value=demo]", force=True)
    key = "web.index.bot_rated_provisional" if easy["provisional"] else "web.index.bot_rated"
    rating = format_decimal(easy["shown"], locale=language)
    page.wait_for_function("([sel, want]) => document.querySelector(sel).textContent === want",
                           arg=[option, text(key, language, level=level, rating=rating)])
    hard = ".seat-row[data-seat='1'] option[value='bot:hard']"
    assert page.inner_text(hard) == text("web.index.bot", language,
                                         level=text("web.level.hard", language))
    assert problems == []
    page.screenshot(path=str(SHOTS / f"seat-menu-{language}.png"))
    context.close()
