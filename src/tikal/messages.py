"""Words for people: the engine says *what* happened as a :class:`Message` (a key plus
parameters); a gettext catalog per language says *how* to put it.

The engine never builds sentences: ``game.describe(action)`` and every
:class:`~tikal.errors.IllegalAction` carry a message, and :func:`render` turns it into
text from ``locale/<language>/LC_MESSAGES/tikal.po``.  The message key is the msgid and
the text (a :meth:`str.format` template) the msgstr.  A text that depends on a number
is a plural entry whose ``msgid_plural`` names the counting parameter (``"{need}"``);
each language's plural rule (Babel's, from the catalog header) picks the form.
Parameters may themselves be messages (``Message("tile.temple", {"value": 5})``),
rendered first, so a sentence in another language can put them where its grammar wants
them.  Numbers are formatted for the language (Babel), never glued in by hand.

The ``.po`` files are read with Babel and compiled in memory when a language is first
used, so no build step stands between editing a text and seeing it.
"""

from __future__ import annotations

import decimal
import os
import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from io import BytesIO
from typing import Any, NamedTuple

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

#: The languages with a catalog, English (the reference) first.
LANGUAGES: tuple[str, ...] = ("en", "de", "ja")
DEFAULT_LANGUAGE = "en"
DOMAIN = "tikal"

_COUNTER = re.compile(r"^\{([a-z_]+)\}$")


class Message(NamedTuple):
    """A message key (``"refuse.dig_guarded"``, or a verb for actions) and its parameters."""

    key: str
    params: Mapping[str, Any] = {}

    def to_json(self) -> dict[str, Any]:
        """Key and parameters, nested messages as objects (for clients that translate)."""
        return {"key": self.key, "params": {k: _json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        params = {k: _from_json(v) for k, v in dict(data.get("params") or {}).items()}
        return cls(str(data["key"]), params)


def _json(value: Any) -> Any:
    return value.to_json() if isinstance(value, Message) else value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"key", "params"}:
        return Message.from_json(value)
    return value


# ---------------------------------------------------------------- choosing a language


def normalize_language(tag: str | None) -> str | None:
    """The catalog language a tag names (``de_DE.UTF-8``, ``ja-JP``, ``en``), or None.

    Environment locales and browser tags both reduce to their first part; ``C`` and
    ``POSIX`` (no locale set) name no language.
    """
    if not tag:
        return None
    base = re.split(r"[_.@-]", tag.strip(), maxsplit=1)[0].lower()
    return base if base in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The terminal's language: ``TIKAL_LANG``, else ``LANG``, else English.

    ``TIKAL_LANG`` comes first so a player can keep their system locale and still pick
    the game's language; an unknown value falls through to the next source.
    """
    env = os.environ if environ is None else environ
    for name in ("TIKAL_LANG", "LANG"):
        found = normalize_language(env.get(name))
        if found is not None:
            return found
    return DEFAULT_LANGUAGE


def choose_language(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """An explicit ``--lang`` wins over the environment; raises ValueError if unknown."""
    if option is None:
        return language_from_env(environ)
    found = normalize_language(option)
    if found is None:
        raise ValueError(f"unknown language {option!r}; choose one of {', '.join(LANGUAGES)}")
    return found


def language_from_accept(header: str | None) -> str:
    """The browser's preferred catalog language from an ``Accept-Language`` header.

    Tags are tried by their quality (``q``), the header's order breaking ties; a tag we
    have no catalog for is skipped, and English is the answer when nothing matches.
    """
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")):
        tag, _, quality = part.strip().partition(";q=")
        try:
            weight = float(quality) if quality else 1.0
        except ValueError:
            weight = 0.0
        found = normalize_language(tag)
        if found is not None and weight > 0:
            ranked.append((-weight, index, found))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE


# ---------------------------------------------------------------- catalogs


@cache
def po_catalog(language: str = DEFAULT_LANGUAGE) -> Catalog:
    """The parsed ``.po`` catalog of ``language`` (read once from the package)."""
    if language not in LANGUAGES:
        raise KeyError(f"no catalog for language {language!r}")
    path = resources.files("tikal").joinpath(f"locale/{language}/LC_MESSAGES/{DOMAIN}.po")
    with path.open("rb") as stream:
        return read_po(stream, locale=language, domain=DOMAIN)


@cache
def translations(language: str = DEFAULT_LANGUAGE) -> Translations:
    """The catalog compiled in memory (gettext's lookup and plural rule, no .mo file)."""
    buffer = BytesIO()
    write_mo(buffer, po_catalog(language))
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


@cache
def counters(language: str = DEFAULT_LANGUAGE) -> dict[str, str]:
    """Plural keys -> the parameter whose number chooses the form (from ``msgid_plural``)."""
    found: dict[str, str] = {}
    for entry in po_catalog(language):
        if entry.id and isinstance(entry.id, tuple):
            match = _COUNTER.match(entry.id[1])
            if match is None:
                raise ValueError(f"msgid_plural of {entry.id[0]!r} must name a parameter")
            found[entry.id[0]] = match.group(1)
    return found


@cache
def catalog(language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """Every template of ``language`` by key; a plural entry is its tuple of forms.

    Untranslated entries are left out, so ``key in catalog("de")`` says whether German
    has its own text.
    """
    texts: dict[str, Any] = {}
    for entry in po_catalog(language):
        msgid, msgstr = entry.id, entry.string
        if isinstance(msgid, str | list) and not msgid:
            continue
        if isinstance(msgid, tuple) and isinstance(msgstr, tuple | list):
            forms = tuple(str(form) for form in msgstr)
            if all(forms):
                texts[msgid[0]] = forms
        elif isinstance(msgid, str) and msgstr:
            texts[msgid] = str(msgstr)
    return texts


def template(key: str, params: Mapping[str, Any], language: str = DEFAULT_LANGUAGE) -> str:
    """The template for ``key``, its plural form chosen by the parameter it names.

    A key missing from a translation falls back to English (gettext's way); a key
    missing from English is a bug and raises KeyError.
    """
    if key not in catalog(DEFAULT_LANGUAGE):
        raise KeyError(f"no text for message {key!r} in {language!r}")
    if language not in LANGUAGES:
        raise KeyError(f"no catalog for language {language!r}")
    counter = counters(DEFAULT_LANGUAGE).get(key)
    if counter is None:
        return str(translations(language).gettext(key))
    count = params.get(counter)
    number = count if isinstance(count, int) else 0
    return str(translations(language).ngettext(key, f"{{{counter}}}", number))


def render(
    message: Message,
    form: str | None = None,
    names: Sequence[str] | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> str:
    """The text of ``message`` in ``language``.

    ``form`` picks how an action reads: ``"action"`` (offered, imperative) or ``"log"``
    (played, past tense); refusals and other messages have none.  ``names`` turns the
    ``player`` parameter (a seat number) into that player's name.
    """
    key = f"{form}.{message.key}" if form else message.key
    params: dict[str, Any] = {}
    for name, value in message.params.items():
        if isinstance(value, Message):
            value = render(value, names=names, language=language)
        elif name == "player" and isinstance(value, int):
            value = _seat_name(value, names, language)
        params[name] = _number(value, language)
    return template(key, message.params, language).format_map(params)


def text(key: str, language: str = DEFAULT_LANGUAGE, **params: Any) -> str:
    """Shorthand for a message built on the spot (terminal and CLI sentences)."""
    return render(Message(key, params), language=language)


def _number(value: Any, language: str) -> Any:
    """Numbers as the language writes them (digit grouping, decimal sign: ``2,5`` in
    German); anything else unchanged.  Integers of any size keep all their digits (a
    client may send ``10**40`` as a replay step)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return _integer(value, language) if -SMALL < value < SMALL else _decimal(value, language)
    if isinstance(value, float):
        return _decimal(value, language)
    return value


#: Integers below this (in size) are formatted once per language and remembered.
SMALL = 100_000


@lru_cache(maxsize=8192)
def _integer(value: int, language: str) -> str:
    """A small integer as ``language`` writes it, remembered: the same costs, counts and
    rotations are written again and again, and Babel takes about 20 µs a number (most
    of the time of rendering an offer's text)."""
    return _decimal(value, language)


def _decimal(value: int | float, language: str) -> str:
    with decimal.localcontext() as context:
        if isinstance(value, int):
            context.prec = max(context.prec, len(str(abs(value))) + 4)
        return str(format_decimal(value, locale=language))


def _seat_name(seat: int, names: Sequence[str] | None, language: str) -> str:
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return render(Message("seat", {"seat": seat}), language=language)
