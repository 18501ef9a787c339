"""Accessibility: an axe-core audit of every page in the real browser (no serious or critical
violation), and the game page read the way a screen reader reads it.

axe-core comes bundled with the ``axe-playwright-python`` package (no network at run time).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tikal.server.wire.client import legal_actions
from web_helpers import (
    ARTIFACTS,
    ServerProcess,
    chromium,
    serve,
    wait_state,
)

axe_module = pytest.importorskip("axe_playwright_python.sync_playwright")

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "board"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "a11y")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


@pytest.fixture(scope="module")
def game(server: ServerProcess) -> dict[str, Any]:
    body = {"rules": "standard", "seed": 11, "hotseat": True,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
    created: dict[str, Any] = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    headers = {"X-Tikal-Token": created["hotseat_token"]}
    url = f"{server.url}/api/games/{created['id']}"
    state = httpx.get(url, headers=headers, timeout=10).json()
    first = legal_actions(state)[0]
    at = state["state"]
    for action in (first, "put W A5"):
        r = httpx.post(f"{url}/actions", headers=headers, timeout=10,
                       json={"action": action, "state": at})
        assert r.status_code == 200, r.text
        at = r.json()["state"]
    return created


def serious(page: Any) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now."""
    results = axe_module.Axe().run(page)
    found = []
    for v in results.response["violations"]:
        if v["impact"] in ("serious", "critical"):
            targets = [", ".join(map(str, n["target"])) for n in v["nodes"][:5]]
            found.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
    return found


PAGES = {
    "start": ("/", ".seat-row"),
    "rules": ("/rules", "main.rules"),
    "not-found": ("/no/such/page", "main"),
    "learn": ("/learn?lang=en", "#step-title"),
    "learn-ja": ("/learn?lang=ja", "#step-title"),
    "start-de": ("/?lang=de", ".seat-row"),
    "rules-ja": ("/rules/ja", "main.rules"),
    "account": ("/account", "#signup-form:visible"),
    "account-ja": ("/account?lang=ja", "#signup-form:visible"),
    "leaderboard": ("/leaderboard", "#rule-sets"),
    "leaderboard-de": ("/leaderboard?rules=auction&lang=de", "#rule-sets"),
    "bot-profile": ("/players/bot:greedy", "#profile-name"),
    "lobby": ("/lobby", "#lobby-live:not(:empty)"),
    "lobby-de": ("/lobby?lang=de", "#lobby-live:not(:empty)"),
}


@pytest.mark.parametrize("name", list(PAGES))
@pytest.mark.parametrize("width", [1280, 390, 360])
def test_static_pages_pass_axe(server: ServerProcess, browser: Any, name: str, width: int) -> None:
    path, ready = PAGES[name]
    page = browser.new_page(viewport={"width": width, "height": 844})
    page.goto(server.url + path)
    page.wait_for_selector(ready)
    assert serious(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width  # no sideways
    page.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_game_page_passes_axe(
    server: ServerProcess, browser: Any, game: dict[str, Any], width: int
) -> None:
    page = browser.new_page(viewport={"width": width, "height": 844})
    page.goto(game["hotseat_url"])
    wait_state(page, "S.your_turn && S.phase === 'turn'")
    page.wait_for_selector("svg.board g.space[aria-label]")
    assert serious(page) == []
    # with a space chosen, a figure picked up and a refusal shown
    page.locator('svg.board g.fig[data-fig="W"]').first.click()
    page.locator("svg.board g.space.empty").last.click()
    page.wait_for_selector("#refusal")
    assert serious(page) == []
    page.close()


def test_spectator_and_replay_pages_pass_axe(
    server: ServerProcess, browser: Any, game: dict[str, Any]
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(game["spectator_url"])
    wait_state(page, "S.spectator")
    assert serious(page) == []
    page.goto(game["replay_url"])
    page.wait_for_selector("#steps .line")
    assert serious(page) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert serious(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.close()


def test_screen_readers_get_names_and_hear_the_game(
    server: ServerProcess, browser: Any, game: dict[str, Any]
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(game["hotseat_url"])
    wait_state(page, "S.your_turn && S.phase === 'turn'")
    page.wait_for_selector("svg.board g.space[aria-label]")
    # one tab stop for the board; every space a named button: label, tile, value, figures
    assert page.locator('svg.board g.space[tabindex="0"]').count() == 1
    assert page.locator('svg.board g.space[role="button"]').count() == 40
    temple = page.get_attribute('svg.board g.space[data-cell="A4"]', "aria-label") or ""
    assert temple.startswith("A4") and "temple" in temple and "value" in temple
    base = page.get_attribute('svg.board g.space[data-cell="A5"]', "aria-label") or ""
    assert "basecamp" in base
    # the actions have names; the figures on a space are named per player
    names = page.evaluate("""() => [...document.querySelectorAll(
        '#turn-card button, #actions-card button')]
        .map((b) => (b.getAttribute('aria-label') || b.textContent).trim())""")
    assert names and all(names)
    page.close()


def test_other_players_moves_and_the_turn_are_announced(
    server: ServerProcess, browser: Any
) -> None:
    body = {"rules": "standard", "seed": 11,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
    created = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    ann = {"X-Tikal-Token": created["seats"][0]["token"]}
    url = f"{server.url}/api/games/{created['id']}"
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(created["seats"][1]["url"])  # Ben watches Ann play
    wait_state(page, "!S.your_turn && S.phase === 'tile'")
    page.wait_for_selector("svg.board g.space[aria-label]")
    state = httpx.get(url, headers=ann, timeout=10).json()
    tile = legal_actions(state)[0]
    for action in (tile, "put W A5", "end"):
        r = httpx.post(f"{url}/actions", headers=ann, timeout=10,
                       json={"action": action, "state": state["state"]})
        assert r.status_code == 200, r.text
        state["state"] = r.json()["state"]
        if action == "put W A5":
            page.wait_for_function(
                "() => /Ann brought a worker onto A5/.test("
                "document.getElementById('announce').textContent)")
            label = page.get_attribute('svg.board g.space[data-cell="A5"]', "aria-label") or ""
            assert "workers: 1" in label, label
    page.wait_for_function(
        "() => /Your turn/.test(document.getElementById('announce').textContent)")
    page.close()


def test_favicon_is_served(server: ServerProcess) -> None:
    r = httpx.get(f"{server.url}/favicon.ico", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in r.text
