"""The web app's language: which one a request wants, and the pages in that language.

A request's language is, in this order, its ``?lang=`` parameter, the ``tikal_lang``
cookie (set by the language picker), the browser's ``Accept-Language``, else English
(:func:`request_language`).  WebSockets and HTTP requests are read the same way.

The pages are the static HTML files with ``{{web.key}}`` markers: :func:`page_html` puts
the language's texts in their place, sets ``<html lang>`` and embeds every ``web.*`` and
``kind.*`` template of the catalog as JSON for ``TK.t`` (common.js), with the form each
plural category takes, so the browser formats texts from the server's catalogs only.
"""

from __future__ import annotations

import gettext
import html
import json
import re
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale
from starlette.requests import HTTPConnection

from ..messages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    catalog,
    counters,
    language_from_accept,
    normalize_language,
    po_catalog,
    text,
)

COOKIE = "tikal_lang"
#: The picker's labels: each language in its own words.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "ja": "日本語"}
#: Catalog families the browser formats itself.
BROWSER_PREFIXES = ("web.", "kind.")

_MARKER = re.compile(r"\{\{([a-z0-9_.]+)\}\}")
_HTML_LANG = re.compile(r'<html lang="[a-z]+"')
_SCRIPT = '<script src="/static/common.js"></script>'


def request_language(conn: HTTPConnection) -> str:
    """``?lang=``, else the ``tikal_lang`` cookie, else ``Accept-Language``, else English."""
    for found in (conn.query_params.get("lang"), conn.cookies.get(COOKIE)):
        language = normalize_language(found)
        if language is not None:
            return language
    return language_from_accept(conn.headers.get("accept-language"))


#: The counts over which the catalog's plural rule and CLDR's categories are matched.
_PLURAL_PROBES = range(1000)


@cache
def plural_forms(language: str) -> dict[str, int]:
    """Which of the catalog's plural forms each CLDR category takes (``{"one": 0, "other":
    1}`` in German): the browser picks the category with ``Intl.PluralRules`` and needs no
    ``eval`` of the catalog's C expression, which the pages' CSP forbids.

    Raises ``ValueError`` if the catalog's rule and CLDR's disagree on some count."""
    catalog_index = gettext.c2py(str(po_catalog(language).plural_expr))
    category_of = Locale.parse(language).plural_form
    forms: dict[str, int] = {}
    for n in _PLURAL_PROBES:
        index = catalog_index(n)
        if forms.setdefault(category_of(n), index) != index:
            raise ValueError(f"{language}: plural form of {n} is {index} in the catalog, "
                             f"{forms[category_of(n)]} for CLDR's {category_of(n)!r}")
    return forms


@cache
def browser_texts(language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The templates the pages format (``web.*`` without the prefix, ``kind.*``): plain
    templates as strings, plural ones as ``{"counter": name, "forms": [...]}``."""
    english, texts = catalog(DEFAULT_LANGUAGE), catalog(language)
    plural = counters(DEFAULT_LANGUAGE)
    out: dict[str, Any] = {}
    for key in english:
        if not key.startswith(BROWSER_PREFIXES):
            continue
        found = texts.get(key, english[key])
        name = key.removeprefix("web.")
        if key in plural:
            forms = list(found) if isinstance(found, tuple) else [found]
            out[name] = {"counter": plural[key], "forms": forms}
        else:
            out[name] = found
    return {"lang": language, "plural": plural_forms(language), "texts": out,
            "languages": LANGUAGE_NAMES}


def static_text(name: str) -> str:
    path = resources.files("tikal").joinpath("static", name)
    return path.read_text(encoding="utf-8")


def fill(template: str, language: str) -> str:
    """``template`` with every ``{{web.key}}`` replaced by its text (HTML-escaped) and the
    language's attribute and texts in place."""
    def replace(match: re.Match[str]) -> str:
        return html.escape(text(match.group(1), language), quote=True)

    out = _MARKER.sub(replace, template)
    out = _HTML_LANG.sub(f'<html lang="{language}"', out, count=1)
    data = json.dumps(browser_texts(language), ensure_ascii=False).replace("</", "<\\/")
    embed = f'<script id="tk-texts" type="application/json">{data}</script>'
    if _SCRIPT in out:
        out = out.replace(_SCRIPT, embed + "\n" + _SCRIPT, 1)
    else:
        out = out.replace("</body>", embed + "</body>", 1)
    return out


@cache
def page_html(name: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A static page (``index.html`` ...) in ``language`` (built once per language)."""
    if language not in LANGUAGES:
        language = DEFAULT_LANGUAGE
    return fill(static_text(name), language)
