"""The terminal hex map (tikal.terminal.textboard): spaces, tile codes, figures, edge costs."""

from __future__ import annotations

from positions import Position
from tikal import Game, hexes
from tikal.seats import seat_look
from tikal.terminal.textboard import BOX, LEGEND, board_text, legend


def initial(seat: int) -> str:
    return seat_look(seat).initial


def lines_of(game: Game) -> list[str]:
    return board_text(game).plain.split("\n")


def box_at(lines: list[str], label: str) -> tuple[int, int]:
    """(line, column) of the top-left corner of the box whose first line names ``label``."""
    for row, line in enumerate(lines):
        col = line.find(f" {label} ")
        if col >= 0:
            return row, col
    raise AssertionError(f"{label} is not on the map:\n" + "\n".join(lines))


def box_text(lines: list[str], label: str) -> list[str]:
    row, col = box_at(lines, label)
    return [lines[row + i][col : col + BOX].strip() for i in range(3)]


def test_standard_map_names_all_forty_spaces_and_the_basecamp() -> None:
    game = Game.new("standard", 2, seed=1)
    lines = lines_of(game)
    for space in hexes.STANDARD_CELLS:
        box_at(lines, hexes.label(space))
    basecamp = next(c for c, t in game.tiles.items() if t.spec.kind == "basecamp")
    assert box_text(lines, hexes.label(basecamp))[0].endswith("BC")


def test_columns_are_staggered_like_the_printed_board() -> None:
    lines = lines_of(Game.new("standard", 2, seed=1))
    a1, b1, c1 = (box_at(lines, name) for name in ("A1", "B1", "C1"))
    assert a1[0] == c1[0] and b1[0] == a1[0] + 2  # odd columns sit half a space lower
    assert b1[1] - a1[1] == c1[1] - b1[1] == BOX + 1
    assert box_at(lines, "A2")[0] == a1[0] + 4


def test_temple_level_treasures_and_figures_per_colour() -> None:
    pos = Position("standard", players=3)
    pos.tile("A3", "A.1", level=5)
    pos.tile("B3", "A.2", tokens="ab")
    pos.figures(0, workers={"A3": 2}, leader="A3")
    pos.figures(1, workers={"A3": 1})
    pos.figures(2, workers={"B3": 3})
    pos.camp("B3", 2)
    lines = lines_of(pos.game())
    temple, treasure = box_text(lines, "A3"), box_text(lines, "B3")
    assert temple[0] == "A3   T5"
    assert temple[1] == f"{initial(0)}*2 {initial(1)}1"
    assert treasure[0] == "B3   $2"
    assert treasure[1] == f"{initial(2)}3 c{initial(2)}"


def test_edge_costs_stand_between_the_two_tiles() -> None:
    pos = Position("standard", players=2)
    pos.tile("A3", "A.1", rotation=3)
    pos.tile("B3", "A.2", tokens="ab")
    game = pos.game()
    lines = lines_of(game)
    a3, a4, b3 = (hexes.parse_label(n) for n in ("A3", "A4", "B3"))
    cost = {e.dst: e.cost for e in game.exits[a3]}
    assert a4 in cost and b3 in cost, "the test wants both edges open"
    row, col = box_at(lines, "A3")
    assert lines[row + 3][col + BOX // 2] == str(cost[a4])  # A4 is south of A3
    # B3 is the south-east neighbour of A3: its cost sits in the gap on A3's third line
    assert b3 == a3 + hexes.STEP[2]
    assert lines[row + 2][col + BOX] == str(cost[b3])


def test_crowded_space_marks_what_does_not_fit() -> None:
    pos = Position("standard", players=4)
    basecamp = "A5"
    for seat in range(4):
        pos.figures(seat, workers={basecamp: 12}, leader=basecamp)
    text = box_text(lines_of(pos.game()), basecamp)
    assert text[1] == f"{initial(0)}*12"
    assert text[2].startswith(f"{initial(1)}*12") and text[2].endswith("+")


def test_demo_plane_shows_open_spaces_around_the_tiles() -> None:
    game = Game.new("demo", 2, seed=2)
    text = board_text(game).plain
    assert text.count("open") == len(game.frontier)
    assert "BC" in text


def test_the_legend_explains_the_same_codes_in_every_language() -> None:
    first = seat_look(0)
    assert legend() == LEGEND and f"{first.initial}*2 {first.name.lower()} leader" in LEGEND
    for language, word in (("de", "Tempel"), ("ja", "神殿")):
        text = legend(language)
        assert word in text and text != LEGEND
        for code in ("T5", "$2", "jg", "BC", "VV", f"{first.initial}*2", f"c{first.initial}",
                     f"g{first.initial}", "'open'"):
            assert code in text, (language, code)
