"""Bot arena: many seeded games between bots, seats rotated, results aggregated.

``run_arena`` plays ``games`` games of one match-up.  The line-up (one bot per
seat) is rotated by one seat per game, and every deal (game seed) is played in
all rotations, so every bot plays every seat equally often on the same deals.
Games run through an :class:`Executor` (serial, or a process pool with
``jobs`` workers, or Ray tasks on a local Ray or a cluster with :class:`RayExecutor`;
anything with the same ``map_unordered`` method can replace it).  The summary per bot
label counts wins with ties split [END-2], the win rate with a 95% Wilson interval,
mean score and margin over the best opponent, and the bots' thinking times.
"""

from __future__ import annotations

import inspect
import json
import math
import os
import re
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..actions import Action
from ..errors import IllegalAction
from ..game import Game
from ..loop import play_game
from ..workers import process_pool
from . import BOT_NAMES, PRESETS, WEIGHTED_LEVELS, Bot, make_bot
from .evaluate import Weights, weights_file
from .greedy import GreedyBot, PlanningBot
from .mcts import MCTSBot

T = TypeVar("T")
R = TypeVar("R")

MAX_ACTIONS = 20_000
SEARCH_BOTS = frozenset(
    name for name in BOT_NAMES if name == "mcts" or PRESETS.get(name, ("",))[0] == "mcts"
)


# ---------------------------------------------------------------- configuration


@dataclass(frozen=True, slots=True)
class Budget:
    """Thinking budget of search bots: seconds per turn and/or iterations per search."""

    seconds: float | None = None
    iterations: int | None = None

    @property
    def empty(self) -> bool:
        return self.seconds is None and self.iterations is None

    def __str__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(str(self.iterations))
        if self.seconds is not None:
            parts.append(f"{self.seconds:g}s")
        return "/".join(parts) or "default"


def parse_budget(text: str | None) -> Budget:
    """``"2s"`` (seconds per turn), ``"200"`` (iterations), ``"200/2s"`` (both), ``"default"``."""
    if text is None or text.strip().lower() in ("", "default"):
        return Budget()
    seconds: float | None = None
    iterations: int | None = None
    for part in text.replace(",", "/").split("/"):
        part = part.strip().lower()
        try:
            if part.endswith("s"):
                seconds = float(part[:-1])
                if seconds <= 0:
                    raise ValueError
            else:
                iterations = int(part)
                if iterations <= 0:
                    raise ValueError
        except ValueError:
            raise ValueError(
                f"bad budget {text!r}: use e.g. 2s (seconds per turn), 200 (iterations) or 200/2s"
            ) from None
    return Budget(seconds, iterations)


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One entry of ``--bots``: ``name``, ``name:budget`` (e.g. ``mcts:2s``), each
    optionally with ``@weights.json`` (evaluation weights other than the packaged ones,
    e.g. ``mcts@my_weights.json``, or a packaged set by name: ``greedy@hand_set``); the
    name may carry constructor settings as ``+key=value`` (``mcts+reply_placements=4:1.8s``)."""

    label: str
    name: str
    budget: Budget = Budget()
    weights: Weights | None = None
    settings: tuple[tuple[str, Any], ...] = ()

    @property
    def searches(self) -> bool:
        """Whether the budget matters (search bots)."""
        return self.name in SEARCH_BOTS

    def build(self, seed: int, players: int | None = None) -> Bot:
        """The bot for one seat of a game of ``players`` (weights tuned for that count
        unless the entry names a set)."""
        settings: dict[str, Any] = dict(self.settings)
        if self.weights is not None:
            settings["weights"] = self.weights
        if self.budget.empty or not self.searches:
            return make_bot(self.name, seed=seed, players=players, **settings)
        return make_bot(
            self.name, seed=seed, players=players, seconds=self.budget.seconds,
            iterations=self.budget.iterations, **settings,
        )


def parse_bots(text: str, players: int, default_budget: Budget = Budget()) -> list[BotSpec]:
    """The line-up for ``players`` seats; a short list is filled up with its last bot."""
    specs = []
    for entry in (e.strip() for e in text.split(",")):
        if not entry:
            continue
        bot, _, weights_path = entry.partition("@")
        named, _, budget_text = bot.partition(":")
        name, *setting_texts = named.split("+")
        name = name.strip().lower()
        if name not in BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOT_NAMES)}")
        settings = tuple(_setting(name, text) for text in setting_texts)
        if weights_path and PRESETS.get(name, (name,))[0] not in WEIGHTED_LEVELS:
            raise ValueError(f"{name} has no evaluation weights (only greedy and mcts levels)")
        weights = weights_file(weights_path.strip()) if weights_path else None
        budget = parse_budget(budget_text) if budget_text else default_budget
        label = entry if budget_text or weights_path or settings else name
        specs.append(BotSpec(label, name, budget, weights, settings))
    if not specs:
        raise ValueError("--bots needs at least one bot")
    if len(specs) > players:
        raise ValueError(f"{len(specs)} bots for {players} seats")
    while len(specs) < players:
        specs.append(specs[-1])
    return specs


def _setting(name: str, text: str) -> tuple[str, Any]:
    """One ``key=value`` of a bot entry, checked against the bot class's constructor
    (``true``/``false`` a flag, a number where it reads as one, else the text)."""
    key, sep, raw = (part.strip() for part in text.partition("="))
    level = PRESETS.get(name, (name,))[0]
    cls = SETTING_CLASSES.get(level)
    known = [] if cls is None else [
        p for p in inspect.signature(cls).parameters if p not in ("seed", "weights")]
    if not sep or key not in known:
        choices = ", ".join(known) or "none"
        raise ValueError(f"bad setting {text!r} for {name}: use key=value, keys: {choices}")
    value: Any = raw
    if raw.lower() in ("true", "false"):
        return key, raw.lower() == "true"
    for kind in (int, float):
        try:
            value = kind(raw)
            break
        except ValueError:
            continue
    return key, value


#: The classes whose constructor settings a ``--bots`` entry may give.
SETTING_CLASSES: dict[str, type] = {"greedy": GreedyBot, "mcts": MCTSBot}


@dataclass(frozen=True, slots=True)
class GameTask:
    index: int
    rules: str
    players: int
    seed: int
    seats: tuple[BotSpec, ...]
    bot_seed: int
    keep_record: bool = False


def schedule(
    rules: str, lineup: list[BotSpec], games: int, seed: int, keep_records: bool = False
) -> list[GameTask]:
    """Games rounded up to a multiple of the seat count; deal ``g // n`` in rotation ``g % n``."""
    n = len(lineup)
    total = -(-games // n) * n
    return [GameTask(g, rules, n, seed + g // n, seating(lineup, g), seed * 1_000_003 + g,
                     keep_records) for g in range(total)]


def seating(lineup: Sequence[T], game: int) -> tuple[T, ...]:
    """Who sits where in game ``game``: the line-up turned by ``game % n``, so every
    bot plays every seat of each deal."""
    n = len(lineup)
    return tuple(lineup[(seat - game) % n] for seat in range(n))


def lineup_of(seats: Sequence[T], game: int) -> list[T]:
    """The run's line-up from the seats of game ``game`` (:func:`seating` turned back)."""
    n = len(seats)
    return [seats[(place + game) % n] for place in range(n)]


#: What the records of ``--records`` are called (by game index) and the pattern that
#: finds them again: ``tikal compare`` reads a folder of them as the run's result.
_RECORD_PREFIX, _RECORD_SUFFIX = "game-", ".json"
RECORD_GLOB = f"{_RECORD_PREFIX}*{_RECORD_SUFFIX}"
_RECORD_NAME = re.compile(rf"{re.escape(_RECORD_PREFIX)}(\d+){re.escape(_RECORD_SUFFIX)}$")


def record_name(index: int) -> str:
    """The file name of game ``index``'s record."""
    return f"{_RECORD_PREFIX}{index:04d}{_RECORD_SUFFIX}"


def record_index(name: str) -> int | None:
    """The game index a record's file name gives; None for a name the arena never writes."""
    found = _RECORD_NAME.search(name)
    return int(found.group(1)) if found else None


# ---------------------------------------------------------------- one game


@dataclass(slots=True)
class SeatStats:
    label: str
    score: int
    win: float  # 1, or the share of a tie
    margin: int  # own score minus the best other score
    decisions: int
    thinking: float
    turns: int = 0
    max_turn: float = 0.0
    #: ``(simulations, seconds)`` of each of the seat's searches.
    searches: list[tuple[int, float]] = field(default_factory=list)


@dataclass(slots=True)
class GameResult:
    index: int
    seed: int
    seats: list[SeatStats]
    actions: int
    seconds: float
    error: str | None = None
    record: dict[str, Any] | None = None


class _Seats:
    """The bots of one game, each seat's thinking time and decisions, and the actions played."""

    def __init__(self, task: GameTask) -> None:
        self.bots = [spec.build(task.bot_seed * 16 + s, task.players)
                     for s, spec in enumerate(task.seats)]
        self.thinking = [0.0] * task.players
        self.decisions = [0] * task.players
        self.actions = 0

    def choose(self, game: Game) -> Action:
        """The acting seat's bot chooses from its own view [HIDDEN-1], timed."""
        p = game.current_player
        t0 = time.perf_counter()
        action = self.bots[p].choose(game.view(p))
        self.thinking[p] += time.perf_counter() - t0
        self.decisions[p] += 1
        return action

    def applied(self, game: Game, action: Action) -> None:
        self.actions += 1


def play_task(task: GameTask) -> GameResult:
    """Play one game; never raises for a bot's misbehaviour (reported in ``error``)."""
    start = time.perf_counter()
    game = Game.new(task.rules, task.players, seed=task.seed)
    seats = _Seats(task)
    error = None
    try:
        play_game(game, seats.choose, on_action=seats.applied, max_actions=MAX_ACTIONS)
    except IllegalAction as exc:
        who = game.current_player
        error = f"seat {who} ({task.seats[who].label}) played illegally: {exc}"
    except Exception as exc:  # a crashing bot must not take the arena down
        who = game.current_player
        error = f"seat {who} ({task.seats[who].label}): {exc!r}"
    result = GameResult(
        task.index, task.seed, _seat_stats(task, game, seats), seats.actions,
        time.perf_counter() - start, error,
    )
    if task.keep_record:
        result.record = game.record()
        result.record["bots"] = [spec.label for spec in task.seats]
        result.record[ARENA_PART] = _arena_part(task, result)
    return result


def _seat_stats(task: GameTask, game: Game, seats: _Seats) -> list[SeatStats]:
    """Score, win share, margin and thinking figures of every seat."""
    scores = list(game.scores)
    shares = game.win_shares
    stats = []
    for s, spec in enumerate(task.seats):
        others = [scores[o] for o in range(task.players) if o != s]
        seat = SeatStats(
            spec.label,
            scores[s],
            shares[s],
            scores[s] - max(others),
            seats.decisions[s],
            seats.thinking[s],
        )
        bot = seats.bots[s]
        if isinstance(bot, PlanningBot):
            seat.turns = len(bot.turn_times)
            seat.max_turn = max(bot.turn_times, default=0.0)
        if isinstance(bot, MCTSBot):
            seat.searches = list(bot.searches)
        stats.append(seat)
    return stats


# ---------------------------------------------------------------- records read back

#: The part of a ``--records`` record beside the game itself: the run's own figures of
#: it (each seat's budget and thinking, the game's error), so that a run's records give
#: back its whole result (``--resume``, ``tikal compare FOLDER``).
ARENA_PART = "arena"
#: A seat's figures in a record: counts (JSON integers) and seconds (any JSON number).
_SEAT_COUNTS = ("decisions", "turns")
_SEAT_SECONDS = ("thinking", "max_turn")


class RecordError(ValueError):
    """A record that is not a game of the run reading it: ``file``, and the ``field``
    that is missing, malformed or another run's (None: the file's name)."""

    def __init__(self, file: str, field: str | None) -> None:
        super().__init__(f"{file}: {field if field is not None else 'name'}")
        self.file, self.field = file, field


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """What a record says of its game: the run's place of it and, once it finished or
    failed a bot, the result as the arena counted it (None: played again on resume)."""

    index: int
    rules: str
    seed: int
    bots: tuple[str, ...]
    budgets: tuple[str | None, ...]
    result: GameResult | None


def _arena_part(task: GameTask, result: GameResult) -> dict[str, Any]:
    return {
        "index": task.index,
        "error": result.error,
        "actions": result.actions,
        "seconds": result.seconds,
        "seats": [
            {"budget": _budget_text(spec),
             **{name: getattr(seat, name) for name in (*_SEAT_COUNTS, *_SEAT_SECONDS)},
             "searches": [list(search) for search in seat.searches]}
            for spec, seat in zip(task.seats, result.seats, strict=True)
        ],
    }


def read_record(name: str, record: Any) -> RecordedGame:
    """A record of ``--records`` (``name`` its file, whose number is the game's index)
    read back as the arena counted its game.  A record written before the arena kept its
    figures gives the outcome without them (no thinking times, searches or budgets)."""
    index = record_index(name)
    if index is None:
        raise RecordError(name, None)
    rules, seed = _field(record, "rules", str, name), _field(record, "seed", int, name)
    players = _field(record, "players", int, name)
    bots = _field(record, "bots", list, name)
    if len(bots) != players or not all(isinstance(bot, str) for bot in bots):
        raise RecordError(name, "bots")
    part = record.get(ARENA_PART)
    figures = _seat_part(part, players, name)
    budgets = tuple(f.pop("budget", None) for f in figures)
    error = part.get("error") if isinstance(part, dict) else None
    outcome = _field(record, "result", dict, name)
    result = None
    if outcome.get("over") or error is not None:
        scores = _field(outcome, "scores", list, name, "result.")
        winners = _field(outcome, "winners", list, name, "result.")
        if len(scores) != players or not all(_integer(s) for s in scores):
            raise RecordError(name, "result.scores")
        if (not winners and error is None) or not all(w in range(players) for w in winners):
            raise RecordError(name, "result.winners")
        seats = [SeatStats(bot, scores[s], 1 / len(winners) if s in winners else 0.0,
                           scores[s] - max(scores[:s] + scores[s + 1:]), **figures[s])
                 for s, bot in enumerate(bots)]
        actions, seconds = ((_field(part, "actions", int, name, f"{ARENA_PART}."),
                             float(_field(part, "seconds", (int, float), name, f"{ARENA_PART}.")))
                            if part is not None else (0, 0.0))
        result = GameResult(index, seed, seats, actions, seconds, error)
    return RecordedGame(index, rules, seed, tuple(bots), budgets, result)


def _seat_part(part: Any, players: int, name: str) -> list[dict[str, Any]]:
    """Each seat's figures from a record's arena part (none: zeros, as for a seat that
    never thought); an error names the malformed field."""
    if part is None:
        return [{"decisions": 0, "thinking": 0.0} for _ in range(players)]
    seats = part.get("seats") if isinstance(part, dict) else None
    if not isinstance(seats, list) or len(seats) != players:
        raise RecordError(name, f"{ARENA_PART}.seats")
    figures = []
    for s, seat in enumerate(seats):
        where = f"{ARENA_PART}.seats[{s}]."
        entry: dict[str, Any] = {key: _field(seat, key, int, name, where)
                                 for key in _SEAT_COUNTS}
        for key in _SEAT_SECONDS:
            entry[key] = float(_field(seat, key, (int, float), name, where))
        searches = _field(seat, "searches", list, name, where)
        if not all(isinstance(x, list) and len(x) == 2 and _integer(x[0]) and is_number(x[1])
                   for x in searches):
            raise RecordError(name, where + "searches")
        entry["searches"] = [(int(n), float(t)) for n, t in searches]
        entry["budget"] = _field(seat, "budget", str, name, where)
        figures.append(entry)
    return figures


def typed_field(data: Any, key: str, kind: type | tuple[type, ...],
                refusal: Callable[[str], Exception]) -> Any:
    """``data[key]`` if it is a ``kind`` (never a bool); else ``refusal(key)`` is raised.
    The one reader of a JSON field for records and results, each with its own error."""
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise refusal(key)
    return value


def _field(data: Any, key: str, kind: type | tuple[type, ...], file: str,
           where: str = "") -> Any:
    """``data[key]`` if it is a ``kind``; else the :class:`RecordError` naming it."""
    return typed_field(data, key, kind, lambda name: RecordError(file, where + name))


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    """A JSON number (a bool is not one), as the arena's results and records hold them."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _resumed(task: GameTask, folder: Path) -> GameResult | None:
    """Game ``task``'s result from its record in ``folder`` if the game ended there; None
    (the game is played) for no record, a game that failed or did not finish, or a file
    that is not JSON (a write cut short).  A readable record of another run is refused."""
    path = folder / record_name(task.index)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    game = read_record(str(path), record)
    ours: dict[str, object] = {"rules": task.rules, "seed": task.seed,
                               "bots": tuple(spec.label for spec in task.seats)}
    theirs: dict[str, object] = {"rules": game.rules, "seed": game.seed, "bots": game.bots}
    if None not in game.budgets:  # a record from before the arena kept budgets has none
        ours[f"{ARENA_PART}.seats.budget"] = tuple(_budget_text(spec) for spec in task.seats)
        theirs[f"{ARENA_PART}.seats.budget"] = game.budgets
    for field_name, value in ours.items():
        if theirs[field_name] != value:
            raise RecordError(str(path), field_name)
    if game.result is None or game.result.error is not None:
        return None
    return game.result


def _budget_text(spec: BotSpec) -> str:
    """A seat's budget as the run's configuration and its records give it."""
    return str(spec.budget) if spec.searches else "-"


def _write_record(folder: Path, result: GameResult) -> None:
    """Write game ``result``'s record whole or not at all (a run stopped mid-write leaves
    no half record for ``--resume`` to read)."""
    path = folder / record_name(result.index)
    partial = path.with_suffix(".part")
    partial.write_text(json.dumps(result.record, indent=1), encoding="utf-8")
    os.replace(partial, path)


# ---------------------------------------------------------------- executors


class Executor(Protocol):
    """Runs independent tasks; results come back in any order."""

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]: ...


class SerialExecutor:
    """Everything in this process, one task after the other."""

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        for task in tasks:
            yield fn(task)


class ProcessExecutor:
    """A pool of ``jobs`` worker processes (``fn`` and the tasks must pickle)."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        pending: set[Future[R]] = set()
        queue = list(tasks)
        queue.reverse()
        with process_pool(self.jobs) as pool:
            while queue or pending:
                while queue and len(pending) < 2 * self.jobs:
                    pending.add(pool.submit(fn, queue.pop()))
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()


class RayExecutor:
    """Every task a Ray task, on a local Ray (``address=None``) or the cluster at
    ``address`` (``"auto"``, ``"ray://head:10001"``); needs ``tikal[ray]``, and tikal
    installed on every node.  Ray is imported only here, and shut down again only if this
    executor started it.  ``jobs`` caps the CPUs of a local Ray (None: all)."""

    def __init__(self, address: str | None = None, jobs: int | None = None) -> None:
        self.address = address
        self.jobs = jobs

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        import ray

        started = not ray.is_initialized()
        if started:
            ray.init(address=self.address, include_dashboard=False, log_to_driver=False,
                     num_cpus=self.jobs if self.address is None else None)
        try:
            remote = ray.remote(fn)
            queue = list(tasks)
            queue.reverse()
            cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call]
            window = 2 * max(1, int(cpus))
            pending: list[Any] = []
            while queue or pending:
                while queue and len(pending) < window:
                    pending.append(remote.remote(queue.pop()))
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield ray.get(ref)
        finally:
            if started:
                ray.shutdown()


EXECUTORS = ("process", "ray")


def make_executor(jobs: int, kind: str = "process", address: str | None = None) -> Executor:
    """``process``: serial for one job, else a process pool; ``ray``: :class:`RayExecutor`."""
    if kind == "ray":
        return RayExecutor(address, jobs if jobs > 1 else None)
    if kind != "process":
        raise ValueError(f"unknown executor {kind!r}; choose one of {', '.join(EXECUTORS)}")
    return SerialExecutor() if jobs <= 1 else ProcessExecutor(jobs)


# ---------------------------------------------------------------- summary


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(slots=True)
class BotSummary:
    games: int = 0
    wins: float = 0.0
    win_rate: float = 0.0
    ci95: tuple[float, float] = (0.0, 1.0)
    mean_score: float = 0.0
    mean_margin: float = 0.0
    mean_decision_s: float = 0.0
    mean_turn_s: float = 0.0
    max_turn_s: float = 0.0
    #: Medians over the bot's searches: a total over whole games is dominated by the last
    #: turns, where a simulation is only the final scoring.
    simulations_per_s: float | None = None
    simulations_per_search: float | None = None
    seats: dict[int, float] = field(default_factory=dict)


def summarize(results: list[GameResult]) -> dict[str, BotSummary]:
    """Per bot label (a label on several seats is one entry; each seat-game counts)."""
    acc: dict[str, dict[str, Any]] = {}
    for result in results:
        if result.error is not None:
            continue
        for s, seat in enumerate(result.seats):
            a = acc.setdefault(
                seat.label,
                {"games": 0, "wins": 0.0, "score": 0, "margin": 0, "decisions": 0,
                 "thinking": 0.0, "turns": 0, "max_turn": 0.0, "searches": [],
                 "seat_games": {}, "seat_wins": {}},
            )
            a["games"] += 1
            a["wins"] += seat.win
            a["score"] += seat.score
            a["margin"] += seat.margin
            a["decisions"] += seat.decisions
            a["thinking"] += seat.thinking
            a["turns"] += seat.turns
            a["max_turn"] = max(a["max_turn"], seat.max_turn)
            a["searches"].extend(seat.searches)
            a["seat_games"][s] = a["seat_games"].get(s, 0) + 1
            a["seat_wins"][s] = a["seat_wins"].get(s, 0.0) + seat.win
    out = {}
    for label, a in acc.items():
        n = a["games"]
        out[label] = BotSummary(
            games=n,
            wins=a["wins"],
            win_rate=a["wins"] / n,
            ci95=wilson(a["wins"], n),
            mean_score=a["score"] / n,
            mean_margin=a["margin"] / n,
            mean_decision_s=a["thinking"] / max(1, a["decisions"]),
            mean_turn_s=a["thinking"] / a["turns"] if a["turns"] else 0.0,
            max_turn_s=a["max_turn"],
            simulations_per_s=_median([n / t for n, t in a["searches"] if t > 0]),
            simulations_per_search=_median([n for n, _ in a["searches"]]),
            seats={s: a["seat_wins"][s] / g for s, g in sorted(a["seat_games"].items())},
        )
    return out


def _median(values: list[float] | list[int]) -> float | None:
    return float(statistics.median(values)) if values else None


@dataclass(slots=True)
class ArenaResult:
    config: dict[str, Any]
    results: list[GameResult]
    bots: dict[str, BotSummary]
    seconds: float

    @property
    def errors(self) -> list[str]:
        return [f"game {r.index}: {r.error}" for r in self.results if r.error is not None]

    def to_json(self) -> dict[str, Any]:
        bots = {}
        for label, b in self.bots.items():
            entry = asdict(b)
            entry["ci95"] = list(b.ci95)
            entry["seats"] = {str(s): w for s, w in b.seats.items()}
            bots[label] = entry
        games = []
        for r in sorted(self.results, key=lambda r: r.index):
            games.append({
                "index": r.index,
                "seed": r.seed,
                "bots": [s.label for s in r.seats],
                "scores": [s.score for s in r.seats],
                "wins": [s.win for s in r.seats],
                "actions": r.actions,
                "seconds": round(r.seconds, 3),
                "error": r.error,
            })
        return {
            "config": self.config,
            "bots": bots,
            "games": games,
            "errors": self.errors,
            "seconds": round(self.seconds, 3),
        }


def run_arena(
    rules: str,
    players: int,
    lineup: list[BotSpec],
    games: int,
    seed: int = 0,
    executor: Executor | None = None,
    records: Path | None = None,
    on_result: Callable[[GameResult, int], None] | None = None,
    resume: bool = False,
) -> ArenaResult:
    """Play the match-up; ``on_result(result, total)`` is called as games finish.  With
    ``resume``, a game whose record is in ``records`` is read back, not played: a stopped
    run goes on where it stopped and its result is the one it would have written
    (:class:`RecordError` for a record of another run)."""
    start = time.perf_counter()
    tasks = schedule(rules, lineup, games, seed, keep_records=records is not None)
    executor = executor or SerialExecutor()
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    results = []
    to_play = []
    for task in tasks:
        done = _resumed(task, records) if resume and records is not None else None
        if done is None:
            to_play.append(task)
            continue
        results.append(done)
        if on_result is not None:
            on_result(done, len(tasks))
    for result in executor.map_unordered(play_task, to_play):
        if records is not None and result.record is not None:
            _write_record(records, result)
            result.record = None
        results.append(result)
        if on_result is not None:
            on_result(result, len(tasks))
    results.sort(key=lambda r: r.index)  # the summary does not depend on the finishing order
    config: dict[str, Any] = {
        "rules": rules,
        "players": players,
        "lineup": [spec.label for spec in lineup],
        "budgets": {spec.label: _budget_text(spec) for spec in lineup},
        "games": len(tasks),
        "seed": seed,
        "cpus": os.cpu_count(),
    }
    if resume:
        config["read_from_records"] = len(tasks) - len(to_play)
    return ArenaResult(config, results, summarize(results), time.perf_counter() - start)


def save_plot(result: ArenaResult, path: Path) -> None:
    """Win rates with 95% intervals, and the score distribution per bot (Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(result.bots)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    rates = [result.bots[b].win_rate for b in labels]
    lows = [r - result.bots[b].ci95[0] for b, r in zip(labels, rates, strict=True)]
    highs = [result.bots[b].ci95[1] - r for b, r in zip(labels, rates, strict=True)]
    ax1.bar(labels, rates, yerr=[lows, highs], capsize=6, color="tab:blue")
    ax1.axhline(1 / max(1, result.config["players"]), color="grey", linestyle="--", label="par")
    ax1.set_ylim(0, 1)
    ax1.set_ylabel("win rate (ties split)")
    ax1.set_title("Win rate, 95% CI")
    ax1.legend()
    scores: dict[str, list[int]] = {b: [] for b in labels}
    for r in result.results:
        if r.error is None:
            for seat in r.seats:
                scores[seat.label].append(seat.score)
    ax2.boxplot([scores[b] for b in labels])
    ax2.set_xticks(range(1, len(labels) + 1), labels)
    ax2.set_ylabel("final score")
    ax2.set_title("Scores")
    cfg = result.config
    fig.suptitle(f"{cfg['rules']}, {cfg['players']} players, {cfg['games']} games")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
