"""The terminal game, driven by scripted input (no TTY needed)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from tikal import Game
from tikal.cli import app
from tikal.messages import render
from tikal.seats import seat_look
from tikal.terminal.play import TerminalGame, rule_lines

runner = CliRunner()


class Script:
    """Feeds the given lines, then keeps answering ``filler`` (or stops with EOF)."""

    def __init__(self, lines: list[str], filler: str | None = "1", limit: int = 5000) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.filler = filler
        self.limit = limit
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            raise EOFError
        line = next(self.lines, None)
        if line is not None:
            return line
        if self.filler is None:
            raise EOFError
        return self.filler


def terminal(tmp_path: Path, script: Script, **kwargs: object) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    game = TerminalGame(console=console, read_line=script, record_path=tmp_path / "game.json",
                        **kwargs)  # type: ignore[arg-type]
    return game, out


def test_a_whole_demo_game_with_scripted_input(tmp_path: Path) -> None:
    script = Script(["help", "board", "actions", "1"])
    tg, out = terminal(tmp_path, script, rules="demo", players=2, bots=["greedy"], seed=3)
    game = tg.run()
    text = out.getvalue()
    assert game.is_over
    assert "Final scores" in text and ("Winner" in text or "Shared win" in text)
    assert "[MOVE-1" in text  # help cites rule ids
    assert "Legal actions" in text and "AP left" in text
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["bots"] == ["human", "greedy"]
    replayed = Game.from_record(record)
    assert replayed.scores == game.scores


def test_illegal_input_gets_the_engine_reason_not_a_traceback(tmp_path: Path) -> None:
    script = Script(["tile 0 0", "frobnicate", "take 3", "77", "move W", "undo", "quit"],
                    filler=None)
    tg, out = terminal(tmp_path, script, rules="demo", players=2, bots=["random"], seed=1)
    game = tg.run()
    text = out.getvalue()
    assert "Traceback" not in text
    assert "Illegal: [TILE-1]" in text  # the basecamp space is taken
    assert "[NOTATION] unknown action 'frobnicate'" in text
    assert "Illegal: [TURN-1]" in text  # must place the drawn tile first
    assert "There is no action 77" in text
    assert "Cannot undo" in text
    assert not game.is_over and "Game stopped" in text
    assert (tmp_path / "game.json").exists()  # the record is saved even when quitting


def test_undo_within_the_turn(tmp_path: Path) -> None:
    script = Script(["1", "put W 0", "undo", "undo", "quit"], filler=None)
    tg, out = terminal(tmp_path, script, rules="demo", players=2, bots=["random"], seed=2)
    game = tg.run()
    text = out.getvalue()
    assert "Undone: bring a worker onto 0" in text
    assert "Undone: place " in text  # the placement can be taken back until the turn ends
    assert game.phase.value == "tile"


def test_the_action_list_reads_in_english_with_the_ap_cost(tmp_path: Path) -> None:
    script = Script(["1", "actions", "quit"], filler=None)
    tg, out = terminal(tmp_path, script, rules="demo", players=2, bots=["random"], seed=2)
    game = tg.run()
    listed = out.getvalue().split("Legal actions")[-1]
    assert game.phase.value == "turn"
    for action in game.legal_actions():
        text = render(game.describe(action), "action")
        cost = game.cost(action)
        assert (f"{text} ({cost} AP)" if cost else text) in listed
    assert "end the turn" in listed and "end the turn (" not in listed  # free: no cost shown


def test_standard_board_shows_coordinates_figures_and_temple_values(tmp_path: Path) -> None:
    script = Script(["1", "put L A5", "move L A5 A4", "board", "quit"], filler=None)
    tg, out = terminal(tmp_path, script, rules="standard", players=3, bots=["random"], seed=4,
                       seat=1)
    tg.run()
    text = out.getvalue()
    for column in "ABCDEFGH":
        for row in "12345":
            assert f" {column}{row} " in text  # every space of the hex map is named
    assert "A4" in text and "level 1" in text and " BC " in text
    me, bots = seat_look(1), (seat_look(0), seat_look(2))
    assert f"{me.name} (seat 1, You)" in text
    assert f"{me.initial}*" in text  # the human's leader on the map, by the seat's initial
    # bots' figures by their initial in the tile table
    assert any(f"{look.initial}:" in text for look in bots)
    assert "Face-down treasures" in text and "Temple levels left" in text


def test_end_of_input_stops_cleanly(tmp_path: Path) -> None:
    tg, out = terminal(tmp_path, Script([], filler=None), rules="demo", players=2)
    tg.run()
    assert "end of input" in out.getvalue()


def test_auction_bids_by_number_and_notation(tmp_path: Path) -> None:
    script = Script(["bid 99", "pass", *["1"] * 40], filler=None)
    tg, out = terminal(tmp_path, script, rules="auction", players=2, bots=["random"], seed=5)
    game = tg.run()
    text = out.getvalue()
    assert "Illegal: [AUC-3]" in text
    assert "You: passed" in text
    assert any(str(a).startswith("pick") for a in game.history)


def test_help_for_a_rule_id_quotes_the_rulebook(tmp_path: Path) -> None:
    lines = rule_lines("GUARD-4")
    assert len(lines) == 1 and lines[0].startswith("[GUARD-4] ")
    assert len(rule_lines("SCORE-")) >= 5
    script = Script(["help MOVE-2", "help scoring", "help XYZ-9", "quit"], filler=None)
    tg, out = terminal(tmp_path, script, rules="demo", players=2, bots=["random"])
    tg.run()
    text = out.getvalue()
    assert "[MOVE-2] " in text and "[SCORE-1] " in text and "No rule XYZ-9" in text


def test_play_command_with_piped_stdin(tmp_path: Path) -> None:
    record = tmp_path / "cli.json"
    result = runner.invoke(
        app, ["play", "--rules", "demo", "--bots", "easy", "--seed", "6", "--record", str(record)],
        input="help\n" + "1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    assert Game.from_record(json.loads(record.read_text())).is_over


def test_play_command_rejects_bad_options() -> None:
    result = runner.invoke(app, ["play", "--bots", "deep-thought"])
    assert result.exit_code == 1 and "unknown bot" in result.output
    result = runner.invoke(app, ["play", "--players", "3", "--seat", "5"], input="quit\n")
    assert result.exit_code == 1 and "seat" in result.output


# ---------------------------------------------------------------- other languages


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests above expect English whatever the machine's locale is."""
    monkeypatch.setenv("TIKAL_LANG", "en")


#: English sentences of the terminal that must not show in a translated game.
ENGLISH = ["Legal actions", "AP left", "your action", "Final scores", "Illegal:", "Winner",
           "Shared win", "You:", "Scoring:", "Game record saved", "unknown action", "Board\n",
           "Face-down treasures", "rule ids look like"]


def test_a_demo_game_in_japanese_with_scripted_input(tmp_path: Path) -> None:
    script = Script(["help", "board", "frobnicate", "take 3", "77", "help MOVE-2",
                     "help XYZ-9", "actions", "1"])
    tg, out = terminal(tmp_path, script, rules="demo", players=2, bots=["greedy"], seed=3,
                       language="ja")
    game = tg.run()
    text = out.getvalue()
    assert game.is_over
    assert "最終得点" in text and ("勝者" in text or "同点勝利" in text)
    assert "可能なアクション" in text and "残り" in text
    assert "できません：[NOTATION] 'frobnicate'というアクションはありません" in text
    assert "できません：[TURN-1] まず引いた地形ヘクスを置いてください" in text
    assert "77番のアクションはありません" in text
    assert "[MOVE-2] 辺のどちら側にも石がなければ" in text  # the Japanese rulebook
    assert "ルールブックにXYZ-9はありません" in text
    assert "得点計算：" in text and "ゲームの記録を" in text
    assert [phrase for phrase in ENGLISH if phrase in text] == []
    assert Game.from_record(json.loads((tmp_path / "game.json").read_text())).is_over


def test_a_demo_game_in_german_through_the_command(tmp_path: Path) -> None:
    record = tmp_path / "de.json"
    result = runner.invoke(
        app, ["play", "--rules", "demo", "--bots", "easy", "--seed", "6", "--lang", "de",
              "--record", str(record)],
        input="help\nfrobnicate\nundo\n" + "1\n" * 400,
    )
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Endstand" in text and ("Sieger: " in text or "Geteilter Sieg: " in text)
    assert "Erlaubte Aktionen" in text and "Weitere Befehle:" in text
    assert "Nicht erlaubt: [NOTATION] unbekannte Aktion 'frobnicate'" in text
    assert "Zurücknehmen nicht möglich: [" in text
    assert "Du: " in text and "Wertung: " in text
    assert [phrase for phrase in ENGLISH if phrase in text] == []
    assert Game.from_record(json.loads(record.read_text())).is_over


@pytest.mark.parametrize(("env", "marker"), [
    ({"LANG": "de_DE.UTF-8", "TIKAL_LANG": ""}, "Erlaubte Aktionen"),
    ({"LANG": "de_DE.UTF-8", "TIKAL_LANG": "ja"}, "可能なアクション"),
    ({"LANG": "ja_JP.UTF-8", "TIKAL_LANG": ""}, "可能なアクション"),
    ({"LANG": "C.UTF-8", "TIKAL_LANG": ""}, "Legal actions"),
    ({"LANG": "fr_FR.UTF-8", "TIKAL_LANG": ""}, "Legal actions"),
])
def test_the_language_comes_from_tikal_lang_then_lang(env: dict[str, str], marker: str) -> None:
    result = runner.invoke(app, ["play", "--rules", "demo", "--record", "/dev/null"],
                           input="quit\n", env=env)
    assert result.exit_code == 0, result.output
    assert marker in result.output


def test_lang_option_beats_the_environment_and_must_be_known() -> None:
    result = runner.invoke(app, ["play", "--rules", "demo", "--lang", "en", "--record",
                                 "/dev/null"], input="quit\n", env={"TIKAL_LANG": "ja"})
    assert result.exit_code == 0 and "Legal actions" in result.output
    result = runner.invoke(app, ["play", "--lang", "klingon"])
    assert result.exit_code == 1 and "unknown language 'klingon'" in result.output
    result = runner.invoke(app, ["play", "--bots", "deep-thought", "--lang", "de"])
    assert result.exit_code == 1 and "unbekannter Bot 'deep-thought'" in result.output
    result = runner.invoke(app, ["play", "--players", "3", "--seat", "5", "--lang", "ja"],
                           input="quit\n")
    assert result.exit_code == 1 and "--seat は0から2で指定してください" in result.output
