"""Observations: one float32 vector per agent, built only from that agent's view [HIDDEN-1].

The vector is ``planes`` (``PLANES x height x width``, the board on the rule set's
window grid, see :mod:`tikal.rl.window`) followed by ``globals`` (phase, action points,
each seat's supplies, treasures and score, the tile to place, the stack's letter counts,
the auction).  Seats are relative to the observer: seat slot 0 is always "me", slot 1 the
next seat clockwise, so one policy serves every seat.  ``layout(rules)`` names every
entry; docs/rl.md has the table.

Tiles never change once placed, so an :class:`Encoder` keeps the tile planes of the
game it follows and adds new tiles only (call :meth:`Encoder.reset` for a new game).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt

from ..components import KINDS, RuleSet, TileSpec, rule_set
from ..state import GUARDING, OUT, SUPPLY, GameState, Phase
from ..view import View
from .window import window

Obs = npt.NDArray[np.float32]

PHASES: Final = tuple(Phase)
#: The board planes that do not depend on seats, then four planes per seat slot.
TILE_PLANES: Final = ("space", "tile", *(f"kind:{k}" for k in KINDS),
                      *(f"stones:{d}" for d in range(6)))
STATE_PLANES: Final = ("level", "tokens", "dug", "taken", "open")
SEAT_PLANES: Final = ("workers", "leader", "camp", "guard")
#: Every observation value lies in [0, HIGH] (scores / 100 stay below 9: see max_score).
HIGH: Final = 10.0


@dataclass(frozen=True, slots=True)
class Layout:
    """Sizes and offsets of one rule set's observation."""

    seats: int
    height: int
    width: int
    planes: tuple[str, ...]
    globals: tuple[str, ...]

    @property
    def cells(self) -> int:
        return self.height * self.width

    @property
    def board_size(self) -> int:
        return len(self.planes) * self.cells

    @property
    def size(self) -> int:
        return self.board_size + len(self.globals)

    def plane(self, name: str) -> int:
        return self.planes.index(name)

    def split(self, obs: Obs) -> tuple[Obs, Obs]:
        """The board as ``(planes, height, width)`` and the globals vector."""
        board = obs[: self.board_size].reshape(len(self.planes), self.height, self.width)
        return board, obs[self.board_size :]


def _seat_globals(rs: RuleSet) -> list[str]:
    names = ["present", "score", "supply", "leader:supply", "leader:board", "leader:out",
             "leader:guarding", "out"]
    names += [f"treasure:{t}" for t in range(rs.token_types)]
    names += ["marker", "bids_paid", "passed", "bidding", "high_bidder", "current"]
    return names


@cache
def layout(rules: str) -> Layout:
    """The observation layout of a rule set (the same for every player count)."""
    rs = rule_set(rules)
    seats = max(rs.player_counts)
    planes = (*TILE_PLANES, *STATE_PLANES,
              *(f"{name}:{k}" for name in SEAT_PLANES for k in range(seats)))
    names = [f"phase:{p.value}" for p in PHASES] + ["ap"]
    names += [f"me:{s}" for s in range(seats)]
    names += [f"seat{k}:{n}" for k in range(seats) for n in _seat_globals(rs)]
    names += ["drawn", *(f"drawn:{k}" for k in KINDS), *(f"drawn:stones:{d}" for d in range(6)),
              "drawn:value", "drawn:masks"]
    names += [f"stack:{letter}" for letter in rs.letters]
    names += [f"display:{spec.tile_id}" for spec in rs.terrain] if rs.auction else []
    names += [f"level_supply:{v}" for v in range(len(rs.level_supply))]
    names += ["token_pool", "high_bid", "scoring_final", "volcano_pending", "scoring_rounds",
              "tiles_placed", "discarded"]
    win = window(rules)
    return Layout(seats, win.height, win.width, planes, tuple(names))


@cache
def _tile_features(spec: TileSpec, rotation: int) -> tuple[float, ...]:
    """Planes ``tile`` .. ``stones:5`` of one placed tile."""
    from ..hexes import rotate

    kinds = tuple(1.0 if spec.kind == k else 0.0 for k in KINDS)
    stones = tuple(s / 3 for s in rotate(spec.stones, rotation))
    return (1.0, *kinds, *stones)


class Encoder:
    """Builds observations of one game stream; keeps the planes of placed tiles."""

    def __init__(self, rules: str) -> None:
        self.rs = rule_set(rules)
        self.layout = layout(rules)
        self.grid = window(rules).grid_index
        lay = self.layout
        self._index = {name: i for i, name in enumerate(lay.globals)}
        self._seat_base = [self._index[f"seat{k}:present"] for k in range(lay.seats)]
        self._seat_width = len(_seat_globals(self.rs))
        self._letters = {letter: self._index[f"stack:{letter}"] for letter in self.rs.letters}
        self._display = {spec.tile_id: self._index.get(f"display:{spec.tile_id}", -1)
                         for spec in self.rs.terrain}
        self._phase = {p: self._index[f"phase:{p.value}"] for p in PHASES}
        self._me, self._ap = self._index["me:0"], self._index["ap"]
        self._level_supply = self._index["level_supply:0"]
        self._tail = self._index["token_pool"]
        self._split, self._size = lay.board_size, lay.size
        self._at = {name: {c: k * lay.cells + gi for c, gi in self.grid.items()}
                    for k, name in enumerate(lay.planes)}
        self._static = np.zeros(lay.board_size, dtype=np.float32)
        for gi in self.grid.values():
            self._static[gi] = 1.0  # plane "space"
        self.reset()

    def reset(self) -> None:
        """Forget the tiles of the previous game."""
        self._board = self._static.copy()
        self._known: set[int] = set()

    def _add_tiles(self, state: GameState) -> None:
        cells, board, known = self.layout.cells, self._board, self._known
        if len(state.tiles) == len(known):
            return  # tiles are only ever added
        for c, placed in state.tiles.items():
            if c in known:
                continue
            known.add(c)
            gi = self.grid[c]
            for k, value in enumerate(_tile_features(placed.spec, placed.rotation), start=1):
                board[k * cells + gi] = value

    def encode(self, view: View) -> Obs:
        """The observation of ``view.player`` (a seat, not a spectator)."""
        state = view.state
        me = view.player
        assert me is not None, "observations are for seats"
        if len(state.tiles) < len(self._known):
            self.reset()
        self._add_tiles(state)
        split = self._split
        obs = np.empty(self._size, dtype=np.float32)
        obs[:split] = self._board
        idx: list[int] = []
        val: list[float] = []
        self._board_state(state, me, idx, val)
        if idx:
            obs[idx] = val
        obs[split:] = self._globals(state, me)
        return obs

    def _board_state(self, state: GameState, me: int, idx: list[int], val: list[float]) -> None:
        """Levels, face-down token counts, this turn's digs and takes, open spaces, figures."""
        at = self._at  # plane -> space -> index in the observation
        for plane, values, scale in (("level", state.levels, 10), ("dug", state.dug, 2),
                                     ("taken", state.taken, 2)):
            if values:
                where = at[plane]
                idx.extend([where[c] for c in values])
                val.extend([v / scale for v in values.values()])
        where = at["tokens"]
        idx.extend([where[c] for c in state.tokens])
        val.extend([len(t) / 4 for t in state.tokens.values()])
        where = at["open"]
        idx.extend([where[c] for c in state.frontier])
        val.extend([1.0] * len(state.frontier))
        players = state.players
        for p in range(players):
            k = (p - me) % players
            where = at[f"workers:{k}"]
            workers = state.workers[p]
            idx.extend([where[c] for c in workers])
            val.extend([n / 5 for n in workers.values()])
            if state.leader[p] >= 0:
                idx.append(at[f"leader:{k}"][state.leader[p]])
                val.append(1.0)
        for c, owner in state.camps.items():
            idx.append(at[f"camp:{(owner - me) % players}"][c])
            val.append(1.0)
        for c, (owner, _) in state.guards.items():
            idx.append(at[f"guard:{(owner - me) % players}"][c])
            val.append(1.0)

    def _globals(self, state: GameState, me: int) -> list[float]:
        """The globals vector, as a list (one conversion to numpy for all of it)."""
        at, rs = self._index, self.rs
        g = [0.0] * len(self.layout.globals)
        g[self._phase[state.phase]] = 1.0
        g[self._me + me] = 1.0
        players = state.players
        for p in range(players):
            self._seat(state, p, self._seat_base[(p - me) % players], g)
        if state.drawn is not None:
            spec = rs.tile(state.drawn)
            g[at["drawn"]] = g[at[f"drawn:{spec.kind}"]] = 1.0
            stones = at["drawn:stones:0"]
            for d, count in enumerate(spec.stones):
                g[stones + d] = count / 3
            g[at["drawn:value"]], g[at["drawn:masks"]] = spec.value / 10, spec.masks / 4
        letters = self._letters
        for tile_id in state.stack:
            g[letters[tile_id[0]]] += 0.1
        for tile_id in state.display:
            g[self._display[tile_id]] = 1.0
        supply = state.level_supply
        g[self._level_supply : self._level_supply + len(supply)] = [n / 11 for n in supply]
        terrain = len(rs.terrain)
        g[self._tail:] = [
            len(state.token_pool) / 24, max(state.high_bid, 0) / 100, float(state.scoring_final),
            float(state.phase is Phase.SCORING and not state.scoring_final),
            state.scoring_rounds / 4, state.tiles_placed / terrain, len(state.discarded) / terrain,
        ]
        g[self._ap] = state.ap / rs.action_points
        return g

    def _seat(self, state: GameState, p: int, base: int, g: list[float]) -> None:
        """The globals of seat ``p`` from ``base`` on."""
        lead = state.leader[p]
        place = 0 if lead == SUPPLY else 2 if lead == OUT else 3 if lead == GUARDING else 1
        workers = self.rs.workers
        values = [1.0, state.scores[p] / 100, state.supply[p] / workers, 0.0, 0.0, 0.0,
                  0.0, state.out[p] / workers]
        values[3 + place] = 1.0
        values += [n / 3 for n in state.treasures[p]]
        values += [float(state.markers[p]), state.bids_paid[p] / 100, float(p in state.passed),
                   float(p in state.bid_order), float(state.high_bidder == p),
                   float(state.current == p)]
        g[base : base + len(values)] = values


__all__ = ["HIGH", "Encoder", "Layout", "Obs", "layout"]
