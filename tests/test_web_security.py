"""The pages under their Content-Security-Policy in the real browser: no violation on any
page (the game's WebSocket, the boards' inline SVG and styles all allowed, no ``eval``
anywhere: the pages choose plural forms with ``Intl.PluralRules``), and no page can be
framed by another site (clickjacking on moves).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from web_helpers import ARTIFACTS, ServerProcess, chromium, serve, wait_state

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "security"

#: Listens for violations from the first script on (the page's own scripts included).
WATCH = """window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
  {directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile || ''}));"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "security")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


@pytest.fixture(scope="module")
def game(server: ServerProcess) -> dict[str, Any]:
    body = {"rules": "demo", "seed": 3, "seats": [{"kind": "human", "name": "Ann"},
                                                  {"kind": "bot", "level": "random"}]}
    created: dict[str, Any] = httpx.post(f"{server.url}/api/games", json=body).json()
    return created


def violations(browser: Any, url: str, ready: str | None = None) -> list[dict[str, str]]:
    page = browser.new_page()
    page.add_init_script(WATCH)
    try:
        page.goto(url)
        if ready is not None:
            wait_state(page, ready)
        page.wait_for_load_state("networkidle")
        found: list[dict[str, str]] = page.evaluate("window.__csp")
        return found
    finally:
        page.close()


def test_no_page_violates_its_policy(browser: Any, server: ServerProcess,
                                     game: dict[str, Any]) -> None:
    gid, token = game["id"], game["seats"][0]["token"]
    pages = {
        "/": None, "/?lang=de": None, "/rules": None, "/rules/ja": None, "/learn": None,
        "/nope": None,
        # the game as a seat and as a spectator: its state came over the WebSocket
        f"/play/{gid}#t={token}": "S.state >= 0", f"/play/{gid}": "S.state >= 0",
        f"/replay/{gid}": None,
    }
    found = {path: violations(browser, server.url + path, ready) for path, ready in pages.items()}
    assert found == {path: [] for path in pages}


PLURAL_FORMS = """() => {
  const [key, entry] = Object.entries(TK.I18N.texts).find(
    ([, e]) => e && e.forms && new Set(e.forms).size === e.forms.length);
  return [0, 1, 2, 5].map(n => entry.forms.indexOf(TK.template(key, {[entry.counter]: n})));
}"""


def test_plural_forms_are_right_under_the_policy(
    browser: Any, server: ServerProcess
) -> None:
    page = browser.new_page()
    try:
        for language, forms in (("ja", [0, 0, 0, 0]), ("de", [1, 0, 1, 1]),
                                ("en", [1, 0, 1, 1])):
            page.goto(f"{server.url}/?lang={language}")
            assert page.evaluate(PLURAL_FORMS) == forms, language
    finally:
        page.close()


def test_another_site_cannot_frame_the_game(browser: Any, server: ServerProcess,
                                            game: dict[str, Any]) -> None:
    page = browser.new_page()
    try:
        page.set_content(f'<iframe id="f" src="{server.url}/play/{game["id"]}"></iframe>')
        page.wait_for_timeout(1500)
        framed = [f for f in page.frames if f != page.main_frame]
        assert len(framed) == 1
        assert framed[0].url.startswith("chrome-error://"), framed[0].url  # refused
    finally:
        page.close()
