"""The web app in German and Japanese: every page, every text of the state messages
(actions, log lines, scores, tiles), refusals and API errors come from the language's
catalog, with no English text left (browser tests: test_web_i18n.py)."""

from __future__ import annotations

import ast
import html
import json
import random
import re
import string
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from test_i18n import SAME_AS_ENGLISH
from tikal import IllegalAction
from tikal.messages import LANGUAGES, Message, catalog, counters, render, text
from tikal.rulebook import rule_ids
from tikal.server import create_app
from tikal.server.errors import ServerError
from tikal.server.i18n import COOKIE, browser_texts, page_html
from tikal.server.limits import MAX_BODY, MAX_DEPTH, LimitSettings
from tikal.server.store.faults import CAUSES as STORAGE_CAUSES
from tikal.server.wire.legal import expand_legal

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
SRC = Path(__file__).resolve().parents[1] / "src" / "tikal"
#: Keys whose text is rightly the same in a language and in English (AP, "Bot", key caps).
SAME = SAME_AS_ENGLISH | {
    # placeholders and signs only: a tile letter and its count, a sum
    ("de", "web.progress.letter"), ("de", "web.summary.cell"), ("ja", "web.summary.cell")}


#: Words that are the same in English and another language (a seat's colour).
SAME_WORDS = {("de", "Orange")}


def _forms(entry: str | tuple[str, ...]) -> tuple[str, ...]:
    return entry if isinstance(entry, tuple) else (entry,)


def _pieces(template: str) -> list[str]:
    """The literal text of a template between its placeholders."""
    return [part for part, *_ in string.Formatter().parse(template.replace("{{", "(").replace(
        "}}", ")")) if part]


def english_phrases(language: str) -> set[str]:
    """English phrases of the catalog (two words or more, or one long word) that the
    language's catalog does not use: finding one in a page means a text was left English."""
    found: set[str] = set()
    english, texts = catalog("en"), catalog(language)
    for key, entry in english.items():
        if (language, key) in SAME:
            continue
        theirs = " ".join(_forms(texts[key]))
        for form in _forms(entry):
            for piece in _pieces(form):
                piece = piece.strip(" .,:;!?()[]\u00b7\u2013-")
                words = re.findall(r"[A-Za-z]{2,}", piece)
                if (len(words) >= 2 or any(len(w) >= 9 for w in words)) and piece not in theirs:
                    found.add(piece)
    return found


def leftovers(texts: list[str], language: str) -> list[tuple[str, str]]:
    phrases = english_phrases(language)
    return [(phrase, t) for t in texts for phrase in phrases if phrase in t]


class Visible(HTMLParser):
    """A page's text as people meet it: text outside scripts and styles, and the titles,
    labels and placeholders of elements."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.skip = 0
        self.lang: str | None = None
        self.embedded: str | None = None
        self._in_embed = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.lang = values.get("lang")
        if tag in ("script", "style"):
            self.skip += 1
            self._in_embed = values.get("id") == "tk-texts"
        for name in ("title", "aria-label", "placeholder", "alt"):
            if values.get(name):
                self.texts.append(str(values[name]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1
            self._in_embed = False

    def handle_data(self, data: str) -> None:
        if self._in_embed:
            self.embedded = data
        elif not self.skip and data.strip():
            self.texts.append(data.strip())


def visible(html: str) -> Visible:
    parser = Visible()
    parser.feed(html)
    return parser


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "games.sqlite3", bot_delay=0.0)) as c:
        yield c


# ---------------------------------------------------------------- choosing the language


def test_lang_parameter_then_cookie_then_accept_language_then_english(
    client: TestClient,
) -> None:
    def lang_of(**kwargs: Any) -> str | None:
        return visible(client.get("/", **kwargs).text).lang

    assert lang_of() == "en"
    assert lang_of(headers={"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.5"}) == "ja"
    assert lang_of(headers={"Accept-Language": "fr-FR,de;q=0.7"}) == "de"
    client.cookies.set(COOKIE, "de")
    assert lang_of(headers={"Accept-Language": "ja"}) == "de"
    assert lang_of(params={"lang": "ja"}, headers={"Accept-Language": "en"}) == "ja"
    client.cookies.clear()
    answer = client.get("/", params={"lang": "ja"})
    assert f"{COOKIE}=ja" in answer.headers["set-cookie"]  # a ?lang= is remembered
    client.cookies.clear()
    assert lang_of(params={"lang": "xx"}) == "en"


# ---------------------------------------------------------------- pages


PAGES = ["/", "/play/nosuchgame", "/replay/nosuchgame", "/rules", "/no/such/page"]


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("path", PAGES)
def test_every_page_reads_in_the_language(client: TestClient, path: str, language: str) -> None:
    answer = client.get(path, params={"lang": language})
    assert answer.status_code == (404 if path == "/no/such/page" else 200)
    page = visible(answer.text)
    assert page.lang == language
    assert "{{" not in answer.text
    assert leftovers(page.texts, language) == []
    assert page.embedded is not None  # the texts TK.t formats, in the same language
    embedded = json.loads(page.embedded)
    assert embedded["lang"] == language
    values = [v if isinstance(v, str) else " / ".join(v["forms"])
              for v in embedded["texts"].values()]
    assert leftovers(values, language) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_browser_gets_every_web_text_of_the_language(language: str) -> None:
    data = browser_texts(language)
    english = browser_texts("en")["texts"]
    assert set(data["texts"]) == set(english)
    for key, entry in data["texts"].items():
        if isinstance(entry, dict):  # plural: the language's forms and rule
            assert entry["counter"] == counters()["web." + key]
            assert len(entry["forms"]) == {"de": 2, "ja": 1}[language]
        elif (language, "web." + key) not in SAME and re.search("[A-Za-z]{3}", entry):
            assert entry != english[key], key
    assert data["plural"] == {"de": {"one": 0, "other": 1}, "ja": {"other": 0}}[language]
    assert set(data["languages"]) == set(LANGUAGES)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_rules_page_is_the_rulebook_of_the_language(
    client: TestClient, language: str
) -> None:
    page = client.get(f"/rules/{language}").text
    for rule in rule_ids(language):
        assert f'id="{rule}"' in page
    assert page == client.get("/rules", params={"lang": language}).text
    assert 'id="rule-search"' in page and "/static/rules.js" in page
    assert text("web.rules.search", language) in page
    other = client.get("/rules/xx", follow_redirects=False)
    assert other.status_code == 307 and other.headers["location"] == "/rules"



# ---------------------------------------------------------------- the replay's analysis panel


def _script_keys(name: str) -> set[str]:
    """The catalog keys a page script names literally: ``TK.t("...")``, ``TK.tn("...")``
    and ``TK.term("...")`` (without ``web.``; ``kind.*`` as they are), not a key built from
    a prefix (``TK.term("ruleset." + rules)``)."""
    source = (SRC / "static" / name).read_text(encoding="utf-8")
    return set(re.findall(r'TK\.(?:tn?|term)\(\s*"([a-z0-9_.]+)"\s*[,)]', source))


def _catalog_key(key: str) -> str:
    return key if key.startswith("kind.") else "web." + key


def _fields(entry: str | tuple[str, ...]) -> set[str]:
    return {name for form in _forms(entry) for _, name, _, _ in string.Formatter().parse(form)
            if name}


def test_every_text_of_the_replay_script_is_in_every_catalog_with_its_placeholders() -> None:
    """replay.js formats only keys of the catalogs, the analysis panel's (``web.analysis.*``)
    included, and each language's template has the English placeholders."""
    from tikal.bots.analysis import THRESHOLDS

    used = {_catalog_key(key) for key in _script_keys("replay.js")}
    page = (SRC / "static" / "replay.html").read_text(encoding="utf-8")
    marked = set(re.findall(r"\{\{(web\.[a-z0-9_.]+)\}\}", page))
    # verdict names are looked up by the verdict the server sends
    verdicts = {f"web.analysis.verdict.{name}" for name, _ in THRESHOLDS} | {
        "web.analysis.verdict.best", "web.analysis.verdict.good"}
    analysis = {key for key in catalog("en") if key.startswith("web.analysis.")}
    assert {"web.analysis.graph_title", "web.analysis.decision", "web.analysis.failed",
            "web.analysis.running", "web.analysis.legend"} <= used
    assert analysis == {k for k in used | marked | verdicts if k.startswith("web.analysis.")}
    plural = counters()
    for key in sorted(used | verdicts):
        english = catalog("en")[key]
        wanted = _fields(english)
        for language in TRANSLATED:
            assert key in catalog(language), (language, key)
            theirs = _fields(catalog(language)[key])
            assert theirs == wanted or (
                key in plural and theirs | {plural[key]} == wanted), (language, key)
            if key in plural:
                assert counters(language)[key] == plural[key], (language, key)


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_replay_pages_analysis_panel_reads_in_the_language(
    client: TestClient, language: str
) -> None:
    answer = client.get("/replay/nosuchgame", params={"lang": language})
    assert answer.status_code == 200
    heading = re.search(r'<h2 id="analysis-title">([^<]*)</h2>', answer.text)
    button = re.search(r'<button[^>]*id="analyze"[^>]*title="([^"]*)"[^>]*>([^<]*)</button>',
                       answer.text)
    progress = re.search(r'<progress id="analysis-progress"[^>]*aria-label="([^"]*)"',
                         answer.text)
    assert heading and button and progress
    assert html.unescape(heading.group(1)) == text("web.analysis.heading", language)
    assert html.unescape(button.group(2)) == text("web.analysis.analyze", language)
    assert html.unescape(button.group(1)) == text("web.analysis.analyze_title", language)
    assert html.unescape(progress.group(1)) == text("web.analysis.progress", language)
    page = visible(answer.text)
    for english in ("Analysis", "Analyze", "search bot"):
        assert not any(english in t for t in page.texts), english
    assert page.embedded is not None
    texts = json.loads(page.embedded)["texts"]
    for key in ("analysis.graph_title", "analysis.failed", "analysis.not_finished"):
        assert texts[key] == text("web." + key, language) != text("web." + key, "en")
    assert texts["analysis.running"]["counter"] == "total"
    assert len(texts["analysis.running"]["forms"]) == {"de": 2, "ja": 1}[language]
    english = client.get("/replay/nosuchgame", params={"lang": "en"}).text
    assert '<h2 id="analysis-title">Analysis</h2>' in english and ">Analyze</button>" in english


# ---------------------------------------------------------------- state messages


def play_demo(client: TestClient, seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A demo game of two hot-seat humans played to the end with random legal moves;
    the game and a sample of the states seen, each in every language."""
    body = {"rules": "demo", "seed": seed, "hotseat": True,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]}
    game = client.post("/api/games", json=body).json()
    headers = {"X-Tikal-Token": game["hotseat_token"]}
    rng = random.Random(seed)
    samples: list[dict[str, Any]] = []
    for move in range(600):
        states = {lang: client.get(f"/api/games/{game['id']}", headers=headers,
                                   params={"lang": lang}).json() for lang in LANGUAGES}
        if move % 4 == 0 or states["en"]["over"]:
            samples.append(states)
        if states["en"]["over"]:
            return game, samples
        legal = expand_legal(states["en"]["legal"])
        entries = [e for group in legal.values() for e in group]
        ends = [e for e in entries if e["verb"] == "end"]
        choice = ends[0] if ends and rng.random() < 0.3 else rng.choice(entries)
        answer = client.post(f"/api/games/{game['id']}/actions", headers=headers,
                             json={"action": choice["action"], "state": states["en"]["state"]})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the demo game did not end")


def state_texts(state: dict[str, Any]) -> list[str]:
    """Every text for people in a state message (action offers, log, tiles, headings)."""
    out = [line["text"] for line in state["log"]]
    for group in expand_legal(state.get("legal") or {}).values():
        out.extend(e["text"] for e in group)
    out.extend(state.get("verbs", {}).values())
    out.extend(d["describe"] for d in state["display"])
    if state.get("drawn"):
        out.append(state["drawn"]["describe"])
    out.extend(state["rule_set"]["option_texts"].values())
    out.extend(s["colour_name"] for s in state["seats"])
    return out


def test_state_messages_are_in_the_language_asked(client: TestClient) -> None:
    _, samples = play_demo(client, seed=5)
    kinds = {line["kind"] for line in samples[-1]["en"]["log"]}
    assert kinds == {"action", "chance", "score"}
    for states in samples:
        english = state_texts(states["en"])
        for language in TRANSLATED:
            texts = state_texts(states[language])
            assert len(texts) == len(english)
            assert states[language]["lang"] == language
            assert leftovers(texts, language) == []
            for mine, theirs in zip(texts, english, strict=True):
                if re.search("[A-Za-z]{3}", theirs.replace("Ann", "").replace("Bo", "")) and (
                        language, theirs) not in SAME_WORDS:
                    assert mine != theirs


def test_replays_speak_the_language_asked(client: TestClient) -> None:
    game, _ = play_demo(client, seed=8)
    replays = {lang: client.get(f"/api/replays/{game['id']}", params={"lang": lang}).json()
               for lang in LANGUAGES}
    for language in TRANSLATED:
        steps, english = replays[language]["steps"], replays["en"]["steps"]
        assert [s["notation"] for s in steps] == [s["notation"] for s in english]
        texts = [s["text"] for s in steps] + [c for s in steps for c in s["chance"]]
        texts += [sc["text"] for s in steps for sc in s["scores"]]
        assert texts and leftovers(texts, language) == []
        assert [s["text"] for s in steps] != [s["text"] for s in english]


def test_hints_and_meta_are_in_the_language_asked(client: TestClient) -> None:
    meta = client.get("/api/meta", params={"lang": "ja"}).json()
    assert meta["colour_names"][0] == text("colour.blue", "ja")
    options = meta["rulesets"]["standard"]["option_texts"]
    assert options and all(not re.search("[a-z]{4}", t) for t in options.values())


# ---------------------------------------------------------------- refusals and errors


def _refusal_keys() -> list[str]:
    return [key for key in catalog("en") if key.startswith("refuse.")]


def _rules_that_refuse() -> set[str]:
    """Every rule id the engine cites when it refuses (from the source)."""
    found: set[str] = set()
    for path in SRC.glob("*.py"):
        found.update(re.findall(r'IllegalAction\(\s*"([A-Z]+-\d+)"', path.read_text()))
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_refusal_reads_in_the_language_and_links_its_rulebook(language: str) -> None:
    rules = sorted(_rules_that_refuse())
    assert len(rules) > 10
    known = set(rule_ids(language))
    assert set(rules) <= known
    for number, key in enumerate(_refusal_keys()):
        params = {name: 2 for form in _forms(catalog("en")[key])
                  for _, name, _, _ in string.Formatter().parse(form) if name}
        rule = rules[number % len(rules)]
        body = ServerError.illegal(IllegalAction(rule, key, params), state=3).to_json(language)
        assert body["message"] == render(Message(key, params), language=language)
        assert body["rule_url"] == f"/rules/{language}#{rule}"
        assert body["key"] == key and body["code"] == "illegal"
        assert leftovers([body["message"]], language) == []


def test_a_refused_move_over_http_says_why_in_japanese(client: TestClient) -> None:
    body = {"rules": "standard", "seed": 2,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]}
    game = client.post("/api/games", json=body).json()
    headers = {"X-Tikal-Token": game["seats"][0]["token"]}
    answer = client.post(f"/api/games/{game['id']}/actions", headers=headers,
                         params={"lang": "ja"}, json={"action": "end", "state": game["state"]})
    assert answer.status_code == 422
    error = answer.json()
    assert error["code"] == "illegal" and error["rule_url"].startswith("/rules/ja#")
    assert error["message"] == render(Message.from_json(error), language="ja")
    english = client.post(f"/api/games/{game['id']}/actions", headers=headers,
                          json={"action": "end", "state": game["state"]}).json()
    assert english["message"] != error["message"] and english["code"] == "illegal"
    assert english["rule_url"] == f"/rules#{english['rule']}"


ERROR_CODES = [key.removeprefix("error.") for key in catalog("en")
               if key.startswith("error.") and key.count(".") == 1]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_api_error_code_has_a_message_in_the_language(language: str) -> None:
    assert {"unknown_game", "bad_token", "stale", "rate_limited", "bad_record"} <= set(
        ERROR_CODES)
    for code in ERROR_CODES:
        body = ServerError(code, "an English detail", 400).to_json(language)
        assert body["code"] == code
        assert body["message"] == text(f"error.{code}", language)
        assert leftovers([body["message"]], language) == []
    assert ServerError("x", "an English detail").to_json()["message"] == "an English detail"


def test_api_errors_over_http_and_websocket_follow_the_language(client: TestClient) -> None:
    missing = client.get("/api/games/nosuchgame", params={"lang": "de"})
    assert missing.status_code == 404
    assert missing.json() == {"type": "error", "code": "unknown_game",
                              "message": text("server.unknown_game", "de", game_id="nosuchgame")}
    assert client.get("/api/games/nosuchgame").json()["message"].startswith("there is no game")
    bad = client.post("/api/games", params={"lang": "ja"}, json={"rules": "standard"})
    assert bad.json()["message"] == text("error.bad_request", "ja")
    game = client.post("/api/games", json={"rules": "demo", "seats": [
        {"kind": "human"}, {"kind": "human"}]}).json()
    with client.websocket_connect(f"/ws/{game['id']}?lang=ja") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
        first = ws.receive_json()
        assert first["type"] == "state" and first["lang"] == "ja"
        ws.send_text(json.dumps({"type": "dance"}))
        error = ws.receive_json()
        assert error["message"] == text("error.ws.unknown_type", "ja", kind="dance")
        ws.send_text(json.dumps({"type": "action", "action": "end", "state": first["state"]}))
        refused = ws.receive_json()
        assert refused["code"] == "illegal" and refused["rule_url"].startswith("/rules/ja#")
        assert refused["message"] == render(Message.from_json(refused), language="ja")
    client.cookies.set(COOKIE, "de")
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello"}))
        assert ws.receive_json()["lang"] == "de"


def board_words(board: dict[str, Any]) -> list[str]:
    """The words of board parts: titles, accessible names, treasure names, drawn texts."""
    picture = board["root"] + "".join(board["defs"].values()) + "".join(board["spaces"].values())
    return [html.unescape(m) for m in re.findall(
        r'<title>([^<]*)</title>|aria-label="([^"]*)"|data-name="([^"]*)"|>([^<>]+)</text>',
        picture) for m in m if m]


def board_hooks(board: dict[str, Any]) -> dict[str, list[str]]:
    """The parts of board spaces a page finds things by: their ids, classes and data-*."""
    return {cell: re.findall(r'(?:data-[a-z]+|class|href)="[^"]*"', text)
            for cell, text in board["spaces"].items()}


def test_languages_are_built_only_when_asked_and_draw_the_board_in_theirs(
    client: TestClient,
) -> None:
    game = client.post("/api/games", json={"rules": "standard", "seed": 3, "seats": [
        {"kind": "human"}, {"kind": "human"}]}).json()
    token = {"X-Tikal-Token": game["seats"][0]["token"]}
    hub = client.app.state.hub  # type: ignore[attr-defined]
    client.get(f"/api/games/{game['id']}", params={"lang": "ja"})
    built = hub.publisher.languages(game["id"])
    assert built == {"ja"}
    client.get(f"/api/games/{game['id']}", params={"lang": "de"})
    session = client.app.state.manager.get(game["id"])  # type: ignore[attr-defined]
    rng = random.Random(3)
    for _ in range(12):  # a tile or two, figures on the board
        state = client.get(f"/api/games/{game['id']}", headers=token).json()
        offers = [e["action"] for group in expand_legal(state.get("legal") or {}).values()
                  for e in group if e["action"] != "end"]
        if not offers or not state["your_turn"]:
            break
        client.post(f"/api/games/{game['id']}/actions", headers=token,
                    json={"action": rng.choice(offers), "state": state["state"]})
    en, ja, de = (hub.publisher.snapshot(session, lang) for lang in ("en", "ja", "de"))
    boards = {lang: snap.public["board"] for lang, snap in (("en", en), ("ja", ja), ("de", de))}
    for language in TRANSLATED:
        board = boards[language]
        # the same spaces, shapes and hooks as the English board; the words its own
        assert board["order"] == boards["en"]["order"]
        assert board["defs"].keys() == boards["en"]["defs"].keys()
        assert board_hooks(board) == board_hooks(boards["en"])
        assert board["spaces"] != boards["en"]["spaces"]
        assert text("svg.base", language) in "".join(board["defs"].values())
        assert ">BASE<" not in "".join(board["defs"].values())
        assert text("svg.board", language, count=len(session.game.tiles)) in board["root"]
        assert leftovers(board_words(board), language) == []
        # a board is kept per game and language: asked again, nothing is drawn anew
        assert hub.publisher.snapshot(session, language).public["board"] is board
    assert 'class="fig"' in "".join(boards["en"]["spaces"].values())  # figures were named
    assert "empty space" in " ".join(board_words(boards["en"]))
    assert ja.log != de.log


def test_pages_are_built_once_per_language() -> None:
    assert page_html("index.html", "ja") is page_html("index.html", "ja")
    assert page_html("index.html", "ja") != page_html("index.html", "de")


def test_a_record_that_does_not_replay_is_explained_in_the_language(client: TestClient) -> None:
    game = client.post("/api/games", json={"rules": "demo", "seed": 4, "seats": [
        {"kind": "human"}, {"kind": "human"}]}).json()
    record = client.get(f"/api/games/{game['id']}/record").json()
    record["log"] = [*record["log"], "move W 0,0 5,5"]
    answers = {lang: client.post("/api/replays", params={"lang": lang}, json=record).json()
               for lang in LANGUAGES}
    assert answers["en"]["message"].startswith("record entry ")
    for language in TRANSLATED:
        body = answers[language]
        assert body["code"] == "bad_record" and body["key"] == "record.entry"
        assert body["message"] == render(Message.from_json(body), language=language)
        assert body["message"] != answers["en"]["message"]
        assert leftovers([body["message"]], language) == []


@pytest.mark.parametrize("language", TRANSLATED)
def test_record_chance_and_position_errors_read_in_the_language(language: str) -> None:
    from tikal import Game
    from tikal.errors import PositionError, RecordError
    from tikal.position import position_from_json, position_to_json

    game = Game.new("demo", 2, seed=1)
    record = game.record()
    record["log"] = ["draw Z.9"]
    with pytest.raises(RecordError) as info:
        Game.from_record(record)
    assert info.value.text(language) != str(info.value)
    assert leftovers([info.value.text(language)], language) == []
    bad = {**position_to_json(game), "ap": 99}
    with pytest.raises(PositionError) as where:
        position_from_json(bad, Game)
    assert str(where.value) == "ap: must be 0..5"
    assert leftovers([where.value.text(language)], language) == []
    assert where.value.text(language) != str(where.value)


@pytest.mark.parametrize("language", ["de", "ja"])
def test_bodies_refused_before_routing_say_why_in_the_language(
    client: TestClient, language: str
) -> None:
    """Too large and too deeply nested bodies are refused by middleware, before any route:
    their message follows the asker's language too (code and status unchanged)."""
    headers = {"Accept-Language": language, "Content-Type": "application/json"}
    deep = client.post("/api/games", content="[" * 200 + "]" * 200, headers=headers)
    large = client.post("/api/games", content=b"1" * 100_000, headers=headers)
    for reply, code, status, detail in ((deep, "too_deep", 400, {"max": MAX_DEPTH}),
                                        (large, "too_large", 413, {"limit": MAX_BODY})):
        assert reply.status_code == status
        body = reply.json()
        assert body["code"] == code
        words = Message(f"server.{code}", detail)
        assert body["message"] == render(words, language=language)
        assert body["message"] != render(words)
        assert leftovers([body["message"]], language) == []


# ---------------------------------------------------------------- the server's own refusals


def _refusals(client: TestClient, language: str) -> list[tuple[Any, int, str, Message, str]]:
    """Refusals of the server itself (not the engine's), asked for in ``language``: the
    answer, its status, code, expected message (key and parameters) and the detail the
    text must show."""
    headers = {"Accept-Language": language}
    game = client.post("/api/games", json={"rules": "standard", "seed": 2, "seats": [
        {"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bo"}]}).json()
    gid = game["id"]
    total = client.get(f"/api/replays/{gid}").json()["total"]

    def seat(p: int) -> dict[str, str]:
        return {**headers, "X-Tikal-Token": game["seats"][p]["token"]}

    def create(**body: Any) -> Any:
        seats = [{"kind": "human"}, {"kind": "human"}]
        return client.post("/api/games", headers=headers, json={"seats": seats, **body})

    return [
        (client.get("/api/games/nosuchgame", headers=headers), 404, "unknown_game",
         Message("server.unknown_game", {"game_id": "nosuchgame"}), "nosuchgame"),
        (client.get(f"/api/replays/{gid}/frames/777", headers=headers), 404, "no_frame",
         Message("server.no_frame", {"last": total, "step": 777}), "777"),
        (create(options={"turbo": True}), 422, "bad_request",
         Message("server.unknown_options", {"names": "turbo", "count": 1}), "turbo"),
        (create(rules="chess"), 422, "bad_request",
         Message("server.unknown_rules", {"rules": "chess"}), "chess"),
        (create(seats=[{"kind": "bot", "level": "grandmaster"}, {"kind": "human"}]), 422,
         "bad_request", Message("server.unknown_level", {"level": "grandmaster"}),
         "grandmaster"),
        (client.post(f"/api/games/{gid}/actions", headers=seat(1),
                     json={"action": "end", "state": 0}), 403, "not_your_turn",
         Message("server.not_your_turn", {"name": "Ann"}), "Ann"),
        (client.post(f"/api/games/{gid}/actions", headers=seat(0),
                     json={"action": "end", "state": 58}), 409, "stale",
         Message("server.stale", {"state": 0, "yours": 58}), "58"),
        (client.get("/api/tutorial/nopart/nostep", headers=headers), 404, "not_found",
         Message("server.no_tutorial_step", {"part": "nopart", "step": "nostep"}),
         "nopart/nostep"),
    ]


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_servers_refusals_keep_their_detail_in_the_language(
    client: TestClient, language: str
) -> None:
    """Unknown game, replay frame out of range, a bad option, another's turn ...: the
    specific text (with the game id, the frame, the option) in the language asked,
    not only the code's general text; codes and statuses are the English ones."""
    english = _refusals(client, "en")
    asked = _refusals(client, language)
    assert english[0][0].json()["message"] == "there is no game 'nosuchgame'"
    for (theirs, status, code, words, detail), (ours, *_) in zip(asked, english, strict=True):
        body, plain = theirs.json(), ours.json()
        assert (theirs.status_code, body["code"]) == (status, code), words.key
        assert (ours.status_code, plain["code"]) == (status, code), words.key
        assert plain["message"] == render(words), words.key
        assert body["message"] == render(words, language=language), words.key
        assert detail in body["message"] and detail in plain["message"], words.key
        assert body["message"] != plain["message"]
        assert body["message"] != text(f"error.{code}", language)
        assert "key" not in body  # the server's own refusals are no engine refusals
        assert leftovers([body["message"]], language) == []


def _server_keys_in_source() -> set[str]:
    found: set[str] = set()
    for path in (SRC / "server").rglob("*.py"):
        found.update(re.findall(r'"(server\.[a-z_.]+)"', path.read_text()))
    kinds = [name for name, value in vars(LimitSettings()).items() if hasattr(value, "burst")]
    assert {"create", "move", "hint"} <= set(kinds)
    found |= {f"server.storage.{cause}" for cause in STORAGE_CAUSES}  # faults.py names them
    return found | {f"server.rate_limited.{kind}" for kind in kinds}


def test_every_server_key_is_in_every_catalog_with_the_same_placeholders() -> None:
    used = _server_keys_in_source()
    keys = {key for key in catalog("en") if key.startswith("server.")}
    assert len(keys) > 25 and used == keys
    for key in sorted(keys):
        english = {name for form in _forms(catalog("en")[key])
                   for _, name, _, _ in string.Formatter().parse(form) if name}
        params = {name: 7 for name in english} | {"count": 1}
        for language in TRANSLATED:
            assert key in catalog(language), (language, key)
            theirs = {name for form in _forms(catalog(language)[key])
                      for _, name, _, _ in string.Formatter().parse(form) if name}
            assert theirs == english or theirs | {"count"} == english, (language, key)
            assert render(Message(key, params), language=language) != render(
                Message(key, params)), (language, key)


def test_no_refusal_of_the_server_is_english_written_in_code() -> None:
    """Every ServerError of the server names a catalog message, or passes on the engine's
    own refusal (which carries its reason): no English text in code."""
    calls = 0
    for path in (SRC / "server").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "ServerError"):
                continue
            calls += 1
            words = node.args[1]
            named = (isinstance(words, ast.Call) and isinstance(words.func, ast.Name)
                     and words.func.id == "Message")
            engine = any(k.arg == "reason" for k in node.keywords)
            assert named or engine, (path.name, node.lineno)
    assert calls > 30


def test_a_server_error_says_its_message_in_english_and_other_languages() -> None:
    words = Message("server.no_frame", {"last": 12, "step": 1234})
    error = ServerError("no_frame", words, 404)
    assert error.message == str(error) == "this replay has frames 0 to 12, not 1,234"
    assert error.detail == words and error.status == 404
    assert error.to_json("de")["message"] == (
        "diese Wiederholung hat die Schritte 0 bis 12, einen Schritt 1.234 gibt es nicht")
    assert "1,234" in error.to_json("ja")["message"]
    assert error.to_json() == {"type": "error", "code": "no_frame",
                               "message": error.message}
