"""What a player sees (issue 32): what a newcomer tripped over, and the whole game at a
glance, each checked in Chromium against a real server.

One test per finding: treasure icons that resolve in every panel, the tutorial naming
the drawn tile it refuses, names never doubled, level and rule-set names translated,
the selection after a move, the tutorial's goal unlike the legal places, the analysis
numbers that add up, an easy first opponent, the phone board fitted to what is placed,
the replay's judged decision beside the board, seat names that match their colours, the
game's progress, asking before "End turn" with AP left, preferences kept in the browser
and the end-of-game summary.  The new panels pass axe and keep the phone layout without
sideways scroll.  Screenshots go to ``artifacts/player/`` (gitignored).
"""

from __future__ import annotations

import colorsys
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from test_analysis import blunder_record
from test_web_a11y import serious
from tikal import Game, tutorial
from tikal.describe import tile_message
from tikal.messages import render, text
from tikal.seats import seat_table
from tikal.server.round.texts import colour_name
from web_helpers import (
    ARTIFACTS,
    ServerProcess,
    chromium,
    errors_of,
    state,
    tiny_analysis,
    wait_state,
)

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "player"
LANGUAGES = ("en", "de", "ja")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server for the module, without the per-client caps (the module opens some 40
    games from one address); analyses are tiny (one determinization, two plans)."""
    with tiny_analysis():
        proc = ServerProcess(tmp_path_factory.mktemp("player") / "player.sqlite3",
                             options=("--no-limits",)).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def t(key: str, language: str, **params: Any) -> str:
    return text(f"web.{key}", language, **params)


def with_language(url: str, language: str) -> str:
    """A page's URL with ``?lang=`` before its fragment (the token stays in the hash)."""
    path, _, fragment = url.partition("#")
    return f"{path}?lang={language}" + (f"#{fragment}" if fragment else "")


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def new_page(browser: Any, language: str = "en", viewport: dict[str, int] = DESKTOP,
             prefs: dict[str, Any] | None = None) -> Any:
    """A page of its own context (no cookies, no storage) in ``language``; ``prefs`` are
    put into the browser's storage first (as the preferences card keeps them)."""
    context = browser.new_context(viewport=viewport, locale={"en": "en-US", "de": "de-DE",
                                                             "ja": "ja-JP"}[language])
    if prefs is not None:
        context.add_init_script(
            f"localStorage.setItem('tikal.prefs', {json.dumps(json.dumps(prefs))});")
    return context.new_page()


# ------------------------------------------------------------------ games played over the API


def create(server: ServerProcess, rules: str, seats: list[dict[str, Any]], seed: int,
           language: str = "en") -> dict[str, Any]:
    body = {"rules": rules, "seed": seed, "hotseat": True, "seats": seats}
    reply = httpx.post(f"{server.url}/api/games?lang={language}", json=body, timeout=10)
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


def play_url(created: dict[str, Any]) -> str:
    """The link that plays a created game's human seats (hot-seat if more than one)."""
    url: str = created["hotseat_url"] or next(s["url"] for s in created["seats"] if s["url"])
    return url


def humans(count: int) -> list[dict[str, Any]]:
    return [{"kind": "human", "name": name} for name in ["Ann", "Ben", "Cy", "Di"][:count]]


class Played:
    """A hot-seat game of humans on the server, moved over HTTP, kept in step with the
    same game in this process (same seed: same draws), which chooses the moves."""

    def __init__(self, server: ServerProcess, rules: str, players: int, seed: int) -> None:
        self.created = create(server, rules, humans(players), seed)
        self.game = Game.new(rules, players, seed=seed)
        self.url = f"{server.url}/api/games/{self.created['id']}"
        self.headers = {"X-Tikal-Token": self.created["hotseat_token"]}
        self.state = int(self.created["state"])
        self.rng = random.Random(seed)

    def act(self, action: str) -> None:
        reply = httpx.post(f"{self.url}/actions", headers=self.headers, timeout=10,
                           json={"action": action, "state": self.state})
        assert reply.status_code == 200, reply.text
        self.state = int(reply.json()["state"])
        self.game.apply(action)

    def random_move(self) -> str:
        """A random legal action, treasures taken when they can be, turns mostly used."""
        actions = [str(a) for a in self.game.legal_actions()]
        takes = [a for a in actions if a.startswith("take")]
        others = [a for a in actions if a != "end"]
        if takes:
            return takes[0]
        return self.rng.choice(others if others and self.rng.random() < 0.85 else actions)

    def to_the_end(self) -> None:
        while not self.game.is_over:
            self.act(self.random_move())

    def full(self) -> dict[str, Any]:
        found: dict[str, Any] = httpx.get(self.url, headers=self.headers, timeout=10).json()
        return found


@pytest.fixture(scope="module")
def finished(server: ServerProcess) -> Played:
    return finished_game(server)


def finished_game(server: ServerProcess) -> Played:
    """A demo game played to the end in which both players hold treasures."""
    for seed in range(1, 60):
        played = Played(server, "demo", 2, seed)
        played.to_the_end()
        if all(sum(held) for held in played.game.treasures):
            return played
    raise AssertionError("no demo game in which both players hold treasures")


# ------------------------------------------------------------------ 1. treasure icons


ICONS_RESOLVE = """(root) => [...document.querySelectorAll(root + ' .tr svg use')].map((use) => {
  const id = (use.getAttribute('href') || '').slice(1);
  const shape = document.getElementById(id);
  return { id, defined: !!shape, width: use.getBBox().width };
})"""


def test_treasure_icons_resolve_in_every_panel(
    server: ServerProcess, browser: Any, finished: Played
) -> None:
    for language in ("en", "ja"):
        page = new_page(browser, language)
        errors = errors_of(page)
        page.goto(with_language(finished.created["hotseat_url"], language))
        page.wait_for_selector("#final-scores")
        for panel in ("#players", "#log", ".modal"):
            icons = page.evaluate(ICONS_RESOLVE, panel)
            assert icons, f"no treasure icon in {panel}"
            assert all(i["defined"] and i["width"] > 0 for i in icons), (panel, icons)
        names = page.eval_on_selector_all(".modal .tr", "els => els.map((e) => e.title)")
        assert all(re.search(r"[A-H]", n) for n in names), names  # named by type, not "x1" alone
        if language == "en":
            shot(page, "01-treasure-icons")
        page.goto(f"{server.url}/replay/{finished.created['id']}?lang={language}")
        page.wait_for_selector("#players .player")
        icons = page.evaluate(ICONS_RESOLVE, "#players")
        assert icons and all(i["defined"] and i["width"] > 0 for i in icons), icons
        assert errors == []
        page.context.close()


# ------------------------------------------------------------------ 2. the tutorial's "tried"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tutorial_names_the_drawn_tile_it_refuses(
    server: ServerProcess, browser: Any, language: str
) -> None:
    step = tutorial.load_part("demo").step("tile")
    drawn = tutorial.start(step).tile_to_place()
    assert drawn is not None
    tile_name = render(tile_message(drawn), language=language)
    start = tutorial.start(step)
    basecamp = render(tile_message(start.tiles[start.basecamp].spec), language=language)
    reply = httpx.post(f"{server.url}/api/tutorial/demo/tile", timeout=10,
                       json={"action": "tile 0 0", "lang": language}).json()
    assert reply["reason"] is not None  # refused: the basecamp's space is taken
    assert tile_name in reply["tried"] and basecamp not in reply["tried"], reply["tried"]
    page = new_page(browser, language)
    page.goto(f"{server.url}/learn?lang={language}#demo/tile")
    page.wait_for_function("() => window.tutorial && window.tutorial.live")
    page.locator('#board g.space[data-cell="0"]').click()
    page.wait_for_selector("#feedback.refused")
    said = page.inner_text("#feedback")
    assert tile_name in said and basecamp not in said, said
    shot(page, f"02-tutorial-tried-{language}")
    page.context.close()


# ------------------------------------------------------------------ 3. names


def quick_demo(browser: Any, server: ServerProcess, language: str,
               viewport: dict[str, int] = DESKTOP, prefs: dict[str, Any] | None = None) -> Any:
    """The start page's quick demo game, in ``language``, on a page of its own."""
    page = new_page(browser, language, viewport, prefs)
    page.goto(f"{server.url}/?lang={language}")
    page.wait_for_selector(".seat-row")
    page.click("#quick-demo")
    page.wait_for_url("**/play/**")
    wait_state(page, "S.your_turn")
    return page


def player_row(page: Any, seat: int) -> tuple[str, list[str]]:
    """A players card row: the name and its tags."""
    row = page.locator(f'#players .player[data-seat="{seat}"] .name')
    tags = [x.strip() for x in row.locator(".tag").all_inner_texts()]
    name = row.evaluate("(el) => el.firstChild.textContent").strip()
    return name, tags


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_name_is_doubled(server: ServerProcess, browser: Any, language: str) -> None:
    page = quick_demo(browser, server, language)
    name, tags = player_row(page, 0)
    assert not any(tag.casefold() == name.casefold() for tag in tags), (name, tags)
    assert name == colour_name(seat_table()[0].name, language)
    status = page.inner_text("#status").strip()
    assert status.casefold().count(name.casefold()) == 0, status  # "you (you)", "Du (du)"
    you = t("status.your_turn", language, phase=t("status.phase.tile", language))
    assert status == you
    bot, _ = player_row(page, 1)
    assert bot == colour_name(seat_table()[1].name, language)
    shot(page, f"03-names-{language}")
    page.context.close()


@pytest.mark.parametrize("language", ["de", "ja"])
def test_the_tutorials_game_names_seats_in_the_language(
    server: ServerProcess, browser: Any, language: str
) -> None:
    page = new_page(browser, language)
    last = tutorial.load_part("standard").steps[-1].id
    page.goto(f"{server.url}/learn?lang={language}#standard/{last}")
    page.wait_for_function("() => window.tutorial && window.tutorial.live")
    page.click("#skip-btn")
    page.click("#play-bot")
    page.wait_for_url("**/play/**")
    wait_state(page, "S.your_turn")
    S = state(page)
    names = [s["name"] for s in S["seats"]]
    assert names == [colour_name(seat_table()[p].name, language) for p in range(2)]
    you = t("status.your_turn", language, phase=t("status.phase.tile", language))
    assert page.inner_text("#status").strip() == you
    page.context.close()


# ------------------------------------------------------------------ 4. level and rule-set names

RAW_NAMES = re.compile(r"\b(random|greedy|mcts|easy|medium|hard|standard|auction|demo)\b")


def raw_names(page: Any) -> list[str]:
    """Level or rule-set ids in what the page shows (its text and every option)."""
    shown = page.inner_text("body") + "\n" + "\n".join(
        page.eval_on_selector_all("option", "els => els.map((e) => e.textContent)"))
    return RAW_NAMES.findall(shown)


@pytest.mark.parametrize("language", ["de", "ja"])
def test_level_and_rule_set_names_are_translated(
    server: ServerProcess, browser: Any, language: str
) -> None:
    page = new_page(browser, language)
    page.goto(f"{server.url}/?lang={language}")
    page.wait_for_selector(".seat-row")
    assert raw_names(page) == []
    levels = httpx.get(f"{server.url}/api/meta", timeout=10).json()["bots"]
    seats = [{"kind": "human", "name": "Ann"}] + [
        {"kind": "bot", "level": level, "name": f"B{i}"} for i, level in enumerate(levels[:3])]
    game = create(server, "standard", seats, seed=3, language=language)
    page.goto(play_url(game))
    wait_state(page, "S.seats.length === 4")
    assert raw_names(page) == []
    for rules in ("auction", "demo"):
        other = create(server, rules, [{"kind": "human", "name": "Ann"},
                                       {"kind": "bot", "level": levels[-1], "name": "Bo"}],
                       seed=4, language=language)
        page.goto(other["replay_url"])
        page.wait_for_selector("#steps .line")
        assert raw_names(page) == []
    shot(page, f"04-translated-{language}")
    page.context.close()


# ------------------------------------------------------------------ 5. the selection after a move


def two_figures_game() -> tuple[int, list[str], str]:
    """A standard seed, the actions that bring a worker and the leader onto the basecamp
    after the first tile, and a space the worker can move to from there."""
    for seed in range(200):
        game = Game.new("standard", 2, seed=seed)
        for tile in game.legal_actions():
            trial = game.clone()
            trial.apply(tile)
            if "put W A5" not in [str(a) for a in trial.legal_actions()]:
                continue
            for put in ("put W A5", "put L A5"):
                trial.apply(put)
            moves = [str(a) for a in trial.legal_actions() if str(a).startswith("move W A5")]
            if moves:
                return seed, [str(tile), "put W A5", "put L A5"], moves[0].split()[-1]
    raise AssertionError("no seed with a move from the basecamp")


def click_figure(page: Any, seat: int, fig: str, cell: str) -> None:
    selector = f'svg.board g.fig[data-seat="{seat}"][data-fig="{fig}"][data-cell="{cell}"]'
    page.locator(selector).click()


def click_space(page: Any, cell: str) -> None:
    """A click on a space's hex near its top edge (off its figures)."""
    hex_ = page.locator(f'svg.board g.space[data-cell="{cell}"] .hex').first
    box = hex_.bounding_box()
    assert box
    hex_.click(position={"x": box["width"] / 2, "y": box["height"] * 0.12})


def picked(page: Any) -> dict[str, str] | None:
    found: dict[str, str] | None = page.evaluate(
        "() => { const f = window.tikal.ui.fig; return f && { cell: f.cell, fig: f.fig }; }")
    return found


def test_a_click_after_a_move_never_needs_a_second_try(
    server: ServerProcess, browser: Any
) -> None:
    seed, setup, target = two_figures_game()
    played = Played(server, "standard", 2, seed)
    for action in setup:
        played.act(action)
    page = new_page(browser)
    errors = errors_of(page)
    page.goto(played.created["hotseat_url"])
    wait_state(page, f"S.state === {played.state} && S.phase === 'turn'")
    # a worker moves; then one click on the leader picks the leader up
    click_figure(page, 0, "W", "A5")
    assert picked(page) == {"cell": "A5", "fig": "W"}
    click_space(page, target)
    wait_state(page, f"S.state === {played.state + 1}")
    click_figure(page, 0, "L", "A5")
    assert picked(page) == {"cell": "A5", "fig": "L"}
    assert state(page)["state"] == played.state + 1  # the click moved nothing
    # the leader moves too; one click on it keeps it picked up (it was never put down)
    click_space(page, target)
    wait_state(page, f"S.state === {played.state + 2}")
    click_figure(page, 0, "L", target)
    assert picked(page) == {"cell": target, "fig": "L"}
    # and one click on the worker that moved first picks the worker
    click_figure(page, 0, "W", target)
    assert picked(page) == {"cell": target, "fig": "W"}
    assert state(page)["state"] == played.state + 2
    shot(page, "05-selection-after-a-move")
    assert errors == []
    page.context.close()


# ------------------------------------------------------------------ 6. the tutorial's goal

GOAL_LOOK = """(cell) => {
  const look = (g) => { const s = getComputedStyle(g.querySelector('.hex'));
    return { stroke: s.stroke, dash: s.strokeDasharray, width: s.strokeWidth }; };
  const goal = document.querySelector(`#board g.space[data-cell="${cell}"]`);
  const fits = [...document.querySelectorAll('#board g.space.tut-fit')].filter((g) => g !== goal);
  const stars = document.querySelectorAll('#board .tut-star').length;
  return { goal: look(goal), fits: fits.map(look), stars };
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_tutorial_goal_looks_unlike_the_legal_places(
    server: ServerProcess, browser: Any, language: str
) -> None:
    page = new_page(browser, language)
    page.goto(f"{server.url}/learn?lang={language}#demo/tile")
    page.wait_for_function("() => window.tutorial && window.tutorial.live")
    goal = tutorial.load_part("demo").step("tile").highlight[0]
    look = page.evaluate(GOAL_LOOK, goal)
    assert look["fits"], "the tile fits elsewhere too"
    assert look["goal"]["dash"] == "none"  # solid, while every place the tile fits is dashed
    assert all(f["dash"] != "none" for f in look["fits"])
    assert all(f["stroke"] != look["goal"]["stroke"] for f in look["fits"])
    assert look["stars"] == 1
    legend = page.inner_text("#tut-legend")
    assert tutorial.ui_texts(language)["legend_goal"] in legend
    shot(page, f"06-tutorial-goal-{language}")
    page.context.close()


# ------------------------------------------------------------------ 7. the demo's space names

SPACE_NAMES = """() => [...document.querySelectorAll('#board g.space')].map(g => {
  const hex = g.querySelector('use.hex, .hex').getBoundingClientRect();
  const lbl = g.querySelector('text.lbl');
  const box = lbl ? lbl.getBoundingClientRect() : null;
  return {cell: g.dataset.cell, text: lbl ? lbl.textContent : null,
          inset: box ? Math.min(box.left - hex.left, hex.right - box.right) : null,
          height: box ? box.height : 0};
})"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_demo_spaces_are_numbers_shown_clear_of_the_outlines(
    server: ServerProcess, browser: Any, language: str
) -> None:
    """Issue 32 point 7: every demo space shows its spiral number (the engine's label, the
    notation's name), far enough inside its hex that an outline round the space does not
    cover it, and a refusal names the space by the same number."""
    page = new_page(browser, language)
    page.goto(f"{server.url}/learn?lang={language}#demo/majority")
    page.wait_for_function("() => window.tutorial && window.tutorial.live")
    spaces = page.evaluate(SPACE_NAMES)
    assert spaces and {s["cell"] for s in spaces} >= {"0", "1", "2"}
    for space in spaces:
        assert space["text"] == space["cell"] and space["cell"].isdigit(), space
        assert space["inset"] >= 6 and space["height"] >= 8, space  # pixels on the screen
    reply = httpx.post(f"{server.url}/api/tutorial/demo/tile", timeout=10,
                       json={"action": "tile 0 0", "lang": language}).json()
    said = reply["tried"] + reply["reason"]["text"]  # refused: the basecamp's space is taken
    assert "0" in reply["reason"]["text"] and "0,0" not in said, reply
    page.context.close()


# ------------------------------------------------------------------ 8. and 11. the analysis


@pytest.fixture(scope="module")
def analysed(server: ServerProcess) -> str:
    return analysed_game(server)


def analysed_game(server: ServerProcess) -> str:
    """A finished demo game with a blunder, analysed; its id."""
    record = blunder_record(seed=6)
    created = create(server, record["rules"], [{"kind": "human"}] * record["players"],
                     record["seed"])
    url = f"{server.url}/api/games/{created['id']}"
    headers = {"X-Tikal-Token": created["hotseat_token"]}
    at = int(created["state"])
    for action in (a for a in record["log"] if not a.startswith("*")):
        reply = httpx.post(f"{url}/actions", headers=headers, timeout=10,
                           json={"action": action, "state": at})
        assert reply.status_code == 200, reply.text
        at = int(reply.json()["state"])
    httpx.post(f"{server.url}/api/replays/{created['id']}/analysis", timeout=10)
    game_id: str = created["id"]
    return game_id


def open_analysis(browser: Any, server: ServerProcess, game_id: str, language: str,
                  viewport: dict[str, int] = DESKTOP) -> Any:
    page = new_page(browser, language, viewport)
    page.goto(f"{server.url}/replay/{game_id}?lang={language}")
    page.wait_for_selector("svg.analysis-graph .point", timeout=180_000)
    return page


PERCENTS = re.compile(r"(\d+)\s?%")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_analysis_numbers_add_up(
    server: ServerProcess, browser: Any, analysed: str, language: str
) -> None:
    page = open_analysis(browser, server, analysed, language)
    items = page.locator("#analysis-list > li")
    assert items.count() > 0
    for i in range(items.count()):
        item = items.nth(i)
        head = [int(n) for n in PERCENTS.findall(item.locator(".turn-title").inner_text())]
        played = [int(n) for n in PERCENTS.findall(item.locator(".played strong").inner_text())]
        better = [int(n) for n in PERCENTS.findall(item.locator(".better strong").inner_text())]
        lost, as_played = head[-2], head[-1]  # "mistake (18% lost); win chance as played 56%"
        assert as_played == played[0], (head, played)
        assert better[0] - played[0] == lost == better[1], (head, played, better)
    explain = page.inner_text("#analysis-explain")
    assert explain == t("analysis.explain", language)
    page.context.close()


def test_the_judged_decision_and_the_board_are_seen_together(
    server: ServerProcess, browser: Any, analysed: str
) -> None:
    for language in LANGUAGES:
        page = open_analysis(browser, server, analysed, language)
        page.locator("#analysis-list > li button").first.click()
        page.wait_for_selector("#board svg g.space.better, #board svg g.space.played")
        for selector in ("#analysis-turn", "#board svg"):
            box = page.locator(selector).bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"], (
                selector, box)
        assert page.evaluate("() => window.scrollY") == 0
        shot(page, f"11-replay-analysis-{language}")
        page.context.close()


# ------------------------------------------------------------------ 9. an easy first opponent


def test_the_first_opponent_is_the_easy_bot(server: ServerProcess, browser: Any) -> None:
    page = new_page(browser)
    page.goto(server.url)
    page.wait_for_selector(".seat-row")
    assert page.input_value('.seat-row[data-seat="1"] select') == "bot:easy"
    page.click("#add-seat")
    assert page.input_value('.seat-row[data-seat="2"] select') == "bot:easy"
    choices = page.eval_on_selector_all('.seat-row[data-seat="1"] option',
                                        "os => os.map((o) => o.value)")
    assert "bot:hard" in choices  # the stronger ones one click away
    for button in ("#quick-demo", "#quick-standard"):
        page.goto(server.url)
        page.wait_for_selector(".seat-row")
        page.click(button)
        page.wait_for_url("**/play/**")
        wait_state(page, "S.seats.length > 1")
        levels = [s["level"] for s in state(page)["seats"] if s["kind"] == "bot"]
        assert levels and set(levels) == {"easy"}, levels
    page.context.close()


# ------------------------------------------------------------------ 10. the phone's board

BOARD_FILL = """() => {
  const box = document.getElementById('board-scroll').getBoundingClientRect();
  const rects = [...document.querySelectorAll('svg.board > g.space')]
    .map((g) => g.getBoundingClientRect());
  const left = Math.min(...rects.map((r) => r.left));
  const right = Math.max(...rects.map((r) => r.right));
  const label = document.querySelector('svg.board g.space text.lbl').getBoundingClientRect();
  return { fill: (right - left) / box.width, label: label.height };
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phone_board_fits_what_is_placed(
    server: ServerProcess, browser: Any, language: str
) -> None:
    page = quick_demo(browser, server, language, PHONE)
    fill = page.evaluate(BOARD_FILL)
    assert fill["fill"] > 0.85, fill  # the first seven spaces filled 43% of the box
    assert fill["label"] >= 9, fill  # labels readable (they were 5 px tall)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn'")
    assert page.evaluate(BOARD_FILL)["fill"] > 0.85  # refitted as the board grows
    shot(page, f"10-phone-board-{language}")
    page.context.close()


# ------------------------------------------------------------------ 12. seat colours

#: Hue ranges (degrees) of the colour words the seats are named by.
HUES = {"blue": (190, 250), "orange": (15, 45), "yellow": (45, 70), "pink": (290, 345),
        "red": (345, 375)}


def test_every_seat_is_drawn_in_the_colour_it_is_called(
    server: ServerProcess, browser: Any
) -> None:
    seats = [{"kind": "human", "name": None}] * 4
    game = create(server, "standard", seats, seed=5)
    page = new_page(browser)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.seats.length === 4")
    for p, seat in enumerate(state(page)["seats"]):
        chip = page.locator(f'#players .player[data-seat="{p}"] .chip svg > *').first
        fill = chip.get_attribute("fill")
        assert fill and fill.lower() == seat["colour"].lower()
        r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
        hue = colorsys.rgb_to_hsv(r, g, b)[0] * 360
        low, high = HUES[seat["colour_name"].lower()]
        assert low <= hue <= high or low <= hue + 360 <= high, (seat["colour_name"], fill, hue)
        assert contrast(seat["ink"], fill) >= 4.5, (seat, contrast(seat["ink"], fill))
    shot(page, "12-seat-colours")
    page.context.close()


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two #rrggbb colours."""
    def luminance(colour: str) -> float:
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# ------------------------------------------------------------------ 13. the game's progress

PROGRESS = """() => ({
  tiles: +document.getElementById('tiles-left').dataset.count,
  letters: Object.fromEntries([...document.querySelectorAll('#tiles-by-letter .letter')]
    .map((e) => [e.dataset.letter, +e.dataset.count])),
  done: +document.getElementById('rounds').dataset.done,
  seen: +document.getElementById('volcanoes').dataset.seen,
})"""


def test_the_tiles_left_match_the_engine_after_every_move(
    server: ServerProcess, browser: Any
) -> None:
    played = Played(server, "demo", 2, seed=8)
    page = new_page(browser)
    errors = errors_of(page)
    page.goto(played.created["spectator_url"])
    page.wait_for_selector("#volcanoes")
    moves = 0
    while not played.game.is_over:
        played.act(played.random_move())
        moves += 1
        wait_state(page, f"S.state === {played.state}")
        shown = page.evaluate(PROGRESS)
        letters: dict[str, int] = {}
        for tile_id in played.game.stack:
            letters[tile_id[0]] = letters.get(tile_id[0], 0) + 1
        assert shown["tiles"] == len(played.game.stack), (moves, shown)
        if len(letters) > 1 or shown["letters"]:
            assert shown["letters"] == letters, (moves, shown, letters)
        rounds = played.game.scoring_rounds - (1 if played.game.phase.value == "scoring" else 0)
        assert shown["done"] == rounds, (moves, shown)
    assert moves > 50 and errors == []
    page.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_progress_is_in_view_in_every_language(
    server: ServerProcess, browser: Any, language: str, viewport: dict[str, int]
) -> None:
    game = create(server, "standard", humans(2), seed=9, language=language)
    page = new_page(browser, language, viewport)
    page.goto(game["hotseat_url"])
    page.wait_for_selector("#volcanoes")
    card = page.locator("#progress-card")
    box = card.bounding_box()
    assert box and box["y"] + box["height"] <= viewport["height"], box
    said = card.inner_text()
    assert t("progress.volcanoes", language, seen=0, total=3) in said
    assert t("progress.rounds", language, done=0, left=4) in said
    assert t("progress.letter", language, letter="A", count=5) in said
    page.mouse.wheel(0, 1500)  # on a phone the dock stays in view as the page scrolls
    page.wait_for_timeout(200)
    box = card.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
    shot(page, f"13-progress-{language}-{viewport['width']}")
    page.context.close()


# ------------------------------------------------------------------ 14. "End turn" with AP left


def turn_game(server: ServerProcess) -> Played:
    """A standard game of two humans in the first player's turn (the tile placed)."""
    played = Played(server, "standard", 2, seed=12)
    played.act(str(played.game.legal_actions()[0]))
    return played


def test_end_turn_with_ap_left_asks_first(server: ServerProcess, browser: Any) -> None:
    played = turn_game(server)
    page = new_page(browser)
    errors = errors_of(page)
    page.goto(played.created["hotseat_url"])
    wait_state(page, "S.phase === 'turn' && S.ap > 0")
    at = state(page)["state"]
    page.click("#end-turn")
    page.wait_for_selector("#confirm-end")
    assert t("confirm_end.text", "en", ap=10) in page.inner_text("#confirm-end")
    shot(page, "14-confirm-end-turn")
    page.click("#confirm-end-no")
    assert page.locator("#confirm-end").count() == 0 and state(page)["state"] == at
    page.click("#end-turn")
    page.click("#confirm-end-yes")
    wait_state(page, f"S.state > {at} && S.current === 1")
    # the second player's tile, then "End turn" once more: "don't ask again" is kept
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn' && S.ap > 0")
    page.click("#end-turn")
    page.check("#confirm-end-never")
    page.click("#confirm-end-yes")
    wait_state(page, "S.current === 0")
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('tikal.prefs'))")
    assert kept["confirmEnd"] is False
    assert not page.is_checked("#pref-confirm")
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn' && S.ap > 0")
    page.click("#end-turn")  # no question now
    wait_state(page, "S.current === 1")
    assert page.locator("#confirm-end").count() == 0
    assert errors == []
    page.context.close()


# ------------------------------------------------------------------ 15. preferences


def test_preferences_survive_a_reload_and_act(server: ServerProcess, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random", "name": "Bo"}]
    game = create(server, "demo", seats, seed=13)
    page = new_page(browser)
    errors = errors_of(page)
    page.goto(play_url(game))
    wait_state(page, "S.your_turn")
    assert page.input_value("#pref-pace") == "normal" and page.is_checked("#pref-motion")
    assert not page.is_checked("#pref-sound") and page.is_checked("#pref-confirm")
    with page.expect_request(lambda r: "/pace?" in r.url and r.method == "POST") as asked:
        page.select_option("#pref-pace", "fast")
    assert json.loads(asked.value.post_data or "{}")["pace"] == "fast"
    assert asked.value.response().status == 200
    page.uncheck("#pref-motion")
    page.check("#pref-sound")
    page.uncheck("#pref-confirm")
    with page.expect_request(lambda r: "/pace?" in r.url) as again:
        page.reload()
        wait_state(page, "S.your_turn")
    assert json.loads(again.value.post_data or "{}")["pace"] == "fast"  # told again at load
    assert page.input_value("#pref-pace") == "fast" and not page.is_checked("#pref-motion")
    assert page.is_checked("#pref-sound") and not page.is_checked("#pref-confirm")
    assert page.evaluate("() => document.documentElement.classList.contains('no-motion')")
    # sounds on: the bot's turn ends and it is ours again; the chime is played
    page.locator("svg.board g.space.target").first.click()
    wait_state(page, "S.phase === 'turn'")
    page.click("#end-turn")  # asking turned off: the turn ends at once
    wait_state(page, "S.your_turn && S.phase === 'tile'", 60_000)
    assert "turn" in page.evaluate("() => [...window.tikal.sounds]")
    sound = httpx.get(f"{server.url}/static/sounds/turn.wav", timeout=10)
    assert sound.status_code == 200 and sound.content[:4] == b"RIFF"
    shot(page, "15-preferences")
    assert errors == []
    page.context.close()


# ------------------------------------------------------------------ 16. the end: points by source

SUMMARY = """() => [...document.querySelectorAll('#points-by-source tbody tr')].map((tr) => ({
  seat: +tr.dataset.seat,
  temples: [...tr.querySelectorAll('td[data-temples]')].map((td) => +td.dataset.temples),
  treasures: [...tr.querySelectorAll('td[data-treasures]')].map((td) => +td.dataset.treasures),
  total: tr.querySelector('td[data-sum="total"]').textContent,
  icons: tr.querySelectorAll('td.sets .tr').length,
}))"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_end_of_game_summary_shows_points_by_source(
    server: ServerProcess, browser: Any, finished: Played, language: str
) -> None:
    page = new_page(browser, language)
    page.goto(f"{finished.created['spectator_url']}?lang={language}")
    page.wait_for_selector("#points-by-source")
    rows = page.evaluate(SUMMARY)
    game = finished.game
    assert [r["seat"] for r in rows] == list(range(game.players))
    for row in rows:
        events = [e for e in game.score_events if e.player == row["seat"]]
        rounds = sorted({e.round for e in game.score_events})
        assert row["temples"] == [sum(e.temples for e in events if e.round == n) for n in rounds]
        assert row["treasures"] == [sum(e.treasures for e in events if e.round == n)
                                    for n in rounds]
        assert sum(row["temples"]) + sum(row["treasures"]) == game.scores[row["seat"]]
        assert row["total"] == str(game.scores[row["seat"]])
        assert row["icons"] == sum(1 for n in game.treasures[row["seat"]] if n)
    caption = page.inner_text("#points-by-source caption")
    assert caption == t("summary.title", language)
    shot(page, f"16-summary-{language}")
    page.context.close()


# ------------------------------------------------------------------ the new panels: axe, phone


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_new_panels_pass_axe_without_sideways_scroll(
    server: ServerProcess, browser: Any, finished: Played, viewport: dict[str, int]
) -> None:
    played = turn_game(server)
    page = new_page(browser, "en", viewport)
    page.goto(played.created["hotseat_url"])
    wait_state(page, "S.phase === 'turn'")
    page.wait_for_selector("#volcanoes")
    width = viewport["width"]
    assert serious(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    page.click("#end-turn")
    page.wait_for_selector("#confirm-end")
    assert serious(page) == []
    page.goto(finished.created["spectator_url"])
    page.wait_for_selector("#points-by-source")
    assert serious(page) == []
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    page.context.close()
