"""Records and replays: download a game's record, upload one, step through either move by
move, each frame a public view [HIDDEN-1]."""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections import OrderedDict
from typing import Any

from .. import svg
from ..actions import LogStep, log_steps, parse_action, token_name
from ..errors import NotationError, RecordError
from ..game import Game
from ..messages import Message, render
from ..record import FORMAT, VERSION
from ..seats import seat_look
from ..state import ScoreEvent
from .errors import ServerError
from .limits import MAX_NAME
from .manager import Manager, plausible_id
from .round.texts import score_json, score_line, seat_json
from .store import GameRecord, SeatRecord, StorageUnavailable, UploadCap
from .store.rows import upload_digest

CHECKPOINT = 16
CACHE_SIZE = 32
#: Seconds between two stored visits of one upload (a visit keeps it from being evicted;
#: opening it again sooner changes nothing worth a write).
VISIT_EVERY = 600.0


# ------------------------------------------------------------------ records


def download_record(manager: Manager, game_id: str) -> dict[str, Any]:
    """The downloadable record of a game; the seed is left out [HIDDEN-1]."""
    session = manager.get(game_id)
    with session.lock:
        data = session.game.record()
    data["seed"] = None
    data["seats"] = [{"name": s.name, "kind": s.kind, "level": s.level}
                     for s in session.record.seats]
    data["game_id"] = game_id
    return data


def upload_record(manager: Manager, record: Any,
                  cap: UploadCap | None = None) -> tuple[str, list[str]]:
    """Store an uploaded record as a replay, once: the same record (and names) uploaded
    again gets the id it was stored under.  Uploads beyond ``cap`` are evicted, the
    oldest unvisited first.  Returns the id and the evicted ids; raises ServerError (422
    ``bad_record``, with the field at fault and the rule) if it does not replay, storing
    nothing."""
    if not isinstance(record, dict):
        raise ServerError("bad_record", Message("server.record_object"), 422)
    try:
        game = Game.from_record(record)
    except RecordError as exc:
        raise ServerError("bad_record", str(exc), 422, rule=exc.rule,
                          reason=exc.message, field=exc.field) from None
    names = seat_names(record.get("seats"), game.players)
    clean = {"format": FORMAT, "version": VERSION, "rules": game.rules.name,
             "options": dict(game.options), "players": game.players,
             "log": list(record["log"]), "seed": None}
    upload = GameRecord(
        game_id=new_replay_id(), rules=game.rules.name, players=game.players,
        options=dict(game.options), seed=0,
        seats=tuple(SeatRecord("human", n) for n in names), tokens={}, kind="replay",
        record=clean,
    )
    return manager.storage.store_upload(upload, upload_digest(clean, names),
                                        cap or UploadCap())


def seat_names(seats: Any, players: int) -> list[str]:
    """The shown names of an uploaded record's seats (``seats``, as downloads carry them,
    is optional: a missing seat or name is its colour's name)."""
    if seats is None:
        seats = []
    if not isinstance(seats, list) or len(seats) > players or not all(
            isinstance(s, dict) for s in seats):
        raise ServerError("bad_record", Message("server.record_seats", {"players": players}),
                          422, field="seats")
    names = []
    for p in range(players):
        name = seats[p].get("name") if p < len(seats) else None
        if name is not None and not isinstance(name, str):
            raise ServerError("bad_record", Message("server.record_seat_name"), 422,
                              field=f"seats[{p}].name")
        names.append(shown_name(name, p))
    return names


def shown_name(name: Any, seat: int) -> str:
    """A player's name as shown: at most :data:`MAX_NAME` characters, the seat's colour
    name if there is none."""
    text = " ".join(str(name or "").split())[:MAX_NAME]
    return text or seat_look(seat).name


def new_replay_id() -> str:
    """Ids of uploaded records: ``r`` and 12 characters, 13 in all, while game ids are
    always 11 (``token_urlsafe(8)``), so the two never collide or get mistaken."""
    return "r" + secrets.token_urlsafe(9)


def replay_source(
    manager: Manager, replay_id: str
) -> tuple[dict[str, Any], list[str], bool]:
    """(record, seat names, uploaded?) of an uploaded record or a stored game; which one
    an id names is what storage says of it (its kind), never a guess from its letters."""
    loaded = manager.storage.load(replay_id) if plausible_id(replay_id) else None
    if loaded is not None and loaded[0].kind == "replay" and loaded[0].record:
        names = [shown_name(s.name, p) for p, s in enumerate(loaded[0].seats)]
        return loaded[0].record, names, True
    record = download_record(manager, replay_id)
    return record, [shown_name(s["name"], p) for p, s in enumerate(record["seats"])], False


# ------------------------------------------------------------------ replays


class Replay:
    """One record, checked once; frames are rebuilt on demand (replaying is fast)."""

    def __init__(self, replay_id: str, record: dict[str, Any], names: list[str]) -> None:
        self.replay_id = replay_id
        self.record = dict(record)
        self.record.pop("scoring", None)
        self.record.pop("result", None)
        try:
            setup, *self.steps = log_steps([parse_action(t) for t in self.record.get("log") or []])
        except NotationError as exc:
            raise RecordError(0, exc.reason) from None
        except ValueError as exc:
            raise RecordError(0, str(exc)) from None
        self.start = [str(c) for c in setup.chance]
        self.final = Game.from_record(self.record)
        self.names = names
        #: a game played here: each step's stand-in level (if a bot played it for the
        #: seat's player), and whether the players ended it early (the record has neither)
        self.by_bot: list[str | None] = []
        self.ended_early = False
        self.checkpoints: list[Game] = []
        self._steps: dict[str, list[dict[str, Any]]] = {}
        self._events: list[list[ScoreEvent]] = []
        self.meta = self._describe_steps()

    @staticmethod
    def _advance(game: Game, step: LogStep) -> None:
        assert step.action is not None
        game.apply(step.action, chance=step.chance)

    def _game_at(self, step: int) -> Game:
        base = min(step // CHECKPOINT, len(self.checkpoints) - 1)
        game = self.checkpoints[base].clone()
        for entry in self.steps[base * CHECKPOINT : step]:
            self._advance(game, entry)
        return game

    def steps_in(self, language: str) -> list[dict[str, Any]]:
        """Every step with its texts in ``language`` (rendered once per language)."""
        found = self._steps.get(language)
        if found is None:
            final, names = self.final, self.names
            found = [
                {**entry,
                 "text": render(final.describe(step.action), "log", names, language),
                 "chance": [render(final.describe(c), "log", names, language)
                            for c in step.chance],
                 "scores": [score_line(e, names, language) for e in events]}
                for entry, step, events in zip(self.meta, self.steps, self._events, strict=True)
                if step.action is not None
            ]
            self._steps[language] = found
        return found

    def _describe_steps(self) -> list[dict[str, Any]]:
        """Seat, notation and text of every step; texts from the final game, which can
        describe every action of its history."""
        game = Game.from_record({**self.record, "log": list(self.start)})
        game.undo_enabled = False
        self.checkpoints = [game.clone()]
        final, names = self.final, self.names
        out = []
        for i, step in enumerate(self.steps, start=1):
            assert step.action is not None
            seat = game.current
            scored = len(game.score_events)
            self._advance(game, step)
            if i % CHECKPOINT == 0:
                self.checkpoints.append(game.clone())
            out.append({
                "step": i, "seat": seat, "notation": str(step.action),
                "text": render(final.describe(step.action), "log", names),
                "chance": [render(final.describe(c), "log", names) for c in step.chance],
                "scores": [score_line(e, names) for e in game.score_events[scored:]],
            })
            self._events.append(list(game.score_events[scored:]))
        self._steps["en"] = out
        return out

    @property
    def total(self) -> int:
        return len(self.steps)

    def summary(self, language: str = "en") -> dict[str, Any]:
        g = self.final
        return {
            "id": self.replay_id,
            "rules": g.rules.name,
            "players": g.players,
            "seats": [seat_json(p, self.names[p], language=language) for p in range(g.players)],
            "total": self.total,
            "steps": self.steps_in(language),
            "over": g.is_over,
            "scores": list(g.scores),
            "winners": g.winners,
            "by": self.by_bot,
            "ended_early": self.ended_early,
        }

    def frame(self, step: int, language: str = "en") -> dict[str, Any]:
        if not 0 <= step <= self.total:
            raise ServerError("no_frame", Message(
                "server.no_frame", {"last": self.total, "step": step}), 404)
        game = self._game_at(step)
        view = game.view(None)
        g = view.state
        return {
            "step": step,
            "total": self.total,
            "svg": svg.board(view, language=language),
            "phase": g.phase.value,
            "current": g.current,
            "ap": g.ap,
            "scores": list(g.scores),
            "treasures": [
                {token_name(t): n for t, n in enumerate(g.treasures[p]) if n}
                for p in range(g.players)
            ],
            "drawn": g.drawn,
            "stack_left": len(g.stack),
            "over": g.is_over,
            "winners": g.winners,
            "score_events": [score_json(e) for e in g.score_events],
        }


class Replays:
    """Replays by id, the last few kept (finished games only: a game in progress changes);
    uploads (``uploads``: their cap) and their visits."""

    def __init__(self, manager: Manager, size: int = CACHE_SIZE,
                 uploads: UploadCap | None = None) -> None:
        self.manager = manager
        self.size = size
        self.uploads = uploads or UploadCap()
        self._cache: OrderedDict[str, Replay] = OrderedDict()
        self._visited: OrderedDict[str, float] = OrderedDict()  # upload -> visit stored
        self._lock = threading.Lock()

    def upload(self, record: Any) -> str:
        """Store an uploaded record (:func:`upload_record`, within :attr:`uploads`); the
        evicted ones leave the cache too."""
        replay_id, evicted = upload_record(self.manager, record, self.uploads)
        with self._lock:
            for gone in evicted:
                self._cache.pop(gone, None)
                self._visited.pop(gone, None)
        return replay_id

    def get(self, replay_id: str) -> Replay:
        with self._lock:
            found = self._cache.get(replay_id)
            if found is not None:
                self._cache.move_to_end(replay_id)
        if found is not None:
            self._visit(replay_id)
            return found
        record, names, uploaded = replay_source(self.manager, replay_id)
        try:
            replay = Replay(replay_id, record, names)
        except RecordError as exc:
            raise ServerError("bad_record", str(exc), 422, reason=exc.message) from None
        if not uploaded:
            session = self.manager.get(replay_id)
            replay.by_bot, replay.ended_early = session.standin_levels(), session.ended_early
            if not session.over:
                return replay  # a game in progress changes; do not cache
        with self._lock:
            self._cache[replay_id] = replay
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
            if uploaded:
                self._visited.setdefault(replay_id, 0.0)
        self._visit(replay_id)
        return replay

    def _visit(self, replay_id: str) -> None:
        """Store that an upload was opened (at most every :data:`VISIT_EVERY` seconds;
        if the storage cannot now, the visit is simply not counted)."""
        now = time.time()
        with self._lock:
            last = self._visited.get(replay_id)
            if last is None or now - last < VISIT_EVERY:
                return  # not an upload, or a visit stored a moment ago
            self._visited[replay_id] = now
            self._visited.move_to_end(replay_id)
            while len(self._visited) > 16 * self.size:
                self._visited.popitem(last=False)
        with contextlib.suppress(StorageUnavailable):  # logged by the storage
            self.manager.storage.visit(replay_id, now)
