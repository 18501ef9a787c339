"""Seeded bot games play exactly as recorded (tests/fixtures/records): the rules core,
the move generator and the bots' planner choose and apply the same actions, with the
same chance outcomes, as when the files were written."""

from __future__ import annotations

import pytest

from record_fixtures import GAMES, BotGame, dump, path_of, play
from tikal import Game


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_a_seeded_bot_game_gives_the_recorded_record(spec: BotGame) -> None:
    record = play(spec)
    assert dump(record) == path_of(spec).read_text(encoding="utf-8")
    replayed = Game.from_record(record)
    assert replayed.is_over and replayed.record() == record
