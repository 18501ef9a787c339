"""Self-play tuning of the evaluation weights (``data/weights.json``) with CMA-ES.

Chess engines tune their evaluation by playing themselves; so do we.  A candidate set
of weights plays a bot of the same level with the current weights on a fixed set of
*training deals* (game seeds), seats rotating so that each deal is played from every
seat; its fitness is its share of wins (ties split) plus a small term for the mean
score margin, which breaks ties between candidates that win equally often.  CMA-ES
(the ``cma`` package, seeded, within bounds) searches the scalar weights; the soft
control table stays as it is.  A tuned file is then judged on *held-out deals*
(other seeds) with :func:`match`, which the tuning never saw.

Everything is deterministic for a seed: the deals, the bots' seeds and the optimizer.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..game import Game
from ..loop import play_game
from . import make_bot
from .arena import Executor, SerialExecutor, wilson
from .evaluate import DEFAULT_WEIGHTS, Weights

#: The weights CMA-ES moves, with the box it searches in.
TUNED: dict[str, tuple[float, float]] = {
    "later": (0.0, 1.5),
    "worker_on_board": (0.0, 2.0),
    "leader_on_board": (0.0, 10.0),
    "guard_slot": (0.0, 5.0),
    "treasure_reach": (0.0, 1.0),
    "camp": (0.0, 5.0),
    "opponents_max": (0.0, 1.0),
}
#: The wider search (``tikal tune --space contests``): the scalars in larger boxes (the
#: first run ended near the edge of two), the temple-contest terms (``safe``,
#: ``exposed``) and the soft control of a tie and of leads by 1-3 (``control[i]`` is
#: entry ``i`` of the table, margin ``i - 3``; kept in order by :func:`ordered_control`).
CONTESTS: dict[str, tuple[float, float]] = {
    "later": (0.0, 1.5),
    "worker_on_board": (0.0, 3.0),
    "leader_on_board": (0.0, 12.0),
    "guard_slot": (0.0, 10.0),
    "treasure_reach": (0.0, 1.0),
    "camp": (0.0, 5.0),
    "opponents_max": (0.0, 1.0),
    "safe": (0.0, 1.0),
    "exposed": (0.0, 1.0),
    "control[3]": (0.0, 0.5),
    "control[4]": (0.2, 1.0),
    "control[5]": (0.3, 1.0),
    "control[6]": (0.4, 1.0),
}

#: The searches ``tikal tune --space`` offers.
SPACES: dict[str, dict[str, tuple[float, float]]] = {"scalars": TUNED, "contests": CONTESTS}

#: Weight of the mean score margin (points) next to the win share in the fitness.
MARGIN_WEIGHT = 0.002


def to_vector(weights: Weights, space: dict[str, tuple[float, float]] = TUNED) -> list[float]:
    return [_read(weights, name) for name in space]


def from_vector(vector: Sequence[float], base: Weights = DEFAULT_WEIGHTS,
                space: dict[str, tuple[float, float]] = TUNED) -> Weights:
    """``base`` with the tuned weights taken from ``vector`` (clipped to their box; the
    control table's entries kept in order, :func:`ordered_control`)."""
    data = base.to_json()
    control = list(base.control)
    tuned: list[int] = []
    for (name, (low, high)), value in zip(space.items(), vector, strict=True):
        clipped = min(high, max(low, float(value)))
        if name.startswith("control["):
            entry = _entry(name)
            control[entry] = clipped
            tuned.append(entry)
        else:
            data[name] = clipped
    data["control"] = ordered_control(control, tuned)
    return Weights.from_json(data)


def ordered_control(control: Sequence[float], tuned: Sequence[int]) -> list[float]:
    """The table with each ``tuned`` entry raised to the one before it, then lowered to
    the one after it: a larger lead never controls less.

    Why: the boxes alone let the first four-player expert run end with a lead of 2
    worth less than a lead of 1 and a tie less than trailing by 1 (0.33 < 0.59, 0.01 <
    0.08).  Greedy with that set beat greedy as well in order as not (40.9% and 43.4% of
    200 games against three), but the search with it won 14.1% of 96 games against three
    ``hard`` (par 25%), in order 32.3% of the same games (docs/bots.md)."""
    out = list(control)
    for i in sorted(tuned):
        if i > 0:
            out[i] = max(out[i], out[i - 1])
    for i in sorted(tuned, reverse=True):
        if i + 1 < len(out):
            out[i] = min(out[i], out[i + 1])
    return out


def _entry(name: str) -> int:
    """The index in ``control[i]``."""
    return int(name[len("control["):-1])


def _read(weights: Weights, name: str) -> float:
    if name.startswith("control["):
        return float(weights.control[_entry(name)])
    return float(getattr(weights, name))


@dataclass(frozen=True)
class Setup:
    """What every game of a tuning run or a match shares."""

    rules: str = "standard"
    players: int = 2
    level: str = "greedy"  # greedy or mcts
    iterations: int = 40  # mcts simulations per search (deterministic budget)


@dataclass
class MatchResult:
    games: int
    wins: float  # of the candidate, ties split
    margin: float  # candidate's mean final score minus the best other's
    interval: tuple[float, float] = (0.0, 1.0)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def fitness(self) -> float:
        return self.win_rate + MARGIN_WEIGHT * self.margin


@dataclass
class TuningRun:
    """Generation by generation: the best fitness and the mean, and the best weights."""

    best: Weights
    best_fitness: float
    history: list[dict[str, float]] = field(default_factory=list)


def deal_seed(seed: int, deal: int) -> int:
    digest = hashlib.blake2b(f"deal:{seed}:{deal}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


def _bot(setup: Setup, weights: Weights, seed: int) -> Any:
    if setup.level == "mcts":
        return make_bot("mcts", seed=seed, iterations=setup.iterations, weights=weights)
    return make_bot(setup.level, seed=seed, weights=weights)


def play_deal(
    setup: Setup, candidate: Weights, opponent: Weights, game_seed: int, seat: int
) -> tuple[float, float]:
    """One game, the candidate in ``seat``: (its win share, its margin over the best other)."""
    game = Game.new(setup.rules, setup.players, seed=game_seed)
    bots = [
        _bot(setup, candidate if p == seat else opponent, game_seed + p)
        for p in range(setup.players)
    ]
    play_game(game, lambda g: bots[g.current_player].choose(g.view(g.current_player)))
    share = game.win_shares[seat]
    best_other = max(s for p, s in enumerate(game.scores) if p != seat)
    return share, float(game.scores[seat] - best_other)


Deal = tuple[Setup, Weights, Weights, int, int]


def _play(task: Deal) -> tuple[float, float]:
    return play_deal(*task)


def match(
    setup: Setup, candidate: Weights, opponent: Weights | Sequence[Weights], deals: int,
    seed: int, executor: Executor | None = None,
) -> MatchResult:
    """``candidate`` against ``opponent`` on ``deals`` deals, from every seat of each;
    ``executor`` is one of the arena's (serial, process pool, Ray).  The totals do not
    depend on the order games finish in (win shares are halves and thirds of wholes,
    margins whole points).

    Several opponents are several *fields*: every deal is played against each (all the
    other seats with that field's weights), and the result is over all those games.  A
    set tuned against one field can be a best reply to it and yet lose in a field of
    its own kind (measured with three players, docs/bots.md); judged against both, it
    has to do well in each."""
    fields = [opponent] if isinstance(opponent, Weights) else list(opponent)
    tasks: list[Deal] = [
        (setup, candidate, field, deal_seed(seed, d), seat)
        for field in fields for d in range(deals) for seat in range(setup.players)
    ]
    results = list((executor or SerialExecutor()).map_unordered(_play, tasks))
    results.sort()
    wins = sum(share for share, _ in results)
    margin = sum(m for _, m in results) / len(results)
    return MatchResult(len(results), wins, margin, wilson(wins, len(results)))


def tune(
    setup: Setup, *, generations: int, population: int, deals: int, seed: int,
    sigma: float = 0.3, executor: Executor | None = None,
    progress: Callable[[int, float], None] | None = None,
    against: Sequence[Weights] = (DEFAULT_WEIGHTS,),
    space: dict[str, tuple[float, float]] = TUNED,
    start: Weights | None = None,
) -> TuningRun:
    """CMA-ES over ``space`` (:data:`TUNED` or :data:`CONTESTS`), each candidate judged by
    :func:`match` on the training deals against the current weights: ``against``, one
    field or several (each deal is played against every one).  Tuning against the
    result of the last run as well as the field before moves toward a set that does well
    in both, rather than a best reply to one.

    ``start`` is where the search begins and what every candidate keeps outside
    ``space``; by default the first field.  A set of another level's own (the expert's)
    starts from itself and is judged against the field it has to beat (``hard``'s set):
    with four players the expert's set, chosen by greedy's games, won 14.1% against
    three ``hard`` before its control table was put in order and 32.3% after, where
    greedy hardly told the two apart (docs/bots.md), so a set for the search is chosen
    by the search's games.
    ``progress(generation, best_fitness)``."""
    import cma

    start = against[0] if start is None else start
    x0 = [min(high, max(low, x)) for x, (low, high) in zip(to_vector(start, space),
                                                           space.values(), strict=True)]
    scale = [high - low for low, high in space.values()]
    options = {
        "seed": seed + 1, "popsize": population, "verbose": -9,
        "bounds": [[low for low, _ in space.values()], [high for _, high in space.values()]],
        "CMA_stds": scale,
    }
    strategy = cma.CMAEvolutionStrategy(x0, sigma, options)
    run = TuningRun(start, match(setup, start, against, deals, seed, executor).fitness)
    for generation in range(1, generations + 1):
        vectors = strategy.ask()
        fitness = [
            match(setup, from_vector(v, start, space), against, deals, seed, executor).fitness
            for v in vectors
        ]
        strategy.tell(vectors, [-f for f in fitness])
        best = max(range(len(fitness)), key=lambda i: fitness[i])
        if fitness[best] > run.best_fitness:
            run.best, run.best_fitness = from_vector(vectors[best], start, space), fitness[best]
        run.history.append({
            "generation": generation, "best": round(max(fitness), 4),
            "mean": round(sum(fitness) / len(fitness), 4), "overall": round(run.best_fitness, 4),
        })
        if progress is not None:
            progress(generation, run.best_fitness)
    return run


def save_plot(run: TuningRun, path: str) -> None:
    """Fitness per generation: the generation's best and mean, and the best so far."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(7, 3.5))
    xs = [h["generation"] for h in run.history]
    for key, label in (("best", "generation best"), ("mean", "generation mean"),
                       ("overall", "best so far")):
        ax.plot(xs, [h[key] for h in run.history], label=label, marker="o", markersize=3)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("generation")
    ax.set_ylabel("fitness (win share + margin term)")
    ax.set_title("Self-play tuning against the current weights")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
