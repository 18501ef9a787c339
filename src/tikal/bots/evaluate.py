"""Hand-made position evaluation shared by the greedy planner and the search.

The evaluation estimates, for every player, the final score: points already
banked plus what the position is expected to bring in the scoring rounds still
to come.  It is built so that the planner can update it *incrementally*: apart
from a few per-player terms (banked score, treasures, camps, figures on the
board) every term belongs to one temple or treasure tile, so an action that
touches two tiles changes only two cell terms.

Terms (all per player ``q``; ``R`` = scoring rounds still to come for ``q``):

* temples [SCORE-2]: guarded temples bring their value every round; unguarded
  ones bring ``value * control * (1 + LATER * (R - 1))`` where ``control`` is a
  soft majority in [0, 1] from the strength margin (leader = 3).  During a
  scoring turn the scoring player's own majorities are exact.
* treasures [SET-1]: set points times ``R``; taking a face-down token is valued
  by its expectation over the hidden token types [HIDDEN-1], with the
  probabilities of the rules core's ``token_outcomes()``.
* figures near treasures, figures on the board, camps: small potentials.
"""

from __future__ import annotations

import heapq
import json
from dataclasses import dataclass, field, fields
from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import Any, Final

from ..components import VOLCANO
from ..packaged import data_json
from ..state import SUPPLY as SUPPLY_PLACE
from ..state import GameState, Phase


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's tunable constants (defaults in ``data/weights.json``, which
    explains each one)."""

    control: tuple[float, ...]  # soft control by strength margin -3..6
    later: float  # weight of each scoring round after the next one
    worker_on_board: float
    leader_on_board: float
    guard_slot: float  # per unused guard [GUARD-4], times (rounds ahead - 1)
    treasure_reach: float  # share of a token's value for a figure standing next to it
    camp: float  # per camp, times min(future rounds, 2) / 2
    opponents_max: float  # multi-player objective: weight of the best opponent vs the mean
    #: Temple contests (0 = off): control of a lead held by the player who moves (or just
    #: moved) is raised by ``safe`` x what it lacks of 1 when no opponent can bring enough
    #: strength there in one turn to draw level, and cut by ``exposed`` when one can.
    safe: float = 0.0
    exposed: float = 0.0

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        return {**data, "control": list(self.control)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Weights:
        """Weights from a JSON object; every field is required, unknown ones are refused."""
        names = {f.name for f in fields(cls)}
        required = {name for name in names if name not in OPTIONAL_WEIGHTS}
        if not required <= set(data) <= names:
            raise ValueError(f"weights need {sorted(required)} (optional: "
                             f"{sorted(OPTIONAL_WEIGHTS)}), got {sorted(data)}")
        control = tuple(float(x) for x in data["control"])
        return cls(control, **{k: float(v) for k, v in data.items() if k != "control"})


#: Weights a file may leave out (they default to 0: the term is off).
OPTIONAL_WEIGHTS: Final = frozenset({"safe", "exposed"})


def load_weights(path: str | Path | None = None) -> Weights:
    """Weights from a JSON file (``{"weights": {...}}``); the packaged defaults by default,
    a packaged set by name (``hand_set``: ``data/weights_hand_set.json``; ``two_players``:
    the defaults, ``data/weights.json``)."""
    if path is None or str(path) in PACKAGED_WEIGHTS:
        name = PACKAGED_WEIGHTS[str(path or "two_players")]
        return Weights.from_json(data_json(name)["weights"])
    return Weights.from_json(json.loads(Path(path).read_text(encoding="utf-8"))["weights"])


def weights_file(path: str) -> Weights:
    """:func:`load_weights` for a name or path given by a user: a ValueError saying which
    could not be read, whatever failed (a missing file, bad JSON, a missing weight)."""
    try:
        return load_weights(path)
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"cannot read weights from {path!r}: {exc}") from None


#: Weight sets in the package besides the defaults: ``hand_set``, the constants set by
#: hand before the tuning (docs/bots.md), which the search also uses as a candidate
#: model of its opponents (:mod:`tikal.bots.opponents`); ``three_players`` and
#: ``four_players``, tuned in three- and four-player self-play; ``two_players``, the
#: defaults (tuned with two) by a name; ``expert``, ``expert_three_players`` and
#: ``expert_four_players``, the expert level's sets (:func:`expert_weights_for`).
PACKAGED_WEIGHTS: Final = {"two_players": "weights.json",
                           "three_players": "weights_three_players.json",
                           "four_players": "weights_four_players.json",
                           "hand_set": "weights_hand_set.json",
                           "expert": "weights_expert.json",
                           "expert_three_players": "weights_expert_three_players.json",
                           "expert_four_players": "weights_expert_four_players.json"}

#: Every packaged set by its name, read once.
PACKAGED_BY_NAME: Final = {name: load_weights(name) for name in PACKAGED_WEIGHTS}
#: The same sets in the order above: the search's candidate models of its opponents, so a
#: set added to the table is a candidate too.
PACKAGED_SETS: Final = tuple(PACKAGED_BY_NAME.values())
DEFAULT_WEIGHTS: Final = PACKAGED_BY_NAME["two_players"]
THREE_PLAYER_WEIGHTS: Final = PACKAGED_BY_NAME["three_players"]
FOUR_PLAYER_WEIGHTS: Final = PACKAGED_BY_NAME["four_players"]
HAND_SET_WEIGHTS: Final = PACKAGED_BY_NAME["hand_set"]
EXPERT_WEIGHTS: Final = PACKAGED_BY_NAME["expert"]
EXPERT_THREE_PLAYER_WEIGHTS: Final = PACKAGED_BY_NAME["expert_three_players"]
EXPERT_FOUR_PLAYER_WEIGHTS: Final = PACKAGED_BY_NAME["expert_four_players"]

#: The packaged weights the bots play with by the game's player count; counts not
#: listed play with :data:`DEFAULT_WEIGHTS`.
WEIGHTS_BY_PLAYERS: Final = {3: THREE_PLAYER_WEIGHTS, 4: FOUR_PLAYER_WEIGHTS}


def weights_for(players: int | None) -> Weights:
    """The packaged weights for a game of ``players`` (the defaults when unknown).

    Why not one set for every count: the defaults were tuned in two-player self-play,
    and with four players the set tuned there (``four_players``) won 74.4% of 160
    held-out games against three greedy bots with the defaults (95% CI 67-81%, par
    25%; docs/bots.md); with three the set tuned there (``three_players``, a second
    round against two fields) 68.3% of 120 against two (95% CI 60-76%, par 33%), while
    one bot with the defaults won 28.0% of 201 against two with it."""
    return WEIGHTS_BY_PLAYERS.get(players, DEFAULT_WEIGHTS) if players else DEFAULT_WEIGHTS


#: The expert level's weights by player count (:func:`expert_weights_for`).
EXPERT_BY_PLAYERS: Final = {2: EXPERT_WEIGHTS, 3: EXPERT_THREE_PLAYER_WEIGHTS,
                             4: EXPERT_FOUR_PLAYER_WEIGHTS}


def expert_weights_for(players: int | None) -> Weights:
    """The expert level's weights for a game of ``players``: tuned over the wider space
    (temple contests, the control of small leads; ``tikal tune --space contests``) where
    a set exists for that count, else the count's usual set; two players when unknown.

    Why the expert has sets of its own: a search is only as good as what it scores its
    leaves with, and the gain is largest where its evaluation is better than its
    opponents'.  With two players greedy with its set won 62.0% of 200 held-out games
    against greedy with the defaults, and the search with it 88.5% of 100 games against
    greedy where the same search with the defaults had won 70.5%.  With four players
    greedy with its set won 39.5% of 100 held-out games against three with the
    four-player set (par 25%); the search with it won 69.5% of 200 games against three
    greedy bots (65.4% with its control table as tuned).  With three players greedy with
    its set won 49.6% of 150 held-out games against two with the three-player set (par
    33.3%).  Tuned against greedy, the sets are not as good against the search itself:
    60.5% of 200 two-player games against ``hard`` (70.2% with the expert's win chance
    calibrated for the set, :mod:`.mcts`), and 31.2% of 200 four-player games against
    three (par 25%); on the first 96 of those the four-player set with its
    control table out of order, as tuned, had won 14.1%, in order 32.3%; a two-player
    set tuned harder against greedy did worse in the search still (docs/bots.md, The
    expert level)."""
    if players is None:
        return EXPERT_BY_PLAYERS[2]
    return EXPERT_BY_PLAYERS.get(players) or weights_for(players)


def control(weights: Weights, margin: int) -> float:
    table = weights.control
    i = margin + 3
    if i < 0:
        return 0.0
    if i >= len(table):
        return table[-1]
    return table[i]


@dataclass(slots=True)
class Evaluator:
    """Evaluation constants fixed for one planning call (one turn of one player).

    ``rounds[q]`` counts the scoring rounds still ahead of ``q`` (a running
    round counts while ``q`` has not scored in it); ``exact`` is the seat whose
    scoring turn this is, whose current majorities count as points.
    """

    game: GameState
    weights: Weights = DEFAULT_WEIGHTS
    rounds: list[int] = field(default_factory=list)
    future: list[int] = field(default_factory=list)
    temple_weight: list[float] = field(default_factory=list)
    exact: int = -1
    #: A face-down token's type and its probability [HIDDEN-1] (the rules core's
    #: :meth:`~tikal.state.GameState.token_outcomes`).
    token_odds: list[tuple[int, Fraction]] = field(default_factory=list)
    #: The same odds as whole numbers over one denominator, ``_odds_scale``: the
    #: expectation is then exact in integers (Fraction sums were a sixth of planning)
    _odds_weights: list[tuple[int, int]] = field(default_factory=list)
    _odds_scale: int = 0
    set_points: tuple[int, ...] = ()
    each: int = 0
    _gains: dict[tuple[tuple[int, ...], int], float] = field(default_factory=dict)
    _next_gains: dict[tuple[tuple[int, ...], int], float] = field(default_factory=dict)
    _points: dict[tuple[int, ...], int] = field(default_factory=dict)  # set points by counts
    #: The player whose leads the contest terms judge (the one who moves, or who just
    #: moved), and per unguarded temple the most strength one of the others can have
    #: there after one turn of theirs (:func:`contests`); empty when the terms are off.
    mover: int = -1
    contest: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        game = self.game
        n = game.players
        volcanoes = sum(1 for t in game.stack if game.rules.tile(t).kind == VOLCANO)
        volcanoes += sum(1 for t in game.display if game.rules.tile(t).kind == VOLCANO)
        if game.is_over:
            self.rounds = [0] * n
        elif game.phase is Phase.SCORING:
            after = volcanoes + (0 if game.scoring_final else 1)
            pending = set(game.scoring_queue)
            self.rounds = [after + (q in pending) for q in range(n)]
            self.exact = game.current
        else:
            self.rounds = [volcanoes + 1] * n
        self.future = [
            r - 1 if q == self.exact else r for q, r in enumerate(self.rounds)
        ]
        later = self.weights.later
        self.temple_weight = [(1 + later * (r - 1)) if r > 0 else 0.0 for r in self.rounds]
        odds = self.token_odds = [(o.outcome.token, o.probability) for o in game.token_outcomes()]
        scale = self._odds_scale = lcm(*[chance.denominator for _, chance in odds])
        self._odds_weights = [
            (t, chance.numerator * (scale // chance.denominator)) for t, chance in odds
        ]
        self.set_points = game.rules.set_points
        self.each = game.rules.token_points_each
        if (self.weights.safe or self.weights.exposed) and not game.is_over:
            self.mover = (game.current if game.phase in (Phase.TURN, Phase.SCORING)
                          else (game.current - 1) % n)
            self.contest = contests(game, self.mover)

    # ------------------------------------------------------------ terms

    def treasure_value(self, counts: tuple[int, ...], q: int) -> float:
        if self.each:
            return float(sum(counts) * self.each * self.rounds[q])
        points = self._points.get(counts)
        if points is None:
            sp = self.set_points
            points = self._points[counts] = sum(sp[min(c, 3)] for c in counts)
        return float(points * self.rounds[q])

    def token_gain(self, counts: tuple[int, ...], q: int) -> float:
        """Expected value for ``q`` of one more face-down token [HIDDEN-1]."""
        key = (counts, q)
        found = self._gains.get(key)
        if found is None:
            found = self._gains[key] = self._token_gain(counts, q)
        return found

    def _token_gain(self, counts: tuple[int, ...], q: int) -> float:
        if not self.token_odds:
            return 0.0
        if self.each:
            return float(self.each * self.rounds[q])
        sp = self.set_points
        total = 0  # exact, so the quotient is the expectation correctly rounded
        for t, weight in self._odds_weights:
            c = counts[t]
            total += weight * (sp[min(c + 1, 3)] - sp[min(c, 3)])
        return total / self._odds_scale * self.rounds[q]

    def next_token_gain(self, counts: tuple[int, ...], q: int) -> float:
        """Expected :meth:`token_gain` for ``q`` once ``q`` holds one more face-down token
        (of a type yet unknown [HIDDEN-1]): what a take does to the worth of the tokens
        left on the board."""
        key = (counts, q)
        found = self._next_gains.get(key)
        if found is None:
            total = 0.0
            for t, weight in self._odds_weights:
                more = (*counts[:t], counts[t] + 1, *counts[t + 1:])
                total += weight * self.token_gain(more, q)
            found = self._next_gains[key] = total / self._odds_scale
        return found

    def take_reach_gain(self, counts: tuple[int, ...], q: int) -> float:
        """How much each token in ``q``'s reach (:func:`tokens_reached`) changes in worth
        to ``q`` in expectation when ``q`` takes one more (the tokens' terms depend on
        the treasures held: :meth:`next_token_gain` instead of :meth:`token_gain`)."""
        if q == self.exact:
            return 0.0
        change = self.next_token_gain(counts, q) - self.token_gain(counts, q)
        return self.weights.treasure_reach * change

    def tokens_in_reach(self, game: GameState, q: int) -> int:
        """The tokens in ``q``'s reach over every tile (:func:`tokens_reached`)."""
        return sum(tokens_reached(game.figures_on(q, cell), len(tokens))
                   for cell, tokens in game.tokens.items() if tokens)

    def player_terms(self, game: GameState) -> list[float]:
        """Banked score, treasures, camps and figures on the board, per player."""
        w = self.weights
        out = []
        camp_count = [0] * game.players
        for owner in game.camps.values():
            camp_count[owner] += 1
        guards_max = game.rules.guards_max
        for q in range(game.players):
            fut = min(self.future[q], 2) / 2
            value = float(game.scores[q]) + self.treasure_value(game.treasures[q], q)
            board = sum(game.workers[q].values())
            value += fut * (board * w.worker_on_board + (game.leader[q] >= 0) * w.leader_on_board)
            value += fut * camp_count[q] * w.camp
            if guards_max:
                unused = guards_max - game.guards_of(q)
                value += unused * w.guard_slot * max(0, self.rounds[q] - 1)
            out.append(value)
        return out

    def cell_terms(self, game: GameState, cell: int) -> list[float] | None:
        """Per-player value of one temple or treasure tile; None for other tiles."""
        n = game.players
        level = game.levels.get(cell)
        if level is not None:
            out = [0.0] * n
            guard = game.guards.get(cell)
            if guard is not None:
                owner = guard[0]
                out[owner] = float(level * self.rounds[owner])
                return out
            workers, leader = game.workers, game.leader
            strengths = [
                workers[q].get(cell, 0) + (3 if leader[q] == cell else 0) for q in range(n)
            ]
            top = max(strengths)
            if not top:
                return out
            second = sorted(strengths)[-2]
            table = self.weights.control
            last = len(table) - 1
            for q in range(n):
                s = strengths[q]
                if not s:
                    continue
                margin = s - (second if s == top else top)
                i = margin + 3
                ctrl = 0.0 if i < 0 else table[i if i < last else last]
                if q == self.mover and margin > 0 and cell in self.contest:
                    ctrl = self._contested(ctrl, s, self.contest[cell])
                if q == self.exact:
                    now = 1.0 if margin > 0 else 0.0
                    out[q] = level * (now + ctrl * self.weights.later * (self.rounds[q] - 1))
                else:
                    out[q] = level * ctrl * self.temple_weight[q]
            return out
        tokens = game.tokens.get(cell)
        if tokens:
            out = [0.0] * n
            w = self.weights
            for q in range(n):
                if q == self.exact:
                    continue
                reached = tokens_reached(game.figures_on(q, cell), len(tokens))
                if reached:
                    gain = self.token_gain(game.treasures[q], q)
                    out[q] = reached * w.treasure_reach * gain
            return out
        return None

    def _contested(self, ctrl: float, strength: int, reach: int) -> float:
        """A lead's control given the most strength another player can bring there in one
        turn: safer when nobody can draw level, weaker when somebody can."""
        w = self.weights
        if strength > reach:
            return ctrl + w.safe * (1.0 - ctrl)
        return ctrl * (1.0 - w.exposed)

    def values(self, game: GameState) -> list[float]:
        """The estimated final score of every player."""
        total = self.player_terms(game)
        n = game.players
        for cell in _scored_cells(game):
            terms = self.cell_terms(game, cell)
            if terms is not None:
                for q in range(n):
                    total[q] += terms[q]
        return total

    def objective(self, values: list[float], player: int) -> float:
        """What ``player`` maximises: own value minus the opponents' (best and mean)."""
        return objective(values, player, self.weights.opponents_max)


def objective(values: list[float], player: int, opponents_max: float) -> float:
    """Own value minus the opponents': the best one weighted ``opponents_max``, the
    mean the rest (two players: the other's)."""
    mine = values[player]
    others = [v for q, v in enumerate(values) if q != player]
    if len(others) == 1:
        return mine - others[0]
    return mine - opponents_max * max(others) - (1 - opponents_max) * sum(others) / len(others)


def _scored_cells(game: GameState) -> list[int]:
    cells = list(game.levels)
    cells.extend(token_tiles(game))
    return cells


def token_tiles(game: GameState) -> tuple[int, ...]:
    """The treasure tiles with tokens left (in the board's order): the tiles whose terms
    depend on the players' treasures, so an action that changes what a player holds
    (a swap [SWAP-1]) changes them all."""
    return tuple(c for c, t in game.tokens.items() if t)


def tokens_reached(figures: int, tokens: int) -> int:
    """How many of a tile's ``tokens`` count as in a player's reach with ``figures`` of
    theirs there: one per figure, two at most."""
    return min(figures, tokens, 2) if figures > 0 else 0


def contests(game: GameState, mover: int) -> dict[int, int]:
    """Per unguarded temple, the most strength any player but ``mover`` can have there
    after one turn of theirs (:func:`reach_strengths`)."""
    return {cell: max(s for o, s in enumerate(found) if o != mover)
            for cell, found in reach_strengths(game).items()}


def reach_strengths(game: GameState) -> dict[int, list[int]]:
    """Per unguarded temple, every player's strength there after one turn of theirs: what
    stands there now plus what their action points bring (walks over the stones
    [MOVE-1], figures put in at the basecamp or their camps [PLACE-1]; secret paths left
    out), the cheapest strength first.  Public information only."""
    budget = game.rules.action_points
    place = game.rules.costs.get("put", 1)
    out: dict[int, list[int]] = {}
    for cell in game.levels:
        if cell in game.guards or cell not in game.tiles:
            continue
        dist = walk_costs(game, {cell: 0}, budget)
        out[cell] = [game.strength(q, cell) + _brought(game, q, cell, dist, budget, place)
                     for q in range(game.players)]
    return out


def walk_costs(game: GameState, start: dict[int, int], limit: int) -> dict[int, int]:
    """The cheapest AP walk over the stones [MOVE-1] from any tile of ``start`` (with the
    AP it starts at) to every tile within ``limit``.  Edges cost the same both ways, so
    walking out from a target gives every tile's cost to reach it."""
    dist = dict(start)
    heap = [(d, c) for c, d in start.items()]
    heapq.heapify(heap)
    exits = game.exits
    while heap:
        d, c = heapq.heappop(heap)
        if d > dist[c]:
            continue
        for ex in exits.get(c, ()):
            nd = d + ex.cost
            if nd <= limit and nd < dist.get(ex.dst, limit + 1):
                dist[ex.dst] = nd
                heapq.heappush(heap, (nd, ex.dst))
    return dist


def _brought(game: GameState, o: int, cell: int, dist: dict[int, int], budget: int,
             place: int) -> int:
    """Strength ``o`` can add on ``cell`` with ``budget`` action points."""
    offers: list[tuple[float, int, int]] = []  # (AP per strength, AP, strength)
    for c, count in game.workers[o].items():
        d = dist.get(c)
        if c != cell and d is not None:
            offers.extend([(float(d), d, 1)] * min(count, budget))
    lead = game.leader[o]
    if lead >= 0 and lead != cell and lead in dist:
        offers.append((dist[lead] / 3, dist[lead], 3))
    entries = [dist[e] for e in (game.rules.basecamp, *game.own_camps(o)) if e in dist]
    if entries:
        cost = min(entries) + place
        if game.supply[o]:
            offers.extend([(float(cost), cost, 1)] * min(game.supply[o], budget))
        if lead == SUPPLY_PLACE:
            offers.append((cost / 3, cost, 3))
    offers.sort()
    left, added = budget, 0
    for _, cost, strength in offers:
        if cost <= left:
            left -= cost
            added += strength
    return added
