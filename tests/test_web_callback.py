"""Turn-based play calls the player back (issue 29, point 4): the tab's icon gets a dot
and the title says so while a game waits for the player's move, a browser notification
(if turned on and allowed) while the tab is hidden, and tikal installs as a web app (a
manifest, a service worker that keeps the static files).  HTTP against a real server
process, then Chromium through Playwright.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from web_helpers import ARTIFACTS, ServerProcess, chromium, errors_of, serve, wait_state

SHOTS = ARTIFACTS / "web-callback"
#: Records the notifications a page shows (the real API needs a desktop to show them).
NOTIFICATION_SPY = """
window.shownNotes = [];
class FakeNotification {
  static permission = "granted";
  static requestPermission() { return Promise.resolve("granted"); }
  constructor(title, options) {
    window.shownNotes.push({ title, body: options.body, tag: options.tag });
  }
  close() {}
}
window.Notification = FakeNotification;
let hidden = false;
Object.defineProperty(document, "hidden", { get: () => hidden });
window.setHidden = (value) => {
  hidden = value;
  document.dispatchEvent(new Event("visibilitychange"));
};
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-callback", options=("--rate-scale", "20"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def test_the_manifest_and_the_worker_name_only_what_is_shipped(server: ServerProcess) -> None:
    manifest = httpx.get(f"{server.url}/manifest.webmanifest", timeout=30)
    assert manifest.status_code == 200
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert (data["start_url"], data["display"], data["name"]) == ("/", "standalone", "Tikal")
    for icon in data["icons"]:
        assert httpx.get(server.url + icon["src"], timeout=30).status_code == 200
    worker = httpx.get(f"{server.url}/sw.js", timeout=30)
    assert worker.status_code == 200 and "javascript" in worker.headers["content-type"]
    text = worker.text
    version = httpx.get(f"{server.url}/api/meta", timeout=30).json()["version"]
    assert f'"tikal-static-{version}"' in text and "__ASSETS__" not in text
    assets = json.loads(text.split("const ASSETS = ", 1)[1].split(";\n", 1)[0])
    assert "/static/app.css" in assets and "/static/game/main.js" in assets
    for path in assets:
        assert httpx.get(server.url + path, timeout=30).status_code == 200, path
    page = httpx.get(f"{server.url}/lobby", timeout=30).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "worker-src 'self'" in worker.headers["content-security-policy"]


@pytest.mark.browser
def test_the_icon_title_and_a_notification_call_the_player_back(
        server: ServerProcess, browser: Any) -> None:
    answer = httpx.post(f"{server.url}/api/games", timeout=30, json={
        "rules": "demo",
        "seats": [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Ben"}]})
    game = answer.json()
    errors: list[str] = []
    context = browser.new_context()
    context.add_init_script(NOTIFICATION_SPY)
    ben = context.new_page()
    errors += errors_of(ben)
    ben.goto(game["seats"][1]["url"])
    wait_state(ben, "S.state >= 0")
    icon = "link[rel=icon]"
    assert ben.get_attribute(icon, "href") == "/static/favicon.svg"  # Ana's turn
    assert not ben.title().startswith("Your turn")
    ben.check("#pref-notify")
    ben.evaluate("window.setHidden(true)")  # Ben looks at another tab
    ana = browser.new_page()
    errors += errors_of(ana)
    ana.goto(game["seats"][0]["url"])
    wait_state(ana, "S.your_turn")
    assert ana.get_attribute(icon, "href") == "/static/favicon-turn.svg"
    assert ana.title().startswith("Your turn")
    ana.click("#hand-to-bot")  # the bot plays Ana's turn: then it is Ben's
    wait_state(ben, "S.your_turn")
    ben.wait_for_function("() => document.querySelector('link[rel=icon]').getAttribute('href')"
                          " === '/static/favicon-turn.svg'")
    assert ben.title().startswith("Your turn")
    notes = ben.evaluate("window.shownNotes")
    assert len(notes) == 1 and notes[0]["title"] == "Tikal: your turn", notes
    ana.wait_for_function("() => document.querySelector('link[rel=icon]').getAttribute('href')"
                          " === '/static/favicon.svg'")
    assert ben.evaluate("JSON.parse(localStorage.getItem('tikal.prefs')).notify") is True
    # installable: the worker registers and keeps the static files
    cached = ben.evaluate("""async () => {
        const reg = await navigator.serviceWorker.ready;
        for (let i = 0; i < 50 && !(await caches.keys()).length; i++) {
            await new Promise((r) => setTimeout(r, 100));
        }
        const cache = await caches.open((await caches.keys())[0]);
        return { scope: reg.scope, css: !!(await cache.match('/static/app.css')) };
    }""")
    assert cached == {"scope": f"{server.url}/", "css": True}
    assert errors == []
