"""The lobby in a real browser (issue 29): three guests in three browser contexts; one
opens a table, the others see it appear live, one sits down (the creator sees the seat
taken live), the creator starts, both players land in the game on their own seat and play
it there, the third watches it from the lobby's list.  A 3-player table started with a seat
free gives that seat to a bot.  The page in Japanese, with no English left.  Chromium
through Playwright; screenshots go to ``artifacts/web-lobby/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from test_i18n_web import leftovers
from test_web_e2e import play_simple_turn
from web_helpers import ARTIFACTS, ServerProcess, chromium, errors_of, serve, state, wait_state

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "web-lobby"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-lobby", options=("--rate-scale", "20"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def lobby(browser: Any, server: ServerProcess, errors: list[str], path: str = "/lobby") -> Any:
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    errors += errors_of(page)
    page.goto(server.url + path)
    page.wait_for_selector("#table-form select#table-rules option", state="attached")
    page.wait_for_selector("#lobby-live:not(:empty)")  # the live topic is connected
    return page


def open_table(page: Any, name: str, rules: str, players: int) -> str:
    page.fill("#guest-name", name)
    page.select_option("#table-rules", rules)
    page.select_option("#table-players", str(players))
    page.click("#table-submit")
    item = page.wait_for_selector("#my-tables li[data-table]")
    table_id: str = item.get_attribute("data-table")
    return table_id


def test_two_guests_meet_in_the_lobby_and_play_the_game_it_starts(
        server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    ben = lobby(browser, server, errors)
    watcher = lobby(browser, server, errors)
    ana = lobby(browser, server, errors)
    assert ana.locator("#guest-name-box").is_visible()  # a guest names themself
    assert ana.locator("#table-rated").is_disabled()  # rated tables need an account
    tid = open_table(ana, "Ana", "demo", 2)
    shot(ana, "01-table-opened")

    row = f"#open-tables li[data-table='{tid}']"
    ben.wait_for_selector(row)  # live: Ben's page was open before the table was
    assert "Ana" in ben.inner_text(row)
    shot(ben, "02-ben-sees-the-table")
    ben.fill("#guest-name", "Ben")
    ben.click(f"{row} button:has-text('Sit down')")
    ben.wait_for_selector(f"#my-tables li[data-table='{tid}']")
    ana.wait_for_selector(f"#my-tables li[data-table='{tid}'] .lobby-seats li.taken >> nth=1")
    assert ana.inner_text(f"#my-tables li[data-table='{tid}'] .lobby-seats") \
        .split("\n") == ["Ana (you)", "Ben"]
    watcher.wait_for_selector(f"{row} .lobby-seats li.taken >> nth=1")
    assert watcher.locator(f"{row} button:has-text('Sit down')").count() == 0  # full
    shot(ana, "03-table-full")

    ana.click(f"#my-tables li[data-table='{tid}'] button:has-text('Start')")
    ana.wait_for_url("**/play/**#t=*")
    ben.wait_for_url("**/play/**#t=*")  # sent to the game the moment it started
    game_id = ana.url.split("/play/")[1].split("#")[0]
    assert ben.url.split("/play/")[1].split("#")[0] == game_id
    wait_state(ana, "S.you.length === 1 && S.you[0] === 0")
    wait_state(ben, "S.you.length === 1 && S.you[0] === 1")
    names = [s["name"] for s in state(ana)["seats"]]
    assert names == ["Ana", "Ben"]
    wait_state(ana, "S.your_turn")
    before = state(ben)["state"]
    play_simple_turn(ana)  # a move on Ana's seat reaches Ben's page
    wait_state(ben, f"S.state > {before}")
    shot(ben, "04-ben-in-the-game")

    # the table talks: a quick phrase and a line of text, seen live by the other seat
    ana.click("#chat-phrases button[data-phrase='good_luck']")
    ana.fill("#chat-input", "  Have   fun, Ben ")
    ana.press("#chat-input", "Enter")
    ben.wait_for_selector("#chat-lines li[data-seq='2']")
    assert [ben.inner_text(f"#chat-lines li[data-seq='{n}'] .chat-text") for n in (1, 2)] == [
        "Good luck!", "Have fun, Ben"]
    ben.fill("#chat-input", "<b>bold</b>")  # refused, said in the chat card
    ben.press("#chat-input", "Enter")
    ben.wait_for_selector("#chat-error:not(:empty)")
    assert ben.get_attribute("#chat-input", "aria-invalid") == "true"
    ben.click("#chat-mutes button:has-text('Mute Ana')")  # muted in Ben's browser only
    assert ben.inner_text("#chat-lines li[data-seq='2'] .chat-text") == "(muted)"
    assert ana.locator("#chat-lines li.muted").count() == 0
    shot(ben, "04b-chat")

    watch = watcher.wait_for_selector(f"#playing-tables li[data-table='{tid}'] a")
    assert watch.get_attribute("href") == f"/play/{game_id}"
    assert watcher.locator(row).count() == 0  # no longer open
    watch.click()
    wait_state(watcher, "S.spectator === true")
    watcher.wait_for_selector("#chat-lines li[data-seq='2']")  # spectators read the chat
    assert watcher.locator("#chat-form").is_hidden()
    assert watcher.locator("#chat-readonly").is_visible()
    shot(watcher, "05-watching")
    assert not errors, errors


def test_a_seat_nobody_took_is_played_by_a_bot_of_the_tables_level(
        server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    cleo = lobby(browser, server, errors)
    cleo.select_option("#table-rules", "standard")
    cleo.select_option("#table-fill", "easy")
    tid = open_table(cleo, "Cleo", "standard", 3)
    dan = lobby(browser, server, errors)
    dan.fill("#guest-name", "Dan")
    dan.click(f"#open-tables li[data-table='{tid}'] button:has-text('Sit down')")
    start = cleo.locator(f"#my-tables li[data-table='{tid}'] button:has-text('Start (1 bots)')")
    start.wait_for()
    start.click()
    cleo.wait_for_url("**/play/**#t=*")
    dan.wait_for_url("**/play/**#t=*")
    game_id = cleo.url.split("/play/")[1].split("#")[0]
    seats = httpx.get(f"{server.url}/api/games/{game_id}", timeout=30).json()["seats"]
    assert [(s["name"], s["kind"]) for s in seats][:2] == [("Cleo", "human"), ("Dan", "human")]
    assert seats[2]["kind"] == "bot" and seats[2]["level"] == "easy"
    assert not errors, errors


def test_a_guest_name_with_markup_is_refused_in_its_field(
        server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = lobby(browser, server, errors)
    page.fill("#guest-name", "<b>Eve</b>")
    page.click("#table-submit")
    page.wait_for_selector("#table-error:not(:empty)")
    assert page.get_attribute("#guest-name", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "guest-name"
    assert page.locator("#my-tables li[data-table]").count() == 0
    assert not [e for e in errors if "422" not in e], errors


def test_the_lobby_page_in_japanese_has_no_english_left(
        server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    page = lobby(browser, server, errors, "/lobby?lang=ja")
    open_table(page, "Fumi", "standard", 4)
    page.wait_for_selector("#open-tables li[data-table]")
    shot(page, "06-japanese")
    texts = [page.inner_text("main")]
    assert leftovers(texts, "ja") == []
    assert "ロビー" in page.inner_text("h1")
    assert not errors, errors


def test_quick_match_pairs_two_waiting_guests(server: ServerProcess, browser: Any) -> None:
    errors: list[str] = []
    gil = lobby(browser, server, errors)
    gil.fill("#guest-name", "Gil")
    gil.select_option("#quick-rules", "demo")
    gil.click("#quick-submit")
    gil.wait_for_selector("#quick-waiting:visible")
    assert "1" in gil.inner_text("#quick-status")
    gil.wait_for_function("() => document.querySelector('#quick-status').textContent"
                          ".includes('0:01')")  # the waiting time counts up
    shot(gil, "07-quick-waiting")
    gil.click("#quick-cancel")  # stops waiting: the form is back
    gil.wait_for_selector("#quick-form:visible")
    gil.click("#quick-submit")
    gil.wait_for_selector("#quick-waiting:visible")
    hal = lobby(browser, server, errors)
    assert hal.locator("#open-tables li[data-table]").count() == 0 or \
        "Gil" not in hal.inner_text("#open-tables")  # a quick table is never listed
    hal.fill("#guest-name", "Hal")
    hal.select_option("#quick-rules", "demo")
    hal.click("#quick-submit")
    hal.wait_for_url("**/play/**#t=*")
    gil.wait_for_url("**/play/**#t=*")
    assert gil.url.split("#")[0] == hal.url.split("#")[0]
    wait_state(gil, "S.you.length === 1 && S.you[0] === 0")
    wait_state(hal, "S.you.length === 1 && S.you[0] === 1")
    assert [s["name"] for s in state(hal)["seats"]] == ["Gil", "Hal"]
    assert not errors, errors


def test_a_rematch_offered_and_accepted_takes_both_players_to_the_new_game(
        server: ServerProcess, browser: Any) -> None:
    from test_web_player import Played

    played = Played(server, "demo", 2, seed=4)
    played.to_the_end()  # over HTTP; each player then opens their own seat's link
    links = [s["url"] for s in played.created["seats"]]
    errors: list[str] = []
    pages = []
    for link in links:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors += errors_of(page)
        page.goto(link)
        wait_state(page, "S.over === true")
        page.locator(".modal button.btn", has_text="Close").click()  # the final scores
        pages.append(page)
    ann, ben = pages
    ann.click("#rematch-box button[data-rematch='offer']")
    ben.wait_for_selector("#rematch-box button[data-rematch='/decline']")
    assert "Ann offers a rematch" in ben.inner_text("#rematch-box")
    assert "waiting for Ben" in ann.inner_text("#rematch-box")
    shot(ben, "08-rematch-offered")
    ben.click("#rematch-box button[data-rematch='offer']")  # accept
    old = ann.url.split("#")[0]
    for page in pages:
        page.wait_for_url(lambda url, old=old: "/play/" in url and url.split("#")[0] != old)
    wait_state(ann, "S.you.length === 1 && S.you[0] === 1")  # seats moved one place on
    wait_state(ben, "S.you.length === 1 && S.you[0] === 0")
    assert [s["name"] for s in state(ann)["seats"]] == ["Ben", "Ann"]
    assert not errors, errors
