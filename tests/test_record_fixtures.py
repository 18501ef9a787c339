"""Seeded bot games play exactly as recorded (tests/fixtures/records): the rules core,
the move generator and the bots' planner choose and apply the same actions, with the
same chance outcomes, as when the files were written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from record_fixtures import GAMES, BotGame, dump, path_of, play
from tikal import Game

LEGACY = Path(__file__).parent / "fixtures" / "legacy"


@pytest.mark.parametrize("spec", GAMES, ids=[g.name for g in GAMES])
def test_a_seeded_bot_game_gives_the_recorded_record(spec: BotGame) -> None:
    record = play(spec)
    assert dump(record) == path_of(spec).read_text(encoding="utf-8")
    replayed = Game.from_record(record)
    assert replayed.is_over and replayed.record() == record


def test_a_demo_record_with_axial_names_replays_to_todays_record() -> None:
    """tests/fixtures/legacy holds the demo fixture as written before the spiral numbers
    (spaces ``q,r``, issue 32): it replays, and written again it is today's fixture, the
    numbers being the only change."""
    spec = next(g for g in GAMES if g.name == "demo-2p-greedy-random-3")
    legacy = json.loads((LEGACY / f"{spec.name}-axial.json").read_text(encoding="utf-8"))
    today = json.loads(path_of(spec).read_text(encoding="utf-8"))
    assert any("," in entry for entry in legacy["log"])
    assert Game.from_record(legacy).record() == today
    assert {k: v for k, v in legacy.items() if k != "log"} == {
        k: v for k, v in today.items() if k != "log"}
