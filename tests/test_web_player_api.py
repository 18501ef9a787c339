"""The server's side of issue 32 (what a player sees), without a browser: the bots' pace
per game, the progress fields of /api/meta, the treasure sprite of the pages, the sounds
made again byte for byte, the tutorial naming the drawn tile, and the analysis numbers as
``tikal analyze`` prints them."""

from __future__ import annotations

import json
import re
import sys
import wave
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from test_analysis import blunder_record, cut
from tikal import tutorial
from tikal.actions import parse_action
from tikal.bots.analysis import Review, shown_percents
from tikal.cli import app as cli
from tikal.components import RULE_SET_NAMES, rule_set
from tikal.describe import tile_message
from tikal.messages import LANGUAGES, render
from tikal.seats import seat_table
from tikal.server import create_app
from tikal.server.bots import PACES, BotRunner
from tikal.server.round.texts import colour_name
from tikal.server.sprites import treasure_sprite
from tikal.svg import TREASURE_LOOKS, treasure_name

ROOT = Path(__file__).resolve().parents[1]
DELAY = 0.4

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "pace.sqlite3", bot_delay=DELAY)) as c:
        yield c


def bot_game(client: TestClient) -> dict[str, Any]:
    body = {"rules": "demo", "seats": [{"kind": "human", "name": "Ann"},
                                       {"kind": "bot", "level": "random", "name": "Bo"}]}
    reply = client.post("/api/games", json=body)
    assert reply.status_code == 201, reply.text
    created: dict[str, Any] = reply.json()
    return created


# ------------------------------------------------------------------ the bots' pace


def test_a_seat_sets_the_pace_of_its_games_bots(client: TestClient) -> None:
    game = bot_game(client)
    token = game["seats"][0]["token"]
    runner = client.app.state.services.manager.bots  # type: ignore[attr-defined]
    assert runner.delay_for(game["id"]) == DELAY
    for pace, factor in PACES.items():
        reply = client.post(f"/api/games/{game['id']}/pace", json={"pace": pace, "token": token})
        assert reply.status_code == 200 and reply.json() == {"type": "pace", "pace": pace}
        assert runner.delay_for(game["id"]) == pytest.approx(DELAY * factor)
    other = bot_game(client)
    client.post(f"/api/games/{game['id']}/pace", json={"pace": "fast", "token": token})
    assert runner.delay_for(other["id"]) == DELAY  # per game


def test_the_pace_is_refused_to_spectators_and_bad_values_change_nothing(
    client: TestClient
) -> None:
    game = bot_game(client)
    runner = client.app.state.services.manager.bots  # type: ignore[attr-defined]
    spectator = client.post(f"/api/games/{game['id']}/pace", json={"pace": "fast"})
    assert spectator.status_code == 403 and spectator.json()["code"] == "forbidden"
    bad = client.post(f"/api/games/{game['id']}/pace",
                      json={"pace": "warp", "token": game["seats"][0]["token"]})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request" and "pace" in bad.text
    unknown = client.post("/api/games/nosuchgame1/pace", json={"pace": "fast"})
    assert unknown.status_code == 404
    assert runner.delay_for(game["id"]) == DELAY


async def no_change(*args: Any, **kwargs: Any) -> Any:
    raise AssertionError("no bot moves here")


def test_the_normal_pace_is_the_servers_own_delay() -> None:
    runner = BotRunner(lambda session: None, no_change, delay=0.6)
    runner.set_pace("g", "slow")
    assert runner.delay_for("g") == pytest.approx(1.2)
    runner.set_pace("g", "normal")
    assert runner.delay_for("g") == pytest.approx(0.6)
    runner.close()


# ------------------------------------------------------------------ names


@pytest.mark.parametrize("language", LANGUAGES)
def test_unnamed_seats_are_called_by_their_colour_in_the_language(
    client: TestClient, language: str
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy", "name": "  "},
             {"kind": "human", "name": "Ann"}]
    reply = client.post("/api/games", params={"lang": language},
                        json={"rules": "standard", "seats": seats})
    assert reply.status_code == 201, reply.text
    names = [s["name"] for s in reply.json()["seats"]]
    assert names == [colour_name(seat_table()[p].name, language) for p in (0, 1)] + ["Ann"]


# ------------------------------------------------------------------ /api/meta


def test_meta_says_how_many_volcanoes_and_tiles_per_letter_each_rule_set_has(
    client: TestClient
) -> None:
    meta = client.get("/api/meta").json()
    assert meta["paces"] == list(PACES)
    for name in RULE_SET_NAMES:
        rs = rule_set(name)
        data = meta["rulesets"][name]
        assert data["volcanoes"] == sum(1 for t in rs.terrain if t.kind == "volcano") > 0
        assert sum(data["letters"].values()) == data["tiles"] == len(rs.terrain)
        assert set(data["letters"]) == {t.letter for t in rs.terrain}
    state = client.get(f"/api/games/{bot_game(client)['id']}").json()
    assert "volcanoes" not in state["rule_set"]  # the state message stays as it was


# ------------------------------------------------------------------ the treasure sprite


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_game_and_replay_pages_carry_every_treasure_icon(
    client: TestClient, language: str
) -> None:
    for path in ("/play/anything", "/replay/anything"):
        page = client.get(path, params={"lang": language}).text
        assert "<!--tk-sprite-->" not in page
        for letter in TREASURE_LOOKS:
            found = re.search(rf'<g data-name="([^"]+)" id="tk-icon-treasure-{letter}"', page)
            assert found and found.group(1) == treasure_name(letter, language), (path, letter)
        assert page.count('class="tk-sprite"') == 1
    sprite = treasure_sprite(language)
    assert 'id="tk-treasure-' not in sprite  # the board's own ids are never defined twice
    assert "tk-sprite" not in client.get("/", params={"lang": language}).text


# ------------------------------------------------------------------ the sounds


def test_the_sounds_are_the_ones_the_tool_makes() -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    import make_sounds

    for name, notes in make_sounds.SOUNDS.items():
        path = ROOT / "src" / "tikal" / "static" / "sounds" / f"{name}.wav"
        assert path.read_bytes() == make_sounds.wav_bytes(notes), name
        with wave.open(str(path)) as sound:
            seconds = sound.getnframes() / sound.getframerate()
            assert sound.getnchannels() == 1 and 0.2 < seconds < 0.5
            assert max(sound.readframes(sound.getnframes())) <= 128 + 0.5 * 127  # quiet
        assert path.stat().st_size < 8000


# ------------------------------------------------------------------ the tutorial's "tried"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_placement_names_the_drawn_tile_not_the_one_on_the_space(language: str) -> None:
    step = tutorial.load_part("demo").step("tile")
    game = tutorial.start(step)
    drawn = game.tile_to_place()
    assert drawn is not None and drawn.kind != "basecamp"
    tried = tutorial.tried_text(game, parse_action("tile 0 0"), language)
    assert render(tile_message(drawn), language=language) in tried
    basecamp = game.tiles[game.basecamp].spec
    assert render(tile_message(basecamp), language=language) not in tried
    assert tutorial.judge(step, "tile 0 0").refusal is not None


# ------------------------------------------------------------------ the analysis numbers


def review_of(played: float, best: float) -> Review:
    return Review(index=0, player=0, start=0, played=[], best=[], played_chance=played,
                  best_chance=best, loss=max(0.0, best - played), verdict="mistake",
                  win_chance=[0.35, 0.65], margin=[0.0, 0.0])


def test_the_shown_numbers_add_up() -> None:
    # the decision of the report: 74.49% and 55.51% read "74%", "56%" and "19% lost"
    assert shown_percents(review_of(0.5551, 0.7449)) == (56, 74, 18)
    assert shown_percents(review_of(0.5, 0.5)) == (50, 50, 0)
    for played in (0.0, 0.104, 0.3349, 0.5551, 0.995):
        for best in (played, played + 0.0049, played + 0.1551):
            shown, better, lost = shown_percents(review_of(played, min(best, 1.0)))
            assert better - shown == lost >= 0


def test_tikal_analyze_prints_the_chances_that_make_the_loss(
    tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(cut(blunder_record(seed=6), 30)))
    result = CliRunner().invoke(cli, ["analyze", str(path), "--budget", "1"],
                                env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    assert "as played" in result.output and "best found" in result.output
    rows = [line for line in result.output.splitlines() if line.count("%") >= 3]
    assert rows
    for line in rows:
        played, best, lost = (int(n) for n in re.findall(r"(\d+)%", line)[:3])
        assert best - played == lost, line
