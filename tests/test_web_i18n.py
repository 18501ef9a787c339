"""The web app in Japanese and German in a real browser: demo games against a bot to the
final scores, the language picker (kept across reloads, the game kept too), refusals
linking into the rulebook of the language, the rulebook's search, and the game page's
controls (zoom, keyboard help, dock, auction panel, accessible names) on a wide screen and
a phone.

Playwright drives Debian's Chromium; screenshots go to ``artifacts/web-i18n/``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from test_i18n_web import leftovers
from test_web_board import hotseat_game, play_over_http, prefix_until
from test_web_e2e import demo_seed, play_simple_turn, wait_my_turn
from tikal.messages import text
from web_helpers import (
    ARTIFACTS,
    ServerProcess,
    chromium,
    end_turn,
    errors_of,
    serve,
    state,
    wait_state,
)

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "web-i18n"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-i18n")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def shot(page: Any, name: str, full: bool = False) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def no_english(page: Any, language: str, selector: str = "body") -> None:
    """Nothing a person reads in ``selector`` is an English text of the catalogs."""
    assert leftovers([page.inner_text(selector)], language) == []


def t(key: str, language: str, **params: Any) -> str:
    return text(f"web.{key}", language, **params)


def create_demo(page: Any, seed: int) -> None:
    page.check("input[name=rules][value=demo]")
    page.select_option('.seat-row[data-seat="1"] select', "bot:random")
    page.click("#create-btn")
    page.wait_for_url("**/play/**")
    wait_my_turn(page)


def refuse_a_tile(page: Any, language: str) -> str:
    """Place the drawn tile on the basecamp: refused, explained in the language, with a
    link to the rule in the rulebook of the language; returns the link."""
    assert state(page)["phase"] == "tile"
    page.locator('svg.board g.space[data-cell="0"]').click()
    page.wait_for_selector("#refusal a.rule-link")
    assert t("refusal.not_allowed", language) in page.inner_text("#refusal")
    href = page.get_attribute("#refusal a.rule-link", "href")
    assert href and href.startswith(f"/rules/{language}#")
    return href


def play_to_the_end(page: Any) -> None:
    deadline = time.monotonic() + 300
    while not state(page)["over"]:
        assert time.monotonic() < deadline, "game did not finish"
        wait_my_turn(page, 60_000)
        if state(page)["over"]:
            break
        play_simple_turn(page)
    page.wait_for_selector("#final-scores")


def test_a_demo_game_in_japanese_from_the_browser_language(
    server: ServerProcess, browser: Any
) -> None:
    seed, _, _ = demo_seed()
    ctx = browser.new_context(locale="ja-JP", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors = errors_of(page)
    page.goto(f"{server.url}/?seed={seed}")  # no cookie yet: Accept-Language says Japanese
    page.wait_for_selector(".seat-row")
    assert page.get_attribute("html", "lang") == "ja"
    assert page.input_value("#lang-picker") == "ja"
    assert page.inner_text("h1") == t("index.heading", "ja")
    no_english(page, "ja")
    shot(page, "01-ja-start-page")
    create_demo(page, seed)
    assert page.inner_text(".turn-banner").strip() == t("game.your_turn", "ja")
    assert t("tile.yours", "ja") in page.inner_text("#tile-card")
    href = refuse_a_tile(page, "ja")
    no_english(page, "ja")
    shot(page, "02-ja-refusal-with-rule-link")
    # the rule link opens the Japanese rulebook at that rule
    rules = ctx.new_page()
    rules.goto(server.url + href)
    rule = href.split("#")[1]
    rules.wait_for_selector(".target-rule")
    assert rules.get_attribute("html", "lang") == "ja"
    assert rule in rules.inner_text(".target-rule")
    shot(rules, "03-ja-rulebook-at-the-rule")
    rules.close()
    play_to_the_end(page)
    assert page.inner_text("#over-title") == t("game.final_scores", "ja")
    header = page.inner_text("#final-scores tr:first-child")
    assert t("final.player", "ja") in header and t("final.score", "ja") in header
    no_english(page, "ja")
    log = page.inner_text("#log")
    assert "：" in log and text("log.end", "ja") in log
    shot(page, "04-ja-final-scores")
    page.click(f"text={t('final.watch_replay', 'ja')}")
    page.wait_for_selector("#steps .line")
    page.wait_for_function(  # the counter reads "0 / 0" until the steps have arrived
        "() => !document.querySelector('#counter').textContent.endsWith('/ 0')")
    page.click("#first")
    page.wait_for_function("() => document.querySelector('#counter').textContent.startsWith('0 /')")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#counter').textContent.startsWith('1 /')")
    assert page.get_attribute("html", "lang") == "ja"
    assert page.inner_text("#steps .line >> nth=0") == t("replay.start_line", "ja")
    no_english(page, "ja")
    shot(page, "05-ja-replay")
    assert not errors, errors
    ctx.close()


def test_the_picker_switches_to_german_keeps_it_and_a_demo_game_ends_in_german(
    server: ServerProcess, browser: Any
) -> None:
    seed, _, _ = demo_seed()
    ctx = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors = errors_of(page)
    page.goto(f"{server.url}/?seed={seed}")
    page.wait_for_selector(".seat-row")
    assert page.get_attribute("html", "lang") == "en"
    with page.expect_navigation():
        page.select_option("#lang-picker", "de")
    page.wait_for_selector(".seat-row")
    assert page.get_attribute("html", "lang") == "de"
    assert page.inner_text("h1") == t("index.heading", "de")
    assert page.evaluate("() => localStorage.getItem('tikal.lang')") == "de"
    assert {c["name"]: c["value"] for c in ctx.cookies()}.get("tikal_lang") == "de"
    page.reload()
    page.wait_for_selector(".seat-row")
    assert page.get_attribute("html", "lang") == "de"
    assert page.input_value("#lang-picker") == "de"
    no_english(page, "de")
    shot(page, "06-de-start-page-after-reload")
    create_demo(page, seed)
    game_id = state(page)["game_id"]
    assert page.inner_text(".turn-banner").strip() == t("game.your_turn", "de")
    href = refuse_a_tile(page, "de")
    assert href.startswith("/rules/de#")
    shot(page, "07-de-refusal")
    # switching language in the middle of the game keeps the game and the seat
    with page.expect_navigation():
        page.select_option("#lang-picker", "ja")
    wait_state(page, "S.your_turn")
    assert state(page)["game_id"] == game_id and state(page)["you"] == [0]
    assert page.inner_text(".turn-banner").strip() == t("game.your_turn", "ja")
    no_english(page, "ja")
    shot(page, "08-ja-same-game-after-switch")
    with page.expect_navigation():
        page.select_option("#lang-picker", "de")
    wait_state(page, "S.your_turn")
    assert state(page)["game_id"] == game_id
    play_to_the_end(page)
    assert page.inner_text("#over-title") == t("game.final_scores", "de")
    no_english(page, "de")
    shot(page, "09-de-final-scores")
    assert not errors, errors
    ctx.close()


def test_a_language_kept_in_the_browser_wins_when_the_cookie_is_gone(
    server: ServerProcess, browser: Any
) -> None:
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    page.goto(f"{server.url}/rules")
    page.evaluate("() => localStorage.setItem('tikal.lang', 'ja')")
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'ja'")
    assert {c["name"]: c["value"] for c in ctx.cookies()}.get("tikal_lang") == "ja"
    ctx.close()


def test_the_rulebook_search_filters_and_highlights_in_japanese(
    server: ServerProcess, browser: Any
) -> None:
    ctx = browser.new_context(locale="ja-JP", viewport={"width": 1000, "height": 800})
    page = ctx.new_page()
    errors = errors_of(page)
    page.goto(f"{server.url}/rules")
    page.wait_for_selector("#rule-search")
    assert page.get_attribute("#rule-search", "placeholder") == t("rules.search", "ja")
    total = page.locator("main.rules p:visible").count()
    page.fill("#rule-search", "隊長")
    shown = page.locator("main.rules p:visible").count()
    assert 0 < shown < total
    hits = page.locator("main.rules mark.rule-hit")
    assert hits.count() >= shown and hits.first.inner_text() == "隊長"
    assert page.inner_text("#rule-count") == text("web.rules.matches", "ja", count=shown)
    shot(page, "10-ja-rules-search")
    page.fill("#rule-search", "MOVE-2")
    assert page.locator("main.rules p:visible").count() >= 1
    assert "MOVE-2" in page.inner_text("main.rules p:visible >> nth=0")
    page.fill("#rule-search", "zzzzqqq")
    assert page.inner_text("#rule-count") == t("rules.no_match", "ja")
    page.fill("#rule-search", "")
    assert page.locator("main.rules p:visible").count() == total
    assert not errors, errors
    ctx.close()


def test_hot_seat_prompt_and_phone_layout_in_japanese(server: ServerProcess, browser: Any) -> None:
    import httpx

    body = {"rules": "demo", "seed": 3, "hotseat": True,
            "seats": [{"kind": "human", "name": "アン"}, {"kind": "human", "name": "ベン"}]}
    game = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    ctx = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844},
                              is_mobile=True)
    page = ctx.new_page()
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.phase === 'tile' && S.your_turn")
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn'")
    end_turn(page)
    wait_state(page, "S.current === 1 && S.your_turn")
    prompt = t("toast.pass_device", "ja", player="").strip()
    page.wait_for_selector(f"#notice >> text={prompt[:6]}")
    assert "ベン" in page.inner_text("#notice")
    no_english(page, "ja")
    assert page.is_visible("#lang-picker")
    shot(page, "11-ja-hot-seat-prompt-phone", full=True)
    assert not errors, errors
    ctx.close()


def labels_outside_the_board(page: Any) -> list[str]:
    """The accessible names and tooltips of the page's controls (the board's spaces are
    named from the server's drawing and checked by the server's tests)."""
    found: list[str] = page.evaluate("""() => [
        ...document.querySelectorAll('[aria-label], [title]')]
        .filter((e) => !e.closest('svg.board g.space'))
        .flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('title')])
        .filter((v) => v)""")
    return found


def test_the_game_page_controls_read_in_japanese(server: ServerProcess, browser: Any) -> None:
    game = hotseat_game(server, "standard", 11)
    ctx = browser.new_context(locale="ja-JP", viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.your_turn && S.phase === 'tile'")
    page.wait_for_selector("svg.board g.space.target[aria-label]")
    lang = "ja"
    assert page.get_attribute("html", "lang") == lang
    # zoom buttons, keyboard help, the board's name and the dock's parts
    assert page.get_attribute("#zoom-in", "aria-label") == t("zoom.in", lang)
    assert page.get_attribute("#zoom-out", "aria-label") == t("zoom.out", lang)
    assert page.inner_text("#zoom-fit") == t("zoom.fit", lang)
    assert page.text_content("#keys-heading") == t("game.keyboard", lang)
    assert page.inner_text("#keys-cue") == t("board.keys_cue", lang)
    keys = page.inner_text("#keys")
    for key in ("keys.tab", "keys.arrows", "keys.enter", "keys.rotate", "keys.zoom"):
        assert t(key, lang) in keys, key
    assert page.get_attribute("svg.board", "aria-label") == t("board.keys_label", lang)
    assert page.get_attribute("#turn-card", "aria-label") == t("dock.turn", lang)
    assert page.inner_text(".skip") == t("game.skip", lang)
    assert page.get_attribute("#rot-left", "aria-label") == t("tile.left", lang)
    target = page.get_attribute("svg.board g.space.target", "aria-label") or ""
    assert t("board.fits", lang) in target
    # the board's spaces are named in Japanese too: the focused one, the basecamp, all
    page.focus('svg.board g.space[tabindex="0"]')
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("""() => {
        const g = document.activeElement.closest('g.space');
        return g && [g.dataset.cell, g.getAttribute('aria-label'),
                     g.querySelector(':scope > title').textContent];
    }""")
    assert focused, "a board space has the focus"
    cell, name, title = focused
    assert name.startswith(title) and title.startswith(cell), focused
    assert title != cell and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", title), focused
    assert leftovers([name], lang) == []
    base = page.get_attribute('svg.board g.space[data-cell="A5"]', "aria-label") or ""
    assert text("tile.basecamp", lang) in base, base
    assert text("svg.base", lang) in page.inner_html("svg.board defs")
    names = page.evaluate(
        "() => [...document.querySelectorAll('svg.board g.space')].map((g) => "
        "g.getAttribute('aria-label'))")
    assert len(names) == 40 and leftovers(names, lang) == []
    assert t("status.phase.tile", lang) in page.inner_text("#status")
    assert t("help.tile_mine", lang) in page.inner_text("#turn-card")
    page.click("#zoom-in")
    page.wait_for_selector("#pan-cue:not([hidden])")
    assert page.inner_text("#pan-cue") == t("board.zoomed", lang)
    page.click("#zoom-fit")
    # a tile placed, a worker picked up: the spending help, the AP, the move targets
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn'")
    s = state(page)
    assert page.get_attribute("#turn-card .ap", "aria-label") == t(
        "ap.label", lang, ap=s["ap"], max=s["ap_max"])
    assert page.inner_text("#turn-card button[data-action='end']").startswith(
        t("game.end_turn", lang))
    assert page.inner_text("#undo") == t("game.undo", lang)
    assert page.inner_text("#hint") == t("game.hint", lang)
    no_english(page, lang)
    assert leftovers(labels_outside_the_board(page), lang) == []
    shot(page, "12-ja-game-page-board")
    assert not errors, errors
    ctx.close()


def test_the_game_page_on_a_phone_and_the_auction_panel_read_in_german(
    server: ServerProcess, browser: Any
) -> None:
    lang = "de"
    game = hotseat_game(server, "standard", 11)
    play_over_http(server, game, prefix_until(11, "dig"))
    ctx = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844},
                              is_mobile=True, has_touch=True)
    page = ctx.new_page()
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.your_turn && S.phase === 'turn'")
    page.wait_for_selector("svg.board g.fig")
    assert page.get_attribute("html", "lang") == lang
    assert page.get_attribute("#zoom-in", "aria-label") == t("zoom.in", lang)
    assert page.inner_text("#zoom-fit") == t("zoom.fit", lang)
    assert page.text_content("#keys-heading") == t("game.keyboard", lang)
    assert t("keys.escape", lang) in page.inner_text("#keys")
    assert page.text_content("#actions-card h2") == t("actions.title", lang)
    # a worker picked up: its targets are named with their cost in the language
    move = state(page)["legal"]["move"][0]
    src, dst = move["cells"][0], move["cells"][-1]
    fig = "L" if move.get("leader") else "W"
    page.locator(f'svg.board g.fig[data-seat="{state(page)["current"]}"]'
                 f'[data-fig="{fig}"][data-cell="{src}"]').click()
    label = page.get_attribute(f'svg.board g.space[data-cell="{dst}"]', "aria-label") or ""
    assert t("board.target", lang, cost=move["cost"]) in label, label
    assert page.text_content("#selection-card h2") == t("space.title", lang, cell=src)
    no_english(page, lang)
    assert leftovers(labels_outside_the_board(page), lang) == []
    shot(page, "13-de-game-page-phone", full=True)
    assert not errors, errors
    # the auction panel
    auction = hotseat_game(server, "auction", 3)
    page.goto(auction["hotseat_url"])
    wait_state(page, "S.phase === 'auction' && S.your_turn")
    page.wait_for_selector("#auction-card .win-buys")
    card = page.inner_text("#auction-card")
    assert page.text_content("#auction-card h2") == t("auction.title", lang)
    assert t("auction.no_bids", lang) in card and t("auction.history", lang) in card
    assert page.inner_text("#auction-card .win-buys strong") == t("auction.win_buys", lang)
    first = state(page)["legal"]["bid"][0]
    quick = page.locator("#auction-card button.quick").first
    assert quick.inner_text() == t("auction.bid_at", lang, amount=first["amount"])
    assert page.get_attribute("#bid-amount", "aria-label") == t("auction.amount", lang)
    page.click(f'#auction-card button.quick[data-action="{first["action"]}"]')
    wait_state(page, "S.auction.high_bid !== null && S.current === 1")
    high = state(page)["auction"]["high_bid"]
    assert page.locator("#auction-card button.quick").first.inner_text() == t(
        "auction.raise", lang, by=1, amount=high + 1)
    name = state(page)["seats"][0]["name"]
    assert t("auction.highest", lang, high=t("auction.bids", lang, name=name, amount=high)) \
        in page.inner_text("#auction-card .auction-state")
    no_english(page, lang)
    assert leftovers(labels_outside_the_board(page), lang) == []
    shot(page, "14-de-auction-panel-phone", full=True)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_the_page_chooses_plural_forms_as_the_server_does(
    server: ServerProcess, browser: Any, language: str
) -> None:
    """Every plural text the page formats itself reads as the server renders it, for counts
    in each of the language's categories, without evaluating the catalog's rule as code
    (the CSP forbids ``eval``; i18n.plural_forms maps CLDR's categories to forms)."""
    from tikal.messages import counters
    from tikal.server.i18n import browser_texts

    plural = {key: entry for key, entry in browser_texts(language)["texts"].items()
              if isinstance(entry, dict)}
    assert plural, "the catalog has plural texts"
    page = browser.new_page()
    errors = errors_of(page)
    page.goto(f"{server.url}/?lang={language}")
    for key, entry in plural.items():
        for n in (0, 1, 2, 5):
            fields = set(re.findall(r"\{(\w+)\}", " ".join(entry["forms"])))
            params = {name: "x" for name in fields} | {entry["counter"]: n}
            shown = page.evaluate("([key, params]) => TK.t(key, params)", [key, params])
            assert counters()["web." + key] == entry["counter"]
            assert shown == text(f"web.{key}", language, **params), (key, n)
    assert errors == []
    page.close()
