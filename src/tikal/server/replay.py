"""Replays: step through a record move by move, each frame a public view [HIDDEN-1]."""

from __future__ import annotations

from typing import Any

from .. import svg
from ..actions import log_steps, parse_action
from ..errors import RecordError
from ..game import Game
from ..seats import seat_look
from .manager import describe

CHECKPOINT = 16


def _steps(log: list[str]) -> tuple[list[str], list[list[str]]]:
    """Split a record log into the opening chance run and player steps (action + chance)."""
    first, *rest = log_steps([parse_action(text) for text in log])
    return [str(c) for c in first.chance], [
        [str(step.action), *map(str, step.chance)] for step in rest
    ]


class Replay:
    """One record, checked once; frames are rebuilt on demand (replaying is fast)."""

    def __init__(self, replay_id: str, record: dict[str, Any], names: list[str]) -> None:
        self.replay_id = replay_id
        self.record = dict(record)
        self.record.pop("scoring", None)
        self.record.pop("result", None)
        try:
            self.start, self.steps = _steps(list(self.record.get("log") or []))
        except ValueError as exc:
            raise RecordError(0, str(exc)) from None
        self.final = Game.from_record(self.record)
        self.names = names
        self.checkpoints: list[Game] = []
        self.meta = self._describe_steps()

    def _advance(self, game: Game, entry: list[str]) -> None:
        game.apply(parse_action(entry[0]), chance=[parse_action(c) for c in entry[1:]])

    def _game_at(self, step: int) -> Game:
        base = min(step // CHECKPOINT, len(self.checkpoints) - 1)
        game = self.checkpoints[base].clone()
        for entry in self.steps[base * CHECKPOINT : step]:
            self._advance(game, entry)
        return game

    def _describe_steps(self) -> list[dict[str, Any]]:
        game = Game.from_record({**self.record, "log": list(self.start)})
        game.undo_enabled = False
        self.checkpoints = [game.clone()]
        seats = [{"name": n} for n in self.names]
        out = []
        for i, entry in enumerate(self.steps, start=1):
            seat = game.current
            text = describe(parse_action(entry[0]), game.rules.name, seats, game.drawn)
            extra = [describe(parse_action(c), game.rules.name, seats, None) for c in entry[1:]]
            scored = len(game.score_events)
            self._advance(game, entry)
            scores = [e.to_json() | {"total": e.total} for e in game.score_events[scored:]]
            if i % CHECKPOINT == 0:
                self.checkpoints.append(game.clone())
            out.append({
                "step": i, "seat": seat, "notation": entry[0], "text": text, "chance": extra,
                "scores": scores,
            })
        return out

    @property
    def total(self) -> int:
        return len(self.steps)

    def summary(self) -> dict[str, Any]:
        g = self.final
        return {
            "id": self.replay_id,
            "rules": g.rules.name,
            "players": g.players,
            "seats": [
                {"seat": p, "name": self.names[p], "colour": seat_look(p).colour,
                 "ink": seat_look(p).ink, "shape": seat_look(p).shape,
                 "colour_name": seat_look(p).name}
                for p in range(g.players)
            ],
            "total": self.total,
            "steps": self.meta,
            "over": g.is_over,
            "scores": list(g.scores),
            "winners": g.winners,
        }

    def frame(self, step: int) -> dict[str, Any]:
        step = max(0, min(step, self.total))
        game = self._game_at(step)
        view = game.view(None)
        g = view.state
        return {
            "step": step,
            "total": self.total,
            "svg": svg.board(view),
            "phase": g.phase.value,
            "current": g.current,
            "ap": g.ap,
            "scores": list(g.scores),
            "treasures": [
                {chr(97 + t): n for t, n in enumerate(g.treasures[p]) if n}
                for p in range(g.players)
            ],
            "drawn": g.drawn,
            "stack_left": len(g.stack),
            "over": g.is_over,
            "winners": g.winners,
            "score_events": [e.to_json() | {"total": e.total} for e in g.score_events],
        }
