"""Random playouts: whole games where every choice is uniform among the legal actions.

This is the logic behind ``tikal simulate``; it does no I/O, so it can be used
from tests, notebooks and other tools::

    >>> from tikal.simulate import play_random, simulate, summarize
    >>> result = play_random("demo", players=2, seed=1)
    >>> result.tiles_placed + result.tiles_discarded
    14
    >>> summary = summarize(simulate("demo", players=2, games=3, seed=0))
    >>> summary.games
    3

Game ``i`` of a run with seed ``S`` is set up with ``Game.new(..., seed=game_seed(S, i))``
and its choices are drawn from an RNG seeded from the same pair, so every game
of a run can be reproduced on its own with :func:`play_random`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from .actions import Action
from .components import rule_set
from .game import Game
from .loop import Chooser, Unfinished, play_game

#: A random game that has not ended after this many actions is reported as an error.
MAX_ACTIONS = 100_000


def _derive(seed: int, index: int, purpose: str) -> int:
    digest = hashlib.sha256(f"tikal-simulate:{purpose}:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The setup seed of game ``index`` of a run seeded ``seed`` (a 63-bit integer)."""
    return _derive(seed, index, "setup")


def choice_rng(seed: int, index: int) -> random.Random:
    """The RNG that picks the actions of game ``index`` of a run seeded ``seed``."""
    return random.Random(_derive(seed, index, "choices"))


def default_players(rules: str) -> int:
    """The largest player count the rule set allows (4 for standard/auction, 2 for demo)."""
    return max(rule_set(rules).player_counts)


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of one random playout."""

    rules: str
    players: int
    seed: int  # the Game.new seed: ``play_random(rules, players, seed)`` plays it again
    scores: list[int]
    winners: list[int]
    tiles_placed: int
    tiles_discarded: int
    scoring_rounds: int
    actions: int  # player actions (chance entries such as *draw are not counted)
    index: int = 0
    run_seed: int | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def uniform_chooser(rng: random.Random) -> Chooser[Game]:
    """Picks uniformly among the legal actions; stops the game when there are none."""
    choice = rng.choice

    def choose(game: Game) -> Action:
        legal = game.legal_actions()
        if not legal:
            raise Unfinished(f"no legal action in phase {game.phase.value}")
        return choice(legal)

    return choose


def _count(played: list[int], game: Game, action: Action) -> None:
    played[0] += 1


def play_random(
    rules: str = "standard",
    players: int = 4,
    seed: int = 0,
    rng: random.Random | None = None,
    max_actions: int = MAX_ACTIONS,
    keep: Callable[[Game], None] | None = None,
) -> GameResult:
    """Play one game to its end choosing uniformly among ``game.legal_actions()``.

    ``rng`` defaults to ``random.Random(seed)``.  An exception inside the engine
    (or a game that does not end within ``max_actions``) does not propagate: it
    is reported in :attr:`GameResult.error`.  ``keep`` is called with the final
    game (e.g. to save its record).
    """
    if rng is None:
        rng = random.Random(seed)
    game = Game.new(rules, players, seed=seed)
    game.undo_enabled = False  # undo snapshots are for people; playouts never take back
    played = [0]  # actions applied so far, also when the engine fails mid-game
    error: str | None = None
    try:
        play_game(game, uniform_chooser(rng), on_action=partial(_count, played),
                  max_actions=max_actions)
    except Unfinished as exc:
        error = str(exc)
    except Exception as exc:  # an engine bug: report it, keep simulating
        error = f"{type(exc).__name__} after {played[0]} actions: {exc}"
    if keep is not None:
        keep(game)
    return GameResult(
        rules=rules,
        players=players,
        seed=seed,
        scores=list(game.scores),
        winners=game.winners,
        tiles_placed=game.tiles_placed,
        tiles_discarded=game.tiles_discarded,
        scoring_rounds=game.scoring_rounds,
        actions=played[0],
        error=error,
    )


def simulate(
    rules: str = "standard",
    players: int | None = None,
    games: int = 100,
    seed: int = 0,
    keep: Callable[[int, Game], None] | None = None,
) -> Iterator[GameResult]:
    """Yield the results of ``games`` random playouts, game ``i`` seeded from ``(seed, i)``.

    ``keep(i, game)`` is called with every finished game.
    """
    rs = rule_set(rules)
    n = default_players(rules) if players is None else players
    if n not in rs.player_counts:
        counts = ", ".join(map(str, rs.player_counts))
        raise ValueError(f"the {rules} rule set is for {counts} players, not {n}")
    if games < 0:
        raise ValueError("the number of games must be >= 0")
    for i in range(games):
        hook = None if keep is None else partial(keep, i)
        result = play_random(rules, n, game_seed(seed, i), choice_rng(seed, i), keep=hook)
        yield GameResult(**{**asdict(result), "index": i, "run_seed": seed})


@dataclass(slots=True)
class Summary:
    """Totals over many playouts; win shares split ties evenly, so they add up to 1."""

    rules: str
    players: int
    games: int = 0
    errors: int = 0
    score_sums: list[int] = field(default_factory=list)
    win_shares: list[float] = field(default_factory=list)
    ties: int = 0
    actions: int = 0
    tiles_placed: int = 0
    tiles_discarded: int = 0
    scoring_rounds: int = 0

    def add(self, result: GameResult) -> None:
        if not self.score_sums:
            self.score_sums = [0] * self.players
            self.win_shares = [0.0] * self.players
        if result.error is not None:
            self.errors += 1
            return
        self.games += 1
        for p, score in enumerate(result.scores):
            self.score_sums[p] += score
        for p in result.winners:
            self.win_shares[p] += 1 / len(result.winners)
        self.ties += len(result.winners) > 1
        self.actions += result.actions
        self.tiles_placed += result.tiles_placed
        self.tiles_discarded += result.tiles_discarded
        self.scoring_rounds += result.scoring_rounds

    def _mean(self, total: float) -> float:
        return total / self.games if self.games else 0.0

    @property
    def mean_scores(self) -> list[float]:
        return [self._mean(s) for s in self.score_sums or [0] * self.players]

    @property
    def win_share(self) -> list[float]:
        return [self._mean(w) for w in self.win_shares or [0.0] * self.players]

    @property
    def mean_actions(self) -> float:
        return self._mean(self.actions)

    def to_json(self) -> dict[str, Any]:
        """Finished games only; ``errors`` counts the games that failed."""
        return {
            "summary": True,
            "rules": self.rules,
            "players": self.players,
            "games": self.games + self.errors,
            "completed": self.games,
            "errors": self.errors,
            "mean_scores": [round(s, 3) for s in self.mean_scores],
            "win_share": [round(w, 4) for w in self.win_share],
            "ties": self.ties,
            "mean_actions": round(self.mean_actions, 2),
            "mean_tiles_placed": round(self._mean(self.tiles_placed), 3),
            "mean_tiles_discarded": round(self._mean(self.tiles_discarded), 3),
            "mean_scoring_rounds": round(self._mean(self.scoring_rounds), 3),
        }


def summarize(
    results: Iterable[GameResult], rules: str | None = None, players: int | None = None
) -> Summary:
    """Add up ``results`` (all of one rule set and player count)."""
    summary: Summary | None = None
    if rules is not None:
        summary = Summary(rules, players if players is not None else default_players(rules))
    for result in results:
        if summary is None:
            summary = Summary(result.rules, result.players)
        summary.add(result)
    if summary is None:
        raise ValueError("no results and no rule set to summarize")
    return summary
