"""Accounts in a real browser (issue 28): a guest creates a game, signs up on the account
page and keeps the seat; signs out, fails and then succeeds to sign in; changes the
password; the page in German and Japanese; a refusal names its field.  Chromium through
Playwright; screenshots go to ``artifacts/web-accounts/``.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest

from test_i18n_web import leftovers
from test_web_e2e import play_simple_turn
from tikal.messages import text
from web_helpers import ARTIFACTS, ServerProcess, chromium, errors_of, serve, state, wait_state

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "web-accounts"
PASSWORD = "a long pass phrase"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # several accounts from one address in a minute: more than the sign-up limit allows
    yield from serve(tmp_path_factory, "web-accounts", options=("--rate-scale", "20"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium(SHOTS)


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fill_and_submit(page: Any, form: str, **fields: str) -> None:
    for name, value in fields.items():
        page.fill(f"#{form}-form input[name={name}]", value)
    page.click(f"#{form}-form button[type=submit]")


def test_a_guest_signs_up_keeps_the_seat_signs_out_and_in_again(
        server: ServerProcess, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems = errors_of(page)
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row")
    page.click("#quick-demo")  # a guest's game: its token is kept in this browser
    page.wait_for_url("**/play/**")
    game_id = page.url.split("/play/")[1].split("#")[0]

    page.goto(server.url + "/account")
    page.wait_for_selector("#signup-form:visible")
    shot(page, "01-signed-out")
    fill_and_submit(page, "signup", name="ab", password=PASSWORD)  # too short a name
    page.wait_for_selector("#signup-error:not(:empty)")
    assert page.get_attribute("#signup-name", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "signup-name"
    shot(page, "02-refused-name")
    fill_and_submit(page, "signup", name="Ah_Puch", password=PASSWORD)
    page.wait_for_selector("#signed-in:visible")
    assert "Ah_Puch" in page.inner_text("#signed-in-as")
    assert page.inner_text("#account-link") == "Ah_Puch"
    page.wait_for_selector(f"#account-seats a[href^='/play/{game_id}']")
    shot(page, "03-signed-in")
    cookies = {c["name"]: c for c in context.cookies()}
    assert cookies["tikal_session"]["httpOnly"] and cookies["tikal_session"]["sameSite"] == "Lax"
    assert page.evaluate("document.cookie").find("tikal_session") == -1  # not for scripts

    page.click("#signout")
    page.wait_for_selector("#signin-form:visible")
    fill_and_submit(page, "signin", name="ah_puch", password="not the password")
    page.wait_for_selector("#signin-error:not(:empty)")
    assert page.inner_text("#signin-error") == text("accounts.bad_credentials", "en")
    fill_and_submit(page, "signin", name="ah_puch", password=PASSWORD)
    page.wait_for_selector("#signed-in:visible")

    fill_and_submit(page, "password", current_password=PASSWORD, new_password=PASSWORD + "!")
    done = text("web.account.done_password", "en")
    page.wait_for_function("(done) => document.getElementById('account-status').textContent "
                           "=== done", arg=done)
    page.click("#signout")
    page.wait_for_selector("#signin-form:visible")
    fill_and_submit(page, "signin", name="Ah_Puch", password=PASSWORD + "!")
    page.wait_for_selector("#signed-in:visible")
    assert problems == []
    context.close()


@pytest.mark.parametrize("language", ["de", "ja"])
def test_the_account_page_speaks_the_language(server: ServerProcess, browser: Any,
                                              language: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.url}/account?lang={language}")
    page.wait_for_selector("#signup-form:visible")
    assert leftovers([page.inner_text("body")], language) == []
    fill_and_submit(page, "signup", name="x y z", password=PASSWORD)
    page.wait_for_selector("#signup-error:not(:empty)")
    error = page.inner_text("#signup-error")
    assert error == text("accounts.name_character", language, character=" ", extra="_-")
    shot(page, f"04-refused-{language}")
    page.close()


def signed_up_page(browser: Any, server: ServerProcess, name: str) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(server.url + "/account")
    page.wait_for_selector("#signup-form:visible")
    fill_and_submit(page, "signup", name=name, password=PASSWORD)
    page.wait_for_selector("#signed-in:visible")
    return context, page


def ratings_of(server: ServerProcess) -> dict[str, tuple[float, int]]:
    """Account name -> (mu, games) in the demo rule set, read from the server's file."""
    with sqlite3.connect(server.db) as conn:
        found = conn.execute("SELECT a.name, r.mu, r.games FROM ratings r JOIN accounts a "
                             "ON a.id = r.player WHERE r.rules = 'demo'").fetchall()
    return {name: (mu, games) for name, mu, games in found}


def test_a_rated_game_between_two_signed_in_browsers_moves_both_ratings(
        server: ServerProcess, browser: Any) -> None:
    alice_context, alice = signed_up_page(browser, server, "Alice")
    bob_context, bob = signed_up_page(browser, server, "Bob")
    alice.goto(server.url + "/")
    alice.wait_for_selector("#rated-box:visible")
    alice.check("#rulesets input[value=demo]")
    alice.select_option("#seats .seat-row:nth-child(2) select", "human")
    alice.check("#rated")
    assert alice.is_checked("input[name=mode][value=invite]")
    alice.click("#create-btn")
    alice.wait_for_selector("#created .link-row")
    urls = alice.eval_on_selector_all("#created .link-row input", "els => els.map(e => e.value)")
    shot(alice, "05-rated-created")
    alice.goto(urls[0])
    bob.goto(urls[1])  # a signed-in player opening an invite link takes the seat
    game_id = urls[1].split("/play/")[1].split("#")[0]
    bob.wait_for_function(
        "(id) => fetch('/api/account/seats').then(r => r.json()).then(d => "
        "d.seats.some(s => s.game === id)).catch(() => false)", arg=game_id, timeout=10_000)
    deadline = time.monotonic() + 240
    while not (state(alice) or {}).get("over"):
        assert time.monotonic() < deadline, "the rated game did not end"
        mover = next((p for p in (alice, bob) if (state(p) or {}).get("your_turn")), None)
        if mover is None:
            time.sleep(0.05)
            continue
        play_simple_turn(mover)
    wait_state(bob, "S.over")
    deadline = time.monotonic() + 10
    while len(ratings_of(server)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    found = ratings_of(server)
    assert found["Alice"][1] == found["Bob"][1] == 1
    if found["Alice"][0] != found["Bob"][0]:  # not a tie: one up, one down
        assert max(found["Alice"][0], found["Bob"][0]) > 25 > min(found["Alice"][0],
                                                                  found["Bob"][0])
    shot(bob, "06-rated-over")
    alice_context.close()
    bob_context.close()


def virtual_authenticator(context: Any, page: Any) -> Any:
    """Chromium's virtual authenticator (CDP ``WebAuthn``): a platform authenticator with
    resident keys and user verification that always says yes."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
        "hasUserVerification": True, "isUserVerified": True,
        "automaticPresenceSimulation": True}})
    return cdp


#: One passkey sign-in done by hand in the page: options, the authenticator's answer, and
#: that answer sent ``times`` (changed by ``tamper`` first); the statuses.
SIGN_IN_BY_HAND = """async ([times, tamper]) => {
  const post = (path, body) => fetch(path, { method: "POST", body: JSON.stringify(body || {}),
    headers: { "Content-Type": "application/json" } });
  const ceremony = await (await post("/api/account/passkey-signin/options")).json();
  const credential = await navigator.credentials.get({
    publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(ceremony.options) });
  const answer = credential.toJSON();
  if (tamper) answer.response.userHandle = tamper;
  const statuses = [];
  for (let i = 0; i < times; i++) {
    const r = await post("/api/account/passkey-signin",
      { challenge_id: ceremony.challenge_id, credential: answer });
    statuses.push([r.status, (await r.json()).code || null]);
  }
  return statuses;
}"""


def test_a_passkey_is_registered_used_listed_and_removed(
        server: ServerProcess, browser: Any) -> None:
    """WebAuthn needs a host name (no IP address): the page is opened on localhost."""
    base = server.url.replace("127.0.0.1", "localhost")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems = errors_of(page)
    virtual_authenticator(context, page)
    page.goto(base + "/account")
    page.wait_for_selector("#signup-form:visible")
    fill_and_submit(page, "signup", name="Keyholder", password=PASSWORD)
    page.wait_for_selector("#signed-in:visible")
    fill_and_submit(page, "passkey", name="laptop")
    page.wait_for_selector("#passkey-list li[data-passkey]")
    assert "laptop" in page.inner_text("#passkey-list")
    shot(page, "07-passkey-added")

    page.click("#signout")
    page.wait_for_selector("#signin-form:visible")
    page.click("#passkey-signin")  # no name, no password: the passkey names the account
    page.wait_for_selector("#signed-in:visible")
    assert "Keyholder" in page.inner_text("#signed-in-as")

    # the same answer twice: the challenge is used up; a user handle of another account
    page.click("#signout")
    page.wait_for_selector("#signin-form:visible")
    assert page.evaluate(SIGN_IN_BY_HAND, [2, None]) == [[200, None], [401, "passkey_refused"]]
    other = "dQAAAAAAAAAAAAAAAAA"  # base64url of another account id
    assert page.evaluate(SIGN_IN_BY_HAND, [1, other]) == [[401, "passkey_refused"]]

    page.goto(base + "/account")
    page.wait_for_selector("#passkey-list li[data-passkey]")
    page.click("#passkey-list li[data-passkey] button")
    page.wait_for_selector("#passkey-list li.hint-text")
    page.click("#signout")
    page.wait_for_selector("#signin-form:visible")
    page.click("#passkey-signin")  # the authenticator still has it; the server no more
    page.wait_for_selector("#passkey-signin-error:not(:empty)")
    assert page.inner_text("#passkey-signin-error") == text("accounts.passkey_refused", "en")
    assert problems == []
    context.close()
