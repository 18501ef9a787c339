"""Random legal play for property tests: a seed decides both the game and the moves.

``play`` walks a game from its setup with random legal actions, ending turns
with a small probability so that turns are long enough to dig, recover
treasures, build camps and place guards.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Iterator
from typing import Any

from tikal import END_TURN, Action, EndTurn, Game, Phase

#: Every rule set with every player count it allows.
CONFIGS: list[tuple[str, int]] = [
    ("standard", 2),
    ("standard", 3),
    ("standard", 4),
    ("auction", 2),
    ("auction", 3),
    ("auction", 4),
    ("demo", 2),
]
CONFIG_IDS = [f"{rules}-{players}" for rules, players in CONFIGS]

AP_PHASES = (Phase.TURN, Phase.SCORING)


def choose(game: Game, rng: random.Random, end_chance: float = 0.12) -> Action:
    """A random legal action; in AP phases the turn ends with probability ``end_chance``."""
    actions = game.legal_actions()
    if game.phase in AP_PHASES and len(actions) > 1:
        if rng.random() < end_chance:
            return END_TURN
        actions = [a for a in actions if not isinstance(a, EndTurn)]
    return rng.choice(actions)


def play(rules: str, players: int, seed: int, max_steps: int | None = None) -> Iterator[Game]:
    """Yield the game before every action and once more at the end (the same object)."""
    game = Game.new(rules, players=players, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    steps = 0
    while not game.is_over and (max_steps is None or steps < max_steps):
        yield game
        game.apply(choose(game, rng))
        steps += 1
    yield game


def finished(rules: str, players: int, seed: int, max_steps: int | None = None) -> Game:
    """The game after random play to its end (or ``max_steps`` actions)."""
    return deque(play(rules, players, seed, max_steps), maxlen=1)[0]


def hidden_tokens(game: Game) -> list[int]:
    return game.token_pool + [t for cell in sorted(game.tokens) for t in game.tokens[cell]]


def perturb_hidden(game: Game, rng: random.Random) -> Game:
    """A copy that differs only in hidden parts: stack order within letters, face-down tokens."""
    other = game.clone()
    other.seed = rng.randrange(1 << 30)
    groups: dict[str, list[str]] = {}
    for tile_id in other.stack:
        groups.setdefault(other.rules.tile(tile_id).letter, []).append(tile_id)
    stack: list[str] = []
    for letter in sorted(groups, reverse=True):  # the list's end is the top: A last
        group = groups[letter]
        rng.shuffle(group)
        stack.extend(group)
    other.stack = stack
    tokens = hidden_tokens(other)
    rng.shuffle(tokens)
    i = 0
    for cell in sorted(other.tokens):
        count = len(other.tokens[cell])
        other.tokens[cell] = tuple(tokens[i : i + count])
        i += count
    other.token_pool = tokens[i:]
    return other


def letter_groups(game: Game) -> list[tuple[str, int]]:
    """The stack as (letter, count) runs from the top: public knowledge."""
    runs: list[tuple[str, int]] = []
    for tile_id in reversed(game.stack):
        letter = game.rules.tile(tile_id).letter
        if runs and runs[-1][0] == letter:
            runs[-1] = (letter, runs[-1][1] + 1)
        else:
            runs.append((letter, 1))
    return runs


def state(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game: position, history and scoring events."""
    return game.to_json(), [str(a) for a in game.history], list(game.score_events)


def token_counter(game: Game) -> Counter[int]:
    held = [t for counts in game.treasures for t, n in enumerate(counts) for _ in range(n)]
    return Counter(hidden_tokens(game) + held)
