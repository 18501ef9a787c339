"""Clocks and stand-in bots in a real browser (issue 29): two players in two browser
contexts play a real-time demo game with a short bank; one lets the clock run out, a bot
takes the seat (the page says so, the log marks the bot's moves), the player takes the
seat back with one click and moves again.  A player can also hand the seat to a bot.
Chromium through Playwright; screenshots go to ``artifacts/web-clock/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from test_web_a11y import serious
from test_web_e2e import play_simple_turn
from web_helpers import ARTIFACTS, ServerProcess, chromium, errors_of, serve, state, wait_state

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "web-clock"
#: A bank short enough to run out in a test, long enough to move in after a take-back.
SHORT = {"kind": "realtime", "bank": 5, "increment": 0, "standin": "random"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-clock", options=("--rate-scale", "20"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def new_game(server: ServerProcess, clock: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"rules": "demo", "seats": [{"kind": "human", "name": "Ana"},
                                                       {"kind": "human", "name": "Ben"}]}
    if clock is not None:
        body["clock"] = clock
    answer = httpx.post(f"{server.url}/api/games", json=body, timeout=30)
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()
    return game


def seat_page(browser: Any, errors: list[str], url: str) -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors += errors_of(page)
    page.goto(url)
    wait_state(page, "S.state >= 0")
    return page


def test_time_runs_out_a_bot_plays_the_seat_and_the_player_takes_it_back(
        server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    game = new_game(server, SHORT)
    ana = seat_page(browser, errors, game["seats"][0]["url"])
    ben = seat_page(browser, errors, game["seats"][1]["url"])
    clock = ana.locator("#players .player[data-seat='0'] .clock")
    clock.wait_for()
    assert "running" in (clock.get_attribute("class") or "")
    assert clock.get_attribute("role") == "timer"
    first = clock.inner_text()
    ana.wait_for_function("(first) => document.querySelector(\"#players .player[data-seat='0'] "
                          ".clock\").textContent !== first", arg=first)  # it counts down
    assert "Real time" in ana.inner_text("#players .clock-control")
    # Ana never moves: her time runs out and the bot plays for her
    wait_state(ana, "S.standins[0] === 'random'")
    ana.wait_for_selector("#take-seat-back")
    assert "bot" in ana.inner_text("#players .player[data-seat='0']").lower()
    wait_state(ben, "S.log.some((l) => l.by === 'random' && l.seat === 0)")
    ben.wait_for_selector("#log .line .by-bot")
    ana.screenshot(path=str(SHOTS / "01-bot-plays-for-ana.png"), full_page=True)
    assert serious(ana) == []  # axe: the clocks, the tags and the take-back button
    # one click and the seat is hers again; her next move is her own
    ana.click("#take-seat-back")
    wait_state(ana, "S.standins[0] === null")
    ana.wait_for_selector("#take-seat-back", state="detached")
    wait_state(ana, "S.your_turn", timeout=60_000)
    before = len(state(ana)["log"])
    play_simple_turn(ana)
    mine = [line for line in state(ana)["log"][before:] if line["kind"] == "action"]
    assert mine and mine[0]["seat"] == 0 and "by" not in mine[0]
    assert errors == []


def test_a_player_hands_the_seat_to_a_bot_and_takes_it_back(
        server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    game = new_game(server, None)
    ana = seat_page(browser, errors, game["seats"][0]["url"])
    assert ana.locator("#players .clock").count() == 0  # untimed: no clocks
    ana.click("#hand-to-bot")
    wait_state(ana, "S.standins[0] !== null")
    wait_state(ana, "S.current === 1")  # the bot played Ana's turn
    ana.click("#take-seat-back")
    wait_state(ana, "S.standins[0] === null")
    assert ana.locator("#hand-to-bot").count() == 1
    assert errors == []


def test_both_players_agree_to_end_the_game_early(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    game = new_game(server, None)
    ana = seat_page(browser, errors, game["seats"][0]["url"])
    ben = seat_page(browser, errors, game["seats"][1]["url"])
    ana.click("#end-offer")
    ana.wait_for_selector("#end-box p[role=status]")
    ben.wait_for_selector("#end-accept")
    assert serious(ben) == []  # axe: the offer and its answers
    assert "Ben" in ana.inner_text("#end-box")  # waiting for Ben
    ben.wait_for_selector("#end-accept")
    assert "Ana" in ben.inner_text("#end-box")
    ben.click("#end-accept")
    for page in (ana, ben):
        wait_state(page, "S.over && S.ended_early")
        page.wait_for_selector("#ended-early")
    ben.screenshot(path=str(SHOTS / "02-ended-by-agreement.png"), full_page=True)
    assert errors == []


def test_the_creator_lets_spectators_write_in_the_chat(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    game = new_game(server, None)
    ana = seat_page(browser, errors, game["seats"][0]["url"])
    zoe = seat_page(browser, errors, game["spectator_url"])
    assert zoe.locator("#chat-form").is_hidden()  # spectators read only, at first
    assert zoe.locator("#chat-room").is_hidden()  # and do not choose
    ana.check("#chat-spectators")
    zoe.wait_for_selector("#chat-form", state="visible")
    zoe.fill("#chat-name", "Zoe")
    zoe.fill("#chat-input", "enjoying this")
    zoe.press("#chat-input", "Enter")
    ana.wait_for_selector("#chat-lines li[data-seat='-1']")
    assert "Zoe" in ana.inner_text("#chat-lines") and "enjoying this" in ana.inner_text(
        "#chat-lines")
    ana.uncheck("#chat-spectators")
    zoe.wait_for_selector("#chat-form", state="hidden")
    assert errors == []
