"""The rules core's trial methods (with_figure, with_level_raised, with_token_taken), through
which the planner looks at changed positions: ``look`` sees the change, and the position
comes back exactly, the order of the figure maps included (the moves offered follow it)."""

from __future__ import annotations

import pytest

from positions import Position
from random_games import finished
from tikal import Game
from tikal.hexes import parse_label
from tikal.state import LIFTED


def snapshot(game: Game) -> tuple[object, ...]:
    return (game.to_json(), [list(w.items()) for w in game.workers], list(game.leader),
            game.legal_actions())


def board() -> Game:
    pos = Position("standard", players=2)
    pos.level("A4", 6)
    pos.figures(0, workers={"A5": 1, "A4": 2}, leader="A5")
    pos.figures(1, workers={"A4": 1})
    return pos.game()


A4, A5 = parse_label("A4"), parse_label("A5")


@pytest.mark.parametrize(("cell", "leader", "change"), [
    (A4, False, 1), (A5, False, -1), (A4, True, 1), (A5, True, -1), (A4, False, -1),
])
def test_with_figure_shows_the_change_and_puts_everything_back(
    cell: int, leader: bool, change: int
) -> None:
    game = board()
    before = snapshot(game)
    strength = game.strength(0, cell)

    def look(g: Game, at: int) -> tuple[int, int]:
        return g.strength(0, at), g.leader[0]

    seen, lead = game.with_figure(0, cell, leader, change, look)
    assert seen == strength + change * (3 if leader else 1)
    if leader:
        assert lead == (cell if change > 0 else LIFTED)
    assert snapshot(game) == before


def test_the_last_worker_lifted_keeps_its_place_in_the_map() -> None:
    game = board()
    order = list(game.workers[0])
    assert order.index(A5) < order.index(A4)
    assert game.with_figure(0, A5, False, -1, lambda g, at: g.figures_on(0, at)) == 1  # leader
    assert list(game.workers[0]) == order


def test_a_level_or_a_token_trial_shows_it_and_puts_everything_back() -> None:
    game = board()
    before = snapshot(game)
    assert game.with_level_raised(A4, lambda g, at: g.levels[at]) == 7
    assert snapshot(game) == before
    game = finished("standard", 2, seed=4, max_steps=60)
    cell = next(c for c, tokens in game.tokens.items() if tokens)
    before, left = snapshot(game), game.tokens[cell]
    seen = game.with_token_taken(cell, lambda g, at: (g.tokens[at], g.token_outcomes()))
    assert seen[0] == left[:-1]
    assert sum(o.probability for o in seen[1]) == 1
    assert snapshot(game) == before


def test_trials_put_everything_back_when_look_raises() -> None:
    game = board()
    before = snapshot(game)

    def fail(g: Game, at: int) -> None:
        raise RuntimeError("look failed")

    for trial in (lambda: game.with_level_raised(A4, fail),
                  lambda: game.with_figure(0, A4, True, 1, fail),
                  lambda: game.with_figure(0, A4, False, 1, fail),
                  lambda: game.with_figure(0, A4, False, -1, fail)):
        with pytest.raises(RuntimeError):
            trial()
        assert snapshot(game) == before
