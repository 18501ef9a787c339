"""Account names: what a name may be, the form it is unique in, and its look-alike form.

A name is kept as typed after NFKC normalisation (full-width letters become
ASCII ones).  Two names are the same account when they are equal case-folded (the
*handle*, what sign-in looks up), and one may not be taken when it *looks like* an
existing one: the *skeleton* maps every character to one representative of the
characters it can be mistaken for, from Unicode's confusables table (UTS #39, as the
``confusable_homoglyphs`` package ships it), then case-folded.  So ``bill`` and
``BILL`` are one account, ``bill`` with a Cyrillic soft sign or ve for its ``b`` cannot
be taken beside it, nor ``rn0`` beside ``m0``.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

from .settings import settings


@dataclass(frozen=True)
class NameProblem:
    """Why a name cannot be an account's: a message key of the catalogs and its values."""

    key: str
    params: dict[str, int | str]


@dataclass(frozen=True)
class AccountName:
    """A valid name: as shown, its handle (unique, case-free) and its skeleton."""

    shown: str
    handle: str
    skeleton: str


def normalised(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


def handle_of(text: str) -> str:
    """The case-free form two equal names share (what sign-in looks up)."""
    return normalised(text).casefold()


def problem(text: str) -> NameProblem | None:
    """What is wrong with ``text`` as a name (None: nothing): its length after NFKC, or a
    character that is not a letter, a digit, nor one of the few extra ones."""
    rules = settings()["name"]
    name = normalised(text)
    if not rules["min"] <= len(name) <= rules["max"]:
        return NameProblem("accounts.name_length", {"min": rules["min"], "max": rules["max"]})
    for char in name:
        if not _allowed(char, rules["extra_characters"]):
            return NameProblem("accounts.name_character", {"character": char,
                                                           "extra": rules["extra_characters"]})
    return None


def _allowed(char: str, extra: str) -> bool:
    category = unicodedata.category(char)
    return category[0] == "L" or category == "Nd" or char in extra


def account_name(text: str) -> AccountName:
    """The three forms of a valid name (check :func:`problem` first)."""
    name = normalised(text)
    return AccountName(name, name.casefold(), skeleton(name))


def skeleton(text: str) -> str:
    """The look-alike form of ``text``: equal for names a reader could mistake
    (UTS #39's skeleton of the NFKC name, then case-folded)."""
    table = _prototypes()
    return "".join(table.get(char, char) for char in normalised(text)).casefold()


def _clean(glyph: str) -> str:
    return glyph.strip("\u200e\u200f")  # the table marks right-to-left glyphs


@functools.cache
def _prototypes() -> dict[str, str]:
    """Every confusable character -> its prototype.  The package's table lists, for a
    prototype, every character mistaken for it, and for such a character just its
    prototype; a pair that lists only each other gets the smaller as prototype.  (The
    package is imported here, with the first name checked: its table took 0.02 s of
    every start.)"""
    from confusable_homoglyphs import confusables  # type: ignore[import-untyped]

    data = confusables.confusables_data
    table: dict[str, str] = {}
    for char, entries in data.items():
        if len(entries) != 1:
            continue
        target = _clean(entries[0]["c"])
        back = [_clean(entry["c"]) for entry in data.get(target, ())]
        if back == [char] and char < target:
            continue  # a pair: the smaller one is the prototype
        table[char] = target
    return table
