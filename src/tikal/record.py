"""Game records: every action and chance outcome, in order (python-chess's PGN is the model).

A record replays without trusting the random generator: each chance entry
(``*draw B.2``, ``*token c``) is handed to the game as the outcome its action must
produce (``apply(action, chance=...)``), so the record alone decides what was drawn.
Replaying checks every entry and names the first bad one by index.
"""

from __future__ import annotations

from typing import Any, TypeVar

from .actions import Action, LogStep, log_steps, parse_action
from .components import rule_set
from .errors import ChanceError, IllegalAction, NotationError, RecordError
from .messages import Message
from .state import GameState

FORMAT = "tikal-record"
VERSION = 1

S = TypeVar("S", bound=GameState)


def game_record(game: GameState) -> dict[str, Any]:
    """The JSON-ready record of ``game`` from its setup to now."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.name,
        "options": dict(game.options),
        "players": game.players,
        "seed": game.seed,
        "log": [str(a) for a in game.history],
        "scoring": [e.to_json() for e in game.score_events],
        "result": {
            "over": game.is_over,
            "scores": list(game.scores),
            "winners": game.winners,
        },
    }


def _parse_log(log: Any) -> list[Action]:
    if not isinstance(log, list):
        raise RecordError(0, Message("record.log_list"))
    actions = []
    for i, entry in enumerate(log):
        if not isinstance(entry, str):
            raise RecordError(i, Message("record.not_string", {"entry": repr(entry)}))
        try:
            actions.append(parse_action(entry))
        except NotationError as exc:
            raise RecordError(i, exc.reason) from None
        except ValueError as exc:
            raise RecordError(i, str(exc)) from None
    return actions


def _new_game(record: dict[str, Any], cls: type[S]) -> S:
    try:
        players = record.get("players")
        options = record.get("options", {})
        seed = record.get("seed")
        if not isinstance(players, int) or not isinstance(options, dict):
            counts = rule_set(str(record.get("rules", ""))).player_counts
            problem = Message("record.players", {"counts": ", ".join(map(str, counts))})
            raise RecordError(-1, Message("record.header", {"reason": problem}))
        if seed is not None and not isinstance(seed, int):
            raise RecordError(-1, Message("record.header", {"reason": Message("record.seed")}))
        return cls.setup(str(record.get("rules", "")), players, seed, **options)
    except RecordError:
        raise
    except ValueError:
        problem = Message("record.setup", {"rules": str(record.get("rules", "")),
                                           "players": str(record.get("players"))})
        raise RecordError(-1, Message("record.header", {"reason": problem})) from None


def replay_record(record: Any, cls: type[S]) -> S:
    """Replay a record exactly as a game of class ``cls``; raises :class:`RecordError` at
    the first bad entry."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(-1, Message("record.not_format", {"format": FORMAT}))
    actions = _parse_log(record.get("log"))
    game = _new_game(record, cls)
    steps = log_steps(actions)
    try:
        game.start(chance=steps[0].chance)
    except ChanceError as exc:
        raise RecordError(exc.offset, exc.message) from None
    index = len(steps[0].chance)
    for step in steps[1:]:
        _replay_step(game, step, index)
        index += 1 + len(step.chance)
    _check_outcome(game, record)
    return game


def _replay_step(game: GameState, step: LogStep, index: int) -> None:
    """Play the step whose action is record entry ``index``, forcing its chance entries."""
    assert step.action is not None
    if len(game.history) != index:
        raise RecordError(index, Message("record.out_of_step"))
    try:
        game.apply(step.action, chance=step.chance)
    except IllegalAction as exc:
        raise RecordError(index, exc.reason, exc.rule) from None
    except ChanceError as exc:
        raise RecordError(index + 1 + exc.offset, exc.message) from None


def _check_outcome(game: GameState, record: dict[str, Any]) -> None:
    n = len(game.history)
    scoring = record.get("scoring")
    if scoring is not None and scoring != [e.to_json() for e in game.score_events]:
        raise RecordError(n, Message("record.scoring_differs"))
    result = record.get("result")
    if isinstance(result, dict) and "scores" in result and result["scores"] != game.scores:
        raise RecordError(n, Message("record.scores_differ", {
            "claimed": str(result["scores"]), "actual": str(game.scores)}))
