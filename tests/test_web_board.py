"""The game page in the browser: layout at three screen sizes, whole games and every kind of
standard turn played with the keyboard alone, an auction round through its panel.

Playwright drives Debian's Chromium against a real ``tikal serve``; screenshots go to
``artifacts/board/`` (gitignored).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tikal import Game
from web_helpers import (
    ARTIFACTS,
    ServerProcess,
    chromium,
    errors_of,
    serve,
    state,
    wait_state,
)

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "board"
SIZES = [(1280, 800), (768, 1024), (390, 844), (360, 740)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "board")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def shot(page: Any, name: str, full: bool = False) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def hotseat_game(server: ServerProcess, rules: str, seed: int) -> dict[str, Any]:
    body = {"rules": rules, "seed": seed, "hotseat": True,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
    game: dict[str, Any] = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    return game


def play_over_http(server: ServerProcess, game: dict[str, Any], actions: list[str]) -> None:
    """Set a position up: play ``actions`` through the API (the same seed, the same game)."""
    headers = {"X-Tikal-Token": game["hotseat_token"]}
    url = f"{server.url}/api/games/{game['id']}"
    current = httpx.get(url, headers=headers, timeout=10).json()["state"]
    with httpx.Client(timeout=10, headers=headers) as client:
        for action in actions:
            r = client.post(f"{url}/actions", json={"action": action, "state": current})
            assert r.status_code == 200, r.text
            current = r.json()["state"]


def prefix_until(seed: int, verb: str, limit: int = 800) -> list[str]:
    """Random standard play from ``seed`` until the player to act starts a turn (full AP)
    with ``verb`` among the legal actions: the actions played so far."""
    game = Game.new("standard", 2, seed=seed)
    rng = random.Random(seed)
    played: list[str] = []
    for _ in range(limit):
        assert not game.is_over
        legal = game.legal_actions()
        if (game.phase == "turn" and game.ap == game.rules.action_points
                and any(a.verb == verb for a in legal)):
            return played
        non_end = [a for a in legal if str(a) != "end"]
        action = rng.choice(non_end if non_end and rng.random() < 0.9 else legal)
        game.apply(action)
        played.append(str(action))
    raise AssertionError(f"no {verb} within {limit} actions")


# ------------------------------------------------------------------ the keyboard alone


def focused(page: Any) -> str | None:
    cell: str | None = page.evaluate(
        "() => { const g = document.activeElement && document.activeElement.closest"
        " && document.activeElement.closest('g.space'); return g ? g.dataset.cell : null; }")
    return cell


def tab_to(page: Any, selector: str, limit: int = 120) -> None:
    """Press Tab (Shift+Tab after ``limit`` presses) until ``selector`` has the focus."""
    check = f"() => !!document.activeElement && document.activeElement.matches({selector!r})"
    for i in range(2 * limit):
        if page.evaluate(check):
            return
        page.keyboard.press("Tab" if i < limit else "Shift+Tab")
    raise AssertionError(f"Tab never reached {selector}")


def focus_board(page: Any) -> None:
    if focused(page) is None:
        tab_to(page, "g.space")


def go_to(page: Any, cell: str, limit: int = 80) -> None:
    """Walk the focus over the board with the arrow keys to ``cell``."""
    focus_board(page)
    script = """([a, b]) => {
      const q = (c) => document.querySelector(`svg.board g.space[data-cell="${c}"]`);
      const p = q(a), t = q(b); return [t.dataset.x - p.dataset.x, t.dataset.y - p.dataset.y]; }"""
    stuck = 0
    for _ in range(limit):
        here = focused(page)
        assert here is not None, "the focus left the board"
        if here == cell:
            return
        dx, dy = page.evaluate(script, [here, cell])
        if abs(dx) > 1:
            keys = ["ArrowRight" if dx > 0 else "ArrowLeft", "ArrowDown" if dy > 0 else "ArrowUp"]
        else:
            keys = ["ArrowDown" if dy > 0 else "ArrowUp", "ArrowRight", "ArrowLeft"]
        page.keyboard.press(keys[min(stuck, len(keys) - 1)])
        stuck = stuck + 1 if focused(page) == here else 0
    raise AssertionError(f"arrow keys did not reach {cell} (at {focused(page)})")


def enter_on(page: Any, cell: str) -> None:
    go_to(page, cell)
    page.keyboard.press("Enter")


def press_button(page: Any, selector: str) -> None:
    tab_to(page, selector)
    page.keyboard.press("Enter")


def keyboard_place_tile(page: Any, rotation: int | None = None) -> str:
    """Turn the drawn tile with R / Shift+R and place it with Enter: the space used."""
    s = state(page)
    options = s["legal"]["tile"]
    entry = next((e for e in options if e["rotation"] == rotation), options[0])
    turns = (entry["rotation"] - page.evaluate("() => window.tikal.ui.rotation")) % 6
    focus_board(page)
    for _ in range(turns):
        page.keyboard.press("R")
    if turns == 5:  # the long way round once, back with Shift+R to check it too
        for _ in range(5):
            page.keyboard.press("Shift+R")
        page.keyboard.press("Shift+R")
    assert page.evaluate("() => window.tikal.ui.rotation") == entry["rotation"]
    cell: str = entry["cells"][0]
    enter_on(page, cell)
    wait_state(page, f"S.state > {s['state']}")
    return cell


def keyboard_move(page: Any, entry: dict[str, Any]) -> None:
    """Pick the figure up with Enter (again for the next figure there), walk to the target,
    put it down with Enter."""
    src, dst = entry["cells"][0], entry["cells"][-1]
    fig = "L" if entry.get("leader") else "W"
    before = state(page)["state"]
    go_to(page, src)
    for _ in range(4):
        page.keyboard.press("Enter")
        picked = page.evaluate("() => window.tikal.ui.fig")
        if picked and picked["fig"] == fig and picked["cell"] == src:
            break
    else:
        raise AssertionError(f"Enter never picked up {fig} on {src}")
    go_to(page, dst)
    label = page.get_attribute(f'svg.board g.space[data-cell="{dst}"]', "aria-label") or ""
    assert "AP" in label, label  # the target says so, with its cost
    page.keyboard.press("Enter")
    wait_state(page, f"S.state > {before}")


def keyboard_space_action(page: Any, entry: dict[str, Any]) -> None:
    """Choose the space with Enter, then Tab to the action in the selection card."""
    before = state(page)["state"]
    cell = entry["cells"][0]
    go_to(page, cell)
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#selection-card button[data-action="{entry["action"]}"]')
    press_button(page, f'#selection-card button[data-action="{entry["action"]}"]')
    wait_state(page, f"S.state > {before}")


def keyboard_end_turn(page: Any) -> None:
    before = state(page)["state"]
    press_button(page, '#turn-card button[data-action="end"]')
    if page.locator("#confirm-end").count():  # AP left: asked first, "End turn" by keyboard
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Enter")
    wait_state(page, f"S.state > {before}")


def legal_of(page: Any, verb: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = state(page)["legal"].get(verb, [])
    return entries


# ------------------------------------------------------------------ tests


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_layout_fits_every_screen(
    server: ServerProcess, browser: Any, width: int, height: int
) -> None:
    game = hotseat_game(server, "standard", 11)
    play_over_http(server, game, prefix_until(11, "dig"))
    phone = width < 500
    ctx = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                              has_touch=width < 1000)
    page = ctx.new_page()
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.your_turn && S.phase === 'turn'")
    page.wait_for_selector("svg.board g.fig")
    shot(page, f"after-{width}x{height}")
    shot(page, f"after-{width}x{height}-full", full=True)
    # no horizontal page scroll, no element wider than the viewport
    wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.right > w + 0.5 || r.left < -0.5)
          && !e.closest('.sr-only') && !e.closest('.skip');
      }).map((e) => e.tagName + '.' + e.className)""", width)
    assert wide == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    # the board fits the width; the turn's controls show without scrolling
    board = page.locator("svg.board").bounding_box()
    assert board and board["x"] >= 0 and board["x"] + board["width"] <= width + 0.5
    for selector in ('#turn-card button[data-action="end"]', "#undo", "#hint"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, selector
    if phone:
        for selector in ('#turn-card button[data-action="end"]', "#undo", "#hint", "#zoom-in",
                         "#zoom-out", "#zoom-fit", '#actions-card button[data-action^="dig"]'):
            box = page.locator(selector).first.bounding_box()
            assert box and box["height"] >= 44 and box["width"] >= 44, (selector, box)
        # zoomed in, the board scrolls inside its frame (with a cue), never the page
        page.click("#zoom-in")
        page.wait_for_selector("#pan-cue:not([hidden])")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        scroll = page.evaluate("() => { const s = document.getElementById('board-scroll');"
                               " return [s.scrollWidth, s.clientWidth]; }")
        assert scroll[0] > scroll[1]
        # scrolled down to the log, the turn's controls stay docked in view
        page.click("#zoom-fit")
        page.evaluate("() => window.scrollTo(0, document.body.scrollHeight / 3)")
        box = page.locator('#turn-card button[data-action="end"]').bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height
        shot(page, f"after-{width}x{height}-scrolled")
    assert not errors, errors
    ctx.close()


def test_a_demo_game_by_keyboard_alone(server: ServerProcess, browser: Any) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = errors_of(page)
    body = {"rules": "demo", "seed": 5,
            "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "random"}]}
    game = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    page.goto(game["seats"][0]["url"])
    wait_state(page, "S.your_turn")
    # the first turn: tile turned and placed, a worker brought in and walked
    keyboard_place_tile(page, rotation=2)
    put = next(e for e in legal_of(page, "put") if not e.get("leader"))
    press_button(page, f'#actions-card button[data-action="{put["action"]}"]')
    wait_state(page, f"S.position.figures[0].workers['{put['cells'][0]}'] === 1")
    moves = [e for e in legal_of(page, "move") if not e.get("leader")]
    if moves:
        keyboard_move(page, moves[0])
    shot(page, "keyboard-demo")
    keyboard_end_turn(page)
    deadline = time.monotonic() + 300
    while True:
        assert time.monotonic() < deadline, "the game did not finish"
        wait_state(page, "S.your_turn || S.over", 60_000)
        s = state(page)
        if s["over"]:
            break
        if s["phase"] == "tile":
            keyboard_place_tile(page)
            continue
        legal = s["legal"]
        if legal.get("take"):
            keyboard_space_action(page, legal["take"][0])
        elif legal.get("dig") and s["ap"] >= 2:
            keyboard_space_action(page, legal["dig"][0])
        elif legal.get("put") and s["ap"] == s["ap_max"]:
            press_button(page, f'#actions-card button[data-action="{legal["put"][0]["action"]}"]')
            wait_state(page, f"S.state > {s['state']}")
        else:
            keyboard_end_turn(page)
    page.wait_for_selector("#final-scores")
    assert state(page)["winners"]
    page.keyboard.press("Escape")
    assert page.locator(".modal").count() == 0
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("verb", ["move", "dig", "take", "guard", "camp", "swap"])
def test_standard_turns_by_keyboard_alone(
    server: ServerProcess, browser: Any, verb: str
) -> None:
    seed = 0
    game = hotseat_game(server, "standard", seed)
    needed = verb
    prefix = prefix_until(seed, needed)
    play_over_http(server, game, prefix)
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, f"S.your_turn && S.legal['{needed}']")
    entries = legal_of(page, needed)
    if verb == "swap":
        assert page.locator("#actions-card .swap-icons .tr").count() >= 2  # icons, not letters
    assert entries, needed
    entry = entries[0]
    if verb == "move":
        keyboard_move(page, entry)
        cell = entry["cells"][-1]
        fig = "leader" if entry.get("leader") else f"workers['{cell}']"
        seat = state(page)["current"]
        test = f" === '{cell}'" if entry.get("leader") else " >= 1"
        wait_state(page, f"S.position.figures[{seat}].{fig}{test}")
        assert page.locator("svg.board g.fig.slide").count() == 1  # it slid over
    elif verb == "swap":
        before = state(page)["state"]
        press_button(page, f'#actions-card button[data-action="{entry["action"]}"]')
        wait_state(page, f"S.state > {before}")
    else:
        keyboard_space_action(page, entry)
    after = state(page)
    last = [line for line in after["log"] if line["kind"] == "action"][-1]
    assert last["notation"] == entry["action"], last
    if verb in ("take", "swap"):
        assert page.locator("#players .tr svg use").count() >= 1  # treasures as icons
    shot(page, f"keyboard-{verb}")
    # end the turn; the other seat's tile is turned and placed by keyboard too
    keyboard_end_turn(page)
    wait_state(page, "S.your_turn")
    if state(page)["phase"] == "tile":
        rotations = {e["rotation"] for e in legal_of(page, "tile")}
        keyboard_place_tile(page, rotation=max(rotations))
    assert not errors, errors
    page.close()


def test_an_auction_round_through_the_panel(server: ServerProcess, browser: Any) -> None:
    game = hotseat_game(server, "auction", 3)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.phase === 'auction' && S.your_turn")
    page.wait_for_selector("#auction-card .win-buys")
    # each revealed tile shows what it offers; winning is explained
    tiles = page.locator("#auction-card .disp")
    assert tiles.count() == len(state(page)["display"]) >= 2
    assert page.locator("#auction-card .disp svg").first.bounding_box()["width"] >= 100
    assert "score" in page.inner_text("#auction-card .win-buys")
    assert "No bids yet" in page.inner_text("#auction-card")
    shot(page, "auction-open")
    # a quick bid: Ann bids 0 (the first amount), Ben raises by 2, Ann passes
    first = state(page)["legal"]["bid"][0]
    quick = page.locator("#auction-card button.quick")
    assert quick.first.inner_text() == f"Bid {first['amount']}"
    page.click(f'#auction-card button.quick[data-action="{first["action"]}"]')
    wait_state(page, "S.auction.high_bid !== null && S.current === 1")
    high = state(page)["auction"]["high_bid"]
    page.click(f'#auction-card button.quick[data-action="bid {high + 2}"]')
    wait_state(page, f"S.auction.high_bid === {high + 2} && S.current === 0")
    assert page.locator("#auction-card button.quick").first.inner_text().startswith("+1 (")
    history = page.locator("#auction-card .bid-history li")
    assert history.count() == 2
    assert "Ben" in history.nth(1).inner_text()
    shot(page, "auction")
    page.click('#auction-card button[data-action="pass"]')
    wait_state(page, "S.phase === 'pick' && S.current === 1")
    picks = state(page)["legal"]["pick"]
    page.click(f'#auction-card button[data-action="{picks[0]["action"]}"]')
    wait_state(page, "S.phase === 'tile'")
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn' && S.ap === S.ap_max")
    assert state(page)["player_info"][1]["score"] == 20 - (high + 2)
    # the log does not make a player the one who drew the display's tiles
    chance = page.locator("#log .line.chance").first.inner_text()
    assert not chance.startswith(("Ann", "Ben"))
    assert not errors, errors
    page.close()


def test_refusals_are_shown_once_and_read_well(server: ServerProcess, browser: Any) -> None:
    game = hotseat_game(server, "standard", 11)
    play_over_http(server, game, prefix_until(11, "dig"))
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.your_turn && S.phase === 'turn'")
    page.wait_for_function(
        "() => typeof TK !== 'undefined' && TK.rules && Object.keys(TK.rules).length > 0")
    # hot-seat: the seat to play is named, nobody is "(you)"; no "X places" grammar
    status = page.inner_text("#status")
    assert "(you)" not in status and " places " not in status
    s = state(page)
    assert f"Your turn: {s['seats'][s['current']]['name']}" in page.inner_text("#turn-card")
    # a figure sent to a space it cannot reach: the engine's reason once, then its rule
    move = s["legal"]["move"][0]
    src = move["cells"][0]
    far = next(c for c in ("H1", "H5", "G1", "E1") if c != src)
    before = s["state"]
    go_to(page, src)
    page.keyboard.press("Enter")
    assert page.evaluate("() => !!window.tikal.ui.fig")
    enter_on(page, far)
    page.wait_for_selector("#refusal")
    text = page.inner_text("#refusal")
    assert page.locator("#refusal").count() == 1 and page.locator(".toast").count() == 0
    assert text.count("Not allowed") == 1
    link = page.locator("#refusal a.rule-link")
    assert link.count() == 1
    rule = link.inner_text()
    assert rule.startswith("Rule ") and f"{rule} \u2014 " in text  # "Rule MOVE-2 — text"
    assert state(page)["state"] == before
    shot(page, "refusal")
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_animations_respect_reduced_motion(
    server: ServerProcess, browser: Any, motion: str
) -> None:
    game = hotseat_game(server, "standard", 11)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
    page = ctx.new_page()
    page.goto(game["hotseat_url"])
    wait_state(page, "S.your_turn && S.phase === 'tile'")
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn'")
    name = page.evaluate(
        "() => { const t = document.querySelector('svg.board g.space.fresh > g.tile');"
        " return t && getComputedStyle(t).animationName; }")
    assert name == ("none" if motion == "reduce" else "tk-grow")
    ctx.close()
