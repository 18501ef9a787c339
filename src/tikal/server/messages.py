"""What clients are sent: the state message, legal actions, the game log, seats.

Everything here is built from a :class:`~tikal.view.View` (a seat's view, or the public
view for spectators) [HIDDEN-1].  Texts come from the engine's message catalog
(:func:`tikal.messages.render` of ``game.describe(action)``); nothing here knows what
an action of a given kind means.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import svg
from ..actions import Action, log_steps, token_name
from ..components import RuleSet
from ..game import LEADER_PLACES, Phase
from ..hexes import label
from ..messages import Message, catalog, render
from ..seats import seat_look
from ..state import GameState, ScoreEvent
from ..view import View
from .session import Session


def seat_json(
    seat: int, name: str, kind: str | None = None, level: str | None = None
) -> dict[str, Any]:
    """A seat as clients draw it: its name and its look from :mod:`tikal.seats`."""
    look = seat_look(seat)
    data: dict[str, Any] = {"seat": seat, "name": name}
    if kind is not None:
        data.update(kind=kind, level=level)
    data.update(colour=look.colour, ink=look.ink, shape=look.shape, colour_name=look.name)
    return data


def action_entry(g: GameState, action: Action, names: Sequence[str]) -> dict[str, Any]:
    """One action for a client: its fields, notation, cost, spaces and text (imperative)."""
    return {
        "action": str(action),
        **action.to_json(),
        "cost": g.cost(action),
        "cells": [label(cell) for cell in action.cells],
        "text": render(g.describe(action), "action", names),
    }


def legal_json(g: GameState, names: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """The legal actions of the player to act, grouped by verb (in the engine's order)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for action in g.legal_actions():
        grouped.setdefault(action.verb, []).append(action_entry(g, action, names))
    return grouped


def verb_titles(verbs: Sequence[str]) -> dict[str, str]:
    """A heading per verb, where the catalog names the deed (``deed.dig``: "digging a level")."""
    known = catalog()
    return {verb: render(Message(f"deed.{verb}")) for verb in verbs if f"deed.{verb}" in known}


def tile_text(g: GameState, tile_id: str) -> str:
    """How a terrain tile reads ("temple 5"), in the catalog's words."""
    return render(g.describe_tile(tile_id))


def score_json(event: ScoreEvent) -> dict[str, int]:
    return event.to_json() | {"total": event.total}


def score_line(event: ScoreEvent, names: Sequence[str]) -> dict[str, Any]:
    """A log line for one player's scoring, its text from the catalog."""
    return {
        "seat": event.player, "kind": "score", "score": score_json(event),
        "text": render(event.describe(), "log", names),
    }


def rule_set_json(rs: RuleSet) -> dict[str, Any]:
    """What a client needs to know of a rule set to lay out its screens (no rules)."""
    return {
        "players": list(rs.player_counts), "action_points": rs.action_points,
        "costs": dict(rs.costs), "auction": rs.auction, "actions": sorted(rs.actions),
        "tiles": len(rs.terrain), "options": dict(rs.default_options),
        "option_texts": {name: render(Message(f"option.{name}")) for name in rs.default_options},
    }


def log_lines(
    g: GameState, actors: Sequence[int], names: Sequence[str]
) -> list[dict[str, Any]]:
    """The game so far: a line per action, per chance outcome and per scoring.

    ``actors`` is the seat that played each step after the setup (the setup's draws are
    shown as seat 0's).  Past actions are described on the present game, which the
    engine supports for every action in its history.
    """
    lines: list[dict[str, Any]] = []
    events = list(g.score_events)
    shown = 0  # history entries shown so far
    for number, step in enumerate(log_steps(g.history)):
        seat = actors[number - 1] if 0 < number <= len(actors) else 0
        for action in (step.action, *step.chance):
            if action is None:
                continue
            lines.append({
                "seat": seat, "kind": "chance" if action.is_chance else "action",
                "notation": str(action), "text": render(g.describe(action), "log", names),
                "step": number or None,
            })
            shown += 1
            while events and events[0].at < shown:
                event = events.pop(0)
                lines.append(score_line(event, names))
    lines.extend(score_line(e, names) for e in events)
    return lines


def players_json(view: View, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    g = view.state
    rs = g.rules
    out = []
    for p in range(g.players):
        supply, board, gone = g.figures_total(p)
        out.append({
            **seats[p],
            "score": g.scores[p],
            "treasures": {token_name(t): n for t, n in enumerate(g.treasures[p]) if n},
            "treasure_points": g.treasure_points(p),
            "temple_points": g.temple_points(p),
            "supply_workers": g.supply[p],
            "leader": LEADER_PLACES.get(g.leader[p]) or label(g.leader[p]),
            "on_board": board, "out": gone, "in_supply": supply,
            "camps_left": rs.camps_max - len(g.own_camps(p)),
            "guards_left": rs.guards_max - g.guards_of(p),
            "bids_paid": g.bids_paid[p],
            "marker": g.markers[p],
        })
    return out


def build_message(session: Session, seats: tuple[int, ...] | None) -> dict[str, Any]:
    """The whole per-seat state message; built only from that seat's view [HIDDEN-1].

    ``seats`` are the seats the receiving connection controls (None or () for a
    spectator).  In Tikal no seat has private information, so all views show the
    same public position; only the controls differ.
    """
    game = session.game
    viewer = (game.current if seats and game.current in seats else seats[0]) if seats else None
    view = game.view(viewer)
    g = view.state
    names = session.names
    seats_json = [
        seat_json(p, seat.name, seat.kind, seat.level)
        for p, seat in enumerate(session.record.seats)
    ]
    your_turn = bool(seats) and g.current in (seats or ()) and not g.is_over
    rs = g.rules
    position = view.to_json()
    position.pop("legal", None)
    position.pop("history", None)
    msg: dict[str, Any] = {
        "type": "state",
        "game_id": session.game_id,
        "state": session.state,
        "rules": rs.name,
        "players": g.players,
        "seats": seats_json,
        "you": list(seats or ()),
        "spectator": not seats,
        "phase": g.phase.value,
        "current": g.current,
        "your_turn": your_turn,
        "ap": g.ap,
        "ap_max": rs.action_points,
        "costs": dict(rs.costs),
        "rule_set": rule_set_json(rs),
        "over": g.is_over,
        "winners": g.winners,
        "scores": list(g.scores),
        "player_info": players_json(view, seats_json),
        "position": position,
        "svg": svg.board(view),
        "can_undo": your_turn and game.can_undo(),
        "log": log_lines(g, session.actors(), names),
        "score_events": [score_json(e) for e in g.score_events],
        "stack_left": len(g.stack),
        "display": [
            {"tile": t, "describe": tile_text(g, t), "svg": svg.tile(t, 0, 34, rs.name)}
            for t in g.display
        ],
        "auction": {
            "order": list(g.bid_order), "passed": list(g.passed), "high_bid": g.high_bid,
            "high_bidder": g.high_bidder,
        },
        "scoring": {
            "queue": list(g.scoring_queue), "final": g.scoring_final, "rounds": g.scoring_rounds,
        },
        "bot_thinking": session.bot_busy,
        "seeded": session.record.seeded,
    }
    if g.drawn is not None:
        spec = rs.tile(g.drawn)
        msg["drawn"] = {
            "tile": g.drawn, "kind": spec.kind, "describe": tile_text(g, g.drawn),
            "groups": [svg.tile_group(spec, r, 50) for r in range(6)],
            "svgs": [svg.tile(spec, r, 40) for r in range(6)],
        }
    if g.phase is not Phase.OVER:
        legal = legal_json(g, names) if your_turn else {}
        msg["legal"] = legal
        msg["verbs"] = verb_titles(list(legal))
    return msg
