"""Game records: every action and chance outcome, in order (python-chess's PGN is the model).

A record replays without trusting the random generator: each chance entry
(``*draw B.2``, ``*token c``) is handed to the game as the outcome its action must
produce (``apply(action, chance=...)``), so the record alone decides what was drawn.
Replaying checks every entry and names the first bad one by index.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from .actions import Action, LogStep, log_steps, parse_action
from .components import RULE_SET_NAMES, rule_set
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
        raise RecordError(0, Message("record.log_list"), field="log")
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


def _header_error(field: str, problem: Message) -> RecordError:
    """A header field that is wrong, named with what it must be."""
    return RecordError(-1, Message("record.field", {"field": field, "reason": problem}),
                       field=field)


def _is_int(value: Any) -> bool:
    """An integer of JSON (a boolean is not one, though Python counts it as one)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _header(record: dict[str, Any]) -> tuple[str, int, int | None, dict[str, Any]]:
    """(rules, players, seed, options) of a record, each checked for its type and range:
    every field a record may carry is named when it is wrong, before anything is set up."""
    version = record.get("version", VERSION)
    if not _is_int(version) or version != VERSION:
        raise _header_error("version", Message("record.version", {"version": VERSION}))
    rules = record.get("rules")
    if not isinstance(rules, str) or rules not in RULE_SET_NAMES:
        raise _header_error("rules", Message(
            "record.rules", {"names": ", ".join(RULE_SET_NAMES)}))
    counts = rule_set(rules).player_counts
    players = record.get("players")
    if not _is_int(players) or players not in counts:
        raise _header_error("players", Message(
            "record.players", {"counts": ", ".join(map(str, counts))}))
    seed = record.get("seed")
    if seed is not None and not _is_int(seed):
        raise _header_error("seed", Message("record.seed"))
    return rules, players, seed, _options(rules, record.get("options", {}))


def _options(rules: str, options: Any) -> dict[str, Any]:
    """The record's options: an object of the rule set's options, each of its default's
    type (``camp_needs_own_figure`` is true or false, never 1)."""
    defaults = rule_set(rules).default_options
    if not isinstance(options, dict):
        raise _header_error("options", Message("record.options_object"))
    for name, value in options.items():
        if name not in defaults:
            raise _header_error(f"options.{name}", Message("record.option_unknown", {
                "rules": rules, "names": ", ".join(defaults) or "-"}))
        if type(value) is not type(defaults[name]):
            key = "record.option_bool" if isinstance(defaults[name], bool) else "record.option_type"
            raise _header_error(f"options.{name}", Message(key, {"default": defaults[name]}))
    return options


def _new_game(record: dict[str, Any], cls: type[S]) -> S:
    rules, players, seed, options = _header(record)
    return cls.setup(rules, players, seed, **options)


def replay_record(record: Any, cls: type[S]) -> S:
    """Replay a record exactly as a game of class ``cls``; raises :class:`RecordError` at
    the first bad entry."""
    *_, game = replay_steps(record, cls)
    _check_outcome(game, record)
    return game


def replay_steps(record: Any, cls: type[S]) -> Iterator[S]:
    """The game of a record as it replays: once set up, then after every logged action
    (one game object, advanced between the yields).  Raises :class:`RecordError` at the
    first bad entry; the outcome is not checked (:func:`replay_record` does)."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(-1, Message("record.not_format", {"format": FORMAT}), field="format")
    actions = _parse_log(record.get("log"))
    game = _new_game(record, cls)
    steps = log_steps(actions)
    try:
        game.start(chance=steps[0].chance)
    except ChanceError as exc:
        raise RecordError(exc.offset, exc.message) from None
    yield game
    index = len(steps[0].chance)
    for step in steps[1:]:
        _replay_step(game, step, index)
        index += 1 + len(step.chance)
        yield game


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
    """The record's scoring and result, if it has them, must be the replayed game's."""
    n = len(game.history)
    scoring = record.get("scoring")
    if scoring is not None and scoring != [e.to_json() for e in game.score_events]:
        raise RecordError(n, Message("record.scoring_differs"), field="scoring")
    result = record.get("result")
    if result is None:
        return
    if not isinstance(result, dict):
        raise RecordError(n, Message("record.result_object"), field="result")
    if "scores" in result and result["scores"] != game.scores:
        raise RecordError(n, Message("record.scores_differ", {
            "claimed": str(result["scores"]), "actual": str(game.scores)}),
            field="result.scores")
    actual = {"over": game.is_over, "winners": game.winners}
    for name, value in actual.items():
        claimed = result.get(name, value)
        if type(claimed) is not type(value) or claimed != value:
            raise RecordError(n, Message("record.result_differs", {
                "field": name, "claimed": str(claimed)[:40], "actual": str(value)}),
                field=f"result.{name}")
