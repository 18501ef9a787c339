"""The rulebook reader (tikal.rulebook): one parse of the packaged rules.md for every reader."""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest

from tikal import rulebook

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_anchor_of_the_rulebook_is_a_section_in_order() -> None:
    anchors = re.findall(r'<a id="([A-Z]+(?:-\d+)?)"></a>', (DOCS / "rules.md").read_text())
    assert rulebook.rule_ids() == tuple(anchors)
    assert "NOTATION" in rulebook.rule_ids()  # cited for unreadable input, no number


def test_a_section_is_the_rule_as_plain_text_without_its_id() -> None:
    text = rulebook.rule_section("MOVE-2")
    assert text is not None and "stone" in text
    assert not text.startswith("MOVE-2")
    for markup in ("**", "`", "](#", "<a "):
        assert markup not in text
    score_3 = rulebook.rule_section("SCORE-3")
    assert score_3 == "Treasures score as in SET-1."  # a link keeps its words
    assert rulebook.rule_section("XYZ-9") is None


def test_a_section_ends_at_its_paragraph() -> None:
    end_2 = rulebook.rule_section("END-2")
    assert end_2 is not None and end_2.endswith("share the victory.")
    assert "four scoring rounds" not in end_2  # the paragraph after it is no rule


def test_groups_and_single_rules() -> None:
    scoring = rulebook.rules_starting("SCORE-")
    assert [rule_id for rule_id, _ in scoring] == [
        rule_id for rule_id in rulebook.rule_ids() if rule_id.startswith("SCORE-")
    ]
    assert len(scoring) >= 3
    assert rulebook.rules_starting("GUARD-4") == [("GUARD-4", rulebook.rule_section("GUARD-4"))]
    assert rulebook.rules_starting("XYZ-") == [] and rulebook.rules_starting("XYZ-1") == []
    assert rulebook.rule_texts() == {
        rule_id: rulebook.rule_section(rule_id) for rule_id in rulebook.rule_ids()
    }


def test_the_file_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    files = resources.files

    def counting(package: str) -> Traversable:
        reads.append(package)
        return files(package)

    monkeypatch.setattr(rulebook.resources, "files", counting)
    rulebook.forget()
    for rule_id in rulebook.rule_ids():
        rulebook.rule_section(rule_id)
    rulebook.rules_starting("MOVE-")
    assert rulebook.rulebook_text() == (DOCS / "rules.md").read_text(encoding="utf-8")
    assert reads == ["tikal"]


# ---------------------------------------------------------------- the translations

TRANSLATIONS = [("de", "rules.de.md"), ("ja", "rules.ja.md")]
_ANCHORS = re.compile(r'<a id="([A-Z]+(?:-\d+)?)"></a>')
_RULE_LINKS = re.compile(r"\]\(#([A-Z]+(?:-\d+)?)\)")


@pytest.mark.parametrize(("language", "name"), TRANSLATIONS)
def test_a_translation_has_the_english_rule_ids_anchors_and_links(
    language: str, name: str
) -> None:
    english, translated = (DOCS / "rules.md").read_text(), (DOCS / name).read_text()
    assert _ANCHORS.findall(translated) == _ANCHORS.findall(english)
    assert _RULE_LINKS.findall(translated) == _RULE_LINKS.findall(english)
    assert rulebook.rule_ids(language) == rulebook.rule_ids()
    for rule_id in rulebook.rule_ids():
        assert f"**{rule_id}.**" in translated
        assert rulebook.rule_section(rule_id, language) != rulebook.rule_section(rule_id)


@pytest.mark.parametrize(("language", "name"), TRANSLATIONS)
def test_the_packaged_translation_is_the_docs_one(language: str, name: str) -> None:
    bundled = DOCS.parent / "src" / "tikal" / "static" / name
    assert bundled.read_text(encoding="utf-8") == (DOCS / name).read_text(encoding="utf-8")
    assert rulebook.rulebook_text(language) == bundled.read_text(encoding="utf-8")


def test_rules_read_in_each_language() -> None:
    assert "Steinplatte" in (rulebook.rule_section("MOVE-2", "de") or "")
    assert "石" in (rulebook.rule_section("MOVE-2", "ja") or "")
    assert rulebook.rules_starting("SCORE-3", "de") == [
        ("SCORE-3", "Schätze werden wie in SET-1 gewertet.")]
    japanese = rulebook.rule_texts("ja")
    assert not any("**" in text or "`" in text for text in japanese.values())
    with pytest.raises(KeyError):
        rulebook.rulebook_text("fr")


# ---------------------------------------------------------------- tikal rules


def test_rules_command_prints_a_rule_in_the_language_asked() -> None:
    from typer.testing import CliRunner

    from tikal.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["rules", "MOVE-2", "--lang", "de"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("MOVE-2  ")
    assert rulebook.rule_section("MOVE-2", "de") in " ".join(result.output.split())
    japanese = runner.invoke(app, ["rules", "move-2"], env={"TIKAL_LANG": "ja", "LANG": "C"})
    assert japanese.exit_code == 0 and "石" in japanese.output
    group = runner.invoke(app, ["rules", "SCORE-", "--lang", "en"], env={"LANG": "de_DE.UTF-8"})
    assert [line.split()[0] for line in group.output.splitlines()] == [
        rule_id for rule_id, _ in rulebook.rules_starting("SCORE-")]


def test_rules_command_lists_every_rule_and_refuses_unknown_ones() -> None:
    from typer.testing import CliRunner

    from tikal.cli import app

    runner = CliRunner()
    listed = runner.invoke(app, ["rules"], env={"LANG": "ja_JP.UTF-8", "TIKAL_LANG": ""})
    ids = [line.split()[0] for line in listed.output.splitlines()]
    assert listed.exit_code == 0 and ids == list(rulebook.rule_ids())
    missing = runner.invoke(app, ["rules", "XYZ-9", "--lang", "de"])
    assert missing.exit_code == 1 and "keine Regel XYZ-9" in missing.output
    bad = runner.invoke(app, ["rules", "--lang", "xx"])
    assert bad.exit_code == 1 and "unknown language" in bad.output
