"""The legal-table codec: a verb's legal actions as one key list and rows of values
(docs/web.md, "Legal tables"), and back.

A legal entry is ``{"action", "verb", <the action's fields>, "cost", "cells", "text"}``.
Sent as they are, the entries repeat every key and, in the notations and texts, most
values: a table sends each key once, a column with one value in every row once
(``same``), a list column as the fields it is made of (``lists``: ``cells`` of a move is
``["src", "dst"]``), and where that saves room the notations and texts as ``templates``
with the row's own fields written in (``"place temple 1 on {cell}, turned {rotation}"``:
72 tile placements, one text).  This took the largest message after a move from 8.9 KB
to under 4 KB; the texts are still the catalog's, rendered by the server.

Rows (and list values inside them) are tuples, JSON arrays all the same: a tuple of
texts and numbers drops out of the garbage collector's sight after its first
collection, and the tables the server remembers were half of the objects a server with
100 games in memory had the collector look at.

:func:`expand_legal` and :func:`legal_notations` read the tables as a client does
(``expandLegal`` in the browser).
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import Any

from .schema import LegalEntry, LegalTable

#: Columns of the legal table sent as shared templates (see :func:`make_table`).
TEMPLATED = ("action", "text")


@functools.lru_cache(maxsize=65536)
def _template_of(value: str, pairs: tuple[tuple[str, str], ...]) -> str | None:
    """``value`` with an entry's own field values (``pairs``: name and text, in the order
    they are tried) written as ``{field}`` where they stand alone (not inside a longer
    word or number), or None if that would not read back exactly.  ``"place temple 1 on
    A3, turned 2"`` -> ``"place temple 1 on {cell}, turned {rotation}"``: the same
    template for every cell and rotation."""
    if "{" in value or "}" in value:
        return None
    found = value
    for name, text in pairs:
        if text:
            pattern = rf"(?<![A-Za-z0-9{{]){re.escape(text)}(?![A-Za-z0-9}}])"
            found = re.sub(pattern, "{" + name + "}", found)
    values = dict(pairs)
    return found if re.sub(r"\{([a-z_]+)\}", lambda m: values[m.group(1)], found) == value \
        else None


def fill(template: str, entry: dict[str, Any]) -> str:
    """A template of :func:`_template_of` with the entry's values written in (what clients do)."""
    return re.sub(r"\{([a-z_]+)\}", lambda m: str(entry[m.group(1)]), template)


def entries_table(entries: list[LegalEntry]) -> LegalTable:
    """One verb's entries as a table."""
    first = entries[0]
    known = first.keys()
    if all(entry.keys() == known for entry in entries):  # the usual case: one kind
        keys = [k for k in first if k != "verb"]
    else:  # in the order they first come
        keys = [k for k in dict.fromkeys(k for entry in entries for k in entry) if k != "verb"]
    columns = {k: [tuple(v) if isinstance(v, list) else v for v in (e.get(k) for e in entries)]
               for k in keys}
    return make_table(keys, columns, len(entries), first)


def make_table(
    keys: list[str], columns: dict[str, list[Any]], count: int, first: LegalEntry,
) -> LegalTable:
    """The table of ``count`` entries given as ``columns`` (by key, in the entries'
    order; ``first`` is the first entry), worked out column by column: a column with one
    value is found by ``list.count``, a list column and the rows by ``zip``, at C speed
    (row by row in Python it was 40% of a seat part)."""
    fields = sorted((k for k in keys if k not in TEMPLATED),  # longest values first
                    key=lambda k: -len(str(first.get(k, ""))))
    templates = _templated(columns, fields, count)
    lists = {k: names for k in keys if isinstance(columns[k][0], (list, tuple))
             and (names := _list_of_fields(k, columns, fields))}
    same = {k: column[0] for k in keys if k not in lists and count > 1
            and (column := columns[k]).count(column[0]) == len(column)}
    keys = [k for k in keys if k not in lists and k not in same]
    made: LegalTable = {"keys": keys, "rows": list(zip(*(columns[k] for k in keys),
                                                     strict=True))}
    if not keys:  # every column shared or a list: one empty row per entry
        made["rows"] = [()] * count
    if same:
        made["same"] = same
    if lists:
        made["lists"] = lists
    if templates:
        made["templates"] = templates
    return made


def _templated(
    columns: dict[str, list[Any]], fields: list[str], count: int,
) -> dict[str, list[str]]:
    """The ``templates`` of a table of ``count`` entries: for each column of
    :data:`TEMPLATED` whose texts fit at most half as many templates as there are
    entries, the templates, and the column's texts replaced by their template's index
    (in ``columns``).  An entry's fields are paired with their texts once for both
    columns, and a column is given up as soon as it cannot be shared (one entry alone
    never is)."""
    if count < 2:
        return {}
    pairs = _pair_rows(columns, fields, count)
    templates: dict[str, list[str]] = {}
    for column in TEMPLATED:
        found = _template_index(columns.get(column), pairs)
        if found is not None:
            index, made = found
            templates[column] = list(index)
            columns[column] = [index[t] for t in made]
    return templates


def _pair_rows(
    columns: dict[str, list[Any]], fields: list[str], count: int,
) -> list[tuple[tuple[str, str], ...]]:
    """Each entry's fields that a template may name (strings and numbers, not flags or
    lists), with their values as text, in the order of ``fields``.  Worked out column
    by column: a column of flags or lists is skipped whole, and where every column has
    a text for every entry the rows are zipped at C speed."""
    texts: list[list[tuple[str, str] | None]] = []
    gaps = False
    for name in fields:
        values = columns[name]
        kinds = set(map(type, values))
        if kinds <= NO_TEXT:  # flags, lists: nothing to name
            continue
        if kinds == {str} or kinds == {int}:  # a text for every entry, paired at C speed
            texts.append(list(zip(itertools.repeat(name), map(str, values))))
            continue
        column = [(name, str(v)) if isinstance(v, (str, int)) and not isinstance(v, bool)
                  else None for v in values]
        missing = column.count(None)
        if missing < count:
            texts.append(column)
            gaps = gaps or missing > 0
    if not texts:
        return [()] * count
    rows = zip(*texts, strict=True)
    if gaps:
        return [tuple(pair for pair in row if pair is not None) for row in rows]
    return list(rows)


#: Kinds of field value a template never names.
NO_TEXT = frozenset({bool, list, tuple, dict, float, type(None)})


def _template_index(
    texts: list[Any] | None, pairs: list[tuple[tuple[str, str], ...]],
) -> tuple[dict[str, int], list[str]] | None:
    """The templates of ``texts`` (one per entry, with its ``pairs``) by their index
    and each text's own, or None when a text cannot be a template or more than half as
    many templates as texts would be needed."""
    if texts is None:
        return None
    limit = len(texts) // 2
    index: dict[str, int] = {}
    made: list[str] = []
    for text, own in zip(texts, pairs, strict=True):
        template = _template_of(text, own) if isinstance(text, str) else None
        if template is None:
            return None
        if template not in index:
            if len(index) == limit:
                return None
            index[template] = len(index)
        made.append(template)
    return index, made


def _list_of_fields(column: str, columns: dict[str, list[Any]], fields: list[str]) -> list[str]:
    """The fields whose values make up ``column`` in every entry (``cells`` of a move
    is ``[src, dst]``), or [] if there are none such."""
    values = columns[column]
    first = values[0]
    if not isinstance(first, (list, tuple)) or not first or not all(
            isinstance(v, str) for v in first):
        return []
    names = [next((f for f in fields if columns[f][0] == item), "") for item in first]
    if "" in names:
        return []
    made = list(zip(*(columns[n] for n in names), strict=True))
    return names if made == [tuple(v) for v in values] else []


def expand_legal(legal: dict[str, Any]) -> dict[str, list[LegalEntry]]:
    """The legal entries as objects again, as a client reads them (the inverse of
    :func:`entries_table`; groups that are lists already, as protocol 1 sent them, are
    kept)."""
    out: dict[str, list[LegalEntry]] = {}
    for verb, table in legal.items():
        if isinstance(table, list):
            out[verb] = table
            continue
        templates = table.get("templates") or {}
        entries = []
        for row in table["rows"]:
            entry = {"verb": verb, **_row_fields(table, row)}
            for column, names in (table.get("lists") or {}).items():
                entry[column] = [entry[name] for name in names]
            for column, texts in templates.items():
                entry[column] = fill(texts[entry[column]], entry)
            entries.append({k: list(v) if isinstance(v, tuple) else v
                            for k, v in entry.items() if v is not None})
        out[verb] = entries
    return out


def legal_notations(legal: dict[str, Any]) -> list[str]:
    """The notation of every legal action in a message's ``legal``, in order, without
    filling in the texts (what a client that only plays needs: a load client that
    expanded whole tables spent a fifth of its CPU on the texts)."""
    found: list[str] = []
    for table in legal.values():
        if isinstance(table, list):
            found.extend(entry["action"] for entry in table)
            continue
        template = (table.get("templates") or {}).get("action")
        for row in table["rows"]:
            fields = _row_fields(table, row)
            found.append(fields["action"] if template is None
                         else fill(template[fields["action"]], fields))
    return found


def _row_fields(table: dict[str, Any], row: list[Any]) -> dict[str, Any]:
    """One row of a compact legal table with the table's common values."""
    return {**table.get("same", {}), **dict(zip(table["keys"], row, strict=True))}
