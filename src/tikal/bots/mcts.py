"""Determinized Monte Carlo search over whole-turn macro-actions.

The root's children are *macro-actions*: the best distinct turn plans of the
beam planner (tile placement + the AP actions up to the end of the turn, cut
after a treasure is taken because what follows depends on the revealed type).
The greedy bot's own choice is always one of them.

Each simulation plays one macro-action on a *determinization*, a full game
consistent with the bot's view (:meth:`View.determinize`: the unseen tile order
and the face-down token types are shuffled [HIDDEN-1]), finishes the turn and
lets every other player reply, then plays the bot's own next turn (a truncated
rollout of ``horizon`` turns, by default one round plus one turn), and scores
the leaf with the evaluation.  Every simulated player maximises its own
objective (max^n).

The opponents' replies are planned as the greedy bot plans its turns
(``replies="greedy"``: beam search, 8 tile placements checked); the bot's own
turns in the rollout use the fast policy (beam 1, the heuristic's placement).
Before, the replies used the fast policy too, and more simulations did not
help: against greedy, 2 players, 60 games on 30 screening deals, 50 and 200
simulations per search both won 57.5% (95% CI 45-69%).  The estimates were
biased, not noisy: the simulated opponent did not play like a real one.  With
greedy replies the first 10 games of the same screen at 50 simulations were all
won (mean margin +19 points instead of +4), although each simulation costs
about 15 times more.  That start was luckier than the whole: at the default
1.8 s per turn, 200 games on held-out deals won 70.2% (95% CI 64-76%) in 2
players, where the fast replies won 59.3% at 1 s, and 56.2% (49-63%) against
three greedy bots, where they won 38.5% (docs/arena).  With the planner a fifth
faster (the same plans, so more simulations in the same time) the same 200
four-player games were won 58.9% (52-66%).  Two settings, off by default, lost on
those games: ``keep_first`` (the greedy plan kept through every halving round)
52.9%, ``reply_placements=4`` (simulated opponents check 4 placements, a quarter
more simulations) 55.3%; paired by game -6.0 and -3.6 points, standard error 4.7.
Two more, off by default, measured with four players against three ``hard`` at 8
simulations per search (84 games, paired with the expert preset; docs/bots.md):
``own_turns="greedy"`` (the bot's own next turn planned like greedy's) +0.0 points,
standard error 6.0; ``prior=1`` (the planner's score of each plan worth one simulation)
-9.5, standard error 5.8.  With two players against ``hard`` at 8 simulations, 100 games
paired with the preset: ``exact_end`` (a simulation that reaches the game's end scored by
its result instead of the soft chance, which values a one-point win at 0.55) +0.0 points,
no game changed hands; ``reply_placements=16`` -6.5, standard error 5.6.
At 24 simulations (deals 93000-93049): ``candidates=6`` (more samples for fewer plans)
-19.5, standard error 5.6; ``candidates=14`` +0.5, standard error 5.8, and at 1.8 s +1.5,
standard error 6.5 (100 games each); ``temperature=7.5`` +0.0, 90 of 100 games the same (a
reward's shape shows only with several samples per plan, i.e. near the real budget).

``replies="drawn"`` models an opponent that searches: `hard` plays the planner's first
plan in fewer than half of its decisions (47% with two players at 8 simulations, 43%
with four at 1.8 s), so each simulated reply is the planner's r-th distinct plan, r drawn
from a measured table of those shares (``reply_shares``, ``data/reply_shares.json``;
``tikal learn replies`` reads them from records), with the same draws for every plan of
a pass.  Off by default: against ``hard`` with two players -1.0 points at 8 simulations
(standard error 6.2, 100 games) and +4.7 at 1.8 s (standard error 5.1, 150 games paired
with the preset), where it costs a quarter of the simulations (docs/bots.md); drawn among
the best tile placement's plans only (``drawn_tile_trials=1``, no cost) +2.3 (standard
error 4.9, the same 150 games).

Which evaluation the simulated opponents plan with is inferred
(``opponents="infer"``, :mod:`tikal.bots.opponents`): for every turn an
opponent played, each candidate (the bot's own weights, then every other
packaged set) is asked what it would have played there, and that opponent's
replies are planned with the candidate that predicted them best.  With its own
weights for every opponent (``opponents="self"``, before 2026-12-02) the search
with the tuned weights won 36.2% against three greedy bots with the hand-set
weights (4 players, 200 games, seed 11), and 58.8% with the hand-set weights
itself; with the weights inferred, 54.8% (95% CI 48-62%), paired by game +18.5
points (standard error 4.7); against tuned greedy, which its own weights
already model, 58.7% on the deals where it had won 55.2% (paired +3.5, standard
error 4.7, noise).  Watching is inside the turn's budget: until an opponent is
settled (:data:`~tikal.bots.opponents.SETTLED`) each of their turns is planned
once per candidate still in the running; median 9 ms per own turn with four greedy
players (p95 146 ms).  Against `hard`, which no candidate predicts well, the seven
candidates took a third of both bots' time at 8 simulations per search, until a
candidate that falls :data:`~tikal.bots.opponents.SETTLED` behind the best was
dropped (2026-12-07): at 1.8 s, 57 simulations per search instead of 49 (`hard` 50
instead of 36).

The weights matter as much as the search: with three or four players the bot
plays the set tuned for that count (:func:`~tikal.bots.evaluate.weights_for`,
through ``make_bot``'s ``players``).  With the four-player set the search won 92.8%
of 200 four-player games against three greedy bots with the two-player weights (95% CI
88-96%), where with those weights itself it had won 58.7% on the same deals and
seats (paired +34.1 points, standard error 3.8).  With the three-player set on every
seat it won 61.4% of 201 three-player games against two greedy bots (95% CI 55-68%,
par 33%).

The root player's reward depends on the number of players.  With two it is a
soft chance of finishing first (:func:`win_chance`): against greedy bots with
the hand-set weights, on the same 200 deals, 83.5% wins instead of 81.0% with
the estimated lead.  With three or four it is the evaluation's own objective
(own value minus the best and the mean opponent, weighted as tuned), the one
every simulated opponent also plays for.  Measured with the tuned weights, 0.8 s
per turn against three greedy bots, 80 games on 20 deals: the objective won
41.2% (95% CI 31-52%), the soft win chance 26.9% (par is 25%), the lead over the
best other 36.0%; with the win chance, a shorter rollout (half a round: 26.9%;
the bot's own turn only: 21.2%), fewer candidates (6: 27.5%) or a sharper chance
(temperature 1: 25.6%) did not help.  With the objective at the default 1.8 s, 200
games on held-out deals: 38.5% (95% CI 32-45%; docs/arena).  The win chance
rewarded keeping level with the leader over gaining on the field, while the
rollouts' opponents chase the objective; rewarding what the simulated players
pursue keeps the search's values consistent.

The two-player chance's ``temperature`` (points of spread per scoring round ahead) should
fit the weights' estimates: ``tikal learn spread`` judges it on recorded games.  For the
expert level's set 2.5 was too sharp (log loss 0.637 on its games against ``hard``, at 5
0.591), and with 5 the expert won 70.2% of 200 games against ``hard`` where it had won
60.5% (paired +9.8 points, standard error 4.1; docs/bots.md).

Ending the rollout right after the bot's own next turn matters: the evaluation
judges positions just after the judged player moved (as in the planner); ending
after the opponents' replies made the bot too pessimistic about contested
temples (measured: 57% against greedy with one round, 81% with one round plus
one turn, 100 iterations, 60 games each).

The budget is spread over the macro-actions by *sequential halving* with
common random numbers: each pass samples one determinization and plays every
surviving macro-action on it, so they are compared on the same hidden tiles and
tokens; after each round the worse half is dropped.  With a time budget the
first pass times a simulation and the rounds are sized from it.  Until
2026-12-02 the first round ran until the deadline instead, so a search with a
time budget (every arena run, every web bot) gave each candidate the same
simulations and never dropped one; ``keep_first`` could not act, and its
-6.0 points above are the noise between two runs of the same search.  At 1.8 s
a search runs a median 41-43 simulations with two players and 17-19 with four
(medians over the searches of 200-game arena runs).  Halving under the time
budget, the same 200 games as ``last_share``: 73.0% in 2 players (paired +3.5
points, standard error 4.5), 55.2% in 4 (-1.6, standard error 4.6).  Time helps little
beyond the default in two players: on the same deals and seats 0.9 s per turn (25
simulations per search) won 67.0% (paired -6.0 points, standard error 4.1) and 3.6 s
(91) 75.0% of the first 100 games, where 1.8 s had won 77.0% (paired -2.0, standard
error 5.5).  On the game's last turn, when no plan takes a treasure, the first pass is
exact (the final scoring) and decides (:meth:`MCTSBot._last_turn`).

Budget: ``iterations`` (simulations per search) and/or ``seconds`` per *turn*
(all the decisions of one turn share it).  With only ``iterations`` the bot is
deterministic for its seed.
"""

from __future__ import annotations

import math
import random

from ..actions import END_TURN, Action
from ..errors import IllegalAction
from ..packaged import data_json
from ..state import GameState, Phase
from ..view import View
from .evaluate import DEFAULT_WEIGHTS, PACKAGED_SETS, Evaluator, Weights, objective
from .features import rows_of
from .greedy import PlanningBot, distinct_plans, is_take
from .opponents import OpponentModel
from .planner import TurnPlanner
from .value import ValueModel


class MCTSBot(PlanningBot):
    """Search bot; see the module docstring."""

    name = "mcts"

    def __init__(
        self,
        seed: int | None = None,
        seconds: float | None = 1.8,
        iterations: int | None = None,
        candidates: int = 10,
        beam: int = 4,
        horizon: int | None = None,
        share: float = 0.8,
        last_share: float = 0.95,
        weights: Weights = DEFAULT_WEIGHTS,
        reward: str | None = None,
        temperature: float = 2.5,
        replies: str = "greedy",
        reply_placements: int = 8,
        keep_first: bool = False,
        opponents: str = "infer",
        value: ValueModel | None = None,
        tail: int = 0,
        own_turns: str = "fast",
        prior: float = 0.0,
        exact_end: bool = False,
        reply_shares: str = "hard",
        drawn_tile_trials: int = 3,
    ) -> None:
        super().__init__(seed)
        if seconds is None and iterations is None:
            raise ValueError("an MCTS bot needs a budget: seconds and/or iterations")
        self.seconds = seconds
        self.iterations = iterations
        self.candidates = candidates
        self.beam = beam
        self.horizon = horizon
        #: Part of the turn's remaining seconds one search may use (a treasure taken
        #: mid-turn starts another search for the rest of the turn).
        self.share = share
        #: Part of the remaining seconds a search may use when every candidate plan runs
        #: to the end of the turn (none is cut after a treasure), so no later search of
        #: this turn needs time: with ``share`` alone the mean turn took 1.49 s of 1.8
        #: (4 players, 200 games), time the search could have had.
        self.last_share = last_share
        self.weights = weights
        if reward is not None and reward not in REWARDS:
            raise ValueError(f"reward is one of {', '.join(REWARDS)}")
        #: None: ``win`` with two players, ``objective`` with more (module docstring).
        self.reward = reward
        #: Points of uncertainty per scoring round still ahead (``win`` reward); the
        #: expert preset's is 5, fitted to its weights (module docstring).
        self.temperature = temperature
        #: A simulation that reaches the game's end is scored by its result (a win 1, a
        #: shared first place split, a loss 0), not by the soft chance (``win`` reward;
        #: module docstring).
        self.exact_end = exact_end
        if replies not in REPLIES:
            raise ValueError(f"replies is one of {', '.join(REPLIES)}")
        #: How the simulated opponents play their turns (module docstring).
        self.replies = replies
        #: With ``replies="drawn"``: the measured table (``data/reply_shares.json``) of how
        #: often the modelled opponent plays the planner's 1st, 2nd, ... plan, by player
        #: count; each simulated reply is drawn from it.
        self.reply_shares = reply_shares_for(reply_shares) if replies == "drawn" else {}
        #: With ``replies="drawn"``: tile placements planned with the full beam for the
        #: plans a reply is drawn from (3, the planner's own, ranks plans as the tables
        #: were measured; 1 ranks only the best placement's plans and costs what a
        #: greedy reply costs: the 3 cost a quarter of the simulations, 41 against 56 per
        #: search at 1.8 s with 2 players).
        self.drawn_tile_trials = drawn_tile_trials
        self.planner = TurnPlanner(weights, beam=beam, placements=8)
        #: Plans the simulated opponents' turns: the greedy bot's planner, or a cheaper
        #: one that checks fewer tile placements (more simulations per search).
        self.replier = (self.planner if reply_placements == self.planner.placements
                        else TurnPlanner(weights, beam=beam, placements=reply_placements))
        #: Keep the planner's best plan (the greedy bot's choice) through every round of
        #: the halving: with few simulations per candidate a round cuts on one or two
        #: samples, and the search should leave the greedy plan only for one that beat it
        #: on the most samples.
        self.keep_first = keep_first
        self.rollout = TurnPlanner(weights, beam=1, placements=1)
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents is one of {', '.join(OPPONENTS)}")
        #: ``opponents="infer"``: each opponent's replies are planned with the candidate
        #: evaluation (own or a packaged set's weights) that predicted their turns best so
        #: far; ``"self"`` (no model): with the bot's own weights (:mod:`.opponents`).
        others = [w for w in PACKAGED_SETS if w != weights]
        self.model = (OpponentModel([self.replier] + [
            TurnPlanner(w, beam=beam, placements=reply_placements) for w in others])
            if opponents == "infer" else None)
        #: The learned evaluation that scores the leaves (:mod:`.value`); None: the
        #: hand-made one with the bot's weights.
        self.value = value
        #: Turns every player plays with the fast policy after the horizon, before the
        #: leaf is scored: the opponents modelled beyond one round (the learned value
        #: knows whose turn is next, so the leaf need not follow the bot's own turn).
        self.tail = tail
        if own_turns not in OWN_TURNS:
            raise ValueError(f"own_turns is one of {', '.join(OWN_TURNS)}")
        #: How the bot's own turns inside the horizon are played: the fast policy (the
        #: default), or planned like greedy's turn with its own weights, as it will
        #: play at least that well when the turn comes.
        self.own_turns = own_turns
        #: Simulations' worth of the planner's own score of each plan in the search's
        #: estimate of it (0: none, the default), with the objective or margin reward
        #: (points; :meth:`_estimates`): with one or two samples per plan, as a search
        #: at 1.8 s or 8 simulations gets, a lucky sample alone picks the plan.
        self.prior = prior
        #: ``(simulations, seconds)`` of every search, for the arena's median rates: a
        #: total over a game is dominated by a few unusual searches (the game's last turn
        #: ran 7,680 simulations of 0.2 ms in one 4-player game, until it was decided by
        #: one per plan; the others 400-600 in a whole game).
        self.searches: list[tuple[int, float]] = []

    @property
    def simulations(self) -> int:
        """Simulations over all searches."""
        return sum(n for n, _ in self.searches)

    def make_plan(self, view: View) -> list[Action]:
        start = self.clock()
        state = view.state
        if self.model is not None:
            self.model.observe(view)
        if state.phase is Phase.AUCTION:
            return [self.planner.bid(state)]
        deadline = None
        if self.seconds is not None:
            left = self.seconds - self.spent_this_turn()
            deadline = start + max(0.0, self.share * left)
        quick = deadline is not None and deadline - start < 0.15
        k, beam = (1, 1) if quick else (self.candidates, None)
        choices = distinct_plans(self.planner.plan(state, k=k, beam=beam))
        macros = [macro for macro, _ in choices]
        scores = [plan.score for _, plan in choices]
        cut = any(len(macro) < len(plan.actions) for macro, plan in choices)
        if len(macros) <= 1:
            return macros[0] if macros else []
        searched = None if cut else self._last_turn(view, macros, state.current)
        if searched is None:
            if deadline is not None and not cut:
                deadline = start + max(0.0, self.last_share * left)
            searched = self._halving(view, macros, state.current, deadline, scores)
        best, simulations = searched
        self.searches.append((simulations, self.clock() - start))
        return macros[best]

    def _halving(
        self, view: View, macros: list[list[Action]], me: int, deadline: float | None,
        scores: list[float] | None = None,
    ) -> tuple[int, int]:
        """Sequential halving with common random numbers; the index of the best macro and
        the simulations run.

        Every pass samples one determinization and plays each surviving macro on
        it, so the macros are compared on the same hidden tiles and tokens.
        After each round the worse half is dropped.
        """
        k = len(macros)
        sums = [0.0] * k
        counts = [0] * k
        alive = list(range(k))
        rounds_left = max(1, math.ceil(math.log2(k)))
        budget = self.iterations if self.iterations is not None else 10**9
        done = 0
        per_sim = None
        round_passes = 0  # passes of the current round so far
        began = self.clock()
        while len(alive) > 1:
            left = self._simulations_left(budget - done, deadline, per_sim)
            if left <= 0:
                break
            timing = deadline is not None and per_sim is None  # one pass times a simulation
            passes = 1 if timing else _passes_now(left, len(alive), rounds_left, round_passes)
            out_of_budget = False
            for _ in range(passes):
                game = view.determinize(self.rng)
                # every plan of the pass meets the same drawn replies (other searches
                # keep the generator's sequence, so their games do not change)
                draw_seed = self.rng.getrandbits(64) if self.reply_shares else 0
                for i in alive:
                    if done >= budget or (
                        deadline is not None and done and self._no_time_for_one(began, done,
                                                                                deadline)
                    ):
                        out_of_budget = True
                        break
                    trial = game.clone()
                    sums[i] += self.simulate(trial, macros[i], me, draw_seed)
                    counts[i] += 1
                    done += 1
                if out_of_budget:
                    break
                round_passes += 1
            if per_sim is None and done:
                per_sim = (self.clock() - began) / done
            estimate = self._estimates(sums, counts, scores, view.state.players)
            alive.sort(key=lambda i: (-estimate[i], i))
            if out_of_budget:
                break
            if timing:
                continue
            kept = alive[: math.ceil(len(alive) / 2)]
            if self.keep_first and 0 not in kept:
                kept.append(0)
            alive = kept
            round_passes = 0
            rounds_left = max(1, rounds_left - 1)
        scored = [i for i in alive if counts[i]] or alive
        estimate = self._estimates(sums, counts, scores, view.state.players)
        return max(scored, key=lambda i: (estimate[i], -i)), done

    def _estimates(self, sums: list[float], counts: list[int], scores: list[float] | None,
                   players: int) -> list[float]:
        """Each plan's estimated reward: its mean over its simulations, or with ``prior``
        the planner's score counted as that many more simulations.  The score is judged
        at the end of the plan's turn and the leaves a round later, so it is shifted by
        the mean gap between the two over the sampled plans first."""
        means = [total / max(1, n) for total, n in zip(sums, counts, strict=True)]
        reward = self.reward_for(players)
        sampled = [i for i, n in enumerate(counts) if n]
        if not self.prior or scores is None or reward == "win" or not sampled:
            return means
        shift = sum(means[i] - scores[i] for i in sampled) / len(sampled)
        return [(total + self.prior * (score + shift)) / (n + self.prior)
                for total, n, score in zip(sums, counts, scores, strict=True)]

    def _last_turn(self, view: View, macros: list[list[Action]], me: int
                   ) -> tuple[int, int] | None:
        """On the game's last turn, when no plan uncovers a face-down token, a simulation
        is the exact final scoring, the same whatever the hidden parts: one per plan, on
        the view itself, decides, and the bot answers at once instead of repeating them
        until its time is up (7,680 simulations in one measured last turn).  The best
        plan's index and the simulations run; None on any other turn."""
        game = view.state
        probe = game.clone()
        try:
            for action in macros[0]:
                probe.apply(action)
        except IllegalAction:
            return None
        if not probe.is_over:
            return None
        values = []
        for macro in macros:
            trial = game.clone()
            mark = len(trial.history)
            values.append(self.simulate(trial, macro, me))
            if not trial.is_over or any(is_take(a) for a in trial.history[mark:]):
                return None
        return max(range(len(macros)), key=lambda i: (values[i], -i)), len(macros)

    def _simulations_left(self, budget: int, deadline: float | None, per_sim: float | None
                          ) -> int:
        """What the budget and the time left allow (before a simulation is timed, only
        whether any time is left)."""
        if deadline is None:
            return budget
        now = self.clock()
        if per_sim is not None:
            return min(budget, int((deadline - now) / per_sim))
        return budget if now < deadline else 0

    def _no_time_for_one(self, began: float, done: int, deadline: float) -> bool:
        """Whether a simulation of the average length so far would end after the deadline.
        A simulation with planned replies takes 20-30 ms with two players and 60-100 ms
        with four, so starting one just before the deadline overran it: 4 players, 200
        games at 1.8 s per turn, the longest turn took 1.99 s."""
        now = self.clock()
        return now + (now - began) / done > deadline

    def simulate(self, game: GameState, macro: list[Action], me: int, draw_seed: int = 0
                 ) -> float:
        """Play the macro, finish the turn, let the others reply; the root player's reward.
        ``draw_seed`` seeds the drawn replies (``replies="drawn"``)."""
        mark = len(game.history)
        for action in macro:
            try:
                game.apply(action)
            except IllegalAction:
                break
        horizon = self.horizon if self.horizon is not None else game.players + 1
        draws = random.Random(draw_seed) if self.reply_shares else None
        ended = 0
        steps = 0
        while not game.is_over and steps < 100:
            ended += sum(1 for a in game.history[mark:] if a == END_TURN)
            mark = len(game.history)
            if ended >= horizon + self.tail:
                break
            if ended < horizon and self._plans_turn_of(game.current, me):
                self.planned_turn(game, me, draws)
            else:
                self.rollout.fast_turn(game)
            steps += 1
        if self.exact_end and game.is_over and self.reward_for(game.players) == "win":
            return game.win_shares[me]
        if self.value is not None:
            return self._learned_reward(game, me)
        ev = Evaluator(game, self.weights)
        values = ev.values(game)
        reward = self.reward_for(game.players)
        if reward == "margin":
            return values[me] - max(v for q, v in enumerate(values) if q != me)
        if reward == "win":
            spread = self.temperature * (1 + max(ev.rounds))
            return win_chance(values, me, spread)
        return ev.objective(values, me)

    def _learned_reward(self, game: GameState, me: int) -> float:
        """The leaf scored by the learned value: the chance to finish first with two
        players (or ``win``), else the evaluation's objective over the predicted margins."""
        assert self.value is not None
        rows = rows_of(game)
        reward = self.reward_for(game.players)
        if reward == "win":
            if game.is_over:
                return self.value.win_chances(game)[me]
            return self.value.chances_of_rows(rows)[me]
        values = ([float(s) for s in game.scores] if game.is_over
                  else [self.value.predict_row(row) for row in rows])
        if reward == "margin":
            return values[me] - max(v for q, v in enumerate(values) if q != me)
        return objective(values, me, self.weights.opponents_max)

    def reward_for(self, players: int) -> str:
        """The root player's reward in a game of ``players``: the one set, else the
        chance of finishing first with two and the objective with more (module
        docstring)."""
        return self.reward or ("win" if players == 2 else "objective")

    def _plans_turn_of(self, player: int, me: int) -> bool:
        """Whether ``player``'s turn inside the horizon is planned (else played fast)."""
        return (self.own_turns if player == me else self.replies) != "fast"

    def planned_turn(self, game: GameState, me: int | None = None,
                     draws: random.Random | None = None) -> None:
        """Play the current player's turn as the greedy bot would: the planner's best plan
        (the fast policy finishes whatever the plan leaves of the turn).  An opponent
        plans with the weights inferred for them, the bot (``me``) with its own; with
        ``replies="drawn"`` an opponent plays the planner's r-th plan, r drawn from
        ``draws`` by the measured shares."""
        p = game.current
        replier = (self.model.planner_for(p) if self.model is not None and p != me
                   else self.replier)
        shares = self.reply_shares.get(game.players) if p != me else None
        if shares and draws is not None:
            plans = [plan for _, plan in distinct_plans(
                replier.plan(game, k=len(shares), tile_trials=self.drawn_tile_trials))]
            if plans:
                r = draws.choices(range(len(plans)), weights=shares[:len(plans)])[0]
                plans = [plans[r]]
        else:
            plans = replier.plan(game, k=1)
        for action in plans[0].actions if plans else []:
            if game.is_over or game.current != p:
                break
            try:
                game.apply(action)
            except IllegalAction:
                break
        if not game.is_over and game.current == p:
            self.rollout.fast_turn(game)


def _passes_now(left: int, alive: int, rounds_left: int, round_passes: int) -> int:
    """Passes to run before the next halving: this round's share of the simulations left
    (the rounds left share them equally), less the passes it already ran; at least one
    for a round that has not run any."""
    share = (left + round_passes * alive) // (alive * rounds_left)
    return max(0 if round_passes else 1, share - round_passes)


#: How simulated opponents reply: ``greedy`` plans each of their turns like the greedy
#: bot (beam search, 8 placements checked); ``fast`` plays the cheapest policy (beam 1,
#: the best placement by heuristic), about 15 times cheaper.
REPLIES = ("greedy", "fast", "drawn")

#: How the bot's own turns inside the horizon are played (``MCTSBot(own_turns=...)``).
OWN_TURNS = ("greedy", "fast")


def reply_shares_for(name: str) -> dict[int, list[float]]:
    """A packaged reply-share table by player count (``data/reply_shares.json``)."""
    tables = data_json("reply_shares.json")
    if name not in tables:
        raise ValueError(f"reply_shares is one of {', '.join(sorted(tables))}")
    return {int(n): [float(x) for x in row] for n, row in tables[name]["shares"].items()}

#: How the simulated opponents' evaluation is chosen (``MCTSBot(opponents=...)``).
OPPONENTS = ("infer", "self")

#: ``win``: a soft chance of finishing first (the default); ``objective``: the
#: evaluation's own objective (own value minus the opponents'); ``margin``: own
#: value minus the best other's.
REWARDS = ("win", "objective", "margin")


def win_chance(values: list[float], me: int, spread: float) -> float:
    """Soft chance that ``me`` finishes first: a softmax over estimated final scores.

    The game is won by beating the *best* other player; a reward that follows
    the chance of finishing first stops the search from trading a real chance
    to win for hurting all opponents a little, or for a bigger lead in a game
    already won.  The ``spread`` (points) grows with the scoring rounds still
    ahead, as the estimates get less certain.
    """
    mine = values[me]
    total = 0.0
    for v in values:
        total += math.exp(max(-50.0, min(50.0, (v - mine) / spread)))
    return 1.0 / total
