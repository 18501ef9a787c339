"""Live games in memory, rebuilt from storage; the single authority on every move.

Every game is a :class:`Session`: the stored setup, the stored log and the
engine :class:`~tikal.game.Game` obtained by replaying that log.  A move is
checked by the engine, appended to storage (committed), and only then
acknowledged and broadcast.  The state counter (``Session.state``) is the
sequence number of the last log entry; a move must name it, so stale or
replayed moves are refused.

Messages to clients are built from a :class:`~tikal.view.View` only (a seat's
view, or the public view for spectators) [HIDDEN-1].

Bots play in worker threads (never on the event loop) after a short delay.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from .. import bots as bots_module
from .. import svg
from ..actions import (
    Action,
    Bid,
    BuildCamp,
    Dig,
    Draw,
    EndTurn,
    Move,
    Pass,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    Reveal,
    SecretPath,
    Swap,
    TakeTreasure,
    parse_action,
    token_name,
)
from ..components import RULE_SET_NAMES, rule_set
from ..errors import IllegalAction, RecordError
from ..game import LEADER_PLACES, Game, GameState, Phase
from ..hexes import label
from ..seats import seat_look
from ..view import View
from .storage import GameRecord, LogEntry, SeatRecord, Storage, StorageConflict

#: Strongest first: the hint button asks the first one that exists.
HINT_PREFERENCE = ("hard", "mcts", "medium", "greedy", "easy", "random")


class ServerError(Exception):
    """A refused request: ``code`` is machine-readable, ``status`` the HTTP status."""

    def __init__(
        self, code: str, message: str, status: int = 400, rule: str | None = None,
        state: int | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
        self.state = state

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "error", "code": self.code, "message": self.message}
        if self.rule:
            data["rule"] = self.rule
            data["rule_url"] = f"/rules#{self.rule}"
        if self.state is not None:
            data["state"] = self.state
        return data


IMPERATIVE = {
    "placed": "place", "drew": "draw", "brought": "bring", "moved": "move", "took": "take",
    "dug": "dig", "exchanged": "exchange", "built": "build", "ended": "end", "passed": "pass",
    "picked": "pick", "found": "find",
}


def bot_names() -> list[str]:
    return list(bots_module.BOT_NAMES)


def hint_bot_name() -> str:
    names = bot_names()
    return next((n for n in HINT_PREFERENCE if n in names), names[0])


def new_token() -> str:
    return secrets.token_urlsafe(18)


# ------------------------------------------------------------------ rebuild


def _record_log(start: LogEntry, log: list[LogEntry]) -> list[str]:
    """The engine record log: start chance, then effective actions with their chance."""
    effective: list[LogEntry] = []
    for entry in log:
        if entry.kind == "undo":
            if not effective or effective[-1].chance:
                raise RecordError(entry.seq, "undo across a reveal in the stored log")
            effective.pop()
        elif entry.kind == "action":
            effective.append(entry)
    out = list(start.chance)
    for entry in effective:
        assert entry.action is not None
        out.append(entry.action)
        out.extend(entry.chance)
    return out


def effective_entries(log: list[LogEntry]) -> list[LogEntry]:
    """Log entries that still count (undone actions removed), without the start entry."""
    effective: list[LogEntry] = []
    for entry in log:
        if entry.kind == "undo":
            effective.pop()
        elif entry.kind == "action":
            effective.append(entry)
    return effective


def rebuild(game: GameRecord, log: list[LogEntry]) -> Game:
    """Replay a stored game exactly (chance outcomes forced from the log)."""
    if not log or log[0].kind != "start":
        raise RecordError(0, "stored log has no start entry")
    record = {
        "format": "tikal-record", "version": 1, "rules": game.rules, "options": game.options,
        "players": game.players, "seed": game.seed, "log": _record_log(log[0], log[1:]),
    }
    return Game.from_record(record)


# ------------------------------------------------------------------ describing


def _seat_name(seats: list[dict[str, Any]], p: int) -> str:
    return str(seats[p]["name"]) if 0 <= p < len(seats) else f"seat {p}"


def describe(
    action: Action, game_rules: str, seats: list[dict[str, Any]], drawn: str | None
) -> str:
    """A short English sentence for the log (the notation is shown beside it)."""
    rs = rule_set(game_rules)
    fig = "the leader" if getattr(action, "leader", False) else "a worker"
    if isinstance(action, PlaceTile):
        what = rs.tile(drawn).describe() if drawn else "the tile"
        return f"placed {what} on {label(action.cell)}"
    if isinstance(action, Draw):
        return f"drew {rs.tile(action.tile_id).describe()} ({action.tile_id})"
    if isinstance(action, Reveal):
        return f"found treasure {token_name(action.token).upper()}"
    if isinstance(action, PutFigure):
        return f"brought {fig} onto {label(action.cell)}"
    if isinstance(action, Move):
        return f"moved {fig} {label(action.src)} \u2192 {label(action.dst)}"
    if isinstance(action, SecretPath):
        return f"took a secret path with {fig} {label(action.src)} \u2192 {label(action.dst)}"
    if isinstance(action, Dig):
        return f"dug a temple level on {label(action.cell)}"
    if isinstance(action, TakeTreasure):
        return f"took a treasure on {label(action.cell)}"
    if isinstance(action, Swap):
        return (
            f"exchanged treasure {token_name(action.give).upper()} for "
            f"{_seat_name(seats, action.other)}'s {token_name(action.take).upper()}"
        )
    if isinstance(action, BuildCamp):
        return f"built a camp on {label(action.cell)}"
    if isinstance(action, PlaceGuard):
        return f"set {fig} as guard on {label(action.cell)}"
    if isinstance(action, EndTurn):
        return "ended the turn"
    if isinstance(action, Bid):
        return f"bid {action.amount}"
    if isinstance(action, Pass):
        return "passed"
    if isinstance(action, PickTile):
        return f"picked {rs.tile(action.tile_id).describe()} ({action.tile_id})"
    return str(action)


def readable_log(
    rules: str, seats: list[dict[str, Any]], start: LogEntry | None, entries: list[LogEntry],
    game: GameState,
) -> list[dict[str, Any]]:
    """The game log for display: one line per action or chance outcome, plus scorings."""
    lines: list[dict[str, Any]] = []
    drawn: str | None = None
    index = 0  # position in the engine history
    events = list(game.score_events)

    def flush_scores() -> None:
        while events and events[0].at < index:
            e = events.pop(0)
            lines.append({
                "seat": e.player, "kind": "score",
                "text": f"scored {e.total} (temples {e.temples}, treasures {e.treasures}) "
                        f"in scoring round {e.round}",
            })

    def add(seat: int, text: str, step: int | None) -> None:
        nonlocal drawn, index
        action = parse_action(text)
        if isinstance(action, (Draw, PickTile)):
            drawn = action.tile_id
        lines.append({
            "seat": seat, "kind": type(action).__name__.lower(), "notation": text,
            "text": describe(action, rules, seats, drawn), "step": step,
        })
        index += 1
        flush_scores()

    for text in start.chance if start else ():
        add(0, text, None)
    for step, entry in enumerate(entries, start=1):
        assert entry.action is not None
        add(entry.seat, entry.action, step)
        for text in entry.chance:
            add(entry.seat, text, step)
    flush_scores()
    return lines


# ------------------------------------------------------------------ sessions


@dataclass
class Session:
    record: GameRecord
    game: Game
    log: list[LogEntry]
    lock: threading.RLock = field(default_factory=threading.RLock)
    bots: dict[int, Any] = field(default_factory=dict)
    bot_busy: bool = False

    @property
    def state(self) -> int:
        return self.log[-1].seq if self.log else 0

    @property
    def game_id(self) -> str:
        return self.record.game_id

    def seats_json(self) -> list[dict[str, Any]]:
        out = []
        for p, seat in enumerate(self.record.seats):
            info = seat_look(p)
            out.append({
                "seat": p, "name": seat.name, "kind": seat.kind, "level": seat.level,
                "colour": info.colour, "ink": info.ink, "shape": info.shape,
                "colour_name": info.name,
            })
        return out


def _group_legal(game: GameState, actions: list[Action]) -> dict[str, list[dict[str, Any]]]:
    """Legal actions by verb, with AP costs and (for movement) source and target."""
    costs = game.rules.costs
    grouped: dict[str, list[dict[str, Any]]] = {}
    for action in actions:
        entry: dict[str, Any] = {"action": str(action)}
        if isinstance(action, Move):
            entry.update(
                src=label(action.src), dst=label(action.dst),
                fig="L" if action.leader else "W", cost=game.edge_cost(action.src, action.dst),
            )
        elif isinstance(action, SecretPath):
            entry.update(
                src=label(action.src), dst=label(action.dst),
                fig="L" if action.leader else "W", cost=costs.get("path", 1),
            )
        elif isinstance(action, PlaceTile):
            entry.update(cell=label(action.cell), rotation=action.rotation)
        elif isinstance(action, PutFigure):
            entry.update(cell=label(action.cell), fig="L" if action.leader else "W",
                         cost=costs["put"])
        elif isinstance(action, (Dig, TakeTreasure, BuildCamp)):
            entry.update(cell=label(action.cell), cost=costs[action.verb])
        elif isinstance(action, PlaceGuard):
            entry.update(cell=label(action.cell), fig="L" if action.leader else "W",
                         cost=costs["guard"])
        elif isinstance(action, Swap):
            entry.update(give=token_name(action.give), take=token_name(action.take),
                         other=action.other, cost=costs["swap"])
        elif isinstance(action, Bid):
            entry.update(amount=action.amount)
        elif isinstance(action, PickTile):
            entry.update(tile=action.tile_id)
        grouped.setdefault(action.verb, []).append(entry)
    return grouped




def _players_json(view: View, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    g = view.state
    rs = g.rules
    out = []
    for p in range(g.players):
        supply, board, gone = g.figures_total(p)
        counts = g.treasures[p]
        out.append({
            **seats[p],
            "score": g.scores[p],
            "treasures": {token_name(t): n for t, n in enumerate(counts) if n},
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
    seats_json = session.seats_json()
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
        "actions_available": sorted(rs.actions),
        "over": g.is_over,
        "winners": g.winners,
        "scores": list(g.scores),
        "player_info": _players_json(view, seats_json),
        "position": position,
        "svg": svg.board(view),
        "can_undo": your_turn and game.can_undo(),
        "log": readable_log(
            rs.name, seats_json, session.log[0] if session.log else None,
            effective_entries(session.log[1:]), g,
        ),
        "score_events": [e.to_json() | {"total": e.total} for e in g.score_events],
        "stack_left": len(g.stack),
        "display": [
            {"tile": t, "describe": rs.tile(t).describe(), "svg": svg.tile(t, 0, 34, rs.name)}
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
            "tile": g.drawn, "kind": spec.kind, "describe": spec.describe(),
            "groups": [svg.tile_group(spec, r, 50) for r in range(6)],
            "svgs": [svg.tile(spec, r, 40) for r in range(6)],
        }
    if g.phase is not Phase.OVER:
        msg["legal"] = _group_legal(g, g.legal_actions()) if your_turn else {}
    return msg


# ------------------------------------------------------------------ manager


Listener = Callable[[str], None]


class Manager:
    """All games of one server."""

    def __init__(self, storage: Storage, *, bot_delay: float = 0.6, bot_workers: int = 2) -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._pool = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="tikal-bot")
        self._closed = False
        self.replays: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}

    # -- lifecycle ---------------------------------------------------------

    def resume_all(self) -> int:
        """Load every stored game (after a restart) and restart bots whose turn it is."""
        count = 0
        for game_id in self.storage.game_ids():
            session = self.get(game_id)
            self._schedule_bot(session)
            count += 1
        return count

    def close(self) -> None:
        self._closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _notify(self, game_id: str) -> None:
        for listener in list(self._listeners):
            listener(game_id)

    # -- games -------------------------------------------------------------

    def get(self, game_id: str) -> Session:
        with self._lock:
            session = self.sessions.get(game_id)
            if session is not None:
                return session
        loaded = self.storage.load(game_id) if _plausible_id(game_id) else None
        if loaded is None or loaded[0].kind != "game":
            raise ServerError("unknown_game", f"there is no game {game_id!r}", 404)
        record, log = loaded
        game = rebuild(record, log)
        with self._lock:
            session = self.sessions.setdefault(game_id, Session(record, game, log))
        return session

    def create(
        self, rules: str, seats: list[dict[str, Any]], options: dict[str, Any] | None = None,
        hotseat: bool = False, seed: int | None = None,
    ) -> tuple[Session, dict[str, Any]]:
        """A new game; returns it and the secret links data (tokens per seat)."""
        if rules not in RULE_SET_NAMES:
            raise ServerError("bad_request", f"unknown rule set {rules!r}", 422)
        rs = rule_set(rules)
        if len(seats) not in rs.player_counts:
            counts = ", ".join(map(str, rs.player_counts))
            raise ServerError("bad_request", f"{rules} is for {counts} players", 422)
        options = dict(options or {})
        unknown = set(options) - set(rs.default_options)
        if unknown:
            names = ", ".join(sorted(unknown))
            raise ServerError("bad_request", f"unknown option(s): {names}", 422)
        levels = bot_names()
        records: list[SeatRecord] = []
        tokens: dict[str, tuple[int, ...]] = {}
        for p, seat in enumerate(seats):
            kind = seat.get("kind", "human")
            name = str(seat.get("name") or "").strip()[:24] or seat_look(p).name
            if kind == "bot":
                level = str(seat.get("level") or hint_bot_name())
                if level not in levels:
                    raise ServerError("bad_request", f"unknown bot level {level!r}", 422)
                records.append(SeatRecord("bot", name, level))
            elif kind == "human":
                token = new_token()
                tokens[token] = (p,)
                records.append(SeatRecord("human", name, None, token))
            else:
                raise ServerError(
                    "bad_request", f"seat kind must be human or bot, not {kind!r}", 422
                )
        humans = tuple(p for p, s in enumerate(records) if s.kind == "human")
        hotseat_token = None
        if hotseat and len(humans) > 1:
            hotseat_token = new_token()
            tokens[hotseat_token] = humans
        seeded = seed is not None
        seed = secrets.randbits(62) if seed is None else seed
        game = Game.new(rules, len(seats), seed=seed, **options)
        game_id = secrets.token_urlsafe(8)
        record = GameRecord(
            game_id=game_id, rules=rules, players=len(seats),
            options={**rs.default_options, **options}, seed=seed, seats=tuple(records),
            tokens=tokens, seeded=seeded,
        )
        start = LogEntry(seq=0, kind="start", seat=-1, chance=tuple(str(a) for a in game.history))
        self.storage.create(record)
        self.storage.append(game_id, start)
        session = Session(record, game, [start])
        with self._lock:
            self.sessions[game_id] = session
        links = {
            "seats": [
                {"seat": p, "kind": s.kind, "name": s.name, "level": s.level, "token": s.token}
                for p, s in enumerate(records)
            ],
            "hotseat_token": hotseat_token,
        }
        self._schedule_bot(session)
        return session, links

    def seats_for(self, session: Session, token: str | None) -> tuple[int, ...]:
        """The seats a token may act for; () for spectators (no token)."""
        if not token:
            return ()
        seats = session.record.tokens.get(token)
        if seats is None or not isinstance(token, str):
            raise ServerError("bad_token", "this link's token does not belong to this game", 403)
        return seats

    # -- moves -------------------------------------------------------------

    def act(self, game_id: str, token: str | None, text: Any, state: Any) -> Session:
        session = self.get(game_id)
        seats = self.seats_for(session, token)
        if not isinstance(text, str) or not text.strip() or len(text) > 64:
            raise ServerError("bad_request", "'action' must be an action in notation, e.g. 'end'")
        with session.lock:
            acting = self._check_turn(session, seats, state)
            if session.record.seats[acting].kind != "human":
                raise ServerError("forbidden", "a bot plays this seat", 403)
            self._apply(session, acting, text)
        self._after_change(session)
        return session

    def undo(self, game_id: str, token: str | None, state: Any) -> Session:
        session = self.get(game_id)
        seats = self.seats_for(session, token)
        with session.lock:
            acting = self._check_turn(session, seats, state)
            game = session.game
            if not game.can_undo():
                raise ServerError(
                    "illegal",
                    "nothing to undo: the turn has just begun or the last action revealed "
                    "hidden information (a tile or a treasure)",
                    422, rule="HIDDEN-1", state=session.state,
                )
            before = game.clone()
            game.undo()
            entry = LogEntry(seq=session.state + 1, kind="undo", seat=acting)
            self._store(session, entry, before)
        self._after_change(session)
        return session

    def _check_turn(self, session: Session, seats: tuple[int, ...], state: Any) -> int:
        if not seats:
            raise ServerError("forbidden", "spectators cannot act; open a seat's invite link", 403)
        if not isinstance(state, int) or isinstance(state, bool):
            raise ServerError("bad_request", "'state' (the state counter) must be an integer")
        if state != session.state:
            raise ServerError(
                "stale", f"the game has moved on (state {session.state}, your move was for "
                f"{state}); your screen is now up to date", 409, state=session.state,
            )
        game = session.game
        if game.is_over:
            raise ServerError("illegal", "the game is over", 422, rule="END-2", state=session.state)
        if game.current not in seats:
            who = session.record.seats[game.current].name
            raise ServerError(
                "not_your_turn", f"it is {who}'s turn, not yours", 403, state=session.state
            )
        return game.current

    def _apply(self, session: Session, seat: int, text: str) -> None:
        game = session.game
        try:
            action = parse_action(text)
        except ValueError as exc:
            raise ServerError("bad_action", str(exc), 422, rule="NOTATION",
                              state=session.state) from None
        before = game.clone()
        start = len(game.history)
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise ServerError("illegal", exc.message, 422, rule=exc.rule,
                              state=session.state) from None
        chance = tuple(str(a) for a in game.history[start + 1:])
        entry = LogEntry(seq=session.state + 1, kind="action", seat=seat, action=str(action),
                         chance=chance)
        self._store(session, entry, before)

    def _store(self, session: Session, entry: LogEntry, before: Game) -> None:
        try:
            self.storage.append(session.game_id, entry)
        except StorageConflict:
            session.game = before
            raise ServerError("stale", "another move was stored first", 409,
                              state=session.state) from None
        except Exception:
            session.game = before
            raise
        session.log.append(entry)
        if session.game.is_over:
            self.storage.set_status(session.game_id, "over")

    def _after_change(self, session: Session) -> None:
        self._notify(session.game_id)
        self._schedule_bot(session)

    # -- bots --------------------------------------------------------------

    def _bot_to_move(self, session: Session) -> int | None:
        game = session.game
        if game.is_over:
            return None
        seat = game.current
        return seat if session.record.seats[seat].kind == "bot" else None

    def _schedule_bot(self, session: Session) -> None:
        if self._closed:
            return
        with session.lock:
            if session.bot_busy or self._bot_to_move(session) is None:
                return
            session.bot_busy = True
        try:
            self._pool.submit(self._bot_turn, session)
        except RuntimeError:  # pool shut down
            session.bot_busy = False

    def _bot(self, session: Session, seat: int) -> Any:
        bot = session.bots.get(seat)
        if bot is None:
            level = session.record.seats[seat].level or "random"
            if level not in bot_names():  # a level that no longer exists: keep the game going
                level = hint_bot_name()
            bot = bots_module.make_bot(level, seed=random.randrange(2**31))
            session.bots[seat] = bot
        return bot

    def _bot_turn(self, session: Session) -> None:
        try:
            time.sleep(self.bot_delay)
            if self._closed:
                return
            with session.lock:
                seat = self._bot_to_move(session)
                if seat is None:
                    return
                state = session.state
                view = session.game.view(seat)
            self._notify(session.game_id)  # shows "thinking"
            action = self._bot(session, seat).choose(view)
            with session.lock:
                if session.state != state or self._closed:
                    return
                try:
                    self._apply(session, seat, str(action))
                except ServerError:
                    # A broken bot must not stall the game: fall back to any legal action.
                    self._apply(session, seat, str(random.choice(session.game.legal_actions())))
        except Exception:  # pragma: no cover - logged, game stays as stored
            import logging

            logging.getLogger("tikal.server").exception("bot move failed in %s", session.game_id)
        finally:
            session.bot_busy = False
        self._after_change(session)

    def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        session = self.get(game_id)
        seats = self.seats_for(session, token)
        with session.lock:
            if not seats or session.game.current not in seats or session.game.is_over:
                raise ServerError("forbidden", "hints are for the player to move", 403)
            view = session.game.view(session.game.current)
            state = session.state
        name = hint_bot_name()
        action = bots_module.make_bot(name, seed=random.randrange(2**31)).choose(view)
        text = describe(action, session.record.rules, session.seats_json(), view.state.drawn)
        first, _, rest = text.partition(" ")
        return {
            "type": "hint", "action": str(action), "bot": name, "state": state,
            "text": f"{IMPERATIVE.get(first, first)} {rest}".strip(),
        }

    # -- records and replays ---------------------------------------------------

    def record(self, game_id: str) -> dict[str, Any]:
        """The downloadable record; the seed is left out [HIDDEN-1]."""
        session = self.get(game_id)
        with session.lock:
            data = session.game.record()
        data["seed"] = None
        data["seats"] = [{"name": s.name, "kind": s.kind, "level": s.level}
                         for s in session.record.seats]
        data["game_id"] = game_id
        return data

    def upload(self, record: Any) -> str:
        """Store an uploaded record as a replay; raises ServerError if it does not replay."""
        if not isinstance(record, dict):
            raise ServerError("bad_record", "a record is a JSON object (format tikal-record)", 422)
        try:
            game = Game.from_record(record)
        except RecordError as exc:
            raise ServerError("bad_record", str(exc), 422, rule=exc.rule) from None
        seats = record.get("seats")
        names = [
            str(s.get("name")) if isinstance(s, dict) and s.get("name") else seat_look(p).name
            for p, s in enumerate(seats if isinstance(seats, list) else [None] * game.players)
        ][: game.players]
        while len(names) < game.players:
            names.append(seat_look(len(names)).name)
        clean = {k: record[k] for k in ("format", "version", "rules", "options", "players", "log")}
        clean["seed"] = None
        replay_id = "r" + secrets.token_urlsafe(8)
        self.storage.create(GameRecord(
            game_id=replay_id, rules=game.rules.name, players=game.players,
            options=dict(game.options), seed=0,
            seats=tuple(SeatRecord("human", n) for n in names), tokens={}, kind="replay",
            record=clean,
        ))
        return replay_id

    def replay_source(self, replay_id: str) -> tuple[dict[str, Any], list[str]]:
        """(record, seat names) of a stored game or an uploaded record."""
        if replay_id.startswith("r"):
            loaded = self.storage.load(replay_id) if _plausible_id(replay_id) else None
            if loaded is not None and loaded[0].kind == "replay" and loaded[0].record:
                return loaded[0].record, [s.name for s in loaded[0].seats]
        record = self.record(replay_id)
        return record, [s["name"] for s in record["seats"]]


def _plausible_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 40 and all(c.isalnum() or c in "-_" for c in game_id)
