"""Recorded bot games: seeded games of every rule set played by the bots, as records.

The files in ``tests/fixtures/records/`` are what the engine and the bots did at the
time they were written; ``test_record_fixtures.py`` plays every game again and compares
the record byte for byte.  A refactor of the rules core, the move generator or the
bots' planner that changes nothing must leave them equal; a deliberate change of play
regenerates them (``python tests/record_fixtures.py``) and says why in its commit.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tikal import Game
from tikal.bots import make_bot

FIXTURES = Path(__file__).parent / "fixtures" / "records"


@dataclass(frozen=True)
class BotGame:
    """One seeded game: rule set, seed and the bot level of each seat."""

    rules: str
    seed: int
    bots: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.rules}-{len(self.bots)}p-{'-'.join(self.bots)}-{self.seed}"


#: mcts runs on a fixed number of simulations (``iterations``), never on time.
GAMES = (
    BotGame("demo", 3, ("greedy", "random")),
    BotGame("demo", 4, ("mcts", "greedy")),
    BotGame("standard", 5, ("greedy", "easy")),
    BotGame("standard", 6, ("greedy", "random", "easy")),
    BotGame("standard", 7, ("greedy", "easy", "greedy", "random")),
    BotGame("standard", 8, ("mcts", "greedy")),
    BotGame("auction", 9, ("greedy", "random")),
    BotGame("auction", 10, ("greedy", "easy", "random", "greedy")),
)
MCTS_ITERATIONS = 12


def play(spec: BotGame) -> dict[str, Any]:
    """Play ``spec`` to its end; the record (seed kept)."""
    players = len(spec.bots)
    game = Game.new(spec.rules, players=players, seed=spec.seed)
    bots = [
        make_bot(level, seed=spec.seed * 10 + p, players=players,
                 **({"iterations": MCTS_ITERATIONS} if level == "mcts" else {}))
        for p, level in enumerate(spec.bots)
    ]
    while not game.is_over:
        game.apply(bots[game.current].choose(game.view(game.current)))
    return game.record()


def path_of(spec: BotGame) -> Path:
    return FIXTURES / f"{spec.name}.json"


def dump(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for spec in GAMES:
        path_of(spec).write_text(dump(play(spec)), encoding="utf-8")
        print(f"wrote {path_of(spec)}")


if __name__ == "__main__":
    main()
