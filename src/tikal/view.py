"""Player views [HIDDEN-1] and determinization for bots.

A :class:`View` wraps a *redacted* copy of the game: the stack is put in a
canonical order within each letter group and the face-down treasure tokens are
dealt out again in sorted order.  What remains is exactly the public
information, so two games that differ only in hidden parts give equal views.
Bots sample a full game consistent with the view with :meth:`View.determinize`.
"""

from __future__ import annotations

import random
from typing import Any

from .actions import Action
from .position import position_to_json, stack_letters
from .state import GameState, Phase


def _hidden_tokens(game: GameState) -> list[int]:
    return game.token_pool + [t for cell in sorted(game.tokens) for t in game.tokens[cell]]


def _deal_tokens(game: GameState, tokens: list[int]) -> None:
    """Put ``tokens`` back on the tiles (same counts per tile), the rest in the pool."""
    i = 0
    for cell in sorted(game.tokens):
        count = len(game.tokens[cell])
        game.tokens[cell] = tuple(tokens[i : i + count])
        i += count
    game.token_pool = tokens[i:]


def _canonical_stack(game: GameState) -> list[str]:
    """The stack in a canonical order: by letter group (the order they come in), then
    by tile id."""
    return [tile_id for _, tile_id in sorted(
        zip(stack_letters(game), game.stack, strict=True), reverse=True)]


def _redact(game: GameState) -> GameState:
    public = game.clone()
    public.seed = None
    public.forget_undo()
    public.stack = _canonical_stack(public)
    _deal_tokens(public, sorted(_hidden_tokens(public)))
    return public


class View:
    """Everything one player (or a spectator, ``player=None``) may know."""

    __slots__ = ("player", "state")

    def __init__(self, player: int | None, state: GameState) -> None:
        self.player = player
        #: A redacted game: its hidden parts are in canonical order, not the real one.
        self.state = state

    @classmethod
    def of(cls, game: GameState, player: int | None = None) -> View:
        if player is not None and not 0 <= player < game.players:
            raise ValueError(f"no seat {player} in a {game.players}-player game")
        return cls(player, _redact(game))

    @property
    def current_player(self) -> int:
        return self.state.current

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def is_my_turn(self) -> bool:
        return self.player == self.state.current and not self.state.is_over

    def legal_actions(self) -> list[Action]:
        """Legal actions are public knowledge: they never depend on hidden parts."""
        return self.state.legal_actions()

    def determinize(self, rng: random.Random | int | None = None) -> GameState:
        """A full game consistent with this view: hidden parts shuffled at random."""
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        game = self.state.clone()
        game.undo_enabled = False
        by_letter: dict[str, list[str]] = {}
        for tile_id in game.stack:
            by_letter.setdefault(game.rules.tile(tile_id).letter, []).append(tile_id)
        stack: list[str] = []
        for letter in sorted(by_letter, reverse=True):
            group = by_letter[letter]
            rng.shuffle(group)
            stack.extend(group)
        game.stack = stack
        tokens = _hidden_tokens(game)
        rng.shuffle(tokens)
        _deal_tokens(game, tokens)
        return game

    def position_json(self) -> dict[str, Any]:
        """The public position and who views it: :meth:`to_json` without the history,
        the scoring events and the legal actions (the web server sends those apart, and
        writing them was 60% of ``to_json``'s time, every move)."""
        data = position_to_json(self.state, public=True)
        data["viewer"] = self.player
        return data

    def to_json(self) -> dict[str, Any]:
        """The public position plus history, scoring events and legal actions."""
        data = self.position_json()
        data["history"] = [str(a) for a in self.state.history]
        data["score_events"] = [e.to_json() for e in self.state.score_events]
        data["legal"] = [str(a) for a in self.state.legal_actions()]
        return data
