"""tikal.svg: pictures of positions, usable on their own (like chess.svg)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import tikal.svg
from tikal import Game, label
from tikal.svg import SEATS

NS = "{http://www.w3.org/2000/svg}"


def played(rules: str, players: int, steps: int, seed: int = 1) -> Game:
    game = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        actions = game.legal_actions()
        non_end = [a for a in actions if str(a) != "end"]
        game.apply(rng.choice(non_end if non_end and rng.random() < 0.9 else actions))
    return game


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def spaces(root: ET.Element) -> dict[str, ET.Element]:
    return {
        g.attrib["data-cell"]: g
        for g in root.iter(f"{NS}g")
        if "space" in g.attrib.get("class", "").split()
    }


def test_standard_board_draws_all_40_spaces_and_the_preprinted_tiles() -> None:
    root = parse(tikal.svg.board(Game.new("standard", 2, seed=1)))
    cells = spaces(root)
    assert len(cells) == 40
    assert "basecamp" in cells["A5"].attrib["class"]
    assert "temple" in cells["A4"].attrib["class"] and "jungle" in cells["B4"].attrib["class"]
    assert "empty" in cells["H1"].attrib["class"]


def test_demo_board_grows_with_the_tiles() -> None:
    start = spaces(parse(tikal.svg.board(Game.new("demo", 2, seed=1))))
    later = played("demo", 2, 60)
    grown = spaces(parse(tikal.svg.board(later)))
    assert set(start) == {"0,0"} | {label(c) for c in Game.new("demo", 2, seed=1).frontier}
    assert len(grown) > len(start)
    assert {label(c) for c in later.tiles} <= set(grown)


def test_figures_camps_guards_and_values_are_drawn_from_the_state() -> None:
    game = played("standard", 4, 500, seed=3)
    root = parse(tikal.svg.board(game))
    figs = [g for g in root.iter(f"{NS}g") if g.attrib.get("class") == "fig"]
    drawn = {(int(g.attrib["data-seat"]), g.attrib["data-fig"], g.attrib["data-cell"])
             for g in figs}
    expected = set()
    for p in range(4):
        expected |= {(p, "W", label(c)) for c in game.workers[p]}
        if game.leader[p] >= 0:
            expected.add((p, "L", label(game.leader[p])))
    assert drawn == expected
    counts = {(int(g.attrib["data-seat"]), g.attrib["data-cell"]): int(g.attrib["data-count"])
              for g in figs if g.attrib["data-fig"] == "W"}
    assert all(counts[(p, label(c))] == n for p in range(4) for c, n in game.workers[p].items())
    camps = [g for g in root.iter(f"{NS}g") if g.attrib.get("class") == "camp"]
    assert len(camps) == len(game.camps)
    guards = [g for g in root.iter(f"{NS}g") if g.attrib.get("class") == "guard"]
    assert len(guards) == len(game.guards)
    for cell, value in game.levels.items():
        title = spaces(root)[label(cell)].find(f"{NS}title")
        assert title is not None and f"value {value}" in (title.text or "")


def test_treasure_tiles_show_counts_never_types() -> None:
    game = played("standard", 2, 200, seed=5)
    assert game.tokens, "the test needs a treasure tile with tokens"
    root = parse(tikal.svg.board(game))
    cells = spaces(root)
    for cell, tokens in game.tokens.items():
        title = cells[label(cell)].find(f"{NS}title")
        assert title is not None and title.text is not None
        assert f"{len(tokens)} treasure(s) left" in title.text
    # same picture whatever the hidden tokens are
    other = game.clone()
    hidden = [t for c in sorted(other.tokens) for t in other.tokens[c]]
    hidden.reverse()
    i = 0
    for c in sorted(other.tokens):
        n = len(other.tokens[c])
        other.tokens[c] = tuple(hidden[i : i + n])
        i += n
    other.stack.reverse()
    assert tikal.svg.board(other) == tikal.svg.board(game)
    assert tikal.svg.board(game.view(0)) == tikal.svg.board(game)


def test_highlights_selection_and_size_options() -> None:
    game = Game.new("standard", 2, seed=1)
    svg = tikal.svg.board(game, highlight={"A4": "2", "B4": None}, selected="A5", width=640,
                          coordinates=False)
    root = parse(svg)
    cells = spaces(root)
    assert "hl" in cells["A4"].attrib["class"] and "hl" in cells["B4"].attrib["class"]
    assert "sel" in cells["A5"].attrib["class"]
    assert root.attrib["width"] == "640"
    assert 'class="lbl"' not in svg
    assert "hl" in spaces(parse(tikal.svg.board(game, highlight=["H5"])))["H5"].attrib["class"]


@pytest.mark.parametrize("rotation", range(6))
def test_tile_pictures_turn_the_stones(rotation: int) -> None:
    spec = Game.new("standard", 2, seed=1).rules.tile("A.1")
    svg = tikal.svg.tile(spec, rotation)
    root = parse(svg)
    stones = [c for c in root.iter(f"{NS}circle") if c.attrib.get("fill") == tikal.svg.STONE_FILL]
    assert len(stones) == sum(spec.stones)
    assert tikal.svg.tile("A.1", rotation) == svg


def test_players_differ_by_shape_as_well_as_colour() -> None:
    assert len({s.shape for s in SEATS}) == len(SEATS) == len({s.colour for s in SEATS})
    marks = [tikal.svg.chip(p) for p in range(4)]
    assert len(set(marks)) == 4
    assert ">L</text>" in tikal.svg.chip(0, leader=True)
    assert ">3</text>" in tikal.svg.chip(1, count=3)
