"""Oracles for the tests: messages built the plain way, and read as a client reads them.

The server builds its messages incrementally and remembers what it can
(:mod:`tikal.server.round`); these build the same things afresh, row by row, so tests
can compare the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tikal.messages import DEFAULT_LANGUAGE
from tikal.server.round.board import BoardCache
from tikal.server.round.legal import action_entry
from tikal.server.round.log import LogLines
from tikal.server.round.snapshot import Snapshot
from tikal.server.session import Session
from tikal.server.wire.legal import entries_table, expand_legal
from tikal.state import GameState


def legal_json(
    g: GameState, names: Sequence[str], language: str = DEFAULT_LANGUAGE,
) -> dict[str, list[dict[str, Any]]]:
    """The legal actions of the player to act as entries, grouped by verb (in the
    engine's order)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for action in g.legal_actions():
        grouped.setdefault(action.verb, []).append(action_entry(g, action, names, language))
    return grouped


def compact_legal(legal: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Legal entries per verb as the tables the wire carries."""
    return {verb: entries_table(entries) for verb, entries in legal.items()}


def readable(message: dict[str, Any]) -> dict[str, Any]:
    """A state message with its legal entries as objects."""
    out = dict(message)
    if isinstance(out.get("legal"), dict):
        out["legal"] = expand_legal(out["legal"])
    return out


def build_message(
    session: Session, seats: tuple[int, ...] | None, language: str = DEFAULT_LANGUAGE,
) -> dict[str, Any]:
    """The whole state message for ``seats`` (None or () for a spectator), built afresh
    from the session's views [HIDDEN-1]."""
    snap = Snapshot(session, LogLines(language), BoardCache(language), None, language)
    return dict(snap.full(tuple(seats or ())))
