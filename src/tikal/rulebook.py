"""The rulebook (``docs/rules.md``, shipped as ``tikal/static/rules.md``), read once.

It exists in English, German and Japanese (``rules.de.md``, ``rules.ja.md``) with the
same rule ids and anchors, so a refusal's rule id finds its text in any language.  Every
function takes the language last and defaults to English, so callers that do not care
about languages keep working unchanged.

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


#: The rulebook's languages; English is the reference the others follow.
LANGUAGES: tuple[str, ...] = ("en", "de", "ja")


def file_name(language: str = "en") -> str:
    """The packaged file of a language: ``rules.md`` for English, ``rules.de.md`` ..."""
    if language not in LANGUAGES:
        raise KeyError(f"no rulebook in language {language!r}")
    return "rules.md" if language == "en" else f"rules.{language}.md"


def rulebook_text(language: str = "en") -> str:
    """The whole rulebook in markdown (the copy inside the installed package)."""
    return _text(language)


def sections(language: str = "en") -> dict[str, str]:
    """Rule id -> its paragraph as plain text, in rulebook order."""
    return _sections(language)


def forget() -> None:
    """Drop what was read, so the next call reads the files again (tests count reads)."""
    _text.cache_clear()
    _sections.cache_clear()


@cache
def _text(language: str) -> str:
    path = resources.files("tikal").joinpath("static", file_name(language))
    return path.read_text(encoding="utf-8")


@cache
def _sections(language: str) -> dict[str, str]:
    sections: dict[str, str] = {}
    rule_id: str | None = None
    lines: list[str] = []
    for line in (*rulebook_text(language).splitlines(), ""):
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


def rule_ids(language: str = "en") -> tuple[str, ...]:
    """Every rule id of the rulebook, in its order (``COMP-1`` ... ``NOTATION``)."""
    return tuple(sections(language))


def rule_texts(language: str = "en") -> dict[str, str]:
    """Every rule id with its text (what explains a refused action next to its id)."""
    return dict(sections(language))


def rule_section(rule_id: str, language: str = "en") -> str | None:
    """The text of one rule (without its id), or None if the rulebook has no such rule."""
    return sections(language).get(rule_id)


def rules_starting(prefix: str, language: str = "en") -> list[tuple[str, str]]:
    """(id, text) of the rules of a group (``SCORE-``), or of the one rule ``prefix`` names."""
    if not prefix.endswith("-"):
        text = rule_section(prefix, language)
        return [] if text is None else [(prefix, text)]
    return [(rule_id, text) for rule_id, text in sections(language).items()
            if rule_id.startswith(prefix)]
