"""Which evaluation each opponent plays by, inferred from the turns they played.

The search plans its simulated opponents' replies as the greedy bot would, with
some evaluation weights.  With its own weights it mispredicts opponents who weigh
the game differently, and that costs it most of what the search gains: against
three greedy bots with the hand-set weights, 4 players, 200 games, the search
with the tuned weights won 36.2% and the same search with the hand-set weights
58.8% (docs/arena).  A human opponent's weights are unknown too.

:class:`OpponentModel` keeps a few candidate weight sets and, for every turn an
opponent has played, asks each candidate's planner what it would have played in
that position (the public position the opponent saw: [HIDDEN-1] keeps its
hidden parts out, and every player's view of them is the same).  A candidate
scores the share of the played actions it predicted, from the first one on; the
search plans each opponent's replies with its best-scoring candidate (ties go to
the first, the bot's own weights).  Once one candidate leads by :data:`SETTLED`
turns the question is taken as answered and that opponent's turns are no longer
planned again, so watching costs little after the first rounds; before that, a
candidate that trails the best by :data:`SETTLED` is dropped (not planned again),
which matters against an opponent no candidate predicts well (a searching bot such
as `hard` settles after some 25 decisions, and planning all seven candidates for
them took a third of the time of both search bots in such a game at 8 simulations per
search).

The public game is rebuilt from the view's log (the chance entries name every
tile drawn and token revealed), so the model needs nothing but the views it is
shown, and a bot rebuilt mid-game (a web server's worker) learns the past turns
again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import END_TURN, Action, log_steps
from ..record import replay_steps
from ..state import GameState, Phase
from ..view import View
from .greedy import distinct_plans, is_take, truncate_after_take
from .planner import TurnPlanner

#: The lead (in fully predicted turns) at which an opponent's evaluation is taken as
#: known: a greedy opponent's own weights predict every turn, the other candidate 35-60%
#: of its actions, so the lead grows by about half a turn per turn.
SETTLED = 4.0

#: Phases in which a player plans a turn (the auction's bids are not scored).
_PLANNED = (Phase.TILE, Phase.PICK, Phase.TURN, Phase.SCORING)


@dataclass
class _Decision:
    """An opponent's run of actions from one public position to the end of their turn
    or to a treasure taken (what follows depends on the type revealed)."""

    player: int
    before: GameState
    actions: list[Action] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return bool(self.actions) and (
            self.actions[-1] == END_TURN or is_take(self.actions[-1]))


class _Decisions:
    """Splits a game, action by action, into the decisions that are scored: one opens
    at a position where a watched player is to act in a planned phase, and closes at
    the end of their turn or a treasure taken; a turn ended another way (an auction
    bid) drops it.  Shared by :class:`OpponentModel` (scoring candidates) and
    :func:`played_ranks` (ranking the played runs), so both cut decisions alike.

    ``own_view``: each decision's position is the acting player's view (a recorded
    game knows the hidden tokens); else the public view."""

    def __init__(self, own_view: bool = False) -> None:
        self.own_view = own_view
        self.open: _Decision | None = None

    def watch(self, game: GameState, watched: Callable[[int], bool]) -> None:
        """Before an action: open a decision if none is open and the player to act is
        ``watched`` in a planned phase (asked only then: the model's answer sorts the
        candidates' scores)."""
        if (self.open is None and not game.is_over and game.phase in _PLANNED
                and watched(game.current)):
            viewer = game.current if self.own_view else None
            self.open = _Decision(game.current, View.of(game, viewer).state)

    def played(self, action: Action, game: GameState) -> _Decision | None:
        """After ``action`` was played on ``game``: the decision it completed, if any."""
        decision = self.open
        if decision is None:
            return None
        decision.actions.append(action)
        if decision.complete:
            self.open = None
            return decision
        if game.current != decision.player or game.is_over:
            self.open = None
        return None


class OpponentModel:
    """Per opponent, the candidate evaluation whose plans matched their play best."""

    def __init__(self, planners: Sequence[TurnPlanner]) -> None:
        if not planners:
            raise ValueError("an opponent model needs at least one candidate planner")
        #: The seat whose views are observed (its own turns are not scored).
        self.me = -1
        #: One planner per candidate evaluation, the first the bot's own.  Planning as the
        #: greedy bot does (beam 4, 8 placements) matches a greedy opponent exactly.
        self.planners = list(planners)
        #: Per opponent, each candidate's score so far.
        self.scores: dict[int, list[float]] = {}
        #: Decisions scored, per opponent.
        self.decisions: dict[int, int] = {}
        self._public: GameState | None = None
        self._decisions = _Decisions()
        #: The log of a view that could not be replayed (its continuations are skipped).
        self._failed: list[Action] | None = None

    def planner_for(self, player: int) -> TurnPlanner:
        """The planner of the candidate that predicted ``player``'s turns best so far."""
        scores = self.scores.get(player)
        if not scores:
            return self.planners[0]
        best = max(range(len(scores)), key=lambda j: (scores[j], -j))
        return self.planners[best]

    def settled(self, player: int) -> bool:
        """Whether one candidate leads the others by :data:`SETTLED` for ``player``: their
        turns are no longer planned again (watching cost 143 ms per own turn with four
        players before, the median over four greedy games)."""
        scores = sorted(self.scores.get(player, ()), reverse=True)
        return len(scores) > 1 and scores[0] - scores[1] >= SETTLED

    def observe(self, view: View) -> None:
        """Replay what was played since the last view and score the opponents' turns.

        A view whose log does not replay from a set-up game (a position built by hand,
        with no history behind it) teaches nothing: the model keeps no scores for it
        and the search plans with its own weights."""
        log = view.state.history
        if not log or (self._failed is not None and log[: len(self._failed)] == self._failed):
            return
        public = self._public
        me = view.player if view.player is not None else view.state.current
        try:
            if public is None or me != self.me or log[: len(public.history)] != public.history:
                self.me = me
                public = self._restart(view)
            for step in log_steps(log[len(public.history):]):
                if step.action is not None:
                    self._replay(public, step.action, step.chance)
        except ValueError:  # a ChanceError or IllegalAction: the log does not replay
            self._public, self._decisions, self._failed = None, _Decisions(), list(log)
            self.scores, self.decisions = {}, {}

    def _replay(self, public: GameState, action: Action, chance: tuple[Action, ...]) -> None:
        self._decisions.watch(public, self._watches)
        public.apply(action, chance=chance or None)
        decision = self._decisions.played(action, public)
        if decision is not None:
            self._score(decision)

    def _watches(self, player: int) -> bool:
        """Whether ``player``'s next decision is scored: an opponent not yet settled."""
        return player != self.me and not self.settled(player)

    def _restart(self, view: View) -> GameState:
        """A fresh public game: set up like the view's, started with the same draws."""
        state = view.state
        public = GameState.setup(state.rules.name, state.players, 0, **state.options)
        public.undo_enabled = False
        public.start(chance=log_steps(state.history)[0].chance)
        self._public, self._decisions = public, _Decisions()
        self.scores, self.decisions = {}, {}
        return public

    def _score(self, decision: _Decision) -> None:
        """Add each candidate's agreement with the decision played.  A candidate that
        trails the best by :data:`SETTLED` is out (not planned again): the lead that
        settles the model also rules it out, and against `hard`, which the model settles
        on late, planning all seven candidates took a third of both bots' time."""
        played = decision.actions
        scores = self.scores.setdefault(decision.player, [0.0] * len(self.planners))
        best = max(scores)
        for j, planner in enumerate(self.planners):
            if best - scores[j] >= SETTLED:
                continue
            plans = planner.plan(decision.before, k=1)
            predicted = truncate_after_take(plans[0].actions) if plans else []
            scores[j] += _agreement(predicted, played)
        self.decisions[decision.player] = self.decisions.get(decision.player, 0) + 1


def _agreement(predicted: list[Action], played: list[Action]) -> float:
    """Share of the played actions predicted in order from the first (0..1)."""
    same = 0
    for a, b in zip(predicted, played, strict=False):
        if a != b:
            break
        same += 1
    return same / max(len(predicted), len(played), 1)


def played_ranks(record: dict[str, Any], seats: Collection[int], planner: TurnPlanner,
                 k: int) -> Iterator[int | None]:
    """For each decision of ``seats`` in a recorded game (a run of actions from one
    position to the end of the turn or a treasure taken, as :class:`OpponentModel` scores
    them), where the played run ranks among ``planner``'s ``k`` best distinct plans from
    the player's own view of that position (0 the first; None: none of them).  Decisions
    with one distinct plan (nothing to choose) are left out.

    Why: a search bot chooses among exactly these plans, so the ranks say how often it
    plays the one a greedy model of it predicts (``hard``: fewer than half of its
    decisions), the table ``MCTSBot(replies="drawn")`` draws its simulated replies from.
    Raises :class:`~tikal.errors.RecordError` on a bad record."""
    decisions = _Decisions(own_view=True)
    seen = 0
    for game in replay_steps(record, GameState):
        for action in [a for a in game.history[seen:] if not a.is_chance]:
            done = decisions.played(action, game)
            if done is not None:
                macros = [macro for macro, _ in distinct_plans(planner.plan(done.before, k=k))]
                if len(macros) > 1:
                    yield macros.index(done.actions) if done.actions in macros else None
        seen = len(game.history)
        decisions.watch(game, seats.__contains__)
