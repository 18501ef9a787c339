"""Screenshots of every fix of issue 32 (what a player sees), in English, German and
Japanese, on a desktop (1280 x 800) and a phone (390 x 844) screen.

    python tools/screenshots_issue32.py [OUT]     # default: docs/screenshots/issue-32

Starts its own ``tikal serve`` on a temporary SQLite file (Debian's Chromium through
Playwright, as the browser tests do), brings each fix on screen as a player meets it and
writes ``<fix>-<language>-<desktop|phone>.png``: the part of the page that shows the fix
(a card, a dialog) or the whole screen.  With Pillow the pictures are stored with a
palette of 256 colours, a few dozen KB each.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402

import test_web_player as player  # noqa: E402
from web_helpers import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    ServerProcess,
    tiny_analysis,
    wait_state,
)

SCREENS = {"desktop": player.DESKTOP, "phone": player.PHONE}
LANGUAGES = ("en", "de", "ja")
COLOURS = 256

#: A fix on screen: given the server, a new page (language, screen) and the shared games,
#: bring the fix into view; the selector of the part to keep (None: the whole screen).
Scene = Callable[[ServerProcess, Any, str, dict[str, Any]], "str | None"]


def treasure_icons(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> str:
    page.goto(player.with_language(games["finished"].created["spectator_url"], language))
    page.wait_for_selector("#final-scores")
    page.click(".modal button:last-child")
    return "#players"


def tutorial_tried(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> str:
    page.goto(f"{server.url}/learn?lang={language}#demo/tile")
    page.wait_for_function("() => window.tutorial && window.tutorial.live")
    page.locator('#board g.space[data-cell="0"]').click()
    page.wait_for_selector("#feedback.refused")
    return "#feedback"


def names(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> None:
    page.goto(f"{server.url}/?lang={language}")
    page.wait_for_selector(".seat-row")
    page.click("#quick-demo")
    page.wait_for_url("**/play/**")
    wait_state(page, "S.your_turn")
    return None


def levels(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> str:
    seats = [{"kind": "human", "name": "Ann"}] + [
        {"kind": "bot", "level": level, "name": f"B{i}"}
        for i, level in enumerate(["hard", "mcts", "easy"])]
    game = player.create(server, "standard", seats, seed=3, language=language)
    page.goto(player.play_url(game))
    wait_state(page, "S.seats.length === 4")
    return "#players"


def selection(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> None:
    seed, setup, target = player.two_figures_game()
    played = player.Played(server, "standard", 2, seed)
    for action in setup:
        played.act(action)
    page.goto(player.with_language(played.created["hotseat_url"], language))
    wait_state(page, f"S.state === {played.state} && S.phase === 'turn'")
    player.click_figure(page, 0, "W", "A5")
    player.click_space(page, target)
    wait_state(page, f"S.state === {played.state + 1}")
    player.click_figure(page, 0, "L", "A5")
    return None


def tutorial_goal(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> None:
    page.goto(f"{server.url}/learn?lang={language}#demo/tile")
    page.wait_for_function("() => window.tutorial && window.tutorial.live")
    return None


def space_names(server: ServerProcess, page: Any, language: str,
                games: dict[str, Any]) -> str:
    """The demo plane's spiral numbers, clear of the outlines round the spaces."""
    page.goto(f"{server.url}/learn?lang={language}#demo/majority")
    page.wait_for_function("() => window.tutorial && window.tutorial.live")
    return "svg.board"


def replay(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> None:
    page.goto(f"{server.url}/replay/{games['analysed']}?lang={language}")
    page.wait_for_selector("svg.analysis-graph .point", timeout=180_000)
    page.locator("#analysis-list > li button").first.click()
    page.wait_for_selector("#board svg g.space.better, #board svg g.space.played")
    return None


def analysis(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> str:
    replay(server, page, language, games)
    return "#analysis-side"


def first_opponent(server: ServerProcess, page: Any, language: str,
                   games: dict[str, Any]) -> str:
    page.goto(f"{server.url}/?lang={language}")
    page.wait_for_selector(".seat-row")
    return "#create"


def seat_colours(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> str:
    game = player.create(server, "standard", [{"kind": "human", "name": None}] * 4, seed=5,
                         language=language)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.seats.length === 4")
    return "#players"


def progress(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> None:
    game = player.create(server, "standard", player.humans(2), seed=9, language=language)
    page.goto(game["hotseat_url"])
    page.wait_for_selector("#volcanoes")
    return None


def end_turn(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> str:
    played = player.turn_game(server)
    page.goto(player.with_language(played.created["hotseat_url"], language))
    wait_state(page, "S.phase === 'turn' && S.ap > 0")
    page.click("#end-turn")
    page.wait_for_selector("#confirm-end")
    return "#confirm-end .box"


def preferences(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> str:
    game = player.create(server, "demo", [{"kind": "human", "name": "Ann"},
                                          {"kind": "bot", "level": "easy", "name": "Bo"}],
                         seed=13, language=language)
    page.goto(player.play_url(game))
    wait_state(page, "S.your_turn")
    page.select_option("#pref-pace", "fast")
    return "#prefs-card"


def summary(server: ServerProcess, page: Any, language: str, games: dict[str, Any]) -> str:
    page.goto(player.with_language(games["finished"].created["spectator_url"], language))
    page.wait_for_selector("#points-by-source")
    return ".modal .box"


#: Issue 32's findings in its order.
SCENES: dict[str, Scene] = {
    "01-treasure-icons": treasure_icons, "02-tutorial-tried": tutorial_tried,
    "03-names": names, "04-levels": levels, "05-selection": selection,
    "06-tutorial-goal": tutorial_goal, "07-space-names": space_names, "08-analysis": analysis,
    "09-first-opponent": first_opponent, "10-board-fitted": names,
    "11-replay-analysis": replay, "12-seat-colours": seat_colours,
    "13-progress": progress, "14-end-turn": end_turn, "15-preferences": preferences,
    "16-points-by-source": summary,
}
#: Scenes that show the same screen: taken once (10 is the quick demo's board, 11 the
#: replay of 8), only on the screen where they differ.
ONLY_ON = {"10-board-fitted": "phone", "11-replay-analysis": "desktop"}


def compact(path: Path) -> None:
    """Keep a palette of :data:`COLOURS` colours (when Pillow is there)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as picture:
        small = picture.convert("RGB").quantize(colors=COLOURS, method=Image.Quantize.FASTOCTREE)
    small.save(path, optimize=True)


def take(page: Any, selector: str | None, path: Path) -> None:
    if selector is None:
        page.evaluate("() => window.scrollTo(0, 0)")  # the screen as the page opens
        page.wait_for_timeout(150)
        page.screenshot(path=str(path))
    else:  # the part as laid out on the whole page (no sticky card over it)
        box = page.locator(selector).first.evaluate(
            "(e) => { const r = e.getBoundingClientRect(); return { x: r.left + scrollX,"
            " y: r.top + scrollY, width: r.width, height: r.height }; }")
        page.screenshot(path=str(path), full_page=True, clip=box)
    compact(path)


def games_for(server: ServerProcess) -> dict[str, Any]:
    """The games several scenes show: a finished one with treasures, an analysed one."""
    return {"finished": player.finished_game(server), "analysed": player.analysed_game(server)}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        with tiny_analysis():
            server = ServerProcess(Path(tmp) / "shots.sqlite3", options=("--no-limits",)).start()
        try:
            games = games_for(server)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, scene in SCENES.items():
                    for screen, viewport in SCREENS.items():
                        if ONLY_ON.get(name, screen) != screen:
                            continue
                        for language in LANGUAGES:
                            page = player.new_page(browser, language, viewport)
                            selector = scene(server, page, language, games)
                            take(page, selector, out / f"{name}-{language}-{screen}.png")
                            page.context.close()
                    sys.stdout.write(f"{name}\n")
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots" / "issue-32")
