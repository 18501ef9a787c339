"""The legal actions of the seat to act, as the tables clients are sent
(:mod:`tikal.server.wire.legal`), built from the engine's offers: each action's
notation, fields and spaces written once, each verb's table made once per list of
offers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...actions import Action
from ...hexes import label
from ...messages import DEFAULT_LANGUAGE
from ...state import GameState
from ..wire.legal import entries_table, make_table
from ..wire.schema import LegalEntry, LegalTable
from .texts import cached_render

#: What an action shows of itself, by the action's identity: its notation, its fields
#: as :meth:`~tikal.actions.Action.to_json` writes them, its spaces' labels, and the
#: action (held, so its ``id`` stays its own).  Actions are immutable and the engine
#: offers the same few thousand objects again and again, so each is written once
#: (``str``, ``to_json`` and the labels were a quarter of the legal entries' time); by
#: identity, since a frozen dataclass hashes its fields in Python on every lookup.
#: Callers must not change what they get: it is shared.
Facts = tuple[str, dict[str, Any], tuple[str, ...], Action]
_facts: dict[int, Facts] = {}
FACTS_CACHE_SIZE = 50_000


def action_facts(action: Action) -> Facts:
    """``(str(action), action.to_json(), labels of action.cells, action)``, each action
    written once."""
    found = _facts.get(id(action))
    if found is None or found[3] is not action:
        if len(_facts) >= FACTS_CACHE_SIZE:
            _facts.clear()
        found = _facts[id(action)] = (
            str(action), action.to_json(), tuple(label(cell) for cell in action.cells), action)
    return found


def action_entry(
    g: GameState, action: Action, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> LegalEntry:
    """One action for a client: its fields, notation, cost, spaces and text (imperative)."""
    return _entry(action, g.cost(action),
                  cached_render(g.describe(action), "action", names, language))


def _entry(action: Action, cost: int, text: str) -> LegalEntry:
    notation, fields, cells, _ = action_facts(action)
    return {"action": notation, **fields, "cost": cost, "cells": list(cells), "text": text}


#: Legal tables by their offers (see :func:`legal_tables`).
_tables: dict[tuple[tuple[str, int, str], ...], LegalTable] = {}
TABLE_CACHE_SIZE = 8192


def legal_tables(
    g: GameState, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> dict[str, LegalTable]:
    """The legal actions of ``g`` by verb, as tables (:func:`entries_table` of each
    verb's :func:`action_entry` list), each made once per list of offers.  A table is
    a function of its offers' notations (each names one action), costs and texts
    alone, and the same tables come again and again (ending the turn, the same moves in
    another game or turn): over 20 random two-player games 80% of the tables and 40% of
    the offers had been seen before.  Callers must not change the tables: they are
    shared."""
    grouped: dict[str, list[tuple[str, int, str]]] = {}
    facts: dict[str, list[Facts]] = {}
    for action in g.legal_actions():
        known = action_facts(action)
        offer = (known[0], g.cost(action),
                 cached_render(g.describe(action), "action", names, language))
        verb = action.verb
        if verb in grouped:
            grouped[verb].append(offer)
            facts[verb].append(known)
        else:
            grouped[verb], facts[verb] = [offer], [known]
    return {verb: _shared_table(offers, facts[verb]) for verb, offers in grouped.items()}


def _shared_table(offers: list[tuple[str, int, str]], facts: list[Facts]) -> LegalTable:
    key = tuple(offers)
    found = _tables.get(key)
    if found is None:
        if len(_tables) >= TABLE_CACHE_SIZE:
            _tables.clear()
        made = _offer_columns(facts, offers)
        if made is None:
            found = entries_table([_entry(known[3], cost, text)
                                  for known, (_, cost, text) in zip(facts, offers, strict=True)])
        else:
            found = make_table(list(made), made, len(offers), _entry(facts[0][3], *offers[0][1:]))
        _tables[key] = found
    return found


#: The keys a legal entry adds to its action's fields.
ENTRY_KEYS = frozenset({"action", "cost", "cells", "text"})


def _offer_columns(
    facts: list[Facts], offers: list[tuple[str, int, str]],
) -> dict[str, list[Any]] | None:
    """The columns of the offers' entries (:func:`action_entry`), in their keys' order,
    made straight from the actions' facts (no entry is built: an entry per offer cost
    more than the table).  None when the actions' fields differ in their names or
    order, or name a key the entry adds."""
    order = tuple(facts[0][1])
    if not ENTRY_KEYS.isdisjoint(order) or any(tuple(f[1]) != order for f in facts):
        return None
    columns: dict[str, list[Any]] = {"action": [f[0] for f in facts]}
    columns.update(zip(order, map(list, zip(*(f[1].values() for f in facts), strict=True)),
                       strict=True))
    columns.pop("verb", None)
    columns["cost"] = [cost for _, cost, _ in offers]
    columns["cells"] = [f[2] for f in facts]  # tuples, shared with the facts
    columns["text"] = [text for _, _, text in offers]
    return columns
