"""Browser end-to-end tests: Playwright drives Debian's Chromium against a real server.

Screenshots go to ``artifacts/web/`` (gitignored).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tikal import Game
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
SHOTS = ARTIFACTS / "web"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def shot(page: Any, name: str, full: bool = False) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def wait_my_turn(page: Any, timeout: float = 30_000) -> None:
    wait_state(page, "S.your_turn || S.over", timeout)


def demo_seed() -> tuple[int, str, int]:
    """A demo seed whose first tile is a treasure that can sit next to the basecamp,
    turned (rotation != 0), reachable for at most 2 AP: a worker can reach it and dig in."""
    for seed in range(500):
        game = Game.new("demo", 2, seed=seed)
        spec = game.tile_to_place()
        if spec is None or spec.kind != "treasure":
            continue
        for action in game.legal_actions():
            rotation = getattr(action, "rotation", 0)
            if not rotation:
                continue
            trial = game.clone()
            trial.apply(action)
            cost = trial.edge_cost(trial.basecamp, action.cell)  # type: ignore[attr-defined]
            if cost and cost <= 2:
                return seed, str(action).split()[1], rotation
    raise AssertionError("no suitable seed")


def play_simple_turn(page: Any) -> None:
    """Our side of the game from here: place a tile, take treasure if possible, end."""
    s = state(page)
    if s["phase"] == "tile":
        page.locator("svg.board g.space.target").first.click()
        wait_state(page, f"S.state > {s['state']}")
        return
    legal = s.get("legal", {})
    if legal.get("take"):
        page.locator(f'#actions-card button[data-action="{legal["take"][0]["action"]}"]').click()
    elif legal.get("put") and s["ap"] == s["ap_max"]:
        page.locator(f'#actions-card button[data-action="{legal["put"][0]["action"]}"]').click()
    else:
        end_turn(page)
    wait_state(page, f"S.state > {s['state']}")


def test_demo_game_against_a_bot_to_the_end(
    server: ServerProcess, browser: Any, tmp_path: Path
) -> None:
    seed, cell, rotation = demo_seed()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = errors_of(page)
    page.goto(f"{server.url}/?seed={seed}")
    shot(page, "01-start-page")
    page.check("input[name=rules][value=demo]")
    page.select_option('.seat-row[data-seat="1"] select', "bot:random")
    page.fill('.seat-row[data-seat="0"] input', "Ana")
    page.click("#create-btn")
    page.wait_for_url("**/play/**")
    wait_my_turn(page)
    assert state(page)["phase"] == "tile"
    # turn the tile, then place it
    for _ in range(rotation):
        page.click("#rot-right")
    assert page.locator(f'svg.board g.space.target[data-cell="{cell}"]').count() == 1
    page.locator(f'svg.board g.space[data-cell="{cell}"]').hover()
    shot(page, "02-demo-place-tile")
    before = state(page)["state"]
    page.locator(f'svg.board g.space[data-cell="{cell}"]').click()
    wait_state(page, f"S.state > {before} && S.phase === 'turn'")
    placed = next(b for b in state(page)["position"]["board"] if b["at"] == cell)
    assert placed["rotation"] == rotation and placed["kind"] == "treasure"
    # bring a worker in, select it, move it onto the treasure
    page.click('#actions-card button[data-action="put W 0"]')
    wait_state(page, "S.position.figures[0].workers['0'] === 1")
    page.locator('svg.board g.fig[data-seat="0"][data-fig="W"][data-cell="0"]').click()
    assert page.locator(f'svg.board g.space.target[data-cell="{cell}"]').count() == 1
    shot(page, "03-demo-figure-selected")
    page.locator(f'svg.board g.space[data-cell="{cell}"]').click()
    wait_state(page, f"S.position.figures[0].workers['{cell}'] === 1")
    # take a treasure; a second one is no longer offered on this space (one figure there)
    page.click(f'#actions-card button[data-action="take {cell}"]')
    wait_state(page, "Object.keys(S.player_info[0].treasures).length === 1")
    page.wait_for_selector("#selection-card button")
    assert page.locator(f'#selection-card button[data-action="take {cell}"]').count() == 0
    # an impossible move is refused with the engine's reason and a rule link
    ap = state(page)["ap"]
    if not page.evaluate("() => !!window.tikal.ui.fig"):
        page.locator(f'svg.board g.fig[data-seat="0"][data-fig="W"][data-cell="{cell}"]').click()
    page.locator("svg.board g.space.empty").first.click()
    page.wait_for_selector("#refusal a.rule-link")
    assert "Not allowed" in page.inner_text("#refusal")
    assert state(page)["ap"] == ap
    shot(page, "04-demo-refused-with-rule")
    href = page.get_attribute("#refusal a.rule-link", "href")
    assert href and href.startswith("/rules/en#")
    # end the turn (end_turn waits for the server's answer); the bot plays; then keep
    # playing to the final scores
    end_turn(page)
    deadline = time.monotonic() + 240
    while not state(page)["over"]:
        assert time.monotonic() < deadline, "game did not finish"
        wait_my_turn(page, 60_000)
        if state(page)["over"]:
            break
        try:
            play_simple_turn(page)
        except Exception as stuck:  # keep what the page showed when the loop stalls
            shot(page, "99-demo-stuck")
            s = state(page)
            raise AssertionError(
                f"stuck: phase {s['phase']}, your_turn {s.get('your_turn')}, state {s['state']}, "
                f"turn card {page.inner_text('#turn-card')!r}, page errors {errors}"
            ) from stuck
    page.wait_for_selector("#final-scores")
    shot(page, "05-demo-final-scores")
    final = state(page)
    assert final["over"] and final["winners"]
    assert page.locator("#final-scores tr").count() == 3
    # the board patched by every delta of the game (sets, deletes, string splices) is the
    # board a fresh page gets whole
    page.reload()
    wait_state(page, "S.over")
    assert state(page)["svg"] == final["svg"]
    # the replay of the finished game steps through every move
    page.click("text=Watch the replay")
    page.wait_for_selector("#steps .line")
    page.wait_for_function(  # the counter reads "0 / 0" until the steps have arrived
        "() => !document.querySelector('#counter').textContent.endsWith('/ 0')")
    total = int(page.inner_text("#counter").split("/")[1])
    assert total == page.locator("#steps .line:not(.score)").count() - 1
    page.click("#first")
    page.wait_for_function("() => document.querySelector('#counter').textContent.startsWith('0 /')")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#counter').textContent.startsWith('1 /')")
    shot(page, "06-replay")
    # download the record, open it again from the start page
    game_id = final["game_id"]
    record = httpx.get(f"{server.url}/api/games/{game_id}/record", timeout=10).json()
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    page.goto(f"{server.url}/")
    page.set_input_files("#record-file", str(path))
    page.wait_for_url("**/replay/r*")
    page.wait_for_selector("#steps .line")
    assert page.locator("#steps .line:not(.score)").count() - 1 == total
    assert not errors, errors
    page.close()


def test_two_players_by_invite_link(server: ServerProcess, browser: Any) -> None:
    ctx_a = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx_b = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = ctx_b.new_page()
    phone.goto(f"{server.url}/")
    phone.wait_for_selector(".seat-row")
    shot(phone, "09-start-page-phone", full=True)
    phone.close()
    a = ctx_a.new_page()
    errors = errors_of(a)
    a.goto(f"{server.url}/?seed=11")
    a.fill('.seat-row[data-seat="0"] input', "Alice")
    a.select_option('.seat-row[data-seat="1"] select', "human")
    a.fill('.seat-row[data-seat="1"] input', "Bob")
    a.check("input[name=mode][value=invite]")
    a.click("#create-btn")
    a.wait_for_selector(".links input")
    shot(a, "10-invite-links")
    links = [a.input_value(f'input[aria-label="invite link for {n}"]') for n in ("Alice", "Bob")]
    assert links[0] != links[1] and "#t=" in links[1]
    a.click("#play-first")
    wait_my_turn(a)
    b = ctx_b.new_page()
    errors += errors_of(b)
    b.goto(links[1])
    wait_state(b, "S.you.length === 1 && S.you[0] === 1")
    assert not state(b)["your_turn"]
    assert b.locator("svg.board.interactive").count() == 0
    # Alice: tile, a worker, the leader, end
    a.locator("svg.board g.space.target").first.click()
    wait_state(a, "S.phase === 'turn'")
    a.click('#actions-card button[data-action="put W A5"]')
    wait_state(a, "S.position.figures[0].workers['A5'] === 1")
    a.click('#actions-card button[data-action="put L A5"]')
    wait_state(a, "S.position.figures[0].leader === 'A5'")
    s = state(a)
    a.locator('svg.board g.fig[data-seat="0"][data-fig="L"]').click()
    target = a.locator("svg.board g.space.target").first
    dst = target.get_attribute("data-cell")
    target.click()
    wait_state(a, f"S.position.figures[0].leader === '{dst}'")
    # undo the move (no reveal happened), then end the turn
    a.click("#undo")
    wait_state(a, "S.position.figures[0].leader === 'A5'")
    assert state(a)["state"] == s["state"] + 2
    a.click("#hint")
    a.wait_for_selector("#hint-box", timeout=30_000)
    assert state(a)["state"] == s["state"] + 2  # a hint changes nothing
    shot(a, "11-alice-turn-with-hint")
    end_turn(a)
    # Bob sees his turn live, on a phone-sized screen
    wait_my_turn(b)
    assert state(b)["position"]["figures"][0]["leader"] == "A5"
    b.locator("svg.board g.space.target").first.click()
    wait_state(b, "S.phase === 'turn'")
    b.click('#actions-card button[data-action="put W A5"]')
    wait_state(b, "S.position.figures[1].workers['A5'] === 1")
    shot(b, "12-bob-phone", full=True)
    end_turn(b)
    wait_my_turn(a)
    assert state(a)["position"]["figures"][1]["workers"] == {"A5": 1}
    shot(a, "13-alice-sees-bob")
    # a spectator sees the same public position and no controls
    spectator = ctx_a.new_page()
    spectator.goto(links[0].split("#")[0])
    wait_state(spectator, "S.spectator === true")
    assert state(spectator)["legal"] == {}
    assert spectator.locator('#turn-card button[data-action="end"]').count() == 0
    shot(spectator, "14-spectator")
    assert not errors, errors
    ctx_a.close()
    ctx_b.close()


def test_auction_bid_pass_and_pick_in_the_browser(server: ServerProcess, browser: Any) -> None:
    body = {"rules": "auction", "seed": 3, "hotseat": True,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
    game = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.phase === 'auction' && S.your_turn")
    page.fill("#bid-amount", "2")
    page.click("#bid")
    wait_state(page, "S.auction.high_bid === 2 && S.current === 1")
    page.click('#auction-card button[data-action="pass"]')
    wait_state(page, "S.phase === 'pick' && S.current === 0")
    picks = state(page)["legal"]["pick"]
    assert picks and all(e["text"] and e["tile_id"] in e["action"] for e in picks)
    shot(page, "15-auction-pick")
    page.click(f'#auction-card button[data-action="{picks[0]["action"]}"]')
    wait_state(page, "S.phase === 'tile'")
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn' && S.ap === S.ap_max")
    assert state(page)["player_info"][0]["score"] == 18
    assert not errors, errors
    page.close()
