"""Learning the value model (:mod:`.value`) from self-play: data, then training.

**Data** (:func:`generate`): self-play games of the greedy bots at several strengths
(``medium``, ``easy``, greedy with the expert level's, the hand-set or another player
count's weights), every rule set and player count in :data:`MIX`.  After every turn (and
at the start) each player's feature row is recorded (public information only, [HIDDEN-1]); when the
game ends, every row gets its player's final margin over the players' mean and its
share of the win.  Games are seeded by their index, so the data are the same on any
executor and for any number of jobs.

**Training** (:func:`train`): regression on the game results, not TD(λ).  Self-play
games are cheap here (a greedy game takes about half a second), so Monte Carlo
targets are plentiful and unbiased, and a regression needs no bootstrapping from the
model's own estimates, which TD would (and TD's lower variance matters most when
games are long and few).  The rows are standardized; a linear model is fitted in
closed form (ridge) as the baseline, then the network (that linear model plus one
hidden ``tanh`` layer's correction, started from the ridge fit) with Adam on the
squared error.  Games, not positions, are split into training and held
out (a game's positions are strongly correlated).  The win chances' temperature is
fitted on the training positions by the lowest log loss, and the held-out log loss
and Brier score are reported next to the hand-made evaluation's (the analysis's
soft chance, 2.5 points per round ahead plus 2.5) and the uniform guess, per player
count.

Needs numpy (``pip install 'tikal[learn]'``); playing with the model does not.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ..actions import END_TURN, Action
from ..errors import RecordError
from ..game import Game
from . import GreedyBot, MCTSBot, make_bot
from .arena import Executor, SerialExecutor
from .evaluate import Evaluator, Weights, load_weights
from .features import NAMES, rows_of
from .planner import TurnPlanner
from .value import DEFAULT_TEMPERATURE, ROUNDS_AHEAD, ValueModel

if TYPE_CHECKING:
    import numpy as np

#: Rule sets and player counts of the self-play games, with their shares.
MIX: Final = (
    ("standard", 2, 0.30), ("standard", 3, 0.15), ("standard", 4, 0.20),
    ("auction", 2, 0.06), ("auction", 3, 0.06), ("auction", 4, 0.08), ("demo", 2, 0.15),
)

#: The bots that play the self-play seats (drawn per seat with these shares): the
#: medium level, the easy one, greedy with the expert level's weights (a stronger
#: style), and greedy with weights tuned for another setting.
SEAT_BOTS: Final = (("medium", 0.45), ("easy", 0.2), ("greedy@expert", 0.15),
                    ("greedy@hand_set", 0.1), ("greedy@four_players", 0.1))

ESTIMATE = NAMES.index("own.estimate")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SelfPlayTask:
    index: int
    rules: str
    players: int
    deal: int
    seats: tuple[str, ...]


def schedule(games: int, seed: int) -> list[SelfPlayTask]:
    """The games of a data run: setting and line-up drawn from ``(seed, index)``."""
    tasks = []
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        rules, players, _ = rng.choices(MIX, weights=[w for *_, w in MIX])[0]
        seats = tuple(rng.choices([b for b, _ in SEAT_BOTS], weights=[w for _, w in SEAT_BOTS],
                                  k=players))
        tasks.append(SelfPlayTask(g, rules, players, seed * 7919 + g, seats))
    return tasks


def _bot(entry: str, seed: int, players: int) -> Any:
    name, _, weights = entry.partition("@")
    options: dict[str, Any] = {"weights": load_weights(weights)} if weights else {}
    return make_bot(name, seed=seed, players=players, **options)


def counts_as_position(step: Iterable[Action], game: Game) -> bool:
    """Whether the position after ``step`` (the actions just applied) is one the model
    learns from, besides the start: after every turn but the last (whose end is the
    target)."""
    return END_TURN in step and not game.is_over


def play_selfplay(task: SelfPlayTask) -> dict[str, Any]:
    """One self-play game: its rows, each player's target and the position each row is of
    (plain lists, so the result pickles small and needs no numpy)."""
    game = Game.new(task.rules, players=task.players, seed=task.deal)
    bots = [_bot(entry, task.deal * 31 + s, task.players) for s, entry in enumerate(task.seats)]
    positions = [rows_of(game)]
    while not game.is_over:
        action = bots[game.current].choose(game.view(game.current))
        game.apply(action)
        if counts_as_position((action,), game):
            positions.append(rows_of(game))
    scores = game.scores
    mean = sum(scores) / len(scores)
    margins = [s - mean for s in scores]
    shares = game.win_shares
    return {"index": task.index, "players": task.players, "rules": task.rules,
            "rows": [row for rows in positions for row in rows],
            "margin": margins * len(positions), "win": shares * len(positions),
            "positions": len(positions)}


def generate(games: int, seed: int, executor: Executor | None = None,
             progress: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """Self-play data: ``x`` (rows x features), ``margin``, ``win``, ``game`` (index),
    ``position`` (global index; a position's rows are consecutive, one per player) and
    ``players``; in game order whatever order the games finished in."""
    import numpy as np

    results = []
    for done, result in enumerate((executor or SerialExecutor()).map_unordered(
            play_selfplay, schedule(games, seed)), 1):
        results.append(result)
        if progress is not None:
            progress(done)
    results.sort(key=lambda r: r["index"])
    columns: dict[str, list[Any]] = {k: [] for k in ("x", "margin", "win", "game", "position",
                                                      "players")}
    position = 0
    for r in results:
        n = r["players"]
        columns["x"].extend(r["rows"])
        columns["margin"].extend(r["margin"])
        columns["win"].extend(r["win"])
        columns["game"].extend([r["index"]] * len(r["rows"]))
        columns["players"].extend([n] * len(r["rows"]))
        for p in range(r["positions"]):
            columns["position"].extend([position + p] * n)
        position += r["positions"]
    return {"x": np.asarray(columns["x"], dtype=np.float64).reshape(-1, len(NAMES)),
            "margin": np.asarray(columns["margin"], dtype=np.float64),
            "win": np.asarray(columns["win"], dtype=np.float64),
            "game": np.asarray(columns["game"], dtype=np.int64),
            "position": np.asarray(columns["position"], dtype=np.int64),
            "players": np.asarray(columns["players"], dtype=np.int64)}


# ---------------------------------------------------------------- training


@dataclass
class Training:
    """What :func:`train` found: the model and its report (losses per epoch included)."""

    model: ValueModel
    report: dict[str, Any]


def split_games(games: np.ndarray, held_out: float, seed: int) -> np.ndarray:
    """A mask of the rows whose game is held out (a share ``held_out`` of the games)."""
    import numpy as np

    ids = np.unique(games)
    rng = np.random.default_rng(seed)
    chosen = rng.permutation(ids)[: max(1, round(len(ids) * held_out))]
    return np.isin(games, chosen)


def train(data: dict[str, np.ndarray], *, hidden: int = 32, epochs: int = 40,
          seed: int = 0, held_out: float = 0.15, ridge: float = 1.0,
          progress: Callable[[int, float], None] | None = None) -> Training:
    """Fit the value model (module docstring); deterministic for ``seed``."""
    import numpy as np

    x, y = data["x"], data["margin"]
    test = split_games(data["game"], held_out, seed)
    mean = x[~test].mean(axis=0)
    scale = x[~test].std(axis=0)
    scale[scale < 1e-9] = 1.0
    z = (x - mean) / scale
    linear = _ridge(z[~test], y[~test], ridge)
    linear_loss = float(np.mean((z[test] @ linear[0] + linear[1] - y[test]) ** 2))
    curves: list[dict[str, float]] = []
    layers = _fit_network(z[~test], y[~test], z[test], y[test], linear, hidden, epochs, seed,
                          curves, progress)
    predicted = _predict(layers, z)
    temperature, by_players = fit_temperatures(predicted[~test], data, ~test)
    w1, b1, w2, a, bias = layers
    model = ValueModel(tuple(mean.tolist()), tuple(scale.tolist()), tuple(a.tolist()),
                       float(bias), tuple(tuple(r) for r in w1.tolist()), tuple(b1.tolist()),
                       tuple(w2.tolist()), temperature, by_players)
    report = {
        "rows": len(y), "games": len(np.unique(data["game"])),
        "held_out_games": len(np.unique(data["game"][test])),
        "hidden": hidden, "epochs": epochs, "seed": seed, "ridge": ridge,
        "mse": {"constant": float(np.var(y[test])), "linear": linear_loss,
                "model": float(np.mean((predicted[test] - y[test]) ** 2))},
        "temperature": list(temperature),
        "temperature_by_players": {str(n): [b, r] for n, b, r in by_players},
        "curves": curves,
        "calibration": calibration(predicted, data, test, model.temperature_for),
    }
    model.about["trained"] = {k: v for k, v in report.items() if k != "curves"}
    return Training(model, report)


def _ridge(z: np.ndarray, y: np.ndarray, ridge: float) -> tuple[np.ndarray, float]:
    import numpy as np

    a = np.hstack([z, np.ones((len(z), 1))])
    penalty = ridge * np.eye(a.shape[1])
    penalty[-1, -1] = 0.0
    w = np.linalg.solve(a.T @ a + penalty, a.T @ y)
    return w[:-1], float(w[-1])


def _predict(layers: tuple[Any, ...], z: np.ndarray) -> np.ndarray:
    import numpy as np

    w1, b1, w2, a, bias = layers
    out = z @ a + bias
    if len(w1):
        out = out + np.tanh(z @ w1.T + b1) @ w2
    return np.asarray(out)


def _fit_network(z: np.ndarray, y: np.ndarray, zt: np.ndarray, yt: np.ndarray,
                 linear: tuple[np.ndarray, float], hidden: int, epochs: int, seed: int,
                 curves: list[dict[str, float]],
                 progress: Callable[[int, float], None] | None) -> tuple[Any, ...]:
    """The linear model plus one hidden tanh layer, Adam on the squared error, minibatches
    of 256.  The linear part starts from the ridge fit and the hidden layer's output from
    almost nothing, so training starts where the linear model ends and the network
    learns what it misses (from a random start it needed far more passes to catch up)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    f = z.shape[1]
    params = [rng.normal(0, 1 / math.sqrt(f), (hidden, f)), np.zeros(hidden),
              rng.normal(0, 0.01, hidden), linear[0].copy(), np.array(linear[1])]
    if not hidden:
        return tuple(params)
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    rate, beta1, beta2, step = 1e-3, 0.9, 0.999, 0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(z))
        for start in range(0, len(z), 256):
            batch = order[start:start + 256]
            grads = _gradients(params, z[batch], y[batch])
            step += 1
            for i, g in enumerate(grads):
                moments[i] = beta1 * moments[i] + (1 - beta1) * g
                squares[i] = beta2 * squares[i] + (1 - beta2) * g * g
                m_hat = moments[i] / (1 - beta1 ** step)
                v_hat = squares[i] / (1 - beta2 ** step)
                params[i] = params[i] - rate * m_hat / (np.sqrt(v_hat) + 1e-8)
        layers = tuple(params)
        train_loss = float(np.mean((_predict(layers, z) - y) ** 2))
        test_loss = float(np.mean((_predict(layers, zt) - yt) ** 2))
        curves.append({"epoch": epoch, "train": train_loss, "held_out": test_loss})
        if progress is not None:
            progress(epoch, test_loss)
    return tuple(params)


def _gradients(params: list[Any], z: np.ndarray, y: np.ndarray) -> list[Any]:
    import numpy as np

    w1, b1, w2, a, bias = params
    h = np.tanh(z @ w1.T + b1)
    error = (h @ w2 + z @ a + bias) - y
    d_out = 2 * error / len(y)
    d_hidden = np.outer(d_out, w2) * (1 - h * h)
    return [d_hidden.T @ z, d_hidden.sum(axis=0), h.T @ d_out, z.T @ d_out,
            np.array(d_out.sum())]


# ---------------------------------------------------------------- win chances


def _positions(data: dict[str, np.ndarray], mask: np.ndarray) -> Iterable[np.ndarray]:
    """The row indices of every position under ``mask``, by player count."""
    import numpy as np

    rows = np.flatnonzero(mask)
    for n in (2, 3, 4):
        chosen = rows[data["players"][rows] == n]
        if len(chosen):
            yield chosen.reshape(-1, n)


def _chances(values: np.ndarray, spread: np.ndarray) -> np.ndarray:
    import numpy as np

    scaled = values / spread[:, None]
    scaled -= scaled.max(axis=1, keepdims=True)
    e = np.exp(np.maximum(scaled, -50))
    return np.asarray(e / e.sum(axis=1, keepdims=True))


def _scores(chances: np.ndarray, wins: np.ndarray) -> tuple[float, float]:
    """Mean log loss and mean Brier score (summed over the players) of ``chances``."""
    import numpy as np

    log_loss = float(np.mean(-np.sum(wins * np.log(np.clip(chances, 1e-12, 1)), axis=1)))
    brier = float(np.mean(np.sum((chances - wins) ** 2, axis=1)))
    return log_loss, brier


#: The win chances' temperatures tried: ``(base, per scoring round ahead)`` in points.
TEMPERATURE_GRID: Final = tuple((base, per_round)
                                for base in (1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 11.0, 15.0)
                                for per_round in (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0))


def fit_temperatures(predicted: np.ndarray, data: dict[str, np.ndarray], mask: np.ndarray
                     ) -> tuple[tuple[float, float], tuple[tuple[int, float, float], ...]]:
    """The ``(base, per round)`` spread with the lowest log loss over
    :data:`TEMPERATURE_GRID`: over all positions, and per player count (``(players, base,
    per round)``; see :mod:`.value` for why)."""
    import numpy as np

    full = np.zeros(len(data["margin"]))
    full[mask] = predicted
    losses: dict[int, list[float]] = {}
    for idx in _positions(data, mask):
        rounds = np.max(data["x"][idx, ROUNDS_AHEAD], axis=1)
        losses[idx.shape[1]] = [
            _scores(_chances(full[idx], base + per_round * rounds), data["win"][idx])[0]
            * len(idx) for base, per_round in TEMPERATURE_GRID]
    overall = [sum(column) for column in zip(*losses.values(), strict=True)]
    best = TEMPERATURE_GRID[int(np.argmin(overall))] if overall else DEFAULT_TEMPERATURE
    by_players = tuple((n, *TEMPERATURE_GRID[int(np.argmin(row))])
                       for n, row in sorted(losses.items()))
    return best, by_players


#: The spread per scoring round (this one included) of the analysis's soft chance over
#: the hand-made estimates: :class:`~.mcts.MCTSBot`'s default temperature.
HAND_MADE_SPREAD: Final = 2.5


def hand_made_chances(estimates: np.ndarray, rounds: np.ndarray) -> np.ndarray:
    """The win chances the analysis gave before the model (one row per position)."""
    return _chances(estimates, HAND_MADE_SPREAD * (1 + rounds))


def judged(chances: np.ndarray, hand: np.ndarray, wins: np.ndarray) -> dict[str, float]:
    """Log loss and Brier score of the model's chances, the hand-made ones and the
    uniform guess against the same results."""
    import numpy as np

    model = _scores(chances, wins)
    hand_made = _scores(hand, wins)
    uniform = _scores(np.full(wins.shape, 1 / wins.shape[1]), wins)
    return {"log_loss": model[0], "brier": model[1],
            "hand_made_log_loss": hand_made[0], "hand_made_brier": hand_made[1],
            "uniform_log_loss": uniform[0], "uniform_brier": uniform[1]}


def calibration(predicted: np.ndarray, data: dict[str, np.ndarray], test: np.ndarray,
                temperature_for: Callable[[int], tuple[float, float]]
                ) -> dict[str, dict[str, float]]:
    """Held-out log loss and Brier score by player count: the model's chances, the
    hand-made evaluation's (the analysis's soft chance) and the uniform guess."""
    import numpy as np

    out = {}
    for idx in _positions(data, test):
        rounds = np.max(data["x"][idx, ROUNDS_AHEAD], axis=1)
        base, per_round = temperature_for(idx.shape[1])
        out[str(idx.shape[1])] = {"positions": len(idx), **judged(
            _chances(predicted[idx], base + per_round * rounds),
            hand_made_chances(data["x"][idx, ESTIMATE], rounds), data["win"][idx])}
    return out


def save_plot(report: dict[str, Any], path: str) -> None:
    """Held-out and training loss per epoch, with the linear and constant baselines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = report["curves"]
    fig, ax = plt.subplots(figsize=(7, 4))
    if curves:
        epochs = [c["epoch"] for c in curves]
        ax.plot(epochs, [c["held_out"] for c in curves], label="network, held-out games")
        ax.plot(epochs, [c["train"] for c in curves], label="network, training games",
                linestyle=":")
    ax.axhline(report["mse"]["linear"], color="grey", linestyle="--",
               label="linear (ridge), held-out")
    ax.axhline(report["mse"]["constant"], color="black", linestyle="-.",
               label="constant, held-out")
    ax.set_xlabel("epoch")
    ax.set_ylabel("mean squared error of the final margin (points²)")
    ax.set_title("tikal learn: value model loss")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# ---------------------------------------------------------------- games played elsewhere


def record_positions(record: dict[str, Any]) -> tuple[list[list[list[float]]], list[float]]:
    """A recorded game's positions as :func:`play_selfplay` sees them (at the start and
    after every turn but the last; every player's feature row), and each player's share
    of the win.  Raises :class:`~tikal.errors.RecordError` on a bad record."""
    return measured_positions(record, rows_of)


def measured_positions(record: dict[str, Any], measure: Callable[[Game], T]
                       ) -> tuple[list[T], list[float]]:
    """``measure`` of each of a recorded game's positions (those :func:`record_positions`
    gives), and each player's share of the win (all 0 for an unfinished game)."""
    from ..record import replay_steps

    positions: list[T] = []
    game, seen = None, 0
    for game in replay_steps(record, Game):
        added = game.history[seen:]  # the step's action and the chance it drew
        seen = len(game.history)
        if not positions or counts_as_position(added, game):
            positions.append(measure(game))
    assert game is not None
    return positions, game.win_shares


class UnreadableRecord(ValueError):
    """A record given to :func:`calibrate_records` that does not replay: ``name`` says
    which (a file, for the command), ``error`` why."""

    def __init__(self, name: str, error: RecordError) -> None:
        super().__init__(f"{name}: {error}")
        self.name, self.error = name, error


class PlansNoTurns(ValueError):
    """A bot named to :func:`reply_shares` that plans no turns (only the greedy and mcts
    levels do): ``label`` says which."""

    def __init__(self, label: str) -> None:
        super().__init__(f"{label} plans no turns")
        self.label = label


#: A player count's finished games: how many, and every position's measure with the
#: game's win shares.
Finished = tuple[int, list[tuple[T, list[float]]]]


def finished_by_count(records: Iterable[tuple[str, dict[str, Any]]],
                      measure: Callable[[Game], T]) -> dict[int, Finished[T]]:
    """The finished recorded games' positions by player count: how many games, and each
    position's ``measure`` with its game's win shares (unfinished games are left out).
    ``records`` are (name, record) pairs; the name is what :class:`UnreadableRecord`
    reports when one does not replay."""
    found: dict[int, Finished[T]] = {}
    for name, record in records:
        try:
            positions, shares = measured_positions(record, measure)
        except RecordError as exc:
            raise UnreadableRecord(name, exc) from exc
        if not sum(shares):
            continue
        games, measured = found.get(len(shares), (0, []))
        measured.extend((position, shares) for position in positions)
        found[len(shares)] = (games + 1, measured)
    return dict(sorted(found.items()))


def calibrate_records(records: Iterable[tuple[str, dict[str, Any]]], model: ValueModel
                      ) -> dict[str, dict[str, float]]:
    """How well the win chances predicted the winners of finished recorded games, by player
    count: the model's, the hand-made evaluation's (the analysis's soft chance before the
    model) and the uniform guess, as mean log loss and Brier score over the positions
    (unfinished games are left out).  ``records`` are (name, record) pairs; the name is
    what :class:`UnreadableRecord` reports when one does not replay."""
    import numpy as np

    found = {}
    for n, (games, measured) in finished_by_count(records, rows_of).items():
        learned = [model.chances_of_rows(rows) for rows, _ in measured]
        estimates = [[row[ESTIMATE] for row in rows] for rows, _ in measured]
        rounds = [max(row[ROUNDS_AHEAD] for row in rows) for rows, _ in measured]
        wins = [shares for _, shares in measured]
        found[str(n)] = {"games": games, "positions": len(wins), **judged(
            np.asarray(learned), hand_made_chances(np.asarray(estimates), np.asarray(rounds)),
            np.asarray(wins))}
    return found


#: Temperatures ``learn spread`` tries by default: the search's (2.5) and around it.
SPREAD_TEMPERATURES: Final = (1.5, 2.5, 3.5, 5.0, 7.0, 10.0)


def spread_fit(records: Iterable[tuple[str, dict[str, Any]]], weights: Weights,
               temperatures: Iterable[float] = SPREAD_TEMPERATURES,
               ) -> dict[str, dict[str, Any]]:
    """How well the search's win chance (:func:`~tikal.bots.mcts.win_chance`: a softmax
    over the hand-made estimates with ``weights``, spread = temperature * (1 + scoring
    rounds ahead)) predicted the winners of finished recorded games, per player count:
    the mean log loss for each temperature and the best of them.

    Why: with two players the search's reward is that chance, so its temperature says how
    much a point of lead is worth; a spread too sharp for the weights' estimates makes a
    small lead look like a won game.  Judged on the expert's 100 games against ``hard``
    (deals 90000-90049) the search's 2.5 was too sharp for the expert set: log loss 0.637,
    at 5 0.591, the best of 1.5-10 (on its 100 games against greedy, 0.540 and 0.532,
    the best 3.5 with 0.525; docs/bots.md).  ``records`` are (name, record) pairs as for
    :func:`calibrate_records`."""
    import numpy as np

    def estimates(game: Game) -> tuple[list[float], int]:
        ev = Evaluator(game, weights)
        return ev.values(game), max(ev.rounds)

    tried = sorted(set(temperatures))
    found: dict[str, dict[str, Any]] = {}
    for n, (games, measured) in finished_by_count(records, estimates).items():
        values = np.asarray([estimate for (estimate, _), _ in measured])
        spreads = 1 + np.asarray([ahead for (_, ahead), _ in measured], dtype=float)
        wins = np.asarray([shares for _, shares in measured])
        losses = [_scores(_chances(values, t * spreads), wins)[0] for t in tried]
        found[str(n)] = {"games": games, "positions": len(wins),
                         "log_loss": dict(zip(tried, losses, strict=True)),
                         "best": tried[int(np.argmin(losses))]}
    return found


def reply_shares(records: Iterable[tuple[str, dict[str, Any]]], label: str
                 ) -> dict[str, dict[str, Any]]:
    """How often the bot ``label`` (as the records name it, e.g. ``hard``) played its
    planner's 1st, 2nd, ... distinct plan in recorded games, by player count: games and
    decisions read, the decisions whose play was none of the plans (``unranked``) and
    each rank's share of the others (:func:`~tikal.bots.opponents.played_ranks`).

    Why: ``MCTSBot(replies="drawn")`` draws each simulated reply from such a table
    (``data/reply_shares.json``); ``hard`` played the first plan in 43.7% of 279 decisions
    with two players at 1.8 s (docs/bots.md).  ``records`` are (name, record) pairs as for
    :func:`calibrate_records`."""
    from .arena import parse_bots
    from .opponents import played_ranks

    planners: dict[int, tuple[TurnPlanner, int]] = {}
    found: dict[int, dict[str, Any]] = {}
    for name, record in records:
        bots = record.get("bots")
        if not isinstance(bots, list) or label not in bots:
            continue
        seats = [i for i, bot in enumerate(bots) if bot == label]
        players = len(bots)
        if players not in planners:
            bot = parse_bots(label, players)[0].build(0, players)
            if not isinstance(bot, GreedyBot | MCTSBot):
                raise PlansNoTurns(label)
            planners[players] = (bot.planner, getattr(bot, "candidates", 10))
        planner, k = planners[players]
        try:
            ranks = list(played_ranks(record, seats, planner, k))
        except RecordError as exc:
            raise UnreadableRecord(name, exc) from exc
        entry = found.setdefault(players, {"games": 0, "decisions": 0, "unranked": 0,
                                           "counts": [0] * k})
        entry["games"] += 1
        entry["decisions"] += len(ranks)
        for rank in ranks:
            if rank is None:
                entry["unranked"] += 1
            else:
                entry["counts"][rank] += 1
    for entry in found.values():
        ranked = sum(entry["counts"])
        entry["shares"] = [round(c / ranked, 4) if ranked else 0.0 for c in entry["counts"]]
    return {str(n): found[n] for n in sorted(found)}
