"""Two arena runs of a bot compared game by game (``tikal compare``).

The arena plays every deal from every seat, so two runs on the same deals can be compared
*paired*: the bot's result on a deal and seat in one run against its result on the same
deal and seat in the other.  Most of a game's outcome is the deal (tiles, tokens, volcano
order), which the pairing cancels: over 200 two-player games of the expert against
``hard`` the Wilson interval of each run is ±6.3 points wide, the paired difference's
standard error 4.1 (docs/bots.md).  Every "paired" figure in the docs is this computation
over the committed results in docs/arena.

A side is one or more results (``tikal arena --out``), each naming its bot by label; by
default the first of its line-up (the bot the run was about).  Only games both sides
played on the same deal and seat are paired; the rest are counted, not used.  A run that
was stopped writes no result, only the records of the games it finished (``--records``):
:func:`result_of_records` reads those as the result the run would have written.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .arena import (
    ArenaResult,
    RecordedGame,
    RecordError,
    is_number,
    lineup_of,
    read_record,
    summarize,
    typed_field,
    wilson,
)

#: A game's place in a run: its deal's seed and the studied bot's seat.
Key = tuple[int, int]

#: The refusal of a record's missing or wrong field (a result's is ``field``).
RECORD = "record_field"


class CompareError(ValueError):
    """A result that cannot be compared; ``key`` and ``params`` say what and where
    (``cli.compare.<key>`` in the message catalogs)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(f"{key}: {params}")
        self.key, self.params = key, params


@dataclass(frozen=True, slots=True)
class Outcome:
    """The studied bot's share of the win (1, 0, or a tie's share) and its score."""

    win: float
    score: float


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a comparison: the studied bot's games from one or more runs."""

    labels: tuple[str, ...]
    rules: str
    players: int
    outcomes: dict[Key, Outcome]

    @property
    def games(self) -> int:
        return len(self.outcomes)

    @property
    def win_rate(self) -> float:
        return sum(o.win for o in self.outcomes.values()) / max(1, self.games)

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(sum(o.win for o in self.outcomes.values()), self.games)

    @property
    def mean_score(self) -> float:
        return sum(o.score for o in self.outcomes.values()) / max(1, self.games)

    def to_json(self) -> dict[str, Any]:
        return {"bots": list(self.labels), "games": self.games, "win_rate": self.win_rate,
                "ci95": list(self.ci95), "mean_score": self.mean_score}


@dataclass(frozen=True, slots=True)
class Paired:
    """The paired difference (first minus second) over the games both sides played."""

    games: int
    first_rate: float
    second_rate: float
    #: Mean difference of the win shares, in percentage points, and its standard error
    #: (None with fewer than two pairs).
    points: float
    points_se: float | None
    #: Mean difference of the bot's final score, and its standard error.
    score: float
    score_se: float | None
    only_first: int
    only_second: int

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


def side_of(results: Iterable[tuple[str, Any]], bot: str | None = None) -> Side:
    """The games of ``bot`` (default: each run's first bot) in the named runs; an error
    names the file and field that is missing or wrong, a game played twice, or runs of
    different rules or player counts."""
    outcomes: dict[Key, Outcome] = {}
    where: dict[Key, str] = {}
    labels: list[str] = []
    kind: tuple[str, int, str] | None = None
    for name, data in results:
        config = _part(data, "config", dict, name)
        rules = _part(config, "rules", str, name, "config.")
        players = _part(config, "players", int, name, "config.")
        if kind is not None and (rules, players) != kind[:2]:
            raise CompareError("mixed", first=kind[2], rules=kind[0], players=kind[1],
                               file=name, its_rules=rules, its_players=players)
        kind = kind or (rules, players, name)
        label = bot or _first_bot(config, name)
        if label not in labels:
            labels.append(label)
        for key, outcome in _games_of(data, label, name):
            if key in outcomes:
                raise CompareError("twice", seed=str(key[0]), seat=key[1], first=where[key],
                                   file=name)
            outcomes[key], where[key] = outcome, name
    if kind is None:
        raise CompareError("no_runs")
    if not outcomes:
        raise CompareError("no_games", bot=", ".join(labels))
    return Side(tuple(labels), kind[0], kind[1], outcomes)


def compare(first: Side, second: Side) -> Paired:
    """The paired difference between two sides of the same rules and player count."""
    if (first.rules, first.players) != (second.rules, second.players):
        raise CompareError("sides_differ", rules=first.rules, players=first.players,
                           its_rules=second.rules, its_players=second.players)
    shared = sorted(first.outcomes.keys() & second.outcomes.keys())
    if not shared:
        raise CompareError("nothing_shared")
    wins = [first.outcomes[k].win - second.outcomes[k].win for k in shared]
    scores = [first.outcomes[k].score - second.outcomes[k].score for k in shared]
    n = len(shared)
    points, points_se = _mean_and_se([100 * w for w in wins])
    score, score_se = _mean_and_se(scores)
    return Paired(
        games=n,
        first_rate=sum(first.outcomes[k].win for k in shared) / n,
        second_rate=sum(second.outcomes[k].win for k in shared) / n,
        points=points, points_se=points_se, score=score, score_se=score_se,
        only_first=first.games - n, only_second=second.games - n,
    )


def result_of_records(records: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """The arena result a run's game records make (named by game index as ``tikal arena
    --records`` writes them, :func:`~.arena.record_name`), with its per-bot figures as the
    arena sums them (:func:`~.arena.summarize`).  The index gives the game's seat rotation
    (:func:`~.arena.seating`), so the line-up, and with it the bot the run was about, is
    found again from any one game.  A game a bot failed is listed with its error, as the
    arena lists it (and not compared); one that never finished is left out.  An error
    names the record and field."""
    config: dict[str, Any] | None = None
    first = ""
    results = []
    for name, record in records:
        game = _recorded(name, record)
        if config is None:
            config, first = _config_of(game), name
        elif (game.rules, len(game.bots)) != (config["rules"], config["players"]):
            raise CompareError("mixed", first=first, rules=config["rules"],
                               players=config["players"], file=name, its_rules=game.rules,
                               its_players=len(game.bots))
        if game.result is not None:
            results.append(game.result)
    if config is None:
        return {"config": None, "games": []}
    config["games"] = config["read_from_records"] = len(results)
    seconds = sum(result.seconds for result in results)
    return ArenaResult(config, results, summarize(results), seconds).to_json()


def _recorded(name: str, record: Any) -> RecordedGame:
    """:func:`~.arena.read_record`, its refusal as this module's."""
    try:
        return read_record(name, record)
    except RecordError as exc:
        if exc.field is None:
            raise CompareError("record_name", file=name) from None
        raise CompareError(RECORD, file=name, field=exc.field) from None


def _config_of(game: RecordedGame) -> dict[str, Any]:
    """The run's configuration as the arena writes it, the line-up (and the budgets, where
    the record keeps them) turned back from the seats of the game the record numbers."""
    players = len(game.bots)
    lineup = lineup_of(game.bots, game.index)
    budgets = lineup_of(game.budgets, game.index)
    return {
        "rules": game.rules, "players": players, "lineup": lineup,
        "budgets": {} if None in budgets else dict(zip(lineup, budgets, strict=True)),
        "seed": game.seed - game.index // players,
    }


def _mean_and_se(values: list[float]) -> tuple[float, float | None]:
    """The mean and its standard error (sample standard deviation over √n)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, None
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def _first_bot(config: dict[str, Any], name: str) -> str:
    lineup = _part(config, "lineup", list, name, "config.")
    if not lineup or not isinstance(lineup[0], str):
        raise CompareError("field", file=name, field="config.lineup")
    return lineup[0]


def _games_of(data: Any, label: str, name: str) -> Iterable[tuple[Key, Outcome]]:
    """Each seat ``label`` played in the run's finished games (a mirror match has two)."""
    for i, game in enumerate(_part(data, "games", list, name)):
        field = f"games[{i}]"
        if not isinstance(game, dict):
            raise CompareError("field", file=name, field=field)
        if game.get("error") is not None:
            continue
        where = f"{field}."
        seed = _part(game, "seed", int, name, where)
        bots, wins, scores = (_part(game, part, list, name, where)
                              for part in ("bots", "wins", "scores"))
        for part, values in (("wins", wins), ("scores", scores)):
            if len(values) != len(bots):
                raise CompareError("field", file=name, field=where + part)
        for seat, bot in enumerate(bots):
            if bot != label:
                continue
            if not all(is_number(v) for v in (wins[seat], scores[seat])):
                raise CompareError("field", file=name, field=f"{field}.wins/scores")
            yield (seed, seat), Outcome(float(wins[seat]), float(scores[seat]))


def _part(data: Any, name: str, kind: type, file: str, prefix: str = "") -> Any:
    """``data[name]`` if it is a ``kind``; else the error naming the file and field."""
    return typed_field(data, name, kind,
                       lambda key: CompareError("field", file=file, field=prefix + key))
