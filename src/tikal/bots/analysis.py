"""Post-game analysis: where a game was won and lost, decision by decision.

A record is replayed and cut into *decisions*: a player's run of actions from the
moment they act until their turn ends, they hand over (a bid), or they take a
treasure (what follows depends on the type revealed, so the next actions are a new
decision, exactly as the search bot re-plans).  Each decision is judged **from the
deciding player's view at that moment** (:meth:`~tikal.game.Game.view`): the stack
order and the face-down tokens stay hidden [HIDDEN-1], so hindsight never enters.

For a decision the search bot's candidate plans and the plan actually played are
each played out on the same ``budget`` determinizations of that view (common
random numbers, :meth:`MCTSBot.simulate`: the plan, the rest of the round with the
fast greedy policy, then the evaluation) and scored by the bot's reward, a soft
chance of finishing first.  The *loss* of a decision is the best candidate's
chance minus the played plan's, and its verdict follows :data:`THRESHOLDS`.
Every player's win chance and expected margin before each decision come from the
evaluation of the same determinizations (all views are public in Tikal, so one
estimate serves every player).  The evaluation is the one the bots play with at the
game's player count (:func:`~tikal.bots.evaluate.weights_for`) unless other
``weights`` are given.

Deterministic for a seed: each decision draws its determinizations from a
generator seeded by ``(seed, decision index)``, so decisions can be analysed in any
order and in separate processes.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from typing import Any

from ..actions import END_TURN, Action, LogStep, log_steps, parse_action
from ..game import Game
from ..state import GameState
from .evaluate import Evaluator, Weights, weights_for
from .greedy import distinct_plans, truncate_after_take
from .mcts import MCTSBot, win_chance
from .value import packaged_model

#: How a review scores positions: the learned value model or the hand-made evaluation.
EVALUATIONS = ("learned", "hand_made")

#: Loss of win chance (0..1) from which a decision is called ... (largest first).
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.20),
    ("mistake", 0.10),
    ("inaccuracy", 0.05),
)


@dataclass(frozen=True)
class Decision:
    """One player's run of actions between two moments of new information."""

    index: int  # 0-based, in game order
    player: int
    start: int  # index in the game's history of the decision's first action
    actions: tuple[Action, ...]  # what was played (chance entries left out)


@dataclass
class Review:
    """The analysis of one decision."""

    index: int
    player: int
    start: int
    played: list[str]
    best: list[str]
    played_chance: float  # the player's win chance after the played plan
    best_chance: float  # ... after the best plan found
    loss: float  # best_chance - played_chance, never below 0
    verdict: str  # best, good, inaccuracy, mistake or blunder
    #: every player's chance around the decision: :attr:`position_chance` averaged over
    #: the round from this decision on (see :func:`over_rounds`)
    win_chance: list[float]
    margin: list[float]  # every player's expected final margin over the best other
    #: every player's chance judged on the position before the decision alone
    position_chance: list[float] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def decisions(record: dict[str, Any]) -> list[Decision]:
    """Cut the game of ``record`` into decisions, each with the player who made it."""
    game = Game.from_record(_opening(record))
    steps = log_steps(Game.from_record(record).history)[1:]
    found: list[Decision] = []
    run: list[Action] = []
    start = player = -1
    for step in steps:
        assert step.action is not None
        actor = game.current_player
        if run and actor != player:
            found.append(Decision(len(found), player, start, tuple(run)))
            run = []
        if not run:
            start, player = len(game.history), actor
        run.append(step.action)
        game.apply(step.action, chance=step.chance)
        if _ends_decision(step):
            found.append(Decision(len(found), player, start, tuple(run)))
            run = []
    if run:
        found.append(Decision(len(found), player, start, tuple(run)))
    return found


def _opening(record: dict[str, Any]) -> dict[str, Any]:
    """The record cut to its setup draws (the game before anyone acted)."""
    steps = log_steps([parse_action(text) for text in record["log"]])
    return {**record, "log": [str(c) for c in steps[0].chance], "scoring": None, "result": None}


def _ends_decision(step: LogStep) -> bool:
    """A turn's end, a bid or pass, or an action that revealed a treasure."""
    assert step.action is not None
    ends = step.action == END_TURN or step.action.verb in ("bid", "pass")
    return ends or any(c.verb == "*token" for c in step.chance)


def game_at(record: dict[str, Any], start: int) -> Game:
    """The game just before history entry ``start`` (replayed from the record)."""
    return Game.from_record({**record, "log": record["log"][:start], "scoring": None,
                             "result": None})


def _rng(seed: int, index: int) -> random.Random:
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(digest, "big"))


def review(
    record: dict[str, Any], decision: Decision, *, budget: int = 16, seed: int = 0,
    candidates: int = 6, weights: Weights | None = None, evaluation: str = "learned",
) -> Review:
    """Judge one decision of the game in ``record`` (see the module docstring).

    ``weights`` default to the set the bots play at the game's player count
    (:func:`~tikal.bots.evaluate.weights_for`), so the better plan shown is the one a bot
    would look for (with four players, greedy with the four-player set won 74.4% of 160
    held-out games against three with the two-player set, par 25%); its win chances are
    no worse calibrated for it (Brier scores in docs/bots.md).  The win chances come from
    the learned value model (``evaluation="learned"``, :mod:`.value`), whose held-out
    log loss is below the uniform guess at every player count where the hand-made
    evaluation's is above it with three (docs/bots.md); ``"hand_made"`` scores with the
    weights' evaluation as before."""
    if evaluation not in EVALUATIONS:
        raise ValueError(f"evaluation is one of {', '.join(EVALUATIONS)}")
    game = game_at(record, decision.start)
    player = game.current_player
    view = game.view(player)
    rng = _rng(seed, decision.index)
    bot = MCTSBot(seed, iterations=budget, seconds=None, candidates=candidates, reward="win",
                  replies="fast", opponents="self",
                  weights=weights if weights is not None else weights_for(game.players),
                  value=packaged_model() if evaluation == "learned" else None)
    played = truncate_after_take(list(decision.actions))
    plans = _candidates(bot, view.state, candidates)
    if played not in plans:
        plans.append(played)
    totals = [0.0] * len(plans)
    chances = [0.0] * game.players
    margins = [0.0] * game.players
    for _ in range(budget):
        world = view.determinize(rng)
        _add_estimates(world, chances, margins, bot)
        for i, plan in enumerate(plans):
            totals[i] += bot.simulate(world.clone(), plan, player)
    means = [t / budget for t in totals]
    best = max(range(len(plans)), key=lambda i: (means[i], -i))
    mine = means[plans.index(played)]
    loss = max(0.0, means[best] - mine)
    return Review(
        index=decision.index, player=player, start=decision.start,
        played=[str(a) for a in decision.actions], best=[str(a) for a in plans[best]],
        played_chance=round(mine, 4), best_chance=round(means[best], 4),
        loss=round(loss, 4), verdict=verdict(loss, plans[best] == played),
        win_chance=[round(c / budget, 4) for c in chances],
        margin=[round(m / budget, 2) for m in margins],
        position_chance=[round(c / budget, 4) for c in chances],
    )


def over_rounds(reviews: list[Review], players: int) -> list[Review]:
    """The reviews with :attr:`Review.win_chance` averaged over a round: from each
    decision on until every player has decided once.

    The position before a decision is judged just after somebody else moved: they have
    spent their action points and the player to move has not yet, so that estimate alone
    favours whoever moved last and the curve zig-zags with the turn order (measured on a
    demo game: 50% -> 90% -> 50% -> 78% ... for the first player while nothing much
    happened).  Over a round every player is "last to move" once, and the bias cancels.
    Needs every player's decisions (not those of one seat only)."""
    out = []
    for i, review_ in enumerate(reviews):
        window: list[Review] = []
        seen: set[int] = set()
        for later in reviews[i:]:
            window.append(later)
            seen.add(later.player)
            if len(seen) == players:
                break
        average = [round(sum(w.position_chance[p] for w in window) / len(window), 4)
                   for p in range(players)]
        out.append(replace(review_, win_chance=average))
    return out


def _candidates(bot: MCTSBot, state: GameState, k: int) -> list[list[Action]]:
    return [macro for macro, _ in distinct_plans(bot.planner.plan(state, k=k))]


def _add_estimates(
    world: GameState, chances: list[float], margins: list[float], bot: MCTSBot
) -> None:
    """Add every player's win chance and margin in ``world`` (one determinization)."""
    if bot.value is not None:
        learned = bot.value.values(world)
        for q, chance in enumerate(bot.value.win_chances(world)):
            chances[q] += chance
            margins[q] += learned[q] - max(v for o, v in enumerate(learned) if o != q)
        return
    ev = Evaluator(world, bot.weights)
    values = ev.values(world)
    spread = bot.temperature * (1 + max(ev.rounds))
    for q in range(world.players):
        chances[q] += win_chance(values, q, spread)
        margins[q] += values[q] - max(v for o, v in enumerate(values) if o != q)


def shown_percents(review_: Review) -> tuple[int, int, int]:
    """A decision's numbers as people read them, in whole percent: the mover's win chance
    after the turn as played, after the best turn found, and the loss as their difference,
    so that the three add up as shown (rounding each on its own once read "74%", "56%",
    "19% lost").  The replay page shows the same three (``shownChances`` in replay.js)."""
    played, best = round(review_.played_chance * 100), round(review_.best_chance * 100)
    return played, best, max(0, best - played)


def verdict(loss: float, same_as_best: bool) -> str:
    """The name of a decision by the win chance it gave away."""
    if same_as_best:
        return "best"
    return next((name for name, least in THRESHOLDS if loss >= least), "good")


def analyze(
    record: dict[str, Any], *, budget: int = 16, seed: int = 0, seat: int | None = None,
    candidates: int = 6, executor: Any = None, progress: Any = None,
    weights: Weights | None = None, evaluation: str = "learned",
) -> list[Review]:
    """Review every decision (of ``seat`` only, if given), in game order.

    ``executor`` (a :class:`concurrent.futures.Executor`) spreads decisions over
    processes; ``progress(done, total)`` is called after each one.
    """
    Game.from_record(record)  # a bad record fails here, with the entry at fault
    chosen = [d for d in decisions(record) if seat is None or d.player == seat]
    judge = partial(review, budget=budget, seed=seed, candidates=candidates, weights=weights,
                    evaluation=evaluation)
    if executor is None:
        results = (judge(record, d) for d in chosen)
    else:
        futures = [executor.submit(judge, record, d) for d in chosen]
        results = (f.result() for f in futures)
    reviews = []
    for review_ in results:
        reviews.append(review_)
        if progress is not None:
            progress(len(reviews), len(chosen))
    if seat is None and reviews:
        reviews = over_rounds(reviews, len(reviews[0].position_chance))
    return reviews


def summary(reviews: list[Review], players: int) -> dict[str, Any]:
    """Per player: decisions, verdict counts and the win chance given away.

    ``lost`` is the sum over the player's decisions, which grows with the game's length
    and can pass 1 (chances are lost and won back); ``mean_lost`` is per decision, the
    figure to compare players and games by (lichess's average centipawn loss).
    """
    out: dict[str, Any] = {}
    for p in range(players):
        mine = [r for r in reviews if r.player == p]
        counts = {name: sum(1 for r in mine if r.verdict == name) for name, _ in THRESHOLDS}
        lost = sum(r.loss for r in mine)
        out[str(p)] = {
            "decisions": len(mine), **counts,
            "lost": round(lost, 4),
            "mean_lost": round(lost / len(mine), 4) if mine else 0.0,
            "worst": max(mine, key=lambda r: r.loss).index if mine else None,
        }
    return out


def save_plot(reviews: list[Review], names: list[str], path: str) -> None:
    """Every player's win chance over the game, the classified decisions marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(9, 4))
    xs = [r.index for r in reviews]
    for p, name in enumerate(names):
        ax.plot(xs, [r.win_chance[p] for r in reviews], label=name, linewidth=1.6)
    marks = {"blunder": "X", "mistake": "o", "inaccuracy": "."}
    for r in reviews:
        if r.verdict in marks:
            ax.scatter([r.index], [r.win_chance[r.player]], marker=marks[r.verdict], s=60,
                       color="black", zorder=3)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("decision")
    ax.set_ylabel("win chance (over the round)")
    ax.set_ylim(0, 1)
    ax.set_title("Win chance over the game (x blunder, o mistake, . inaccuracy)")
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
