"""The rulebook (``docs/rules.md``, shipped as ``tikal/static/rules.md``), read once.

Every rule stands in its own paragraph under an anchor, ``<a id="MOVE-2"></a>``, and
starts with its id in bold; that id is what :class:`~tikal.errors.IllegalAction` cites.
The terminal's ``help MOVE-2`` and the web app's rules page and tooltips all read the
rules from here, so there is one parser and the text is read from the package once.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

_ANCHOR = re.compile(r'^<a id="([A-Z]+(?:-\d+)?)"></a>\s*$')
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")


@cache
def rulebook_text() -> str:
    """The whole rulebook in markdown (the copy inside the installed package)."""
    path = resources.files("tikal").joinpath("static", "rules.md")
    return path.read_text(encoding="utf-8")


@cache
def sections() -> dict[str, str]:
    """Rule id -> its paragraph as plain text, in rulebook order."""
    sections: dict[str, str] = {}
    rule_id: str | None = None
    lines: list[str] = []
    for line in (*rulebook_text().splitlines(), ""):
        anchor = _ANCHOR.match(line)
        if anchor:
            rule_id, lines = anchor.group(1), []
        elif rule_id is not None and line.strip() and not line.startswith("#"):
            lines.append(line.strip())
        elif rule_id is not None:
            sections.setdefault(rule_id, _plain(rule_id, lines))
            rule_id = None
    return sections


def _plain(rule_id: str, lines: list[str]) -> str:
    """One line of text: links become their words, markup and the leading ``**ID.**`` go."""
    text = _LINK.sub(r"\1", " ".join(lines))
    text = re.sub(rf"^\*\*{re.escape(rule_id)}\.\*\*\s*", "", text)
    return text.replace("**", "").replace("`", "")


def rule_ids() -> tuple[str, ...]:
    """Every rule id of the rulebook, in its order (``COMP-1`` ... ``NOTATION``)."""
    return tuple(sections())


def rule_texts() -> dict[str, str]:
    """Every rule id with its text (what explains a refused action next to its id)."""
    return dict(sections())


def rule_section(rule_id: str) -> str | None:
    """The text of one rule (without its id), or None if the rulebook has no such rule."""
    return sections().get(rule_id)


def rules_starting(prefix: str) -> list[tuple[str, str]]:
    """(id, text) of the rules of a group (``SCORE-``), or of the one rule ``prefix`` names."""
    if not prefix.endswith("-"):
        text = rule_section(prefix)
        return [] if text is None else [(prefix, text)]
    return [(rule_id, text) for rule_id, text in sections().items()
            if rule_id.startswith(prefix)]
