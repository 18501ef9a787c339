"""The rules core: one mutable :class:`GameState`, no I/O.

The static rules live in :class:`tikal.components.RuleSet`; a state is one
position plus its history.  Chance (drawing tiles, revealing tokens) is resolved
from a stack and token pool shuffled once at setup, and every outcome is logged
as an explicit :class:`~tikal.actions.Draw` / :class:`~tikal.actions.Reveal`
event so records replay exactly.  Whoever must decide chance instead (a record
being replayed) names the outcomes: ``apply(action, chance=[...])`` and
``start(chance=[...])`` produce exactly those or raise :class:`ChanceError`.

What chance may still bring is public: :meth:`GameState.chance_outcomes` gives the
outcomes of the next chance event with their probabilities (OpenSpiel's model), from
what every player knows.

A state also knows what each action *is*: :meth:`GameState.cost`,
:meth:`GameState.check` (why it is illegal, without playing it) and
:meth:`GameState.describe` (a message key and parameters for any language; the
wording is :mod:`tikal.describe`'s).  The move generator asks the very checks that
:meth:`GameState.apply` makes, and where a camp may stand is one rule,
:meth:`GameState.is_camp_site`, which the bots' planner asks too.

The state's fields are declared once, with how each is copied (:mod:`tikal.fields`);
every container holds immutable values, so :meth:`GameState.clone` is a handful of
shallow copies, written as straight-line code from that list at import.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any, Final, Generic, NamedTuple, Self, TypeVar, cast

from . import hexes
from .actions import (
    END_TURN,
    PASS,
    Action,
    Bid,
    BuildCamp,
    Dig,
    Draw,
    EndTurn,
    Move,
    Pass,
    PickTile,
    PlaceGuard,
    PlaceTile,
    PutFigure,
    Reveal,
    SecretPath,
    Swap,
    TakeTreasure,
    parse_action,
    token_name,
)
from .components import JUNGLE, TEMPLE, TREASURE, VOLCANO, RuleSet, TileSpec, rule_set
from .describe import describe_action, tile_message
from .errors import ChanceError, IllegalAction, NotationError
from .fields import (
    clone_function,
    copied,
    copied_each,
    given,
    initialise,
    restore_function,
    scratch,
    shared,
)
from .messages import Message

#: A refusal before it is raised: rule id, message key, parameters.
Refusal = tuple[str, str, dict[str, Any]]

# Where a leader is when it is not on a space (``GameState.leader[p]`` is a space otherwise).
SUPPLY: Final = -1  # not yet brought in
OUT: Final = -2  # left the board (its worker-guard took the temple) [GUARD-2]
GUARDING: Final = -3  # guards a temple for good [GUARD-3]
LIFTED: Final = -9  # lifted off its space for a moment by a planner (GameState.with_figure)
#: Names of those places, for messages and snapshots.
LEADER_PLACES: Final = {SUPPLY: "supply", OUT: "out", GUARDING: "guard"}
STEP: Final = hexes.STEP
OPPOSITE: Final = (3, 4, 5, 0, 1, 2)
MAX_LEVEL: Final = 10


class Phase(StrEnum):
    """Where the game is; ``TURN`` and ``SCORING`` are the AP-spending phases."""

    TILE = "tile"  # the player must place the drawn/picked tile
    TURN = "turn"  # normal turn: spend action points
    SCORING = "scoring"  # scoring turn: spend action points, then score
    AUCTION = "auction"  # bidding for the next turn
    PICK = "pick"  # auction winner chooses a tile of the display
    OVER = "over"


class PlacedTile(NamedTuple):
    spec: TileSpec
    rotation: int
    stones: tuple[int, ...]

    @property
    def kind(self) -> str:
        return self.spec.kind


class Exit(NamedTuple):
    cost: int
    dst: int
    worker_move: Move
    leader_move: Move


_Outcome = TypeVar("_Outcome", bound=Draw | Reveal, covariant=True)


class ChanceOutcome(NamedTuple, Generic[_Outcome]):
    """One way a chance event may turn out and how likely it is, from what every player
    knows [HIDDEN-1]: the (action, probability) pairs of OpenSpiel's
    ``chance_outcomes()``, with exact fractions (``float()`` gives OpenSpiel's floats)."""

    outcome: _Outcome
    probability: Fraction


class ScoreEvent(NamedTuple):
    """One player's scoring at the end of their scoring turn."""

    round: int
    player: int
    temples: int
    treasures: int
    at: int  # index in the history after which it happened

    @property
    def total(self) -> int:
        return self.temples + self.treasures

    def to_json(self) -> dict[str, int]:
        """The event as records store it (``total`` is derived, so left out)."""
        return self._asdict()

    def describe(self) -> Message:
        """The scoring as a message (``render(event.describe(), "log")``)."""
        return Message("score", {**self._asdict(), "total": self.total})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScoreEvent:
        return cls(**{name: int(data[name]) for name in cls._fields})


_A = TypeVar("_A", bound=Action)
_T = TypeVar("_T")
_EXIT_CACHE: dict[tuple[int, int, int], Exit] = {}
_ACTION_CACHE: dict[tuple[Any, ...], Any] = {}


def _exit_dst(e: Exit) -> int:
    return e.dst


def _exit(src: int, dst: int, cost: int) -> Exit:
    key = (src, dst, cost)
    found = _EXIT_CACHE.get(key)
    if found is None:
        found = Exit(cost, dst, Move(src, dst, False), Move(src, dst, True))
        _EXIT_CACHE[key] = found
    return found


def _cached(kind: type[_A], *args: object) -> _A:
    """The action ``kind(*args)``, built once and shared (actions are immutable values)."""
    key = (kind, *args)
    found: _A | None = _ACTION_CACHE.get(key)  # the cache holds kind(*args) under key
    if found is None:
        found = _ACTION_CACHE[key] = kind(*args)
    return found


_PLACEMENTS: dict[int, tuple[PlaceTile, ...]] = {}


def _placements(cell: int) -> tuple[PlaceTile, ...]:
    """The six :class:`PlaceTile` actions of one space, built once."""
    found = _PLACEMENTS.get(cell)
    if found is None:
        found = _PLACEMENTS[cell] = tuple(PlaceTile(cell, r) for r in range(6))
    return found


class CellActions(NamedTuple):
    """The actions tied to one space, built once per space and shared."""

    dig: Dig
    take: TakeTreasure
    camp: BuildCamp
    guard_worker: PlaceGuard
    guard_leader: PlaceGuard
    put_worker: PutFigure
    put_leader: PutFigure


_CELL_ACTIONS: dict[int, CellActions] = {}


def _cell_actions(cell: int) -> CellActions:
    found = _CELL_ACTIONS.get(cell)
    if found is None:
        found = _CELL_ACTIONS[cell] = CellActions(
            Dig(cell), TakeTreasure(cell), BuildCamp(cell), PlaceGuard(cell, False),
            PlaceGuard(cell, True), PutFigure(cell, False), PutFigure(cell, True),
        )
    return found


_MASKS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _stone_masks(spec: TileSpec) -> tuple[int, ...]:
    """Per rotation, the bit mask of edges that show stones."""
    key = spec.stones
    found = _MASKS.get(key)
    if found is None:
        found = _MASKS[key] = tuple(
            sum(1 << d for d in range(6) if stones[d]) for stones in _rotations(spec)
        )
    return found


_ROTATIONS: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}


def _rotations(spec: TileSpec) -> tuple[tuple[int, ...], ...]:
    """The six rotated stone patterns of a tile (cached by its printed pattern)."""
    found = _ROTATIONS.get(spec.stones)
    if found is None:
        found = tuple(hexes.rotate(spec.stones, k) for k in range(6))
        _ROTATIONS[spec.stones] = found
    return found




@dataclass(slots=True, init=False, repr=False, eq=False, match_args=False)
class GameState:
    """A game of Tikal: position, whose turn, and the history that led here.

    This is the rules core; :class:`tikal.game.Game` adds the conveniences that need
    other modules (views, records, snapshots, pictures) on top of it.

    The fields below are the whole state, each named once: its type, how :meth:`clone`
    copies it and its value in :meth:`empty` (:mod:`tikal.fields`); ``__slots__``, the
    clone, the restore of :meth:`undo` and the empty game are all made from this list.
    """

    # the game being played: given to empty(), shared by every copy
    rules: RuleSet = given()
    options: dict[str, Any] = given()
    players: int = given()
    seed: int | None = given()
    # the board
    tiles: dict[int, PlacedTile] = copied(lambda rs, n: {})
    exits: dict[int, tuple[Exit, ...]] = copied(lambda rs, n: {})
    frontier: set[int] = copied(lambda rs, n: set())
    levels: dict[int, int] = copied(lambda rs, n: {})
    level_supply: list[int] = copied(lambda rs, n: list(rs.level_supply))
    tokens: dict[int, tuple[int, ...]] = copied(lambda rs, n: {})
    token_pool: list[int] = copied(lambda rs, n: [])
    camps: dict[int, int] = copied(lambda rs, n: {})
    guards: dict[int, tuple[int, bool]] = copied(lambda rs, n: {})
    # the players' figures, treasures and scores
    workers: list[dict[int, int]] = copied_each(lambda rs, n: [{} for _ in range(n)])
    leader: list[int] = copied(lambda rs, n: [SUPPLY] * n)
    supply: list[int] = copied(lambda rs, n: [rs.workers] * n)
    out: list[int] = copied(lambda rs, n: [0] * n)
    treasures: list[tuple[int, ...]] = copied(
        lambda rs, n: [(0,) * rs.token_types for _ in range(n)])
    scores: list[int] = copied(lambda rs, n: [rs.starting_score] * n)
    # the tiles still to come
    stack: list[str] = copied(lambda rs, n: [])
    display: list[str] = copied(lambda rs, n: [])
    markers: list[bool] = copied(lambda rs, n: [True] * n)
    discarded: list[str] = copied(lambda rs, n: [])
    # whose turn, and what this turn has done
    phase: Phase = shared(Phase.TURN)
    current: int = shared(0)
    ap: int = shared(0)
    drawn: str | None = shared(None)
    dug: dict[int, int] = copied(lambda rs, n: {})
    taken: dict[int, int] = copied(lambda rs, n: {})
    # scoring rounds
    scoring_queue: list[int] = copied(lambda rs, n: [])
    scoring_final: bool = shared(False)
    volcano: str | None = shared(None)
    volcano_holder: int | None = shared(None)
    # the auction
    bid_order: list[int] = copied(lambda rs, n: [])
    passed: list[int] = copied(lambda rs, n: [])
    high_bid: int = shared(-1)
    high_bidder: int | None = shared(None)
    bids_paid: list[int] = copied(lambda rs, n: [0] * n)
    last_placer: int | None = shared(None)
    tiles_placed: int = shared(0)
    scoring_rounds: int = shared(0)
    # what led here
    history: list[Action] = copied(lambda rs, n: [])
    score_events: list[ScoreEvent] = copied(lambda rs, n: [])
    # undo: the position before this turn's first undoable action, shared by copies
    undo_enabled: bool = shared(True)
    _undo_base: GameState | None = shared(None)
    _undo_actions: list[Action] = copied(lambda rs, n: [])
    # chance a replay forces, only while one action is applied:
    # (offset in the chance given, tile) and (offset, token type)
    _forced_draws: list[tuple[int, str]] = scratch()
    _forced_tokens: list[tuple[int, int]] = scratch()

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls, rules: str = "standard", players: int = 4, seed: int | None = 0, **options: Any
    ) -> Self:
        """A new game, set up [SETUP-1..4]; the same seed gives the same game."""
        game = cls.setup(rules, players, seed, **options)
        game._start()
        return game

    @classmethod
    def setup(
        cls, rules: str = "standard", players: int = 4, seed: int | None = 0, **options: Any
    ) -> Self:
        """A game set up but not started: components in place, stack and tokens shuffled,
        nothing drawn yet.  :meth:`start` begins it (a replay names the draws there)."""
        rs = rule_set(rules)
        if players not in rs.player_counts:
            counts = ", ".join(map(str, rs.player_counts))
            raise ValueError(f"the {rules} rule set is for {counts} players, not {players}")
        unknown = set(options) - set(rs.default_options)
        if unknown:
            raise ValueError(f"unknown option(s) for {rules}: {', '.join(sorted(unknown))}")
        game = cls.empty(rs, players, {**rs.default_options, **options}, seed)
        rng = random.Random(seed)
        game.stack = _shuffled_stack(rs, rng)
        pool = [t for t in range(rs.token_types) for _ in range(rs.token_copies)]
        rng.shuffle(pool)
        game.token_pool = pool
        return game

    def _start(self) -> None:
        """Seat 0 starts [SETUP-4]: draw its tile, or open the first auction [AUC-3]."""
        self.current = 0
        if self.rules.auction:
            self._start_auction_round(0)
        else:
            self._begin_turn()

    @classmethod
    def empty(
        cls, rs: RuleSet, players: int, options: dict[str, Any], seed: int | None = None
    ) -> Self:
        """Only the preprinted tiles, every figure in its supply, stack and pool empty: the
        start from which a position snapshot is built (:meth:`set_tile` and attributes)."""
        game = cls.__new__(cls)
        game.rules, game.options, game.players, game.seed = rs, options, players, seed
        initialise(game, rs, players)
        for cell, spec in rs.preprinted:
            game.set_tile(cell, spec, 0)
        return game

    # ------------------------------------------------------------ properties

    @property
    def current_player(self) -> int:
        return self.current

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def winners(self) -> list[int]:
        """Seats with the highest score once the game is over [END-2]; ties share."""
        if not self.is_over:
            return []
        best = max(self.scores)
        return [p for p in range(self.players) if self.scores[p] == best]

    @property
    def win_shares(self) -> list[float]:
        """Each seat's share of the win [END-2]: 1 for a sole winner, split evenly among
        tied winners, 0 for the rest, and 0 for everyone before the end; what the arena,
        the tuner and the learned evaluation count as a game's result."""
        winners = self.winners
        return [1 / len(winners) if p in winners else 0.0 for p in range(self.players)]

    @property
    def tiles_discarded(self) -> int:
        return len(self.discarded)

    @property
    def basecamp(self) -> int:
        return self.rules.basecamp

    def figures_on(self, player: int, cell: int) -> int:
        """Own figures on a tile, leader counted as one [TURN-3]."""
        return self.workers[player].get(cell, 0) + (self.leader[player] == cell)

    def strength(self, player: int, cell: int) -> int:
        """Majority strength: workers 1, leader 3 [GUARD-1][SCORE-2]."""
        return self.workers[player].get(cell, 0) + 3 * (self.leader[player] == cell)

    def temple_value(self, cell: int) -> int:
        return self.levels[cell]

    def edge_cost(self, src: int, dst: int) -> int | None:
        """AP to walk from ``src`` to the neighbouring ``dst`` [MOVE-1]; 0 when the edge is
        impassable [MOVE-2][MOVE-3]; None when they are not two neighbouring placed tiles."""
        d = _DIRECTION_OF.get(dst - src)
        a, b = self.tiles.get(src), self.tiles.get(dst)
        if d is None or a is None or b is None:
            return None
        if VOLCANO in (a.spec.kind, b.spec.kind):
            return 0
        return (a.stones[d] + b.stones[OPPOSITE[d]]) * self.rules.costs["move_per_stone"]

    def own_camps(self, player: int) -> list[int]:
        return [c for c, owner in self.camps.items() if owner == player]

    def guards_of(self, player: int) -> int:
        return sum(1 for owner, _ in self.guards.values() if owner == player)

    def figures_total(self, player: int) -> tuple[int, int, int]:
        """(supply, board, out) for a player; always sums to 19 (demo 13)."""
        board = sum(self.workers[player].values())
        board += sum(1 for owner, _ in self.guards.values() if owner == player)
        if self.leader[player] >= 0:
            board += 1
        supply = self.supply[player] + (self.leader[player] == SUPPLY)
        return supply, board, self.out[player]

    # ------------------------------------------------------------ cloning

    def clone(self) -> Self:
        """A cheap independent copy (shallow copies of small containers)."""
        raise NotImplementedError  # written from the field list below the class

    def _restore(self, other: Self) -> None:
        """Take every field of ``other`` as it is (``undo`` gives it a clone)."""
        raise NotImplementedError  # written from the field list below the class

    # ------------------------------------------------------------ trials
    # Planners ask how a position would look after one change that no single action
    # makes (a figure more on a space, a temple a level higher, a treasure gone).  These
    # make the change without rule checks, action points or history, let
    # ``look(self, cell)`` read the position (often ``evaluator.cell_terms``) and put it
    # back exactly (the figure maps keep their order, which the order of the moves
    # offered depends on) before they return, even when ``look`` raises.

    def with_figure(
        self, player: int, cell: int, leader: bool, change: int, look: Callable[[Self, int], _T]
    ) -> _T:
        """``look(self, cell)`` with one figure of ``player`` more (``change`` 1) or fewer (-1) on
        ``cell``: the leader stands there (from wherever it was) or is lifted off
        (:data:`LIFTED`), a worker is added or taken away."""
        if leader:
            saved = self.leader[player]
            self.leader[player] = cell if change > 0 else LIFTED
            try:
                return look(self, cell)
            finally:
                self.leader[player] = saved
        workers = self.workers[player]
        if change > 0:
            add_worker(workers, cell)
            try:
                return look(self, cell)
            finally:
                remove_worker(workers, cell)
        count = workers[cell]
        workers[cell] = count - 1  # kept in the map at zero: its place there stays
        try:
            return look(self, cell)
        finally:
            workers[cell] = count

    def with_level_raised(self, cell: int, look: Callable[[Self, int], _T]) -> _T:
        """``look(self, cell)`` with the temple on ``cell`` a level higher (as a dig leaves
        it)."""
        self.levels[cell] += 1
        try:
            return look(self, cell)
        finally:
            self.levels[cell] -= 1

    def with_token_taken(self, cell: int, look: Callable[[Self, int], _T]) -> _T:
        """``look(self, cell)`` with the top treasure token of ``cell`` gone (as a take leaves it;
        nobody holds it meanwhile)."""
        stack = self.tokens[cell]
        self.tokens[cell] = stack[:-1]
        try:
            return look(self, cell)
        finally:
            self.tokens[cell] = stack

    # ------------------------------------------------------------ tiles

    def set_tile(self, cell: int, spec: TileSpec, rotation: int) -> None:
        """Put a tile on ``cell`` without any rule check (building positions); a treasure
        tile takes its tokens from the top of the pool."""
        placed = PlacedTile(spec, rotation, _rotations(spec)[rotation])
        self.tiles[cell] = placed
        self.frontier.discard(cell)
        bounded = self.rules.bounded_board
        per_stone = self.rules.costs["move_per_stone"]
        own_exits = []
        for d in range(6):
            n = cell + STEP[d]
            other = self.tiles.get(n)
            if other is None:
                if not bounded or n in hexes.STANDARD_CELL_SET:
                    self.frontier.add(n)
                continue
            if spec.kind == VOLCANO or other.spec.kind == VOLCANO:
                continue
            cost = (placed.stones[d] + other.stones[OPPOSITE[d]]) * per_stone
            if cost:
                own_exits.append(_exit(cell, n, cost))
                # exits sorted by destination: the same position lists the same moves in the
                # same order whatever the order its tiles were placed in (e.g. after from_json)
                self.exits[n] = tuple(
                    sorted((*self.exits.get(n, ()), _exit(n, cell, cost)), key=_exit_dst)
                )
        self.exits[cell] = tuple(sorted(own_exits, key=_exit_dst))
        if spec.kind == TEMPLE:
            self.levels[cell] = spec.value
        elif spec.kind == TREASURE:
            count = min(spec.masks, len(self.token_pool))
            stack = self.token_pool[len(self.token_pool) - count:]
            del self.token_pool[len(self.token_pool) - count:]
            self.tokens[cell] = tuple(stack)

    def _has_path(self, cell: int, stones: tuple[int, ...]) -> bool:
        tiles = self.tiles
        for d in range(6):
            other = tiles.get(cell + STEP[d])
            if other is not None and other.spec.kind != VOLCANO and (
                stones[d] + other.stones[OPPOSITE[d]]
            ):
                return True
        return False

    def _tile_placements(self, spec: TileSpec) -> list[PlaceTile]:
        """All legal (space, rotation) pairs [TILE-1..5]."""
        frontier = sorted(self.frontier)
        if spec.kind != VOLCANO:
            masks = _stone_masks(spec)
            found: list[PlaceTile] = []
            for cell in frontier:
                placements = _placements(cell)
                open_mask = self._open_mask(cell)
                if open_mask < 0:
                    found.extend(placements)
                elif open_mask:
                    found.extend(placements[r] for r in range(6) if masks[r] & open_mask)
            if found:
                return found
        return [a for cell in frontier for a in _placements(cell)]

    def _open_mask(self, cell: int) -> int:
        """Edges of ``cell`` that face a placed non-volcano tile, as a bit mask;
        -1 when a neighbour already shows stones there (every rotation has a path)."""
        mask = 0
        tiles = self.tiles
        for d in range(6):
            other = tiles.get(cell + STEP[d])
            if other is not None and other.spec.kind != VOLCANO:
                if other.stones[OPPOSITE[d]]:
                    return -1
                mask |= 1 << d
        return mask

    def tile_to_place(self) -> TileSpec | None:
        return self.rules.tile(self.drawn) if self.drawn is not None else None

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal atomic action for :attr:`current_player`, in a fixed order."""
        phase = self.phase
        if phase is Phase.TURN or phase is Phase.SCORING:
            return self._ap_actions()
        if phase is Phase.TILE:
            spec = self.tile_to_place()
            assert spec is not None
            return list(self._tile_placements(spec))
        if phase is Phase.AUCTION:
            low = self.high_bid + 1
            top = self.scores[self.current]
            bids: list[Action] = [_cached(Bid, b) for b in range(low, top + 1)]
            bids.append(PASS)
            return bids
        if phase is Phase.PICK:
            return [_cached(PickTile, t) for t in sorted(set(self.display))]
        return []

    def _occupied(self, p: int) -> list[int]:
        cells = list(self.workers[p])
        lead = self.leader[p]
        if lead >= 0 and lead not in self.workers[p]:
            cells.append(lead)
        return cells

    def _ap_actions(self) -> list[Action]:
        p, ap, rules = self.current, self.ap, self.rules
        costs = rules.costs
        result: list[Action] = []
        append = result.append
        workers = self.workers[p]
        exits = self.exits
        for src in sorted(workers):
            for cost, _, worker_move, _ in exits[src]:
                if cost <= ap:
                    append(worker_move)
        lead = self.leader[p]
        if lead >= 0:
            for cost, _, _, leader_move in exits[lead]:
                if cost <= ap:
                    append(leader_move)
        camps = self.own_camps(p) if self.camps else []
        if ap >= costs["put"] and (self.supply[p] or lead == SUPPLY):
            for cell in (rules.basecamp, *sorted(camps)):
                put = _cell_actions(cell)
                if self.supply[p]:
                    append(put.put_worker)
                if lead == SUPPLY:
                    append(put.put_leader)
        if camps and ap >= costs.get("path", 99):
            self._path_actions(p, camps, result)
        self._site_actions(p, camps, result)
        if "swap" in rules.actions and ap >= costs["swap"]:
            self._swap_actions(p, result)
        append(END_TURN)
        return result

    def _site_actions(self, p: int, camps: list[int], result: list[Action]) -> None:
        """Dig, take, guard and camp where the player may, asked of the same checks that
        :meth:`apply` makes (``_*_problem``, :meth:`is_camp_site`); the action points and
        the limits of camps and guards are looked at once here, as apply looks at them."""
        ap, rules = self.ap, self.rules
        allowed, costs = rules.actions, rules.costs
        can_dig = "dig" in allowed and ap >= costs["dig"]
        can_take = ap >= costs["take"] and bool(self.tokens)
        can_camp = "camp" in allowed and ap >= costs["camp"] and len(camps) < rules.camps_max
        can_guard = "guard" in allowed and ap >= costs["guard"] and (
            not self.guards or self.guards_of(p) < rules.guards_max
        )
        if not (can_dig or can_take or can_camp or can_guard):
            return
        occupied = sorted(self._occupied(p))
        tiles = self.tiles
        for cell in occupied:
            kind = tiles[cell].spec.kind
            if kind == TEMPLE:
                self._temple_actions(p, cell, can_dig, can_guard, result)
            elif kind == TREASURE and can_take and self._take_problem(p, cell) is None:
                result.append(_cell_actions(cell).take)
        if can_camp:
            sites = occupied if self.options.get("camp_needs_own_figure") else sorted(tiles)
            for cell in sites:
                if self._camp_site_fault(cell) is None:  # is_camp_site, one call fewer
                    result.append(_cell_actions(cell).camp)

    def _temple_actions(
        self, p: int, cell: int, can_dig: bool, can_guard: bool, result: list[Action]
    ) -> None:
        """Dig and guard on a temple where ``p`` has figures (the guard checks only for the
        figure that stands there)."""
        acts = _cell_actions(cell)
        if can_dig and self._dig_problem(p, cell) is None:
            result.append(acts.dig)
        if not can_guard:
            return
        if self.workers[p].get(cell, 0) and self._guard_problem(p, cell, False) is None:
            result.append(acts.guard_worker)
        if self.leader[p] == cell and self._guard_problem(p, cell, True) is None:
            result.append(acts.guard_leader)

    def _path_actions(self, p: int, camps: list[int], result: list[Action]) -> None:
        ends = [self.rules.basecamp, *sorted(camps)]
        for src in ends:
            has_worker = self.workers[p].get(src, 0) > 0
            has_leader = self.leader[p] == src
            for dst in ends:
                if dst == src:
                    continue
                if has_worker:
                    result.append(_cached(SecretPath, src, dst, False))
                if has_leader:
                    result.append(_cached(SecretPath, src, dst, True))

    def _swap_actions(self, p: int, result: list[Action]) -> None:
        mine = self.treasures[p]
        singles = [t for t, n in enumerate(mine) if n == 1]
        if not singles:
            return
        for other in range(self.players):
            if other == p:
                continue
            theirs = [t for t, n in enumerate(self.treasures[other]) if n == 1]
            for give in singles:
                for take in theirs:
                    if give != take:
                        result.append(_cached(Swap, give, take, other))

    # ------------------------------------------------------------ rule checks
    # Each returns None when allowed, or the refusal: rule id, message key, parameters.

    def _dig_problem(self, p: int, cell: int) -> Refusal | None:
        tile = self.tiles.get(cell)
        if tile is None or tile.spec.kind != TEMPLE:
            return "DIG-1", "refuse.not_temple_dig", {"cell": hexes.label(cell)}
        if cell in self.guards:
            return "DIG-5", "refuse.dig_guarded", {"cell": hexes.label(cell)}
        done = self.dug.get(cell, 0)
        if done >= 2:
            return "DIG-3", "refuse.dug_twice", {"cell": hexes.label(cell)}
        have = self.figures_on(p, cell)
        if have < done + 1:
            need = {"cell": hexes.label(cell), "need": done + 1, "have": have}
            return "DIG-2", "refuse.dig_needs", need
        nxt = self.levels[cell] + 1
        if nxt > MAX_LEVEL or self.level_supply[nxt] == 0:
            return "DIG-4", "refuse.no_level_left", {"level": nxt, "cell": hexes.label(cell)}
        return None

    def _take_problem(self, p: int, cell: int) -> Refusal | None:
        tile = self.tiles.get(cell)
        if tile is None or tile.spec.kind != TREASURE:
            return "TREASURE-1", "refuse.not_treasure", {"cell": hexes.label(cell)}
        if not self.tokens.get(cell):
            return "TREASURE-1", "refuse.no_treasure_left", {"cell": hexes.label(cell)}
        done = self.taken.get(cell, 0)
        if done >= 2:
            return "TREASURE-3", "refuse.took_twice", {"cell": hexes.label(cell)}
        have = self.figures_on(p, cell)
        if have < done + 1:
            need = {"cell": hexes.label(cell), "need": done + 1, "have": have}
            return "TREASURE-2", "refuse.take_needs", need
        return None

    def is_camp_site(self, cell: int) -> bool:
        """Whether a camp may stand on ``cell``: a jungle tile, or a treasure tile with no
        treasure left, without a camp yet [CAMP-1][CAMP-2][TREASURE-4].  The one camp-site
        rule: the move generator, the refusals and the bots' planner all ask it.  Who may
        build there is :meth:`check`'s question (camps left [CAMP-2], a figure there
        [CAMP-3])."""
        return self._camp_site_fault(cell) is None

    def camp_sites(self) -> list[int]:
        """Every space a camp may stand on (:meth:`is_camp_site`), in the board's order."""
        fault = self._camp_site_fault
        return [cell for cell in self.tiles if fault(cell) is None]

    def _camp_site_fault(self, cell: int) -> str | None:
        """Why no camp may stand on ``cell``, as the refusal's message key (its rule in
        :data:`_CAMP_SITE_RULES`), or None; no parameters are built, as the move generator
        asks this of many tiles."""
        tile = self.tiles.get(cell)
        if tile is None:
            return "refuse.camp_no_tile"
        kind = tile.spec.kind
        if kind == TREASURE and self.tokens.get(cell):
            return "refuse.camp_treasure_left"
        if kind not in _CAMP_KINDS:
            return "refuse.camp_kind"
        if cell in self.camps:
            return "refuse.camp_taken"
        return None

    def _camp_problem(self, p: int, cell: int) -> Refusal | None:
        fault = self._camp_site_fault(cell)
        if fault is not None:
            params: dict[str, Any] = {"cell": hexes.label(cell)}
            if fault == "refuse.camp_kind":
                params["kind"] = Message(f"kind.{self.tiles[cell].spec.kind}")
            return _CAMP_SITE_RULES[fault], fault, params
        if len(self.own_camps(p)) >= self.rules.camps_max:
            return "CAMP-2", "refuse.camps_used", {"max": self.rules.camps_max}
        if self.options.get("camp_needs_own_figure") and not self.figures_on(p, cell):
            return "CAMP-3", "refuse.camp_needs_figure", {"cell": hexes.label(cell)}
        return None

    def _guard_problem(self, p: int, cell: int, leader: bool) -> Refusal | None:
        tile = self.tiles.get(cell)
        if tile is None or tile.spec.kind != TEMPLE:
            return "GUARD-1", "refuse.guard_not_temple", {"cell": hexes.label(cell)}
        if cell in self.guards:
            return "GUARD-1", "refuse.guard_taken", {"cell": hexes.label(cell)}
        if self.guards and self.guards_of(p) >= self.rules.guards_max:
            return "GUARD-4", "refuse.guards_used", {"max": self.rules.guards_max}
        if leader and self.leader[p] != cell:
            return "GUARD-1", "refuse.guard_leader_not_on", {"cell": hexes.label(cell)}
        if not leader and not self.workers[p].get(cell, 0):
            return "GUARD-1", "refuse.guard_no_worker", {"cell": hexes.label(cell)}
        mine, best_other = self.strength(p, cell), 0
        for other in range(self.players):  # a loop: the move generator asks this per temple
            if other != p:
                theirs = self.strength(other, cell)
                if theirs > best_other:
                    best_other = theirs
        if mine <= best_other:
            return "GUARD-1", "refuse.guard_not_strongest", {
                "cell": hexes.label(cell), "mine": mine, "best": best_other,
            }
        return None

    # ------------------------------------------------------------ what actions are

    def cost(self, action: Action) -> int:
        """The action points ``action`` costs here [MOVE-1]: for a walk the stones of the
        edge, else the rule set's price of the verb; 0 for actions that cost none."""
        if type(action) is Move:
            return self.edge_cost(action.src, action.dst) or 0
        return self.rules.costs.get(action.verb, 0)

    def check(self, action: Action, *, afford: bool = True) -> IllegalAction | None:
        """Why ``action`` is illegal for :attr:`current_player` now, or None if it is legal.

        Nothing changes.  ``afford=False`` leaves the action-point check out (planners ask
        whether an action would be allowed once they have the points)."""
        handler = _HANDLERS.get(type(action))
        try:
            if handler is None:
                raise _not_playable(action)
            handler(self, action, False, afford)
        except IllegalAction as refusal:
            return refusal
        return None

    def is_legal(self, action: Action) -> bool:
        return self.check(action) is None

    def describe(self, action: Action) -> Message:
        """What ``action`` does, as a message key (its verb) and parameters; render it with
        :func:`tikal.messages.render`.  Works for the actions offered now and for every
        action already in :attr:`history` (tiles, once placed, never change); the
        wording lives in :mod:`tikal.describe`."""
        return describe_action(self, action)

    def describe_tile(self, tile_id: str) -> Message:
        """What the tile ``tile_id`` of this rule set is, as a message."""
        return tile_message(self.rules.tile(tile_id))

    # ------------------------------------------------------------ apply

    def apply(self, action: Action | str, chance: Sequence[Action] | None = None) -> None:
        """Play one action for :attr:`current_player`.

        Raises :class:`IllegalAction` (citing the rule) and leaves the game unchanged when
        the action is not legal.  ``chance`` names the outcomes the action must produce
        (the tile drawn next, the treasure revealed), as a record does; when the game
        cannot produce exactly those, :class:`ChanceError` is raised and nothing changes.
        """
        if isinstance(action, str):
            try:
                action = parse_action(action)
            except NotationError as exc:
                raise IllegalAction("NOTATION", exc.reason.key, exc.reason.params) from None
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise _not_playable(action)
        if chance is not None:
            saved = self.clone()
            try:
                self._with_chance(chance, lambda: self.apply(action))
            except ChanceError:
                self._restore(saved)
                raise
            return
        base = None
        if self.undo_enabled and self._undo_base is None and self.phase in _UNDOABLE:
            base = self.clone()
        before = len(self.history)
        handler(self, action, True, True)
        self.history.insert(before, action)
        if self.undo_enabled:
            if base is not None:
                self._undo_base = base
            self._track_undo(action, before)

    def start(self, chance: Sequence[Action] | None = None) -> None:
        """Begin a game made by :meth:`setup`: seat 0 draws or the first auction opens
        [SETUP-4][AUC-3].  ``chance`` names the draws, as for :meth:`apply`."""
        if self.history:
            raise ValueError("this game has already started")
        if chance is None:
            self._start()
        else:
            self._with_chance(chance, self._start)

    def _with_chance(self, chance: Sequence[Action], play: Callable[[], None]) -> None:
        """Run ``play`` with its chance outcomes forced to ``chance``; check it used them all."""
        before = len(self.history)
        self._forced_draws = [
            (i, c.tile_id) for i, c in enumerate(chance) if type(c) is Draw
        ]
        self._forced_tokens = [
            (i, c.token) for i, c in enumerate(chance) if type(c) is Reveal
        ]
        try:
            play()
        finally:
            left = bool(self._forced_draws or self._forced_tokens)
            self._forced_draws, self._forced_tokens = [], []
        produced = [a for a in self.history[before:] if a.is_chance]
        if left or produced != list(chance):
            same = 0  # the first entry that differs is the one at fault
            while same < min(len(produced), len(chance)) and produced[same] == chance[same]:
                same += 1
            nothing = Message("chance.nothing")
            got = " ".join(map(str, produced)) or nothing
            want = " ".join(map(str, chance)) or nothing
            raise ChanceError(same, "chance.produced", {"got": got, "want": want})

    def _track_undo(self, action: Action, before: int) -> None:
        revealed = len(self.history) > before + 1 or type(action) in _REVEALS
        if revealed or self.phase not in _UNDOABLE:
            self._undo_base, self._undo_actions = None, []
        else:
            self._undo_actions.append(action)

    def can_undo(self) -> bool:
        return bool(self._undo_actions)

    def forget_undo(self) -> None:
        """Drop what :meth:`undo` would need (e.g. before a position is shown to others)."""
        self._undo_base, self._undo_actions = None, []

    def undo(self) -> Action:
        """Take back the last action of this turn, unless it revealed something.

        Returns the action taken back.
        """
        if not self._undo_actions or self._undo_base is None:
            raise IllegalAction("HIDDEN-1", "refuse.nothing_to_undo")
        keep = self._undo_actions[:-1]
        undone = self._undo_actions[-1]
        base = self._undo_base
        self._restore(base.clone())
        self._undo_base = base
        self._undo_actions = []
        for action in keep:
            self.apply(action)
        return undone

    def _require_ap_phase(self, verb: str) -> None:
        phase = self.phase
        if phase is Phase.TURN or phase is Phase.SCORING:
            if verb and verb not in self.rules.actions:
                raise IllegalAction(
                    "DEMO-3", "refuse.no_such_action", {"rules": self.rules.name, "verb": verb}
                )
            return
        raise _wrong_phase(phase)

    def _pay(self, verb: str, rule: str) -> None:
        """Refuse [rule] when the current player cannot pay for ``verb``."""
        cost = self.rules.costs[verb]
        if cost > self.ap:
            raise IllegalAction(rule, "refuse.costs", {
                "deed": Message(f"deed.{verb}"), "cost": cost, "ap": self.ap,
            })

    # Each ``_do_*`` checks first and raises before it changes anything; with ``run``
    # false it stops after the checks (``check``), with ``afford`` false it skips the
    # action-point check.

    def _do_place_tile(self, action: PlaceTile, run: bool, afford: bool) -> None:
        if self.phase is not Phase.TILE:
            raise _wrong_phase(self.phase, "refuse.no_tile_to_place")
        spec = self.tile_to_place()
        assert spec is not None
        cell, rotation = action.cell, action.rotation
        where = hexes.label(cell)
        if not 0 <= rotation <= 5:
            raise IllegalAction("TILE-2", "refuse.rotation", {"rotation": rotation})
        if self.rules.bounded_board and cell not in hexes.STANDARD_CELL_SET:
            raise IllegalAction("COMP-7", "refuse.off_board", {"cell": where})
        if cell in self.tiles:
            raise IllegalAction("TILE-1", "refuse.cell_taken", {"cell": where})
        if cell not in self.frontier:
            raise IllegalAction("TILE-1", "refuse.not_adjacent", {"cell": where})
        no_path = spec.kind != VOLCANO and not self._has_path(cell, _rotations(spec)[rotation])
        if no_path and self._path_placements(spec):
            raise IllegalAction("TILE-3", "refuse.no_path", {
                "tile": tile_message(spec), "cell": where, "rotation": rotation,
            })
        if not run:
            return
        self.set_tile(cell, spec, rotation)
        self.drawn = None
        self.tiles_placed += 1
        self.last_placer = self.current
        self._start_ap(Phase.TURN)

    def _path_placements(self, spec: TileSpec) -> list[PlaceTile]:
        rotations = _rotations(spec)
        return [
            _cached(PlaceTile, cell, r)
            for cell in sorted(self.frontier)
            for r in range(6)
            if self._has_path(cell, rotations[r])
        ]

    def _do_pick(self, action: PickTile, run: bool, afford: bool) -> None:
        if self.phase is not Phase.PICK:
            raise _wrong_phase(self.phase, "refuse.only_winner_picks")
        if action.tile_id not in self.display:
            shown: str | Message = ", ".join(self.display) or Message("refuse.nothing")
            raise IllegalAction(
                "AUC-5", "refuse.not_on_display", {"tile_id": action.tile_id, "shown": shown}
            )
        if not run:
            return
        self.display.remove(action.tile_id)
        spec = self.rules.tile(action.tile_id)
        if spec.kind == VOLCANO:
            self._start_scoring(action.tile_id, self.current)
        else:
            self._offer_tile(action.tile_id)

    def _do_put(self, action: PutFigure, run: bool, afford: bool) -> None:
        self._require_ap_phase("put")
        p, cell = self.current, action.cell
        if cell != self.rules.basecamp and self.camps.get(cell) != p:
            raise IllegalAction("PLACE-1", "refuse.enter_where", {"cell": hexes.label(cell)})
        if action.leader and self.leader[p] != SUPPLY:
            raise IllegalAction("PLACE-1", "refuse.leader_not_in_supply")
        if not action.leader and not self.supply[p]:
            raise IllegalAction("PLACE-1", "refuse.no_workers_in_supply")
        if afford:
            self._pay("put", "PLACE-1")
        if not run:
            return
        self.ap -= self.rules.costs["put"]
        if action.leader:
            self.leader[p] = cell
        else:
            self.supply[p] -= 1
            add_worker(self.workers[p], cell)

    def _check_mover(self, p: int, src: int, leader: bool) -> None:
        if leader and self.leader[p] != src:
            where = hexes.label(src)
            if self.guards.get(src) == (p, True):
                raise IllegalAction("GUARD-3", "refuse.leader_guards", {"cell": where})
            raise IllegalAction("MOVE-4", "refuse.leader_not_on", {"cell": where})
        if not leader and not self.workers[p].get(src, 0):
            where = hexes.label(src)
            if self.guards.get(src) == (p, False):
                raise IllegalAction("GUARD-3", "refuse.worker_guards", {"cell": where})
            raise IllegalAction("MOVE-4", "refuse.no_worker_on", {"cell": where})

    def _shift(self, p: int, src: int, dst: int, leader: bool) -> None:
        if leader:
            self.leader[p] = dst
            return
        workers = self.workers[p]
        remove_worker(workers, src)
        add_worker(workers, dst)

    def _do_move(self, action: Move, run: bool, afford: bool) -> None:
        self._require_ap_phase("move")
        p, src, dst = self.current, action.src, action.dst
        self._check_mover(p, src, action.leader)
        target = self.tiles.get(dst)
        direction = _DIRECTION_OF.get(dst - src)
        if direction is None:
            raise IllegalAction("MOVE-1", "refuse.not_neighbours", _ends(src, dst))
        if target is None:
            raise IllegalAction("MOVE-1", "refuse.no_tile_on", {"cell": hexes.label(dst)})
        if target.spec.kind == VOLCANO:
            raise IllegalAction("MOVE-3", "refuse.volcano", {"cell": hexes.label(dst)})
        stones = self.tiles[src].stones[direction] + target.stones[OPPOSITE[direction]]
        cost = stones * self.rules.costs["move_per_stone"]
        if cost == 0:
            raise IllegalAction("MOVE-2", "refuse.impassable", _ends(src, dst))
        if afford and cost > self.ap:
            short = {**_ends(src, dst), "cost": cost, "ap": self.ap}
            raise IllegalAction("MOVE-1", "refuse.move_costs", short)
        if not run:
            return
        self.ap -= cost
        self._shift(p, src, dst, action.leader)

    def _do_path(self, action: SecretPath, run: bool, afford: bool) -> None:
        self._require_ap_phase("path")
        p, src, dst = self.current, action.src, action.dst
        self._check_mover(p, src, action.leader)
        ends = {self.rules.basecamp, *self.own_camps(p)}
        if src not in ends or dst not in ends or src == dst:
            raise IllegalAction("CAMPMOVE-1", "refuse.not_secret_path", _ends(src, dst))
        if afford:
            self._pay("path", "CAMPMOVE-1")
        if not run:
            return
        self.ap -= self.rules.costs["path"]
        self._shift(p, src, dst, action.leader)

    def _do_dig(self, action: Dig, run: bool, afford: bool) -> None:
        self._require_ap_phase("dig")
        self._raise_if(self._dig_problem(self.current, action.cell))
        if afford:
            self._pay("dig", "DIG-1")
        if not run:
            return
        self.ap -= self.rules.costs["dig"]
        cell = action.cell
        nxt = self.levels[cell] + 1
        self.level_supply[nxt] -= 1
        self.levels[cell] = nxt
        self.dug[cell] = self.dug.get(cell, 0) + 1

    def _do_take(self, action: TakeTreasure, run: bool, afford: bool) -> None:
        self._require_ap_phase("take")
        p, cell = self.current, action.cell
        self._raise_if(self._take_problem(p, cell))
        if afford:
            self._pay("take", "TREASURE-1")
        if not run:
            return
        self.ap -= self.rules.costs["take"]
        token = self._reveal_top(cell)
        stack = self.tokens[cell]
        self.tokens[cell] = stack[:-1]
        counts = list(self.treasures[p])
        counts[token] += 1
        self.treasures[p] = tuple(counts)
        self.taken[cell] = self.taken.get(cell, 0) + 1
        self.history.append(_cached(Reveal, token))

    def _do_swap(self, action: Swap, run: bool, afford: bool) -> None:
        self._require_ap_phase("swap")
        p, other = self.current, action.other
        if not 0 <= other < self.players or other == p:
            raise IllegalAction("SWAP-1", "refuse.swap_seat", {"other": other})
        types = self.rules.token_types
        if not (0 <= action.give < types and 0 <= action.take < types):
            raise IllegalAction("SWAP-1", "refuse.swap_type")
        give, take = token_name(action.give), token_name(action.take)
        if action.give == action.take:
            raise IllegalAction("SWAP-1", "refuse.swap_same")
        if self.treasures[p][action.give] != 1:
            raise IllegalAction("SWAP-1", "refuse.swap_give", {"give": give})
        if self.treasures[other][action.take] != 1:
            raise IllegalAction("SWAP-1", "refuse.swap_take", {"other": other, "take": take})
        if afford:
            self._pay("swap", "SWAP-1")
        if not run:
            return
        self.ap -= self.rules.costs["swap"]
        mine, theirs = list(self.treasures[p]), list(self.treasures[other])
        mine[action.give] -= 1
        mine[action.take] += 1
        theirs[action.take] -= 1
        theirs[action.give] += 1
        self.treasures[p], self.treasures[other] = tuple(mine), tuple(theirs)

    def _do_camp(self, action: BuildCamp, run: bool, afford: bool) -> None:
        self._require_ap_phase("camp")
        self._raise_if(self._camp_problem(self.current, action.cell))
        if afford:
            self._pay("camp", "CAMP-1")
        if not run:
            return
        self.ap -= self.rules.costs["camp"]
        self.camps[action.cell] = self.current

    def _do_guard(self, action: PlaceGuard, run: bool, afford: bool) -> None:
        self._require_ap_phase("guard")
        p, cell = self.current, action.cell
        self._raise_if(self._guard_problem(p, cell, action.leader))
        if afford:
            self._pay("guard", "GUARD-1")
        if not run:
            return
        self.ap -= self.rules.costs["guard"]
        removed = self.workers[p].pop(cell, 0)
        if action.leader:
            self.leader[p] = GUARDING
        else:
            removed -= 1
            if self.leader[p] == cell:
                self.leader[p] = OUT
                removed += 1
        self.out[p] += removed
        self.guards[cell] = (p, action.leader)

    def _do_end(self, action: EndTurn, run: bool, afford: bool) -> None:
        self._require_ap_phase("")
        if not run:
            return
        if self.phase is Phase.SCORING:
            self._score_current()
            self._next_scorer()
            return
        if self.rules.auction:
            self.markers[self.current] = False
        self._after_normal_turn()

    def _do_bid(self, action: Bid, run: bool, afford: bool) -> None:
        if self.phase is not Phase.AUCTION:
            raise _wrong_phase(self.phase, "refuse.no_auction")
        low = self.high_bid + 1
        if action.amount < low:
            raise IllegalAction("AUC-3", "refuse.bid_low", {"low": low, "amount": action.amount})
        score = self.scores[self.current]
        if action.amount > score:
            high = {"amount": action.amount, "score": score}
            raise IllegalAction("AUC-3", "refuse.bid_high", high)
        if not run:
            return
        self.high_bid, self.high_bidder = action.amount, self.current
        self._next_bidder()

    def _do_pass(self, action: Pass, run: bool, afford: bool) -> None:
        if self.phase is not Phase.AUCTION:
            raise _wrong_phase(self.phase, "refuse.no_auction")
        if not run:
            return
        self.passed.append(self.current)
        self._next_bidder()

    @staticmethod
    def _raise_if(problem: Refusal | None) -> None:
        if problem is not None:
            raise IllegalAction(*problem)

    # ------------------------------------------------------------ chance

    def chance_outcomes(
        self, action: Action | None = None
    ) -> Sequence[ChanceOutcome[Draw | Reveal]]:
        """The outcomes the next chance event may have, with their probabilities, as
        OpenSpiel's ``chance_outcomes()``; worked out from public knowledge only, so a
        game and every player's view of it give the same [HIDDEN-1].

        Without ``action``: the next tile off the stack (:meth:`draw_outcomes`).  With an
        action: the first chance event playing it would cause, a treasure revealed
        (:meth:`token_outcomes`) or a tile drawn (after ``end``, the next turn's or the
        auction's); empty when it causes none.  Later events of the same action (the
        rest of an auction's display) depend on the first.  An illegal action raises
        :class:`IllegalAction`, as :meth:`apply` would; nothing changes."""
        if action is None:
            return self.draw_outcomes()
        trial = self.clone()
        trial.undo_enabled = False
        before = len(trial.history)
        trial.apply(action)
        first = next((a for a in trial.history[before:] if a.is_chance), None)
        if first is None:
            return []
        return self.token_outcomes() if type(first) is Reveal else self.draw_outcomes()

    def draw_outcomes(self) -> list[ChanceOutcome[Draw]]:
        """The tile the stack gives next, by tile id: every tile of the letter group on top
        is as likely [SETUP-1]; nothing when the stack is empty."""
        if not self.stack:
            return []
        tile = self.rules.tile
        letter = tile(self.stack[-1]).letter  # the groups' order is public: A comes first
        group = Counter(t for t in self.stack if tile(t).letter == letter)
        size = sum(group.values())
        return [ChanceOutcome(_cached(Draw, t), Fraction(group[t], size)) for t in sorted(group)]

    def token_outcomes(self) -> list[ChanceOutcome[Reveal]]:
        """The type of a face-down treasure token (the one a take would reveal), by type:
        each as likely as its share of the face-down tokens, on the tiles and in the pool,
        which no player can tell apart [HIDDEN-1]; nothing when none is left."""
        counts = [0] * self.rules.token_types
        for token in self.token_pool:
            counts[token] += 1
        for stack in self.tokens.values():
            for token in stack:
                counts[token] += 1
        return list(_token_odds(tuple(counts)))

    def _draw(self) -> str:
        """Take the top tile of the stack (or the one a replay forces) [SETUP-1]."""
        if self._forced_draws:
            self._force_draw(*self._forced_draws.pop(0))
        tile_id = self.stack.pop()
        self.history.append(_cached(Draw, tile_id))
        return tile_id

    def _force_draw(self, offset: int, tile_id: str) -> None:
        if not self.stack:
            raise ChanceError(offset, "chance.stack_empty", {"tile": tile_id})
        top_letter = self.rules.tile(self.stack[-1]).letter
        if tile_id not in self.stack:
            raise ChanceError(offset, "chance.not_in_stack", {"tile": tile_id})
        if self.rules.tile(tile_id).letter != top_letter:
            raise ChanceError(offset, "chance.wrong_letter",
                              {"tile": tile_id, "letter": top_letter})
        i = self.stack.index(tile_id)
        self.stack[i], self.stack[-1] = self.stack[-1], self.stack[i]

    def _reveal_top(self, cell: int) -> int:
        if self._forced_tokens:
            offset, token = self._forced_tokens.pop(0)
            if not self._force_token(cell, token):
                name = token_name(token)
                raise ChanceError(offset, "chance.no_token", {"name": name})
        return self.tokens[cell][-1]

    def _force_token(self, cell: int, token: int) -> bool:
        """Make the top token of ``cell`` be ``token`` by swapping hidden tokens; False if
        no such token is hidden anywhere."""
        stack = list(self.tokens[cell])
        if stack[-1] == token:
            return True
        if token in stack:
            i = stack.index(token)
            stack[i], stack[-1] = stack[-1], stack[i]
            self.tokens[cell] = tuple(stack)
            return True
        for other, tokens in self.tokens.items():
            if other != cell and token in tokens:
                moved = list(tokens)
                i = moved.index(token)
                moved[i], stack[-1] = stack[-1], token
                self.tokens[other], self.tokens[cell] = tuple(moved), tuple(stack)
                return True
        if token in self.token_pool:
            i = self.token_pool.index(token)
            self.token_pool[i], stack[-1] = stack[-1], token
            self.tokens[cell] = tuple(stack)
            return True
        return False


    # ------------------------------------------------------------ flow

    def _start_ap(self, phase: Phase) -> None:
        self.phase = phase
        self.ap = self.rules.action_points
        self.dug = {}
        self.taken = {}

    def _begin_turn(self) -> None:
        """Draw for a normal turn [TURN-1]; a volcano starts a scoring round [TURN-4]."""
        tile_id = self._draw()
        if self.rules.tile(tile_id).kind == VOLCANO:
            self._start_scoring(tile_id, self.current)
        else:
            self._offer_tile(tile_id)

    def _offer_tile(self, tile_id: str) -> None:
        """Let the current player place a tile, or discard it if nowhere fits [TILE-5]."""
        if self.frontier:
            self.drawn = tile_id
            self.phase = Phase.TILE
            self.ap = 0  # action points come after the tile is placed [TURN-1]
        else:
            self.discarded.append(tile_id)
            self._start_ap(Phase.TURN)

    def _start_scoring(self, volcano: str | None, first: int) -> None:
        self.volcano, self.volcano_holder = volcano, first
        self.scoring_final = volcano is None
        self.scoring_rounds += 1
        n = self.players
        if self.scoring_final and self.rules.auction:
            self.scoring_queue = self._auction_final_order()
        else:
            self.scoring_queue = [(first + i) % n for i in range(n)]
        self.current = self.scoring_queue[0]
        self._start_ap(Phase.SCORING)

    def _auction_final_order(self) -> list[int]:
        """Lowest score first; ties to the seat nearest after the last placer [AUC-9]."""
        n, last = self.players, self.last_placer if self.last_placer is not None else -1
        return sorted(range(n), key=lambda p: (self.scores[p], (p - last - 1) % n))

    def _next_scorer(self) -> None:
        self.scoring_queue.pop(0)
        if self.scoring_queue:
            self.current = self.scoring_queue[0]
            self._start_ap(Phase.SCORING)
            return
        if self.scoring_final:
            self.phase = Phase.OVER
            self.ap = 0
            return
        holder, volcano = self.volcano_holder, self.volcano
        assert holder is not None and volcano is not None
        self.current = holder
        self.volcano, self.volcano_holder = None, None
        self._offer_tile(volcano)

    def _tiles_exhausted(self) -> bool:
        return not self.stack and not self.display and self.drawn is None

    def _after_normal_turn(self) -> None:
        n = self.players
        if self._tiles_exhausted():
            last = self.last_placer if self.last_placer is not None else self.current
            self._start_scoring(None, (last + 1) % n)
            return
        if not self.rules.auction:
            self.current = (self.current + 1) % n
            self._begin_turn()
            return
        if not any(self.markers) or not self.display:
            self._start_auction_round((self.current + 1) % n)
            return
        nxt = next(
            (self.current + i) % n for i in range(1, n + 1) if self.markers[(self.current + i) % n]
        )
        self._open_auction(nxt)

    def _start_auction_round(self, opener: int) -> None:
        """Turn all markers up and reveal one tile per player [AUC-2][AUC-7]."""
        self.markers = [True] * self.players
        for _ in range(min(self.players, len(self.stack))):
            self.display.append(self._draw())
        self._open_auction(opener)

    def _open_auction(self, opener: int) -> None:
        n = self.players
        order = [(opener + i) % n for i in range(n) if self.markers[(opener + i) % n]]
        self.bid_order, self.passed = order, []
        self.high_bid, self.high_bidder = -1, None
        if len(order) == 1:
            self._win_auction(order[0], 0)
            return
        self.current = order[0]
        self.phase = Phase.AUCTION
        self.ap = 0

    def _next_bidder(self) -> None:
        active = [p for p in self.bid_order if p not in self.passed]
        if self.high_bidder is not None and active == [self.high_bidder]:
            self._win_auction(self.high_bidder, self.high_bid)
            return
        if not active:
            self._win_auction(self.passed[0], 0)
            return
        order = self.bid_order
        i = order.index(self.current)
        for k in range(1, len(order) + 1):
            candidate = order[(i + k) % len(order)]
            if candidate not in self.passed:
                self.current = candidate
                return

    def _win_auction(self, player: int, price: int) -> None:
        """The winner pays and picks a tile of the display [AUC-4][AUC-5]."""
        self.scores[player] -= price
        self.bids_paid[player] += price
        self.current = player
        self.phase = Phase.PICK
        self.ap = 0
        self.bid_order, self.passed, self.high_bid, self.high_bidder = [], [], -1, None

    # ------------------------------------------------------------ scoring

    def temple_points(self, player: int) -> int:
        """Points for guarded and strictly-majority temples [SCORE-2]."""
        total = 0
        for cell, value in self.levels.items():
            guard = self.guards.get(cell)
            if guard is not None:
                if guard[0] == player:
                    total += value
                continue
            mine = self.strength(player, cell)
            if mine and all(
                self.strength(o, cell) < mine for o in range(self.players) if o != player
            ):
                total += value
        return total

    def treasure_points(self, player: int) -> int:
        """Points for recovered treasures [SET-1][DEMO-4]."""
        counts = self.treasures[player]
        if self.rules.token_points_each:
            return sum(counts) * self.rules.token_points_each
        return sum(self.rules.set_points[n] for n in counts)

    def _score_current(self) -> None:
        p = self.current
        temples, treasures = self.temple_points(p), self.treasure_points(p)
        self.scores[p] += temples + treasures
        self.score_events.append(
            ScoreEvent(self.scoring_rounds, p, temples, treasures, len(self.history))
        )


    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.rules.name} {self.players}p phase={self.phase} "
            f"player={self.current} ap={self.ap} scores={self.scores}>"
        )


# clone and _restore are written once from the field list (straight-line code, as fast as
# the hand-written clone they replace; tikal.fields)
GameState.clone = clone_function(  # type: ignore[method-assign, assignment]
    GameState, GameState.clone.__doc__ or "")
GameState._restore = restore_function(  # type: ignore[method-assign, assignment]
    GameState, GameState._restore.__doc__ or "")


@lru_cache(maxsize=512)
def _token_odds(counts: tuple[int, ...]) -> tuple[ChanceOutcome[Reveal], ...]:
    """The token outcomes for face-down counts per type, made once per counts: a planner
    asks for them at every plan, and the fractions cost ten times the counting."""
    total = sum(counts)
    return tuple(
        ChanceOutcome(_cached(Reveal, t), Fraction(n, total)) for t, n in enumerate(counts) if n
    )


def _shuffled_stack(rs: RuleSet, rng: random.Random) -> list[str]:
    """Letter groups shuffled separately, A drawn first; the top is the list's end."""
    stack: list[str] = []
    for letter in reversed(rs.letters):
        group = [t.tile_id for t in rs.terrain if t.letter == letter]
        rng.shuffle(group)
        stack.extend(group)
    return stack


_PHASE_RULE: Final = {
    Phase.TILE: "TURN-1", Phase.PICK: "AUC-5", Phase.AUCTION: "AUC-3", Phase.OVER: "END-2",
    Phase.TURN: "TURN-1", Phase.SCORING: "SCORE-1",
}


def _wrong_phase(phase: Phase, detail: str | None = None) -> IllegalAction:
    """The refusal for an action that does not fit the phase; ``detail`` a message key."""
    now = Message(f"phase.{phase.value}")
    if detail is None:
        return IllegalAction(_PHASE_RULE[phase], "refuse.wrong_phase", {"now": now})
    return IllegalAction(
        _PHASE_RULE[phase], "refuse.wrong_phase_because", {"now": now, "detail": Message(detail)}
    )


def _not_playable(action: object) -> IllegalAction:
    """The refusal for a chance outcome or for something that is no action at all."""
    if isinstance(action, Action) and action.is_chance:
        return IllegalAction("HIDDEN-1", "refuse.chance_played")
    return IllegalAction("NOTATION", "refuse.not_an_action", {"action": repr(action)})


def _ends(src: int, dst: int) -> dict[str, Any]:
    """The two spaces of a walk, as message parameters."""
    return {"from": hexes.label(src), "to": hexes.label(dst)}


#: How the rules core plays (or, with ``run`` false, only checks) one kind of action:
#: ``handler(state, action, run, afford)``.
Handler = Callable[[GameState, Action, bool, bool], None]


def _handles(
    kind: type[_A], handler: Callable[[GameState, _A, bool, bool], None]
) -> tuple[type[Action], Handler]:
    """One entry of :data:`_HANDLERS`: mypy checks that ``handler`` takes a ``kind``; the
    table is looked up by the exact type of the action, so it only ever gets one."""
    return kind, cast(Handler, handler)


_HANDLERS: Final[dict[type[Action], Handler]] = dict((
    _handles(PlaceTile, GameState._do_place_tile),
    _handles(PickTile, GameState._do_pick),
    _handles(PutFigure, GameState._do_put),
    _handles(Move, GameState._do_move),
    _handles(SecretPath, GameState._do_path),
    _handles(Dig, GameState._do_dig),
    _handles(TakeTreasure, GameState._do_take),
    _handles(Swap, GameState._do_swap),
    _handles(BuildCamp, GameState._do_camp),
    _handles(PlaceGuard, GameState._do_guard),
    _handles(EndTurn, GameState._do_end),
    _handles(Bid, GameState._do_bid),
    _handles(Pass, GameState._do_pass),
))

#: Actions after which nothing can be taken back: they hand the turn on or bid [HIDDEN-1].
_REVEALS: Final = frozenset({EndTurn, Bid, Pass})

_CAMP_KINDS: Final = (JUNGLE, TREASURE)
#: The rule each reason of :meth:`GameState._camp_site_fault` cites.
_CAMP_SITE_RULES: Final = {
    "refuse.camp_no_tile": "CAMP-1", "refuse.camp_treasure_left": "TREASURE-4",
    "refuse.camp_kind": "CAMP-1", "refuse.camp_taken": "CAMP-2",
}
_DIRECTION_OF: Final = {step: d for d, step in enumerate(STEP)}
_UNDOABLE: Final = frozenset({Phase.TILE, Phase.TURN, Phase.SCORING, Phase.PICK})


def add_worker(workers: dict[int, int], cell: int) -> None:
    """One more worker on ``cell`` in a player's cell -> count map (no checks)."""
    workers[cell] = workers.get(cell, 0) + 1


def remove_worker(workers: dict[int, int], cell: int) -> None:
    """One worker fewer on ``cell``; the cell leaves the map at zero (no checks)."""
    left = workers[cell] - 1
    if left:
        workers[cell] = left
    else:
        del workers[cell]
