"""The tutorial in a real browser: Playwright drives Debian's Chromium against ``tikal serve``.

Every step of both parts is played through the page in English, German and Japanese, with
deliberately wrong actions on the way; then "play against the easy bot" opens a real game.
Screenshots go to ``artifacts/tutorial/`` (gitignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tikal import rulebook, tutorial
from tikal.actions import Move, PlaceTile, SecretPath
from tikal.hexes import label
from web_helpers import ARTIFACTS, ServerProcess, chromium, serve

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "tutorial"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "tutorial-web")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def current_key(page: Any) -> str:
    key: str = page.evaluate("() => window.tutorial && window.tutorial.key")
    return key


def wait_step(page: Any, key: str) -> None:
    page.wait_for_function(
        f"() => window.tutorial && window.tutorial.key === {key!r} && window.tutorial.live"
        " && window.tutorial.data && window.tutorial.data.step === " + repr(key.split("/")[1])
    )


def click_figure(page: Any, cell: str, figure: str) -> None:
    page.locator(f'#board g.fig[data-seat="0"][data-fig="{figure}"][data-cell="{cell}"]').click()
    page.wait_for_function(f"() => window.tutorial.sel && window.tutorial.sel.cell === {cell!r}")


def click_space(page: Any, cell: str) -> None:
    """Click the space's hexagon away from the figures drawn on it (its upper part)."""
    space = page.locator(f'#board g.space[data-cell="{cell}"]')
    box = space.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.22)


def do_action(page: Any, step: tutorial.Step, text: str) -> None:
    """Play ``text`` the way a person would: the board for tiles and walks, else a button."""
    from tikal import parse_action

    action = parse_action(text)
    if isinstance(action, PlaceTile):
        for _ in range(action.rotation):
            page.click("#rot-right")
        page.wait_for_function(f"() => window.tutorial.rotation === {action.rotation}")
        click_space(page, label(action.cell))
    elif isinstance(action, Move | SecretPath):
        click_figure(page, label(action.src), "L" if action.leader else "W")
        click_space(page, label(action.dst))
    else:
        page.locator(f'#actions-card button[data-action="{text}"]').click()


def expect_refusal(page: Any, rule: str, language: str) -> None:
    feedback = page.locator("#feedback.refused")
    feedback.wait_for()
    link = feedback.locator(f'a.rule-link[data-rule="{rule}"]')
    assert link.get_attribute("href") == f"/rules?lang={language}#{rule}"
    ui = tutorial.ui_texts(language)
    assert ui["not_allowed"] in feedback.inner_text()
    assert rulebook.rule_section(rule, language) in feedback.inner_text()


def expect_success(page: Any, part: str, step_id: str, language: str) -> None:
    page.locator("#feedback.ok").wait_for()
    assert tutorial.step_texts(part, step_id, language)["done"] in page.inner_text("#feedback")
    assert page.locator("#next-btn").is_enabled()


# Deliberate mistakes: (step, action, the rule the engine cites).
WRONG = {
    "demo/tile": ("tile 18 0", "TILE-3"),
    "demo/wall": ("move W 1 2", "MOVE-2"),
    "standard/path": ("move W A5 C3", "MOVE-1"),
}
# Legal but not what the step teaches: the step's hint, no advance.
MISS = {"demo/move": "move W 0 3", "standard/auction": "pass"}


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_whole_tutorial_in_each_language(
    server: ServerProcess, browser: Any, language: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/learn?lang={language}")
    page.wait_for_function("() => window.tutorial && window.tutorial.live")
    assert page.evaluate("document.documentElement.lang") == language
    shot(page, f"{language}-00-start")
    steps = [(part, step) for part in tutorial.PARTS for step in tutorial.load_part(part).steps]
    for number, (part, step) in enumerate(steps, start=1):
        key = f"{part}/{step.id}"
        wait_step(page, key)
        texts = tutorial.step_texts(part, step.id, language)
        assert page.inner_text("#step-title") == texts["title"]
        link = page.locator(f'#step-card a.rule-link[data-rule="{step.rule}"]')
        assert link.get_attribute("href") == f"/rules?lang={language}#{step.rule}"
        if key in WRONG:
            text, rule = WRONG[key]
            do_action(page, step, text)
            expect_refusal(page, rule, language)
            assert texts["hint"] in page.inner_text("#feedback")
            assert current_key(page) == key and page.locator("#next-btn").is_disabled()
            shot(page, f"{language}-{number:02d}-{step.id}-refused")
            if step.id == "tile":  # turn the tile back to 0 before the right move
                page.reload()
                wait_step(page, key)
        if key in MISS:
            do_action(page, step, MISS[key])
            page.locator("#feedback.miss").wait_for()
            assert texts["hint"] in page.inner_text("#feedback")
            assert current_key(page) == key and page.locator("#next-btn").is_disabled()
        goal = str(tutorial.goal_actions(step)[0])
        do_action(page, step, goal)
        expect_success(page, part, step.id, language)
        if key == "demo/move":  # two stones cost two of the five action points
            assert page.inner_text("#ap-left") == "3 / 5"
        if number in (1, 5, 6, 9, 14) or number == len(steps):
            shot(page, f"{language}-{number:02d}-{step.id}-done")
        marks = page.evaluate("() => JSON.parse(localStorage.getItem('tikal.tutorial')).marks")
        assert marks[key] == "done"
        if number == 3:  # progress survives a reload: the same step, marked steps kept
            page.click("#next-btn")
            wait_step(page, f"{part}/{steps[3][1].id}")
            page.reload()
            wait_step(page, f"{part}/{steps[3][1].id}")
            assert page.locator("#progress-card li.done").count() == 3
            continue
        if number < len(steps):
            page.click("#next-btn")
    finish = page.locator("#finish-card")
    finish.wait_for()
    assert tutorial.ui_texts(language)["finish_title"] in finish.text_content()
    assert page.locator("#progress-card li.done").count() == len(steps)
    shot(page, f"{language}-99-finished")
    page.click("#play-bot")
    page.wait_for_url("**/play/**")
    # We play seat 0 (not watching): our turn, a demo game, the other seat the easy bot.
    page.wait_for_function(
        "() => window.tikal && window.tikal.state && window.tikal.state.your_turn", timeout=20_000
    )
    state = page.evaluate("() => window.tikal.state")
    assert state["rules"] == "demo"
    seats = page.evaluate("() => window.tikal.state.seats")
    assert [s.get("kind") for s in seats] == ["human", "bot"], seats
    assert seats[1].get("level") == "easy", seats
    shot(page, f"{language}-100-game-against-easy-bot")
    assert not errors, errors
    context.close()


def test_skip_and_repeat(server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.goto(f"{server.url}/learn?lang=en#standard/guard")
    wait_step(page, "standard/guard")
    page.click("#skip-btn")
    wait_step(page, "standard/swap")
    marks = page.evaluate("() => JSON.parse(localStorage.getItem('tikal.tutorial')).marks")
    assert marks == {"standard/guard": "skipped"}
    assert page.locator('#progress-card li.skipped[data-step="standard/guard"]').count() == 1
    # A wrong try, then repeating the step starts it afresh.
    page.locator('#actions-card button[data-action="end"]').click()
    page.locator("#feedback.miss").wait_for()
    page.click("#repeat-btn")
    page.locator("#feedback").wait_for(state="hidden")
    wait_step(page, "standard/swap")
    # The progress list jumps to any step.
    page.locator('#progress-card li[data-step="demo/take"] button').click()
    wait_step(page, "demo/take")
    context.close()
