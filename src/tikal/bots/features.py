"""What the learned evaluation sees of a position: a few dozen numbers per player.

The features are read from public information only [HIDDEN-1]: scores, figures,
guards, camps, temple levels, collected treasures, how many tokens lie on each tile
and how many tiles (and volcanoes) are left.  The order of the stack and the types
of the face-down tokens never enter: the volcano count is over the stack's multiset
and a face-down token is valued by the odds over every hidden token
(:meth:`~tikal.state.GameState.token_outcomes`), which a view has too.  So a game and
every view of it, and two games that differ only in hidden parts, give the same
features (tested).

For player ``q`` the row is ``q``'s own block, the block of the opponent the
hand-made evaluation rates best, the opponents' mean block, then the context (the
rounds ahead, the turn order, the player count and the rule set).  Blocks start from
the hand-made evaluation's terms (:mod:`.evaluate`) because they are already good
estimates; the rest (majorities by temple value, figures in supply, tokens held)
let the model correct them.
"""

from __future__ import annotations

from math import comb
from typing import Final

from ..components import VOLCANO
from ..state import GameState, Phase
from .evaluate import Evaluator, Weights, reach_strengths, weights_for
from .planner.paths import FAR
from .planner.tiles import reach_fields

#: The per-player block, in order.
BLOCK: Final = (
    "score", "treasure_points", "tokens_held", "estimate", "temple_term", "reach_term",
    "guarded_levels", "leading_levels", "tied_levels", "trailing_levels", "margin_levels",
    "workers_on_board", "leader_on_board", "in_supply", "camps", "unused_guards",
    "on_treasure_tiles", "safe_levels", "exposed_levels", "gain_levels", "tokens_near",
    "tokens_in_reach",
)

#: The context, in order.
CONTEXT: Final = (
    "rounds_ahead", "volcanoes_left", "tiles_left", "scoring_phase", "scores_now",
    "turns_until_mine", "moved_last", "players_2", "players_3", "players_4",
    "rules_auction", "rules_demo", "volcano_next", "draws_to_volcano", "draws_volcano",
)

#: Every column of a row, named.
NAMES: Final = (tuple(f"own.{n}" for n in BLOCK) + tuple(f"best.{n}" for n in BLOCK)
                + tuple(f"mean.{n}" for n in BLOCK) + tuple(f"ctx.{n}" for n in CONTEXT))


def blocks(game: GameState, weights: Weights | None = None) -> tuple[list[list[float]],
                                                                     Evaluator]:
    """Every player's block (:data:`BLOCK`) and the evaluator that gave its terms."""
    ev = Evaluator(game, weights or weights_for(game.players))
    n = game.players
    rows = [[0.0] * len(BLOCK) for _ in range(n)]
    base = ev.player_terms(game)
    for q in range(n):
        row = rows[q]
        row[0] = float(game.scores[q])
        row[1] = ev.treasure_value(game.treasures[q], q) / max(1, ev.rounds[q])
        row[2] = float(sum(game.treasures[q]))
        row[3] = base[q]
        row[11] = float(sum(game.workers[q].values()))
        row[12] = float(game.leader[q] >= 0)
        row[13] = float(game.supply[q])
        row[15] = float(game.rules.guards_max - game.guards_of(q))
    for owner in game.camps.values():
        rows[owner][14] += 1.0
    for cell in game.levels:
        _temple(game, ev, cell, rows)
    fields = reach_fields(game)
    for cell, tokens in game.tokens.items():
        if tokens:
            terms = ev.cell_terms(game, cell) or [0.0] * n
            for q in range(n):
                rows[q][3] += terms[q]
                rows[q][5] += terms[q]
                rows[q][16] += game.figures_on(q, cell)
                ap = fields[q].get(cell, FAR)
                rows[q][20] += len(tokens) * (ap <= 3)
                rows[q][21] += len(tokens) * (ap <= game.rules.action_points)
    _contests(game, rows)
    return rows, ev


def _contests(game: GameState, rows: list[list[float]]) -> None:
    """Temple levels by what one turn can change (:func:`~.evaluate.reach_strengths`): a
    lead nobody can draw level with in one turn (safe), one somebody can (exposed), and a
    temple one does not lead but could in one turn of one's own (gain)."""
    n = game.players
    for cell, reach in reach_strengths(game).items():
        level = float(game.levels[cell])
        now = [game.strength(q, cell) for q in range(n)]
        for q in range(n):
            other_now = max(s for o, s in enumerate(now) if o != q)
            if now[q] > other_now:
                other_reach = max(s for o, s in enumerate(reach) if o != q)
                rows[q][17 if now[q] > other_reach else 18] += level
            elif reach[q] > other_now:
                rows[q][19] += level


def _temple(game: GameState, ev: Evaluator, cell: int, rows: list[list[float]]) -> None:
    """Add one temple's terms: the evaluation's, and its level by who holds the majority."""
    level = float(game.levels[cell])
    terms = ev.cell_terms(game, cell) or [0.0] * game.players
    for q, term in enumerate(terms):
        rows[q][3] += term
        rows[q][4] += term
    guard = game.guards.get(cell)
    if guard is not None:
        rows[guard[0]][6] += level
        return
    strengths = [game.strength(q, cell) for q in range(game.players)]
    top = max(strengths)
    if not top:
        return
    leaders = strengths.count(top)
    second = sorted(strengths)[-2]
    for q, s in enumerate(strengths):
        if not s:
            continue
        margin = s - (second if s == top else top)
        column = 7 if margin > 0 else 8 if leaders > 1 and s == top else 9
        rows[q][column] += level
        rows[q][10] += level * max(-3, min(3, margin))


def context(game: GameState, ev: Evaluator, q: int, volcanoes: int,
            odds: tuple[float, float, list[float]]) -> list[float]:
    """The columns of :data:`CONTEXT` for player ``q``."""
    n = game.players
    order = game.scoring_queue if game.phase is Phase.SCORING else []
    turns_until = (q - game.current) % n
    previous = (game.current - 1) % n
    return [
        float(ev.rounds[q]), float(volcanoes), float(len(game.stack) + len(game.display)),
        float(game.phase is Phase.SCORING), float(q in order),
        turns_until / n, float(q == previous and game.phase is not Phase.SCORING),
        float(n == 2), float(n == 3), float(n == 4),
        float(game.rules.auction), float(game.rules.name == "demo"),
        odds[0], odds[1], odds[2][q],
    ]


def volcano_odds(game: GameState) -> tuple[float, float, list[float]]:
    """When the next scoring round comes [SCORE-1], from the stack's letters and kinds
    (public: each letter's tiles are shuffled, [SETUP-1], [HIDDEN-1]): the chance the next
    tile drawn is a volcano, the expected draws before the next volcano (every tile left
    when none is), and each player's chance to draw it (turns go round the table; the
    auction's display is public, so there a volcano on it counts as next)."""
    n = game.players
    tile = game.rules.tile
    if game.rules.auction:
        shown = any(tile(t).kind == VOLCANO for t in game.display)
        return float(shown), 0.0 if shown else float(len(game.stack)), [0.0] * n
    groups: list[list[int]] = []  # [tiles, volcanoes] per letter, in drawing order
    letter = None
    for tile_id in reversed(game.stack):  # the top of the stack is its end
        spec = tile(tile_id)
        if spec.letter != letter:
            groups.append([0, 0])
            letter = spec.letter
        groups[-1][0] += 1
        groups[-1][1] += spec.kind == VOLCANO
    before = 0
    chances: dict[int, float] = {}
    for size, found in groups:
        if found:  # the first volcano's place among this letter's tiles
            ways = comb(size, found)
            chances = {before + j: comb(size - j - 1, found - 1) / ways
                       for j in range(size - found + 1)}
            break
        before += size
    if not chances:
        return 0.0, float(len(game.stack)), [0.0] * n
    drawer = [0.0] * n
    for k, chance in chances.items():
        drawer[(game.current + 1 + k) % n] += chance
    return (chances.get(0, 0.0), sum(k * c for k, c in chances.items()), drawer)


def volcanoes_left(game: GameState) -> int:
    """Volcanoes still to come (stack and display): a multiset, public [HIDDEN-1]."""
    tile = game.rules.tile
    return (sum(1 for t in game.stack if tile(t).kind == VOLCANO)
            + sum(1 for t in game.display if tile(t).kind == VOLCANO))


def rows_of(game: GameState, weights: Weights | None = None) -> list[list[float]]:
    """One feature row (:data:`NAMES`) per player."""
    own, ev = blocks(game, weights)
    n = game.players
    volcanoes = volcanoes_left(game)
    odds = volcano_odds(game)
    out = []
    for q in range(n):
        others = [p for p in range(n) if p != q]
        best = max(others, key=lambda p: (own[p][3], -p))
        mean = [sum(own[p][i] for p in others) / len(others) for i in range(len(BLOCK))]
        out.append(own[q] + own[best] + mean + context(game, ev, q, volcanoes, odds))
    return out
