"""The command line's other commands (simulate, replay, bench, arena, strength, serve) speak
the language of ``--lang``, else ``TIKAL_LANG``, else ``LANG``, with no English left."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from test_i18n_web import leftovers
from tikal import Game
from tikal.cli import app
from tikal.cli.web import serve
from tikal.messages import text

runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, list(args), env={"TIKAL_LANG": "", "LANG": "C.UTF-8", **(env or {})})


@pytest.mark.parametrize("language", ["de", "ja"])
def test_simulate_speaks_the_language(language: str) -> None:
    result = run("simulate", "--rules", "demo", "--games", "2", "--lang", language)
    assert result.exit_code == 0, result.output
    assert text("cli.sim.mean_score", language) in result.stdout
    assert text("cli.sim.win_share", language) in result.stdout
    assert "mean score" not in result.stdout and "win share" not in result.stdout
    assert leftovers([result.stdout], language) == []


def test_the_language_comes_from_tikal_lang_then_lang() -> None:
    by_env = run("simulate", "--rules", "demo", "--games", "1", env={"TIKAL_LANG": "ja"})
    assert text("cli.sim.mean_score", "ja") in by_env.stdout
    by_locale = run("simulate", "--rules", "demo", "--games", "1", env={"LANG": "de_DE.UTF-8"})
    assert text("cli.sim.mean_score", "de") in by_locale.stdout
    english = run("simulate", "--rules", "demo", "--games", "1")
    assert "mean score" in english.stdout


def test_a_bad_record_is_explained_in_the_language(tmp_path: Path) -> None:
    game = Game.new("demo", 2, seed=4)
    record = game.record()
    record["log"] = [*record["log"], "move W 0,0 5,5"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    english = run("replay", str(path))
    assert english.exit_code == 1 and "bad record at entry" in english.output
    for language in ("de", "ja"):
        result = run("replay", str(path), "--lang", language)
        assert result.exit_code == 1
        assert text("cli.error", language) in result.output
        assert leftovers([result.output], language) == []
    missing = run("replay", str(tmp_path / "nope.json"), "--lang", "ja")
    assert missing.exit_code == 1 and "を読めません" in missing.output


def test_replay_and_arena_tables_in_japanese(tmp_path: Path) -> None:
    from test_cli import finished_game

    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished_game("demo", 2, seed=4).record()))
    result = run("replay", str(path), "--lang", "ja")
    assert result.exit_code == 0, result.output
    assert text("cli.replay.over", "ja") in result.stdout
    assert leftovers([result.stdout], "ja") == []
    arena = run("arena", "--rules", "demo", "--bots", "random,random", "--games", "2",
                "--quiet", "--lang", "ja")
    assert arena.exit_code == 0, arena.output
    assert text("cli.col.win_rate", "ja") in arena.stdout
    assert leftovers([arena.stdout], "ja") == []
    bad = run("arena", "--games", "0", "--lang", "de")
    assert bad.exit_code == 1 and text("cli.arena.games_min", "de") in bad.output


def test_serve_says_where_to_open_in_the_language(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    from tikal.server import app as server_app

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)
    # this test process keeps its own collector (tune_gc_for_serving would freeze it)
    monkeypatch.setattr(server_app, "tune_gc_for_serving", lambda: None)
    serve(db=":memory:", lang="ja")
    assert "Webアプリ" in capsys.readouterr().out


def test_analyze_and_tune_in_german(tmp_path: Path) -> None:
    record = Game.new("demo", 2, seed=3).record()
    game = Game.from_record(record)
    import random

    rng = random.Random(1)
    for _ in range(12):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record()))
    result = run("analyze", str(path), "--budget", "1", "--lang", "de")
    assert result.exit_code == 0, result.output
    assert text("cli.analyze.per_player", "de") in result.stdout
    assert "Per player" not in result.stdout and "verdict" not in result.stdout
    assert leftovers([result.stdout], "de") == []
    out = tmp_path / "tuned.json"
    tuned = run("tune", "--rules", "demo", "--generations", "1", "--population", "2",
                "--deals", "1", "--held-out", "1", "--out", str(out), "--lang", "ja")
    assert tuned.exit_code == 0, tuned.output
    assert text("cli.tune.title", "ja") in tuned.stdout and "held-out" not in tuned.stdout
