"""The tutorial's scripts (tikal/data/tutorial) and its API, checked against the engine."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import tikal.svg
from tikal import Game, parse_action, rulebook, tutorial
from tikal.messages import LANGUAGES
from tikal.server.app import create_app

STEPS = [(part, step) for part in tutorial.PARTS for step in tutorial.load_part(part).steps]
IDS = [f"{part}/{step.id}" for part, step in STEPS]


@pytest.mark.parametrize(("part", "step"), STEPS, ids=IDS)
def test_every_position_loads_through_the_public_format(part: str, step: tutorial.Step) -> None:
    data = tutorial.snapshot(step)
    assert data["format"] == "tikal-position"
    game = Game.from_json(copy.deepcopy(data))
    # The snapshot round-trips: what was loaded is what the data describes.
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
    assert game.rules.name == step.rules
    assert not game.is_over
    picture = tikal.svg.board(game, highlight=list(step.highlight))
    for cell in step.highlight:  # each highlighted space is drawn (a tile or a free space)
        assert f'data-cell="{cell}"' in picture, cell


@pytest.mark.parametrize(("part", "step"), STEPS, ids=IDS)
def test_every_goal_is_reachable_by_a_legal_action(part: str, step: tutorial.Step) -> None:
    game = tutorial.start(step)
    reaching = tutorial.goal_actions(step)
    assert reaching, f"no legal action meets {step.goal}"
    for action in reaching:
        assert game.is_legal(action)
        verdict = tutorial.judge(step, str(action))
        assert verdict.done and verdict.refusal is None and verdict.after is not None
    # ... and not every legal action does, so the step asks for something.
    assert len(reaching) < len(game.legal_actions())


@pytest.mark.parametrize(("part", "step"), STEPS, ids=IDS)
def test_wrong_examples_are_refused_or_miss_the_goal(part: str, step: tutorial.Step) -> None:
    assert step.wrong, "each step lists what a learner might wrongly try"
    refused = 0
    for text in step.wrong:
        verdict = tutorial.judge(step, text)
        assert not verdict.done, f"{text!r} would pass the step"
        if verdict.refusal is not None:
            refused += 1
            assert rulebook.rule_section(verdict.refusal.rule) is not None
    assert refused <= len(step.wrong)


def test_each_part_has_refusals_to_learn_from() -> None:
    for part in tutorial.PARTS:
        rules = {
            v.refusal.rule
            for step in tutorial.load_part(part).steps
            for v in (tutorial.judge(step, w) for w in step.wrong)
            if v.refusal is not None
        }
        assert len(rules) >= 4, rules


def test_judging_never_changes_the_step() -> None:
    _part, step = STEPS[0]
    before = tutorial.snapshot(step)
    for text in [*step.wrong, *map(str, tutorial.goal_actions(step))]:
        tutorial.judge(step, text)
    assert tutorial.snapshot(step) == before
    assert tutorial.start(step).to_json() == Game.from_json(before).to_json()


def test_goal_predicates() -> None:
    assert tutorial.goal_met({"kind": "dig"}, parse_action("dig A4"))
    assert tutorial.goal_met({"kind": "move", "dst": "B4"}, parse_action("move W A5 B4"))
    assert not tutorial.goal_met({"kind": "move", "dst": "B4"}, parse_action("move W A5 A4"))
    assert tutorial.goal_met({"kind": "move", "leader": True}, parse_action("move L A5 A4"))
    assert not tutorial.goal_met({"kind": "move", "leader": True}, parse_action("move W A5 A4"))
    assert tutorial.goal_met({"action": "move  w a5 a4"}, parse_action("move W A5 A4"))
    assert not tutorial.goal_met({"kind": "dig"}, parse_action("end"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_language_has_every_step_with_text(language: str) -> None:
    ui = tutorial.ui_texts(language)
    assert set(ui) == set(tutorial.ui_texts("en"))
    assert all(isinstance(v, str) and v.strip() for v in ui.values())
    for part in tutorial.PARTS:
        texts = tutorial.part_texts(part, language)
        assert texts["title"].strip() and texts["intro"].strip()
        ids = [s.id for s in tutorial.load_part(part).steps]
        assert sorted(texts["steps"]) == sorted(ids)
        for step_id in ids:
            entry = texts["steps"][step_id]
            assert set(entry) == set(tutorial.STEP_TEXTS)
            assert all(entry[k].strip() for k in tutorial.STEP_TEXTS)


@pytest.mark.parametrize("language", ["de", "ja"])
def test_translations_differ_from_english(language: str) -> None:
    for part in tutorial.PARTS:
        en = tutorial.part_texts(part, "en")
        other = tutorial.part_texts(part, language)
        assert other["title"] != en["title"]
        for step_id, texts in en["steps"].items():
            for key in tutorial.STEP_TEXTS:
                assert other["steps"][step_id][key] != texts[key], (part, step_id, key)
    en_ui, ui = tutorial.ui_texts("en"), tutorial.ui_texts(language)
    same = [k for k in en_ui if en_ui[k] == ui[k]]
    assert not same, same
    if language == "ja":  # written in Japanese script, not left in Latin letters
        step = tutorial.part_texts("demo", "ja")["steps"]["tile"]["text"]
        assert any("\u3040" <= ch <= "\u30ff" for ch in step)


def test_rule_ids_exist_in_every_rulebook() -> None:
    for _part, step in STEPS:
        for language in rulebook.LANGUAGES:
            assert rulebook.rule_section(step.rule, language), (step.id, step.rule, language)


def test_placeholders_of_the_page_words_match() -> None:
    import re

    en = tutorial.ui_texts("en")
    for language in LANGUAGES:
        ui = tutorial.ui_texts(language)
        for key, text in en.items():
            assert set(re.findall(r"\{\w+\}", ui[key])) == set(re.findall(r"\{\w+\}", text))


def test_steps_are_unique_and_parts_use_their_rule_sets() -> None:
    for part in tutorial.PARTS:
        loaded = tutorial.load_part(part)
        ids = [s.id for s in loaded.steps]
        assert len(ids) == len(set(ids))
        assert loaded.rules == part
    assert {s.rules for _p, s in STEPS} == {"demo", "standard", "auction"}
    assert {s.players for _p, s in STEPS} == {2}  # "You" and "Rival" (tutorial.names)
    with pytest.raises(KeyError):
        tutorial.load_part("expert")


# ---------------------------------------------------------------- the API


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db: Path = tmp_path_factory.mktemp("tutorial") / "games.sqlite3"
    with TestClient(create_app(db)) as c:
        yield c


def test_outline_lists_both_parts(client: TestClient) -> None:
    data = client.get("/api/tutorial?lang=de").json()
    assert [p["id"] for p in data["parts"]] == list(tutorial.PARTS)
    assert data["ui"]["next"] == tutorial.ui_texts("de")["next"]
    first = data["parts"][0]["steps"][0]
    assert first == {"id": "tile", "rule": "TILE-3",
                     "title": tutorial.step_texts("demo", "tile", "de")["title"]}


def test_every_language_gives_the_same_steps_and_rule_ids(client: TestClient) -> None:
    def ids(language: str) -> list[tuple[str, str, str]]:
        data = client.get(f"/api/tutorial?lang={language}").json()
        return [(p["id"], s["id"], s["rule"]) for p in data["parts"] for s in p["steps"]]

    assert ids("en") == ids("de") == ids("ja")
    assert len(ids("en")) == len(STEPS)


def test_step_shows_board_rule_and_legal_actions(client: TestClient) -> None:
    data = client.get("/api/tutorial/demo/tile?lang=ja").json()
    assert data["rule"] == "TILE-3" and data["rule_url"] == "/rules?lang=ja#TILE-3"
    assert data["rule_text"] == rulebook.rule_section("TILE-3", "ja")
    assert 'data-cell="18"' in data["board"] and "hl" in data["board"]
    assert data["phase"] == "tile" and len(data["tile"]["pictures"]) == 6
    game = tutorial.start(tutorial.load_part("demo").step("tile"))
    assert [e["action"] for e in data["legal"]] == [str(a) for a in game.legal_actions()]
    assert all(e["text"] for e in data["legal"])


def test_refusal_carries_the_engines_reason_in_the_language(client: TestClient) -> None:
    res = client.post("/api/tutorial/demo/wall", json={"action": "move W 1 2", "lang": "de"})
    assert res.status_code == 200
    body = res.json()
    assert body["ok"] is False
    step = tutorial.load_part("demo").step("wall")
    refusal = tutorial.start(step).check(parse_action("move W 1 2"))
    assert refusal is not None and refusal.rule == "MOVE-2"
    from tikal import render

    assert body["reason"]["text"] == render(refusal.reason, language="de")
    assert body["reason"]["url"] == "/rules?lang=de#MOVE-2"
    assert body["hint"] == tutorial.step_texts("demo", "wall", "de")["hint"]


def test_legal_but_off_goal_gets_the_step_hint(client: TestClient) -> None:
    body = client.post("/api/tutorial/standard/path",
                       json={"action": "move W A5 A4", "lang": "ja"}).json()
    assert body["ok"] is False and body["reason"] is None
    assert body["hint"] == tutorial.step_texts("standard", "path", "ja")["hint"]


def test_success_shows_what_happened(client: TestClient) -> None:
    body = client.post("/api/tutorial/demo/end", json={"action": "end", "lang": "en"}).json()
    assert body["ok"] is True and body["over"] is True
    assert body["done"] == tutorial.step_texts("demo", "end", "en")["done"]
    assert any("scored" in line for line in body["played"])


@pytest.mark.parametrize(("path", "body", "status"), [
    ("/api/tutorial/demo/nope", {"action": "end"}, 404),
    ("/api/tutorial/expert/tile", {"action": "end"}, 404),
    ("/api/tutorial/demo/tile", {"action": "fly to the moon"}, 422),
    ("/api/tutorial/demo/tile", {"action": ""}, 400),
    ("/api/tutorial/demo/tile", {"action": "end", "lang": "fr"}, 400),
    ("/api/tutorial/demo/tile", {"lang": "en"}, 400),
    ("/api/tutorial/demo/tile", {"action": "x" * 65}, 400),
])
def test_bad_input_is_a_clear_4xx(
    client: TestClient, path: str, body: dict[str, str], status: int
) -> None:
    res = client.post(path, json=body)
    assert res.status_code == status, res.text
    assert res.json()["type"] == "error" and res.json()["message"]
    assert client.get("/api/tutorial/demo/tile?lang=xx").status_code == 400
    assert client.get("/api/tutorial/demo/zzz").status_code == 404


def test_learn_page_picks_the_language(client: TestClient) -> None:
    res = client.get("/learn", follow_redirects=False)
    assert res.status_code == 307 and res.headers["location"] == "/learn?lang=en"
    res = client.get("/learn", headers={"accept-language": "ja-JP,en;q=0.4"},
                     follow_redirects=False)
    assert res.headers["location"] == "/learn?lang=ja"
    client.cookies.set("tikal_lang", "de")
    try:
        res = client.get("/learn", headers={"accept-language": "ja"}, follow_redirects=False)
        assert res.headers["location"] == "/learn?lang=de"
    finally:
        client.cookies.clear()
    page = client.get("/learn?lang=de")
    assert page.status_code == 200 and "tutorial.js" in page.text


def test_start_page_and_rules_page_link_to_the_tutorial(client: TestClient) -> None:
    assert 'href="/learn"' in client.get("/").text
    assert 'href="/learn"' in client.get("/rules").text


@pytest.mark.parametrize("language", ["de", "ja"])
def test_the_steps_board_and_tiles_speak_the_pages_language(
    client: TestClient, language: str
) -> None:
    from tikal import svg

    step = client.get(f"/api/tutorial/demo/tile?lang={language}").json()
    english = client.get("/api/tutorial/demo/tile?lang=en").json()
    tiles = step["board"].count('class="tile ')
    assert svg.board_label(tiles, language) in step["board"]
    assert svg.board_label(tiles, "en") not in step["board"]
    assert step["tile"]["pictures"][0] != english["tile"]["pictures"][0]


def test_the_tutorial_page_is_served_in_its_language_like_every_page(client: TestClient) -> None:
    """The page carries <html lang> and the language's texts for the common picker, so the
    picker shows the tutorial's language (it showed English on a Japanese tutorial)."""
    page = client.get("/learn?lang=ja").text
    assert '<html lang="ja"' in page
    assert 'id="tk-texts"' in page and '"lang": "ja"' in page
