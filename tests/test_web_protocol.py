"""The browser's decoder and board, in Chromium, against the recorded wire traffic.

``static/game/protocol.js`` is the page's one decoder of the wire (docs/web.md).  For every
fixture of ``tests/fixtures/wire`` and every connection in it, the page applies the
messages in order, as the game page does, and at each checkpoint its copy must equal the
full state the server gives a client connecting then, and its expanded legal entries the
checkpoint's.  The view drawn from (``deriveView``), kept up to date from what each delta
touched, must equal the view derived afresh.

``static/game/board.js`` draws the board whole once and then patches it: after every
message the patched picture must be the picture drawn fresh from the same state (and from
the checkpoint's), every delta must be patched (never redrawn whole), and the nodes of the
spaces a delta did not touch must be the very nodes that were there before.  Last, the real
game page: a move replaces the space it touched and keeps the others' nodes.

The modules are served by a real ``tikal serve`` and imported into one of its pages.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from web_helpers import ARTIFACTS, ServerProcess, chromium, errors_of, serve, wait_state
from wire_fixtures import SCRIPTS, Script, path_of

pytestmark = pytest.mark.browser
IDS = [script.name for script in SCRIPTS]

# Applies one connection's messages with the page's decoder; returns, per checkpoint, the
# held copy, its legal entries and whether the incrementally kept view equals a fresh one.
DECODE = """async ([messages, marks]) => {
  const p = await import("/static/game/protocol.js");
  const plain = (v) => JSON.parse(JSON.stringify(v));
  let held = null, view = null, refused = 0;
  const out = [];
  messages.forEach((msg, i) => {
    const got = p.receive(held, msg);
    if (!got) { refused++; return; }
    held = got.held;
    view = p.deriveView(held, got.touched, got.touched.all ? null : view);
    if (!marks.includes(i + 1)) return;
    const fresh = p.deriveView(plain(held), { all: true }, null);
    out.push({ after: i + 1, held: plain(held), legal: p.expandLegal(held.legal),
               viewIsFresh: JSON.stringify(view) === JSON.stringify(fresh) });
  });
  return { refused, out };
}"""

# Draws one connection's board as the page does (whole, then patched) and checks it after
# every message against a fresh drawing; counts the nodes kept and replaced.
PATCH = """async ([messages, fulls]) => {
  const p = await import("/static/game/protocol.js");
  const { BoardPicture } = await import("/static/game/board.js");
  const box = (id) => {
    const d = document.createElement("div");
    d.id = id;
    document.body.append(d);
    return d;
  };
  const picture = new BoardPicture(box("patched"));
  const fresh = new BoardPicture(box("fresh"));
  const report = { differ: [], redrawn: [], lost: [], notNew: [],
                   kept: 0, replaced: 0, checked: 0 };
  let held = null;
  messages.forEach((msg, i) => {
    const got = p.receive(held, msg);
    held = got.held;
    const before = new Map(picture.nodes);
    const change = picture.update(held.board, got.touched);
    if (change.whole !== (msg.type === "state")) report.redrawn.push(i + 1);
    if (!change.whole) {
      for (const [cell, node] of before) {
        if (!picture.nodes.has(cell)) continue;
        const same = picture.nodes.get(cell) === node && node.isConnected;
        if (got.touched.spaces.has(cell)) {
          if (same) report.notNew.push([i + 1, cell]);
          else report.replaced++;
        } else if (same) report.kept++;
        else report.lost.push([i + 1, cell]);
      }
    }
    fresh.draw(held.board);
    if (picture.svg.outerHTML !== fresh.svg.outerHTML) report.differ.push(i + 1);
    const full = fulls[String(i + 1)];
    if (full) {
      fresh.draw(full.board);
      const apart = picture.svg.outerHTML !== fresh.svg.outerHTML;
      if (apart) report.differ.push("checkpoint " + (i + 1));
      report.checked++;
    }
  });
  return report;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "protocol")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(ARTIFACTS / "protocol")


@pytest.fixture()
def page(server: ServerProcess, browser: Any) -> Iterator[Any]:
    """A page of the server (the 404 page: common.js and nothing else) to import into."""
    page = browser.new_page()
    errors = errors_of(page)
    page.goto(f"{server.url}/no-such-page")
    yield page
    assert not errors, errors
    page.close()


def connections(script: Script) -> list[dict[str, Any]]:
    data: dict[str, Any] = json.loads(path_of(script).read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = data["connections"]
    return found


def test_the_modules_are_served_as_javascript(server: ServerProcess) -> None:
    page = httpx.get(f"{server.url}/play/any", timeout=10).text
    assert '<script type="module" src="/static/game/main.js"></script>' in page
    assert "<script>" not in page  # no inline script (only the catalog's JSON data block)
    for name in ("main", "protocol", "state", "board", "marks", "panels", "input"):
        reply = httpx.get(f"{server.url}/static/game/{name}.js", timeout=10)
        assert reply.status_code == 200
        assert "javascript" in reply.headers["content-type"]


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_the_decoder_arrives_at_every_checkpoint(page: Any, script: Script) -> None:
    for conn in connections(script):
        marks = [point["after"] for point in conn["checkpoints"]]
        result = page.evaluate(DECODE, [conn["messages"], marks])
        assert result["refused"] == 0, f"{conn['seats']}: a delta did not follow on"
        assert [r["after"] for r in result["out"]] == marks
        for point, got in zip(conn["checkpoints"], result["out"], strict=True):
            where = f"{script.name} {conn['seats']} after message {point['after']}"
            assert got["held"] == point["full"], where
            assert got["legal"] == point["legal"], where
            assert got["viewIsFresh"], where


def test_a_delta_on_another_state_is_refused(page: Any) -> None:
    conn = connections(SCRIPTS[0])[0]
    first, delta = conn["messages"][0], conn["messages"][1]
    assert delta["type"] == "delta" and delta["base"] == first["state"]
    refused = page.evaluate("""async ([first, delta]) => {
      const p = await import("/static/game/protocol.js");
      const held = p.receive(null, first).held;
      return [p.receive(null, delta), p.receive(held, { ...delta, base: delta.base + 1 })];
    }""", [first, delta])
    assert refused == [None, None]


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_the_board_is_patched_where_a_delta_touched_it(page: Any, script: Script) -> None:
    for conn in connections(script):
        fulls = {str(point["after"]): point["full"] for point in conn["checkpoints"]}
        report = page.evaluate(PATCH, [conn["messages"], fulls])
        where = f"{script.name} {conn['seats']}"
        assert report["differ"] == [], f"{where}: the patched board is not the fresh one"
        assert report["redrawn"] == [], f"{where}: drawn whole after a delta (or patched a state)"
        assert report["lost"] == [], f"{where}: an untouched space got a new node"
        assert report["notNew"] == [], f"{where}: a touched space kept its old node"
        assert report["checked"] == len(conn["checkpoints"])
        assert report["replaced"] > 0 and report["kept"] > 3 * report["replaced"], report


def test_the_game_page_keeps_the_nodes_a_move_did_not_touch(
    server: ServerProcess, browser: Any
) -> None:
    body = {"rules": "standard", "seed": 4, "hotseat": True,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Ben"}]}
    game = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = errors_of(page)
    page.goto(game["hotseat_url"])
    wait_state(page, "S.your_turn && S.phase === 'tile'")
    target = page.locator("svg.board g.space.target").first
    cell = target.get_attribute("data-cell")
    far = page.evaluate("""(cell) => {
      const g = [...document.querySelectorAll("svg.board g.space")].find((n) =>
        n.dataset.cell !== cell && !n.matches(".target, .target-weak"));
      return g.dataset.cell; }""", cell)
    handles = {c: page.locator(f'svg.board g.space[data-cell="{c}"]').element_handle()
               for c in (cell, far)}
    before = page.evaluate("() => window.tikal.state.state")
    target.click()
    wait_state(page, f"S.state > {before} && S.phase === 'turn'")
    same = "([node, cell]) => node.isConnected && node === " \
        "document.querySelector(`svg.board g.space[data-cell=\"${cell}\"]`)"
    assert page.evaluate(same, [handles[far], far]), "an untouched space was drawn again"
    assert not page.evaluate(same, [handles[cell], cell]), "the tile's space kept its old node"
    # every space holds what a fresh board of the state holds (less the page's own marks)
    shown = page.evaluate("""() => {
      const fresh = document.createElement("div");
      fresh.innerHTML = window.tikal.state.svg;
      const drawn = document.querySelector("#board svg").cloneNode(true);
      const own = ["mine", "movable", "selected", "arrive", "slide"];
      drawn.querySelectorAll("g.fig").forEach((f) => f.classList.remove(...own));
      const inner = (root) => [...root.querySelectorAll("g.space")].map(
        (g) => [g.dataset.cell, g.innerHTML]);
      return [inner(drawn), inner(fresh)]; }""")
    assert shown[0] == shown[1]
    assert not errors, errors
    page.close()


def test_the_browser_benchmark_reads_what_a_move_costs_the_pages() -> None:
    """``tikal bench --browser`` (here a short game): every page's cost per move, and the
    instrument's floor (the same waits without a move) below a spectator's move."""
    from tikal.cli.engine import _browser_bench_table
    from tikal.server.browserbench import BrowserBenchError, measure_browser

    with pytest.raises(BrowserBenchError) as missing:
        measure_browser(chromium="/no/chromium")
    assert missing.value.key == "no_chromium"
    # A thread of its own: the file's other tests keep a sync Playwright (an event loop) open
    # in this one, and a second sync Playwright refuses to start beside it.
    with ThreadPoolExecutor(max_workers=1) as pool:
        figures = pool.submit(measure_browser, moves=4, warmup=6, seed=1).result()
    viewers = figures["viewers"]
    assert set(viewers) == {"spectator", "seat", "floor"}
    for costs in viewers.values():
        assert set(costs) == {"script", "layout", "style", "task"}
        assert all(0 <= c["p50"] <= c["p95"] <= c["max"] for c in costs.values())
    assert viewers["spectator"]["script"]["max"] > viewers["floor"]["script"]["p50"]
    assert figures["chromium"] and figures["tiles"] >= 1
    rows = _browser_bench_table(figures, "de").row_count
    assert rows == 12  # three pages, four measures each
