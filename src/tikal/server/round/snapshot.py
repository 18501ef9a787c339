"""What clients are sent of a game: its snapshots (the public part, shared by every
connection, and a part per set of seats), the delta from one to the next, and the
:class:`Publisher` that keeps the latest snapshot of every game.

Everything here is built from a :class:`~tikal.view.View` (the public view; legal
actions are public) [HIDDEN-1].  Texts come from the engine's message catalog
(:func:`tikal.messages.render` of ``game.describe(action)``); nothing here knows what
an action of a given kind means.  The lean protocol (docs/web.md, "Protocol"): a
connection that holds the previous snapshot gets a ``delta`` (the paths that changed,
the new log lines), any other the full ``state``.  The board travels as one SVG
fragment per space and the log is extended incrementally, so building a message costs
the same early and late in a game.
"""

from __future__ import annotations

import functools
import itertools
import time

from ... import svg
from ...actions import token_name
from ...components import rule_set
from ...game import LEADER_PLACES, Phase
from ...hexes import label
from ...messages import DEFAULT_LANGUAGE
from ...view import View
from ..session import Session
from ..wire.diff import diff
from ..wire.schema import (
    PROTOCOL,
    ClockInfo,
    DeltaMessage,
    LegalTable,
    Op,
    PlayerInfo,
    PublicPart,
    Rotations,
    SeatPart,
    StateMessage,
)
from .board import BoardCache
from .legal import legal_tables
from .log import LogLines
from .texts import score_json, seat_json, shared_rule_set_json, tile_text, verb_titles

_revisions = itertools.count(1)


def players_json(view: View) -> list[PlayerInfo]:
    """What changes of each player in play (the seat's name and look are in ``seats``)."""
    g = view.state
    rs = g.rules
    out: list[PlayerInfo] = []
    for p in range(g.players):
        supply, board, gone = g.figures_total(p)
        out.append({
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


def seat_part(
    session: Session, seats: tuple[int, ...], language: str = DEFAULT_LANGUAGE,
    view: View | None = None,
) -> SeatPart:
    """What only the connections of ``seats`` are told: who they are, whether they act,
    and their legal actions (built from a view [HIDDEN-1]: ``view``, the snapshot's
    public one, else the acting seat's; every seat's view is the same redacted game,
    and legal actions are public).  A seat its stand-in bot plays is not the player's to
    move until taken back."""
    game = session.game
    your_turn = (bool(seats) and game.current in seats and not session.over
                 and game.current not in session.standins())
    part: SeatPart = {
        "you": list(seats), "spectator": not seats, "your_turn": your_turn,
        "can_undo": your_turn and game.can_undo(),
    }
    if game.phase is not Phase.OVER:
        legal: dict[str, LegalTable] = {}
        if your_turn:
            g = (view or game.view(game.current)).state
            legal = legal_tables(g, session.names, language)
        part["legal"] = legal
        part["verbs"] = verb_titles(list(legal), language)
    return part


POSITION_SHOWN_ELSEWHERE = (
    "legal", "history", "format", "version", "rules", "players", "phase", "current", "ap",
    "score_events", "display", "scoring", "auction", "drawn",
)


@functools.lru_cache(maxsize=512)
def tile_picture(rules: str, tile_id: str, language: str = DEFAULT_LANGUAGE) -> str:
    """A tile on offer in the auction, drawn once per rule set, tile and language (its
    accessible name is in ``language``)."""
    return svg.tile(tile_id, 0, 34, rules, language=language)


def common_start(texts: list[str]) -> str:
    """The longest text every one of ``texts`` starts with."""
    shortest = min(texts, key=len, default="")
    for i, char in enumerate(shortest):
        if any(t[i] != char for t in texts):
            return shortest[:i]
    return shortest


@functools.lru_cache(maxsize=512)
def tile_rotations(rules: str, tile_id: str) -> Rotations:
    """The drawn tile in each rotation (for the placement preview), drawn once per tile,
    as the text all six pictures share around the part that turns: ``head + middles[r] +
    tail`` is rotation ``r`` (a third of the six pictures' size).  Callers must not change
    the result: it is shared."""
    spec = rule_set(rules).tile(tile_id)
    groups = [svg.tile_group(spec, r, 50) for r in range(6)]
    head = common_start(groups)
    tail = common_start([g[len(head):][::-1] for g in groups])[::-1]
    return {"head": head, "tail": tail,
            "middles": [g[len(head):len(g) - len(tail)] for g in groups]}


def public_part(
    session: Session, board: BoardCache, language: str = DEFAULT_LANGUAGE,
    view: View | None = None,
) -> PublicPart:
    """Everything every connection is told, from the public view [HIDDEN-1] (``view``,
    else made here; the log is added by :class:`Snapshot`)."""
    view = view or session.game.view(None)
    g = view.state
    rs = g.rules
    position = view.position_json()
    for key in POSITION_SHOWN_ELSEWHERE:
        position.pop(key, None)
    if isinstance(position.get("board"), list):  # by space, so a new tile is one more key
        position["board"] = {entry["at"]: entry for entry in position["board"]}
    data: PublicPart = {
        "game_id": session.game_id,
        "rules": rs.name,
        "players": g.players,
        "seats": [seat_json(p, seat.name, seat.kind, seat.level, language)
                  for p, seat in enumerate(session.record.seats)],
        "phase": g.phase.value,
        "current": g.current,
        "ap": g.ap,
        "rule_set": shared_rule_set_json(rs.name, language),
        "over": session.over,
        "winners": session.winners,
        "scores": list(g.scores),
        "player_info": players_json(view),
        "position": position,
        "score_events": [score_json(e) for e in g.score_events],
        "stack_left": len(g.stack),
        "display": [
            {"tile": t, "describe": tile_text(g, t, language),
             "svg": tile_picture(rs.name, t, language)}
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
        "drawn": None,
        "board": board.update(view),
        "standins": standins_json(session),
        "ended_early": session.ended_early,
        "end_offers": session.end_offers(),
        "clock": clock_json(session),
    }
    if g.drawn is not None:
        spec = rs.tile(g.drawn)
        data["drawn"] = {
            "tile": g.drawn, "kind": spec.kind, "describe": tile_text(g, g.drawn, language),
            "rotations": tile_rotations(rs.name, g.drawn),
        }
    return data


def standins_json(session: Session) -> list[str | None]:
    playing = session.standins()
    return [playing.get(p) for p in range(session.record.players)]


def clock_json(session: Session) -> ClockInfo | None:
    """The clocks as of this state (the same for every connection: each counts down)."""
    clock = session.clock()
    if clock is None or session.record.clock is None:
        return None
    return {"control": dict(session.record.clock), "left": [round(x, 3) for x in clock.left],
            "running": clock.running, "since": round(clock.since, 3),
            "deadline": round(clock.deadline, 3) if clock.deadline is not None else None}


class Snapshot:
    """One state of a game as sent to clients in one language: the public part and the
    log (shared by every connection of that language), the seat parts (built once per
    set of seats), and the delta from the previous snapshot of that language."""

    def __init__(
        self, session: Session, log: LogLines, board: BoardCache, previous: Snapshot | None,
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.session = session
        self.language = language
        self.key = (session.state, session.bot_busy)
        self.rev = next(_revisions)
        self.previous_rev = previous.rev if previous is not None else -1
        #: The public view, shared by the public part and the seat parts (a view is a
        #: redacted copy of the game: one instead of two per change).
        self.view = session.game.view(None)
        self.public = public_part(session, board, language, self.view)
        first = log.update(session, session.game, session.names)
        self.log = list(log.lines)
        self.seats: dict[tuple[int, ...], SeatPart] = {}
        self.base = previous.key[0] if previous is not None else None
        self.ops: list[Op] = []
        self.log_from = first
        self.log_before = 0
        if previous is not None:
            diff(previous.public, self.public, [], self.ops)
            self.log_from = min(first, len(previous.log))
            self.log_before = len(previous.log)

    def seat(self, seats: tuple[int, ...]) -> SeatPart:
        part = self.seats.get(seats)
        if part is None:
            part = self.seats[seats] = seat_part(self.session, seats, self.language, self.view)
        return part

    def full(self, seats: tuple[int, ...]) -> StateMessage:
        """The whole state for a (re)connecting client."""
        msg: StateMessage = {
            "type": "state", "v": PROTOCOL, "state": self.key[0], "lang": self.language,
            **self.public, "log": self.log, **self.seat(seats)}  # type: ignore[typeddict-item]
        if self.public["clock"] is not None:
            msg["now"] = round(time.time(), 3)
        return msg

    def delta(self, seats: tuple[int, ...], had: SeatPart | None) -> DeltaMessage:
        """What changed since the previous snapshot, for a client that holds it and the
        seat part ``had``."""
        ops = list(self.ops)
        diff(had or {}, self.seat(seats), [], ops)
        msg: DeltaMessage = {"type": "delta", "v": PROTOCOL, "base": self.base,
                             "state": self.key[0]}
        if self.public["clock"] is not None:
            msg["now"] = round(time.time(), 3)
        if ops:
            msg["set"] = ops
        if self.log_from < max(len(self.log), self.log_before):
            msg["log"] = {"from": self.log_from, "lines": self.log[self.log_from:]}
        return msg


class Publisher:
    """The latest snapshot of every game in memory, per language (built under the
    session's lock).

    A language has its own public part, log and board (the board's titles and names are
    words too) and is built only while somebody asks for it; the board's spaces are
    drawn once per look and language for every game (:mod:`.spaces`).
    """

    def __init__(self) -> None:
        self._latest: dict[tuple[str, str], tuple[Session, LogLines, Snapshot]] = {}
        self._boards: dict[tuple[str, str], tuple[Session, BoardCache]] = {}

    def snapshot(self, session: Session, language: str = DEFAULT_LANGUAGE) -> Snapshot:
        with session.lock:
            found = self._latest.get((session.game_id, language))
            latest: Snapshot | None = None
            if found is not None and found[0] is session:
                _, log, latest = found
                if latest.key == (session.state, session.bot_busy):
                    return latest
            else:
                log = LogLines(language)
            key = (session.game_id, language)
            board = self._boards.get(key)
            if board is None or board[0] is not session:
                board = self._boards[key] = (session, BoardCache(language))
            snap = Snapshot(session, log, board[1], latest, language)
            self._latest[(session.game_id, language)] = (session, log, snap)
            return snap

    def follows(self, session: Session, language: str = DEFAULT_LANGUAGE) -> bool:
        """Whether the next snapshot of ``session`` in ``language`` follows one already
        built (and so costs only what changed: no whole board to draw)."""
        found = self._latest.get((session.game_id, language))
        return found is not None and found[0] is session

    def languages(self, game_id: str) -> set[str]:
        """The languages a snapshot of ``game_id`` is kept in."""
        return {language for game, language in self._latest if game == game_id}

    def forget(self, game_id: str) -> None:
        for key in [k for k in self._latest if k[0] == game_id]:
            self._latest.pop(key, None)
        for board in [k for k in self._boards if k[0] == game_id]:
            self._boards.pop(board, None)
