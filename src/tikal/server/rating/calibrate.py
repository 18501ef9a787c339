"""The bots' ratings, seeded from games between their levels (``tikal ratings calibrate``).

Each bot level is a rated player (``bot:<level>``) with a rating per rule set.  Before people
play against them, their ratings come from seeded arena games between the levels: mixed
tables, each game's final scores folded into the seated levels' ratings with
:func:`~.model.update`, every level starting from :func:`~.model.initial`.  The games are
the arena's (:func:`tikal.bots.arena.play_task`, run through its executors), so a level
plays here exactly as it does in ``tikal arena`` and the web app.

**Tables.**  A rule set's games are *deals* (a shuffle) played once in every rotation of
its table, as in the arena, so each level meets each deal from every seat of it and the
first seat's edge cancels.  Deals take the rule set's rated player counts in turn (standard
and auction 2, 3, 4, 2, ...; demo 2).  A two-player deal takes the next pairing of a
round-robin (circle method): in each of its rounds every level plays once, and over the
rounds every pair meets equally often.  A table of three or four takes the levels that have
played fewest games so far (ties drawn at random), in a random seat order.

**Order.**  OpenSkill's update depends on the order of the games.  The games are folded in
their scheduled order, never in the order they finish, so the ratings do not depend on
``jobs``; that order interleaves the match-ups (a round-robin round has every level at one
table, the larger tables take the levels that waited), so no level's games are bunched at
the start or the end, where they would be rated against ratings much less (or much more)
settled than everyone else's; the rotations of one deal follow one another.

Deterministic for a seed as long as the levels are: a search level with a time budget
(``hard``, ``mcts``) decides by the clock, so its games differ from run to run.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ...bots.arena import BotSpec, Executor, GameResult, GameTask, SerialExecutor, play_task
from ...components import rule_set
from .model import Rating, initial, update
from .params import rating_params
from .result import rated_rule_sets
from .store import RatingStore, bot_player

#: ``on_result(done, total)``: called as each game finishes.
Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class LevelResult:
    """A level's calibrated rating in one rule set and its wins (a shared first place
    counts for each, as in :meth:`RatingStore.apply`)."""

    rating: Rating
    wins: int


@dataclass(frozen=True, slots=True)
class Calibration:
    """Per rule set and level (in the order asked for) the rating and wins; the games
    played, those that failed (left out of the ratings) and the seconds it took."""

    ratings: dict[str, dict[str, LevelResult]]
    games: int
    errors: tuple[str, ...]
    seconds: float


def seat_counts(rules: str, levels: Sequence[str]) -> tuple[int, ...]:
    """The player counts a calibration table of ``rules`` may have: rated, allowed by the
    rule set, and no more than there are levels (a level sits once at a table)."""
    params = rating_params()
    high = min(params.max_players, len(levels))
    return tuple(n for n in rule_set(rules).player_counts if params.min_players <= n <= high)


def round_robin(levels: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of levels once, round by round (circle method): within a round each
    level plays at most once (an odd count gives one level a bye each round)."""
    circle: list[str | None] = [*levels, *([None] if len(levels) % 2 else [])]
    pairs = []
    for _ in range(len(circle) - 1):
        half = len(circle) // 2
        for first, second in zip(circle[:half], reversed(circle[half:]), strict=True):
            if first is not None and second is not None:
                pairs.append((first, second))
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return pairs


def _fewest_seated(levels: Sequence[str], seated: dict[str, int], count: int,
                   rng: random.Random) -> list[str]:
    """``count`` levels that have played fewest games so far (ties drawn at random), in a
    random seat order."""
    order = sorted(levels, key=lambda level: (seated[level], rng.random()))[:count]
    rng.shuffle(order)
    return order


def tables(rules: str, levels: Sequence[str], games: int, seed: int,
           ) -> Iterator[tuple[int, tuple[str, ...]]]:
    """The deals of one rule set as ``(deal seed, levels in seat order)``, until their
    rotations make at least ``games`` games (see the module's docstring)."""
    counts = seat_counts(rules, levels)
    if not counts:
        raise ValueError(f"{rules} needs at least two levels to calibrate")
    rng = random.Random(f"tikal-calibrate:{seed}:{rules}")
    pairs = round_robin(levels)
    seated = dict.fromkeys(levels, 0)
    played = deal = pairings = 0
    while played < games:
        count = counts[deal % len(counts)]
        if count == 2:
            table: Sequence[str] = pairs[pairings % len(pairs)]
            pairings += 1
        else:
            table = _fewest_seated(levels, seated, count, rng)
        for level in table:
            seated[level] += count  # one game per rotation
        yield rng.getrandbits(63), tuple(table)
        played += count
        deal += 1


def schedule(rule_sets: Sequence[str], levels: Sequence[str], games: int, seed: int,
             ) -> list[GameTask]:
    """Every game of the calibration, numbered in the order they are folded: per rule set,
    each deal in all rotations of its table, one after the other."""
    unrated = [rules for rules in rule_sets if rules not in rated_rule_sets()]
    if unrated or len(set(levels)) != len(levels):
        raise ValueError(f"rule sets must be rated ({', '.join(rated_rule_sets())}) and "
                         f"levels distinct, not {list(rule_sets)} and {list(levels)}")
    rng = random.Random(f"tikal-calibrate-bots:{seed}")
    tasks: list[GameTask] = []
    for rules in rule_sets:
        for deal, table in tables(rules, levels, games, seed):
            n = len(table)
            for shift in range(n):
                seats = tuple(BotSpec(table[(s - shift) % n], table[(s - shift) % n])
                              for s in range(n))
                tasks.append(GameTask(len(tasks), rules, n, deal, seats,
                                      rng.getrandbits(31)))
    return tasks


def fold(tasks: Sequence[GameTask], results: Sequence[GameResult], levels: Sequence[str],
         ) -> dict[str, dict[str, LevelResult]]:
    """The levels' ratings after the games, folded in task order from :func:`initial`
    (failed games are left out)."""
    by_index = {result.index: result for result in results}
    ratings: dict[str, dict[str, LevelResult]] = {}
    for task in tasks:
        found = ratings.setdefault(task.rules, {level: LevelResult(initial(), 0)
                                                for level in levels})
        result = by_index.get(task.index)
        if result is None or result.error is not None:
            continue
        seated = [seat.label for seat in result.seats]
        scores = [seat.score for seat in result.seats]
        after = update([found[level].rating for level in seated], scores)
        best = max(scores)
        for level, rating, score in zip(seated, after, scores, strict=True):
            found[level] = LevelResult(rating, found[level].wins + (score == best))
    return ratings


def calibrate(
    rule_sets: Sequence[str],
    levels: Sequence[str],
    games: int,
    seed: int = 0,
    executor: Executor | None = None,
    on_result: Progress | None = None,
) -> Calibration:
    """Play about ``games`` games per rule set between ``levels`` and rate the levels by
    them (see the module's docstring); ``executor`` as in the arena (default: serial)."""
    start = time.perf_counter()
    tasks = schedule(rule_sets, levels, games, seed)
    results = []
    for result in (executor or SerialExecutor()).map_unordered(play_task, tasks):
        results.append(result)
        if on_result is not None:
            on_result(len(results), len(tasks))
    errors = tuple(f"game {r.index} ({tasks[r.index].rules}): {r.error}"
                   for r in sorted(results, key=lambda r: r.index) if r.error is not None)
    ratings = fold(tasks, results, levels)
    return Calibration(ratings, len(tasks), errors, time.perf_counter() - start)


def save(store: RatingStore, calibration: Calibration) -> None:
    """Write the calibrated ratings as the levels' own (``bot:<level>``), replacing what a
    calibration or rated games left before in those rule sets."""
    for rules, found in calibration.ratings.items():
        for level, result in found.items():
            store.set(bot_player(level), rules, result.rating, result.wins)
