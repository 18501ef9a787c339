"""``tikal rules``: the rulebook in the terminal, one rule or all of them, in any language.

The texts come from :mod:`tikal.rulebook` (the packaged ``rules.md`` and its German and
Japanese versions), so the terminal shows the very paragraph the web page and a refusal's
rule id point at.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.cells import cell_len
from rich.markup import escape

from ..messages import text
from ..rulebook import rule_ids, rules_starting, sections
from .common import LangOption, console, fail, language_of

#: How much of each rule the list shows (the whole rule is one ``tikal rules ID`` away).
PREVIEW = 72


def register(app: typer.Typer) -> None:
    """Add ``rules`` to ``app``."""
    app.command()(rules)


def rules(
    rule_id: Annotated[
        str | None, typer.Argument(help="A rule id (MOVE-2) or a group (SCORE-); none: all.")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Print a rule of the rulebook, a group of rules, or the list of every rule."""
    language = language_of(lang)
    shown = console()
    if rule_id is None:
        for found, body in sections(language).items():
            shown.print(f"[bold]{found}[/]  {escape(_preview(body))}", soft_wrap=True)
        return
    found_rules = rules_starting(rule_id.upper(), language)
    if not found_rules:
        raise fail(text("cli.no_such_rule", language, rule=rule_id,
                        example=rule_ids(language)[0]))
    for found, body in found_rules:
        shown.print(f"[bold]{found}[/]  {escape(body)}", soft_wrap=True)


def _preview(body: str) -> str:
    """The start of a rule, at most ``PREVIEW`` columns (Japanese letters take two), cut
    at a word where the language has spaces, so the list stays one line per rule."""
    if cell_len(body) <= PREVIEW:
        return body
    cut, width = "", 0
    for char in body:
        width += cell_len(char)
        if width > PREVIEW - 2:
            break
        cut += char
    words = cut.rsplit(" ", 1)[0]
    return (words if len(words) > len(cut) // 2 else cut) + " …"
