"""tikal.svg: pictures of positions, usable on their own (like chess.svg)."""

from __future__ import annotations

import ast
import doctest
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import tikal.svg
from tikal import Game, hexes, label
from tikal.messages import LANGUAGES, catalog, text
from tikal.seats import seat_look, seat_table

NS = "{http://www.w3.org/2000/svg}"
#: the element drawing each seat shape, and its number of points for polygons
SHAPE_ELEMENTS = {"circle": ("circle", 0), "square": ("rect", 0), "triangle": ("polygon", 3),
                  "diamond": ("polygon", 4)}


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


def definitions(root: ET.Element) -> dict[str, ET.Element]:
    """The shapes under ``<defs>``, by id; each id is defined once."""
    found: dict[str, ET.Element] = {}
    for defs in root.iter(f"{NS}defs"):
        for shape in defs:
            key = shape.attrib["id"]
            assert key not in found, f"{key} defined twice"
            found[key] = shape
    return found


def uses(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{NS}use"))


def target(use: ET.Element, defined: dict[str, ET.Element]) -> ET.Element:
    href = use.attrib["href"]
    assert href.startswith("#") and href[1:] in defined, f"{href} is not defined"
    return defined[href[1:]]


def drawn_shapes(group: ET.Element, defined: dict[str, ET.Element]) -> list[ET.Element]:
    """The basic shapes a group draws, its ``<use>`` elements followed into ``<defs>``."""
    if group.tag == f"{NS}defs":
        return []
    if group.tag == f"{NS}use":
        return drawn_shapes(target(group, defined), defined)
    if group.tag in {f"{NS}{t}" for t in ("circle", "rect", "polygon", "path", "ellipse")}:
        return [group]
    return [shape for child in group for shape in drawn_shapes(child, defined)]


def is_seat_mark(element: ET.Element, seat: int) -> bool:
    look = seat_look(seat)
    tag, corners = SHAPE_ELEMENTS[look.shape]
    if element.tag != f"{NS}{tag}" or element.attrib.get("fill") != look.colour:
        return False
    return not corners or len(element.attrib["points"].split()) == corners


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
    assert set(start) == {"0"} | {label(c) for c in Game.new("demo", 2, seed=1).frontier}
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
        assert text("svg.treasures_left", count=len(tokens)) in title.text
        assert f"{len(tokens)} treasure{'' if len(tokens) == 1 else 's'} left" in title.text
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
    stones = [c for c in drawn_shapes(root, definitions(root))
              if c.tag == f"{NS}circle" and c.attrib.get("fill") == tikal.svg.STONE_FILL]
    assert len(stones) == sum(spec.stones)
    # one row of stones per edge, the north row turned to its edge
    turns = {int(u.attrib.get("transform", "rotate(0)")[7:-1]) // 60
             for u in uses(root) if "stones" in u.attrib["href"]}
    assert turns == {d for d, n in enumerate(hexes.rotate(spec.stones, rotation)) if n}
    assert tikal.svg.tile("A.1", rotation) == svg


def test_players_differ_by_shape_as_well_as_colour() -> None:
    seats = seat_table()
    assert len({s.shape for s in seats}) == len(seats) == len({s.colour for s in seats})
    marks = [tikal.svg.chip(p) for p in range(4)]
    assert len(set(marks)) == 4
    for p, mark in enumerate(marks):
        root = parse(mark)
        assert root.attrib["aria-label"] == f"{seat_look(p).name} worker"
        assert [is_seat_mark(e, p) for e in drawn_shapes(root, definitions(root))] == [True]
    assert ">L</text>" in tikal.svg.chip(0, leader=True)
    assert ">3</text>" in tikal.svg.chip(1, count=3)


def test_repeated_shapes_are_defined_once_and_used() -> None:
    game = played("standard", 4, 300, seed=3)
    svg = tikal.svg.board(game)
    root = parse(svg)
    defined = definitions(root)
    drawn = uses(root)
    assert root.find(f"{NS}defs") is not None and drawn
    assert {target(u, defined).attrib["id"] for u in drawn} <= set(defined)
    # one outline per space, every one a <use> of a shared hex
    for space in spaces(root).values():
        outlines = [u for u in space.iter(f"{NS}use") if "hex" in u.attrib.get("class", "")]
        assert len(outlines) == 1
        assert target(outlines[0], defined).tag == f"{NS}polygon"
    # every polygon (outlines, triangles, diamonds, tents, flags, volcanoes) lives in <defs>
    in_defs = sum(len(list(shape.iter(f"{NS}polygon"))) for shape in defined.values())
    assert svg.count("<polygon") == in_defs


def test_every_seat_is_drawn_in_its_own_colour_and_shape() -> None:
    game = played("standard", 4, 300, seed=3)
    root = parse(tikal.svg.board(game))
    defined = definitions(root)
    seen = set()
    for group in root.iter(f"{NS}g"):
        kind = group.attrib.get("class")
        if kind not in {"fig", "camp", "guard"}:
            continue
        seat = int(group.attrib["data-seat"])
        seen.add((kind, seat))
        title = group.find(f"{NS}title")
        assert title is not None and seat_look(seat).name in (title.text or "")
        shapes = drawn_shapes(group, defined)
        if kind == "fig":
            assert any(is_seat_mark(e, seat) for e in shapes)
            if group.attrib["data-fig"] == "L":  # bigger, double-ringed, with an L
                assert len(shapes) == 2 and shapes[0].attrib["fill"] == "#ffffff"
        else:  # camps and guards: filled with the seat's colour
            assert seat_look(seat).colour in {e.attrib.get("fill") for e in shapes}
    assert {seat for kind, seat in seen if kind == "fig"} == set(range(4))
    assert ("camp", game.camps[next(iter(game.camps))]) in seen


def test_tile_fragments_fit_the_board_of_the_same_size() -> None:
    """The web app lays ``tile_group`` fragments (the ghost tile) over the board."""
    game = Game.new("standard", 2, seed=1)
    defined = definitions(parse(tikal.svg.board(game)))
    for spec in game.rules.tiles_by_id.values():
        for rotation in range(6):
            fragment = ET.fromstring(
                f'<g xmlns="http://www.w3.org/2000/svg">{tikal.svg.tile_group(spec, rotation)}</g>'
            )
            for use in uses(fragment):
                target(use, defined)
            assert len(drawn_shapes(fragment, defined)) > sum(spec.stones)


def test_shared_ids_mean_the_same_shape_in_every_picture() -> None:
    """Pictures inlined in one page may repeat an id: it must then define the same shape."""
    pictures = [
        tikal.svg.board(played("standard", 4, 300, seed=3)),
        tikal.svg.board(played("demo", 2, 60)),
        tikal.svg.tile("B.2", 3),
        tikal.svg.chip(1, leader=True),
        tikal.svg.chip(1, leader=True, size=22.0),
    ]
    seen: dict[str, str] = {}
    for picture in pictures:
        for key, shape in definitions(parse(picture)).items():
            text = ET.tostring(shape, encoding="unicode")
            assert seen.setdefault(key, text) == text, key


def test_text_is_escaped_and_titles_name_every_space() -> None:
    game = Game.new("standard", 2, seed=1)
    root = parse(tikal.svg.board(game, highlight={"A4": "<2 & 3>"}))
    texts = [t.text for t in spaces(root)["A4"].iter(f"{NS}text")]
    assert "<2 & 3>" in texts
    for name, space in spaces(root).items():
        title = space.find(f"{NS}title")
        assert title is not None and (title.text or "").startswith(name)


def test_module_examples_and_notebook_picture() -> None:
    failures, tried = doctest.testmod(tikal.svg)
    assert tried >= 4 and failures == 0
    game = played("standard", 3, 40)
    assert game._repr_svg_() == tikal.svg.board(game)
    for old in ("SEATS", "Seat", "seat_info"):
        assert not hasattr(tikal.svg, old)


def test_svg_imports_only_the_engine_core() -> None:
    """tikal.game imports tikal.svg (for ``_repr_svg_``), so svg must not import it back."""
    package = Path(tikal.svg.__file__).parent
    local: set[str] = set()
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.level in (1, 2) or not (node.module or "").startswith("tikal")
                if node.level == 2:  # from the package above: the engine's modules
                    local |= {node.module} if node.module else {a.name for a in node.names}
    assert local <= {"state", "view", "hexes", "components", "seats", "messages", "describe"}, local


def test_svg_keeps_nothing_between_calls() -> None:
    """Pure drawing: no module of tikal.svg holds a cache (the web server keeps its own)."""
    for path in Path(tikal.svg.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        decorators = [ast.unparse(d) for node in ast.walk(tree)
                      if isinstance(node, ast.FunctionDef) for d in node.decorator_list]
        assert not [d for d in decorators if "cache" in d], path.name
        for node in tree.body:  # no empty module-level dict, list or set to fill
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            empty = ((isinstance(value, (ast.Dict, ast.List, ast.Set)) and not ast.unparse(
                value).strip("{}[]()")) or (isinstance(value, ast.Call) and not value.args
                and ast.unparse(value.func) in ("dict", "list", "set", "OrderedDict")))
            assert not empty, f"{path.name}:{node.lineno}"


def test_temples_show_their_height_as_stacked_levels() -> None:
    game = played("standard", 4, 500, seed=3)
    root = parse(tikal.svg.board(game))
    defined = definitions(root)
    dug = 0
    for cell, level in game.levels.items():
        space = spaces(root)[label(cell)]
        bars = [u for u in space.iter(f"{NS}use") if "tlevel" in u.attrib["href"]]
        assert len(bars) == min(level, tikal.svg.TEMPLE_BARS)
        printed = game.tiles[cell].spec.value
        fills = [target(u, defined).attrib["fill"] for u in bars]
        assert fills == [tikal.svg.TEMPLE_STONE] * min(printed, len(bars)) + [
            tikal.svg.TEMPLE_DUG] * (len(bars) - min(printed, len(bars)))
        values = [t.text for t in space.iter(f"{NS}text") if t.attrib.get("class") == "val"]
        assert values == [str(level)]
        dug += level > printed
    assert dug, "the test needs a temple dug higher than printed"


def test_treasure_types_differ_by_colour_and_glyph() -> None:
    looks = tikal.svg.TREASURE_LOOKS
    assert len(looks) == 8
    assert len({colour for colour, _ in looks.values()}) == 8
    assert len({glyph for _, glyph in looks.values()}) == 8
    pictures = [tikal.svg.treasure_icon(letter, count=2) for letter in "abcdefgh"]
    assert len(set(pictures)) == 8
    for letter, picture in zip("abcdefgh", pictures, strict=True):
        root = parse(picture)
        assert root.attrib["aria-label"] == f"treasure {tikal.svg.treasure_name(letter)} \u00d72"
        shapes = drawn_shapes(root, definitions(root))
        assert shapes[0].attrib["fill"] == looks[letter][0]
    # a board defines the icon of each treasure type of its rule set, for the page's panels
    standard = definitions(parse(tikal.svg.board(Game.new("standard", 2, seed=1))))
    demo = definitions(parse(tikal.svg.board(Game.new("demo", 2, seed=1))))
    assert {k for k in standard if k.startswith("tk-treasure-")} == {
        f"tk-treasure-{letter}" for letter in "abcdefgh"}
    assert {k for k in demo if k.startswith("tk-treasure-")} == {"tk-treasure-a"}
    assert standard["tk-treasure-c"].attrib["data-name"] == "C (star)"


def test_figures_are_large_and_laid_out_by_how_many_share_a_space() -> None:
    game = played("standard", 4, 500, seed=3)
    root = parse(tikal.svg.board(game))
    defined = definitions(root)
    for space in spaces(root).values():
        figs = [g for g in space.iter(f"{NS}g") if g.attrib.get("class") == "fig"]
        if not figs:
            continue
        radius = tikal.svg.FIGURE_SLOTS.get(len(figs), (8.0, ()))[0]
        assert radius >= 8.0  # the old marks had a radius of 7.4 whatever the crowd
        if len(figs) <= 2:
            assert radius >= 13.0  # about twice as large
        for fig in figs:
            use = next(fig.iter(f"{NS}use"))
            mark = target(use, defined)
            assert mark.attrib["id"].endswith("-" + f"{radius:g}".replace(".", "_"))
        places = {(u.attrib.get("x"), u.attrib.get("y")) for f in figs for u in f.iter(f"{NS}use")}
        assert len(places) == len(figs)  # no two marks on top of each other


# ---------------------------------------------------------------- words in other languages

TRANSLATED = [language for language in LANGUAGES if language != "en"]
#: Words the pictures may keep in every language: the game's name.
NAMES = {"Tikal"}
#: English words that are words of another language too (a seat's colour).
SAME_WORDS = {("de", "Orange")}


def english_words() -> set[str]:
    """The English words a picture may draw (``svg.*``, tiles and colours), three letters
    or more, as written (German shares some with another case: "Camp", "Vase")."""
    words: set[str] = set()
    for key, entry in catalog("en").items():
        if key.startswith(("svg.", "tile.", "colour.")):
            for form in entry if isinstance(entry, tuple) else (entry,):
                words |= set(re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", " ", form)))
    return words - NAMES


def picture_words(picture: str) -> list[str]:
    """What a picture says to people: titles, texts, accessible names, treasure names."""
    found = []
    for element in parse(picture).iter():
        if element.tag in {f"{NS}title", f"{NS}text"} and element.text:
            found.append(element.text)
        found += [element.attrib[a] for a in ("aria-label", "data-name") if a in element.attrib]
    return found


def skeleton(picture: str) -> list[tuple[str, dict[str, str]]]:
    """A picture without its words: every element with its attributes but its names."""
    return [(e.tag, {k: v for k, v in e.attrib.items() if k not in {"aria-label", "data-name"}})
            for e in parse(picture).iter() if e.tag not in {f"{NS}title"}]


def worded_pictures(language: str) -> list[str]:
    """Pictures with every kind of word: boards with figures, camps, guards, dug temples,
    treasure tiles (some emptied), the demo plane, tiles, chips and treasure icons."""
    games = [played("standard", 4, 500, seed=3), played("standard", 2, 200, seed=5),
             played("demo", 2, 60, seed=2), Game.new("demo", 2, seed=1)]
    pictures = [tikal.svg.board(game, language=language) for game in games]
    rules = games[0].rules
    pictures += [tikal.svg.tile(tile_id, 2, language=language) for tile_id in rules.tiles_by_id]
    pictures += [tikal.svg.chip(p, leader, language=language) for p in range(4)
                 for leader in (False, True)]
    pictures += [tikal.svg.treasure_icon(letter, count=count, language=language)
                 for letter in "abcdefgh" for count in (None, 3)]
    emptied = next(spec for spec in rules.tiles_by_id.values() if spec.kind == "treasure")
    pictures.append(tikal.svg.tile_group(emptied, 0, tokens=0, language=language))
    return pictures


def test_the_english_pictures_say_what_the_catalog_says() -> None:
    words = " ".join(w for p in worded_pictures("en") for w in picture_words(p))
    for phrase in ("empty space", "value", "treasures left", "workers: ", "leader", "camp",
                   "guarded by", "Tikal board, ", "turned 2", "treasure A (sun)", ">BASE<"):
        assert phrase.strip("<>") in words, phrase
    assert words.count("treasure left") or words.count("treasures left")
    assert tikal.svg.board_label(1) == "Tikal board, 1 tile"


@pytest.mark.parametrize("language", TRANSLATED)
def test_pictures_in_other_languages_have_no_english_words(language: str) -> None:
    english = english_words()
    assert {"empty", "space", "treasures", "guarded", "workers", "leader", "turned", "BASE",
            "sun", "Blue", "temple", "jungle"} <= english
    left = {(word, said) for picture in worded_pictures(language)
            for said in picture_words(picture)
            for word in re.findall(r"[A-Za-z]{3,}", said)
            if word in english and (language, word) not in SAME_WORDS}
    assert left == set()


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_picture_in_another_language_differs_only_in_its_words(language: str) -> None:
    """The same shapes, ids and data-* hooks in every language (the web page finds spaces,
    figures and treasure icons by them); only titles, names and labels change."""
    game = played("standard", 4, 500, seed=3)
    english, other = tikal.svg.board(game), tikal.svg.board(game, language=language)
    assert english != other
    mine, theirs = skeleton(english), skeleton(other)
    assert [tag for tag, _ in mine] == [tag for tag, _ in theirs]
    assert mine == theirs
    assert tikal.svg.board(game) == game._repr_svg_()  # notebooks stay English
    cells = game.view(None)
    assert tikal.svg.board_spaces(cells, [hexes.parse_label("A4")], language=language)[0][
        "A4"] in other


@pytest.mark.parametrize(("rules", "players", "language"),
                         [("standard", 4, "en"), ("standard", 2, "ja"), ("demo", 2, "de")])
def test_a_board_in_pieces_joins_into_the_board(rules: str, players: int, language: str) -> None:
    """board() is its pieces joined; a space drawn alone, and each of its parts drawn
    alone, is the board's, with the shapes it draws defined in the board's <defs>."""
    game = Game.new(rules, players, seed=5)
    rng = random.Random(5)
    for step in range(250):
        if game.is_over:
            break
        pieces = tikal.svg.board_pieces(game, language=language)
        whole = tikal.svg.board(game, language=language)
        assert pieces.svg() == whole
        cells = rng.sample(tikal.svg.drawn_cells(game), 3)
        texts, shapes = tikal.svg.board_spaces(game, cells, language=language)
        for cell in cells:
            alone = tikal.svg.space(game, cell, language=language)
            assert alone.text == pieces.spaces[label(cell)].text == texts[label(cell)]
            parts = (tikal.svg.space_head(game, cell, language=language),
                     tikal.svg.space_tile(game, cell, language=language),
                     tikal.svg.space_marks(game, cell, language=language),
                     tikal.svg.space_figures(game, cell, language=language),
                     tikal.svg.space_tail(cell))
            assert [p.text for p in parts] == [p.text for p in alone.parts]
            assert [list(p.shapes) for p in parts] == [list(p.shapes) for p in alone.parts]
            drawn = tikal.svg.shape_texts(alone.shapes)
            assert all(pieces.defs[key] == text for key, text in drawn.items())
            assert set(re.findall(r'href="#([^"]+)"', alone.text)) == set(drawn)
        assert all(pieces.defs[key] == text for key, text in shapes.items())
        if step % 50 == 0:
            assert tikal.svg.board_root(game, language=language) == pieces.root
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("language", LANGUAGES)
def test_pictures_are_written_as_elementtree_writes_them(language: str) -> None:
    """tikal.svg writes its elements itself (many small pieces): the text is
    ElementTree's, escapes and all."""
    from tikal.svg import draw

    game = played("standard", 4, 300, seed=3)
    defs = draw.Defs()
    elements = [draw.node("text", 'a <b> & "c"\r\n\t', x=1.5, data_y='<"&>\n'),
                draw.node("g", class_="x"), draw.group(draw.node("title", "\u6f22 \u00d7"))]
    elements[2][0].tail = "tail & <more>"
    for cell in tikal.svg.drawn_cells(game):
        space = tikal.svg.space(game, cell, language=language, note="<2 & 3>")
        defs.shapes.update(space.shapes)
    elements += list(defs.shapes.values())
    for element in elements:
        assert draw.text_of(element) == ET.tostring(element, encoding="unicode")
