"""The bots as rated players (issue 28 point 3): calibration by games between the levels
(``tikal.server.rating.calibrate``), the stored ratings (``tikal ratings``) and what the bot
list shows (``tikal.server.rating.bots.bot_ratings``).

The games are demo games between random, easy and medium: in the arena easy wins every demo
game against random (100 of 100, seed 0) and medium 86 of 100 against easy, so the order
of their ratings is known."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from test_i18n_web import leftovers
from tikal.bots.arena import GameResult, GameTask, ProcessExecutor, play_task
from tikal.cli import app
from tikal.messages import text
from tikal.server.bots import bot_names
from tikal.server.rating import Rating, display, initial, rated_rule_sets
from tikal.server.rating import calibrate as calibration
from tikal.server.rating.bots import bot_ratings
from tikal.server.rating.calibrate import calibrate, round_robin, schedule, seat_counts
from tikal.server.rating.store import RatingStore, bot_player
from tikal.server.store import open_storage

LEVELS = ["random", "easy", "medium"]
runner = CliRunner()


def run(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"TIKAL_LANG": "", "LANG": "C.UTF-8"})


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RatingStore]:
    storage = open_storage(tmp_path / "ratings.sqlite3")
    yield RatingStore(storage)
    storage.close()


# ---------------------------------------------------------------- the schedule


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_the_round_robin_pairs_every_two_levels_once_each_round_a_level_once(
        count: int) -> None:
    levels = [f"l{n}" for n in range(count)]
    pairs = round_robin(levels)
    assert sorted(tuple(sorted(pair)) for pair in pairs) == list(combinations(levels, 2))
    per_round = count // 2
    for start in range(0, len(pairs), per_round):
        seated = [level for pair in pairs[start:start + per_round] for level in pair]
        assert len(seated) == len(set(seated))


def test_tables_are_rated_counts_with_every_deal_in_all_rotations() -> None:
    levels = ["random", "easy", "medium", "greedy", "hard"]
    assert seat_counts("standard", levels) == (2, 3, 4)
    assert seat_counts("standard", levels[:3]) == (2, 3)
    assert seat_counts("demo", levels) == (2,)
    tasks = schedule(["standard", "demo"], levels, 40, seed=4)
    assert [t.index for t in tasks] == list(range(len(tasks)))
    standard = [t for t in tasks if t.rules == "standard"]
    assert {t.players for t in standard} == {2, 3, 4}
    assert 40 <= len(standard) < 44 and len([t for t in tasks if t.rules == "demo"]) == 40
    by_deal: dict[int, list[GameTask]] = {}
    for task in tasks:
        by_deal.setdefault(task.seed, []).append(task)
    for games in by_deal.values():
        seats = [tuple(spec.label for spec in t.seats) for t in games]
        assert len(seats) == games[0].players == len(set(seats[0]))
        for seat in range(games[0].players):  # every level sits in every seat once
            assert sorted(s[seat] for s in seats) == sorted(seats[0])
    played = Counter(spec.label for t in standard for spec in t.seats)
    assert max(played.values()) - min(played.values()) <= 4  # one table's worth


def test_the_schedule_is_the_seeds_and_refuses_what_cannot_be_rated() -> None:
    assert schedule(["demo"], LEVELS, 12, seed=1) == schedule(["demo"], LEVELS, 12, seed=1)
    assert schedule(["demo"], LEVELS, 12, seed=1) != schedule(["demo"], LEVELS, 12, seed=2)
    with pytest.raises(ValueError, match="rated"):
        schedule(["demo", "nonsense"], LEVELS, 4, seed=1)
    with pytest.raises(ValueError, match="distinct"):
        schedule(["demo"], ["easy", "easy"], 4, seed=1)
    with pytest.raises(ValueError, match="two levels"):
        schedule(["demo"], ["easy"], 4, seed=1)


# ---------------------------------------------------------------- the ratings


def test_a_calibration_is_deterministic_for_its_seed() -> None:
    first = calibrate(["demo"], LEVELS, 6, seed=7)
    again = calibrate(["demo"], LEVELS, 6, seed=7)
    assert first.ratings == again.ratings and first.errors == () and first.games == 6
    found = first.ratings["demo"]
    assert list(found) == LEVELS
    assert sum(r.rating.games for r in found.values()) == 2 * 6
    assert all(r.rating != initial() for r in found.values())


@pytest.mark.slow
def test_the_ratings_do_not_depend_on_the_jobs() -> None:
    serial = calibrate(["demo"], LEVELS, 8, seed=3)
    assert calibrate(["demo"], LEVELS, 8, seed=3, executor=ProcessExecutor(2)).ratings == (
        serial.ratings)


@pytest.mark.slow
def test_a_stronger_level_ends_above_a_weaker_one() -> None:
    """30 demo games, 20 a level: measured over seeds 0-5, medium's mean ended 10.3-18.1
    above easy's and easy's 17.5-21.1 above random's (random won none)."""
    found = calibrate(["demo"], LEVELS, 30, seed=0).ratings["demo"]
    mu = {level: found[level].rating.mu for level in LEVELS}
    assert mu["medium"] > mu["easy"] + 5 > mu["random"] + 15
    shown = {level: display(found[level].rating) for level in LEVELS}
    assert shown["medium"] > shown["easy"] + 150 > shown["random"] + 450
    assert found["random"].wins == 0 and found["medium"].wins > found["easy"].wins


def test_a_failed_game_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(task: GameTask) -> GameResult:
        result = play_task(task)
        return replace(result, error="boom") if task.index == 0 else result

    monkeypatch.setattr(calibration, "play_task", failing)
    found = calibrate(["demo"], ["random", "easy"], 4, seed=1)
    assert found.errors == ("game 0 (demo): boom",)
    assert sum(r.rating.games for r in found.ratings["demo"].values()) == 2 * 3


# ---------------------------------------------------------------- stored and shown


def stored(db: Path, rules: str, level: str) -> tuple[Rating, int]:
    storage = open_storage(db)
    try:
        standing = RatingStore(storage).standings_of(bot_player(level))[rules]
        return standing.rating, standing.wins
    finally:
        storage.close()


def test_tikal_ratings_calibrate_writes_and_show_prints_them(tmp_path: Path) -> None:
    db = tmp_path / "tikal.sqlite3"
    args = ("--rules", "demo", "--levels", "random,easy", "--games", "6", "--seed", "2")
    done = run("ratings", "calibrate", "--db", str(db), *args)
    assert done.exit_code == 0, done.output
    expected = calibrate(["demo"], ["random", "easy"], 6, seed=2).ratings["demo"]
    for level, result in expected.items():
        assert stored(db, "demo", level) == (result.rating, result.wins)
        assert f"│ demo     │ {level:<6} │ {display(result.rating):>6} │" in done.stdout
    assert "6 games in" in done.stdout
    shown = run("ratings", "show", "--db", str(db))
    assert shown.exit_code == 0, shown.output
    assert text("cli.ratings.title", "en") in shown.stdout
    assert all(str(display(r.rating)) in shown.stdout for r in expected.values())
    assert stored(db, "demo", "easy")[0].games == 6
    again = run("ratings", "calibrate", "--db", str(db), *args[:-4], "--games", "2")
    assert again.exit_code == 0, again.output
    assert stored(db, "demo", "easy")[0].games == 2  # replaced, not added to


def test_show_on_a_database_without_bot_ratings(tmp_path: Path) -> None:
    shown = run("ratings", "show", "--db", str(tmp_path / "empty.sqlite3"), "--rules", "demo")
    assert shown.exit_code == 0 and "tikal ratings calibrate" in shown.stdout


@pytest.mark.parametrize(("args", "key"), [
    (("--rules", "nonsense"), "cli.ratings.unrated_rules"),
    (("--levels", "easy,wizard"), "cli.ratings.unknown_level"),
    (("--levels", "easy"), "cli.ratings.two_levels"),
])
def test_calibrate_refuses_what_it_cannot_rate(tmp_path: Path, args: tuple[str, ...],
                                               key: str) -> None:
    result = run("ratings", "calibrate", "--db", str(tmp_path / "x.sqlite3"), *args,
                 "--lang", "de")
    choices = rated_rule_sets() if "rules" in key else bot_names()
    said = text(key, "de", rules="nonsense", level="wizard", choices=", ".join(choices))
    assert result.exit_code == 1 and said in result.output


def test_a_calibration_with_a_failed_game_writes_nothing(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def failing(task: GameTask) -> GameResult:
        return replace(play_task(task), error="boom")

    monkeypatch.setattr(calibration, "play_task", failing)
    db = tmp_path / "tikal.sqlite3"
    result = run("ratings", "calibrate", "--db", str(db), "--rules", "demo", "--levels",
                 "random,easy", "--games", "2")
    assert result.exit_code == 2 and "boom" in result.output
    storage = open_storage(db)
    try:
        assert RatingStore(storage).standings_of(bot_player("easy")) == {}
    finally:
        storage.close()


@pytest.mark.parametrize("language", ["de", "ja"])
def test_the_ratings_commands_speak_the_language(tmp_path: Path, language: str) -> None:
    db = str(tmp_path / "tikal.sqlite3")
    done = run("ratings", "calibrate", "--db", db, "--rules", "demo", "--levels",
               "random,easy", "--games", "2", "--lang", language)
    shown = run("ratings", "show", "--db", db, "--lang", language)
    assert done.exit_code == 0 and shown.exit_code == 0, done.output + shown.output
    assert text("cli.ratings.col.shown", language) in shown.stdout
    assert leftovers([done.stdout, shown.stdout], language) == []


def test_bot_ratings_are_what_the_bot_list_shows(store: RatingStore) -> None:
    found = calibrate(["demo"], ["random", "easy"], 12, seed=5)
    calibration.save(store, found)
    easy = found.ratings["demo"]["easy"].rating
    shown = bot_ratings(store)
    assert shown["easy"] == {"demo": {"shown": display(easy), "provisional": False,
                                      "games": 12}}
    assert shown["hard"] == {}  # offered, never calibrated
    store.set(bot_player("hard"), "standard", initial())
    assert bot_ratings(store, ["hard"]) == {
        "hard": {"standard": {"shown": 1000, "provisional": True, "games": 0}}}
    assert set(rated_rule_sets()) >= {"standard", "auction", "demo"}
