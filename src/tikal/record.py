"""Game records: every action and chance outcome, in order (python-chess's PGN is the model).

A record replays without trusting the random generator: each chance entry
(``*draw B.2``, ``*token c``) is forced on the replayed game, so the record alone
decides what was drawn.  Replaying checks every entry and names the first bad
one by index.
"""

from __future__ import annotations

from typing import Any

from .actions import Action, Draw, Reveal, parse_action
from .components import rule_set
from .errors import IllegalAction, RecordError
from .game import Game

FORMAT = "tikal-record"
VERSION = 1


def game_record(game: Game) -> dict[str, Any]:
    """The JSON-ready record of ``game`` from its setup to now."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.name,
        "options": dict(game.options),
        "players": game.players,
        "seed": game.seed,
        "log": [str(a) for a in game.history],
        "scoring": [e._asdict() for e in game.score_events],
        "result": {
            "over": game.is_over,
            "scores": list(game.scores),
            "winners": game.winners,
        },
    }


def _parse_log(log: Any) -> list[Action]:
    if not isinstance(log, list):
        raise RecordError(0, "'log' must be a list of action strings")
    actions = []
    for i, entry in enumerate(log):
        if not isinstance(entry, str):
            raise RecordError(i, f"expected an action string, got {entry!r}")
        try:
            actions.append(parse_action(entry))
        except ValueError as exc:
            raise RecordError(i, str(exc)) from None
    return actions


def _chance_run(actions: list[Action], start: int) -> int:
    """Index just past the chance entries beginning at ``start``."""
    end = start
    while end < len(actions) and isinstance(actions[end], (Draw, Reveal)):
        end += 1
    return end


def _force(game: Game, chance: list[Action]) -> None:
    game._forced_draws = [a.tile_id for a in chance if isinstance(a, Draw)]
    game._forced_tokens = [a.token for a in chance if isinstance(a, Reveal)]


def _check_chance(game: Game, actions: list[Action], start: int, end: int) -> None:
    produced = game.history[start:]
    expected = actions[start:end]
    if produced != expected or game._forced_draws or game._forced_tokens:
        got = " ".join(map(str, produced)) or "nothing"
        want = " ".join(map(str, expected)) or "nothing"
        same = 0  # the first entry that differs is the one at fault
        while same < min(len(produced), len(expected)) and produced[same] == expected[same]:
            same += 1
        raise RecordError(
            start + same, f"the game produced {got!r} where the record says {want!r}"
        )


def _unforceable(game: Game, actions: list[Action], start: int, end: int) -> int:
    """Index of the chance entry the game could not force: the last one it took."""
    draws = [k for k in range(start, end) if isinstance(actions[k], Draw)]
    tokens = [k for k in range(start, end) if isinstance(actions[k], Reveal)]
    taken = draws[: len(draws) - len(game._forced_draws)]
    taken += tokens[: len(tokens) - len(game._forced_tokens)]
    return max(taken, default=start)


def _new_game(record: dict[str, Any]) -> Game:
    try:
        rs = rule_set(str(record.get("rules", "")))
        players = record.get("players")
        options = record.get("options", {})
        seed = record.get("seed")
        if players not in rs.player_counts or not isinstance(options, dict):
            raise ValueError(f"players must be one of {rs.player_counts}")
        if set(options) - set(rs.default_options):
            raise ValueError(f"unknown options {sorted(set(options) - set(rs.default_options))}")
        if seed is not None and not isinstance(seed, int):
            raise ValueError("seed must be an integer or null")
    except ValueError as exc:
        raise RecordError(-1, f"bad record header: {exc}") from None
    return Game._setup(rs, int(players), {**rs.default_options, **options}, seed)


def replay_record(record: Any) -> Game:
    """Replay a record exactly; raises :class:`RecordError` at the first bad entry."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError(-1, f"not a {FORMAT} object")
    actions = _parse_log(record.get("log"))
    game = _new_game(record)
    first = _chance_run(actions, 0)
    try:
        _force(game, actions[:first])
        game._start()
    except ValueError as exc:
        raise RecordError(_unforceable(game, actions, 0, first), str(exc)) from None
    _check_chance(game, actions, 0, first)
    i = first
    while i < len(actions):
        end = _chance_run(actions, i + 1)
        before = len(game.history)
        try:
            _force(game, actions[i + 1 : end])
            game.apply(actions[i])
        except IllegalAction as exc:
            raise RecordError(i, exc.message, exc.rule) from None
        except ValueError as exc:
            raise RecordError(_unforceable(game, actions, i + 1, end), str(exc)) from None
        if before != i:
            raise RecordError(i, "record and game history are out of step")
        _check_chance(game, actions, i + 1, end)
        i = end
    _check_outcome(game, record)
    return game


def _check_outcome(game: Game, record: dict[str, Any]) -> None:
    n = len(game.history)
    scoring = record.get("scoring")
    if scoring is not None and scoring != [e._asdict() for e in game.score_events]:
        raise RecordError(n, "the scoring events differ from the replayed game")
    result = record.get("result")
    if isinstance(result, dict) and "scores" in result and result["scores"] != game.scores:
        raise RecordError(n, f"the record's scores {result['scores']} differ from {game.scores}")
