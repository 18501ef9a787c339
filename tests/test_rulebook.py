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
    rulebook.rulebook_text.cache_clear()
    rulebook.sections.cache_clear()
    for rule_id in rulebook.rule_ids():
        rulebook.rule_section(rule_id)
    rulebook.rules_starting("MOVE-")
    assert rulebook.rulebook_text() == (DOCS / "rules.md").read_text(encoding="utf-8")
    assert reads == ["tikal"]
