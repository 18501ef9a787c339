"""A game's log as clients are told it, extended line by line as the game goes on."""

from __future__ import annotations

from collections.abc import Sequence

from ...actions import Action, log_steps
from ...messages import DEFAULT_LANGUAGE
from ...state import GameState
from ..session import Session
from ..wire.schema import ActionLine, LogLine
from .texts import cached_render, score_line


class LogLines:
    """A game's log lines, extended as the game goes on and cut back on undo.

    Each :meth:`update` describes only the history entries added since the last one, so
    a long game costs no more per move than a short one.  A mark after every update
    (history length, line count, score events, step number, last action) lets an undo
    cut the lines back to the last mark that is still part of the history.
    """

    def __init__(self, language: str = DEFAULT_LANGUAGE) -> None:
        self.language = language
        self.lines: list[LogLine] = []
        self.marks: list[tuple[int, int, int, int, Action | None]] = [(0, 0, 0, 0, None)]

    def _valid(self, g: GameState, mark: tuple[int, int, int, int, Action | None]) -> bool:
        hist, _, events, _, last = mark
        if hist > len(g.history) or events > len(g.score_events):
            return False
        return hist == 0 or g.history[hist - 1] == last

    def update(self, session: Session, g: GameState, names: Sequence[str]) -> int:
        """Bring the lines up to ``g``; returns the index of the first line that changed."""
        while len(self.marks) > 1 and not self._valid(g, self.marks[-1]):
            self.marks.pop()
        hist, count, seen, number, _ = self.marks[-1]
        del self.lines[count:]
        if hist == len(g.history) and seen == len(g.score_events):
            return count
        steps = log_steps(g.history[hist:])
        if hist and steps and steps[0].action is None and not steps[0].chance:
            steps = steps[1:]
        actors = step_actors(session, max(number, 1), len(steps) - (hist == 0))
        events = g.score_events
        shown = hist
        by_bot = session.standin_levels()
        for step in steps:
            seat = actors.get(number, 0)
            for action in (step.action, *step.chance):
                if action is None:
                    continue
                line: ActionLine = {
                    "seat": seat, "kind": "chance" if action.is_chance else "action",
                    "notation": str(action),
                    "text": cached_render(g.describe(action), "log", names, self.language),
                    "step": number or None,
                }
                level = by_bot[number - 1] if 0 < number <= len(by_bot) else None
                if level is not None and action is step.action:
                    line["by"] = level
                self.lines.append(line)
                shown += 1
                while seen < len(events) and events[seen].at < shown:
                    self.lines.append(score_line(events[seen], names, self.language))
                    seen += 1
            number += 1
        while seen < len(events):
            self.lines.append(score_line(events[seen], names, self.language))
            seen += 1
        last = g.history[-1] if g.history else None
        self.marks.append((len(g.history), len(self.lines), seen, number, last))
        return count


def step_actors(session: Session, first: int, new: int) -> dict[int, int]:
    """The seat that played steps ``first`` .. ``first + new - 1`` (by step number; the
    setup, step 0, is shown as seat 0's).  When the stored log ends in ``new`` actions
    (no undo among them) those are the steps, so only they are read."""
    if new <= 0:
        return {}
    tail = session.log[-new:]
    if len(session.log) > new and all(e.kind == "action" for e in tail):
        return {first + i: entry.seat for i, entry in enumerate(tail)}
    return {k: seat for k, seat in enumerate(session.actors(), start=1)}
