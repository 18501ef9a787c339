"""The web server's fast paths give exactly what the plain ones gave.

The legal tables are worked out column by column, the diff goes only into items that
differ, texts are remembered across games and space signatures look figures up only
where there are any: each is checked here against the row-by-row version it replaced
(kept below as the reference), over random games of every rule set, so the messages
stay byte for byte what they were.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from random_games import CONFIGS, play
from tikal import label, svg
from tikal.messages import LANGUAGES, Message, render
from tikal.server.round.board import BoardCache, space_signatures
from tikal.server.round.legal import legal_tables
from tikal.server.round.snapshot import players_json
from tikal.server.round.spaces import drawn_spaces
from tikal.server.round.texts import cached_render
from tikal.server.wire import diff as D
from tikal.server.wire import legal as L
from wire_oracles import compact_legal, legal_json

EXAMPLES = settings(max_examples=12, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow])
GAMES = st.tuples(st.sampled_from(CONFIGS), st.integers(0, 10_000))
NAMES = (["Ana", "Bo", "Cy", "Di"], ["Red", "Blue", "Yellow", "Green"])


# ------------------------------------------------------------------ the reference


def reference_template(value: str, entry: dict[str, Any], fields: list[str]) -> str | None:
    """The entry's own field values, in the order tried, handed to the template finder
    itself: what is compared is how the tables are put together, not how one text is."""
    pairs = tuple((name, str(v)) for name in fields
                  if isinstance(v := entry.get(name), (str, int)) and not isinstance(v, bool))
    return L._template_of(value, pairs)  # noqa: SLF001 (the same helper)


def reference_list_of_fields(
    column: str, rows: list[dict[str, Any]], fields: list[str],
) -> list[str]:
    first = rows[0].get(column)
    if not isinstance(first, list) or not first or not all(isinstance(v, str) for v in first):
        return []
    names = [next((f for f in fields if rows[0].get(f) == item), "") for item in first]
    if "" in names:
        return []
    return names if all(r.get(column) == [r.get(n) for n in names] for r in rows) else []


def reference_compact_legal(legal: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """compact_legal as it was, row by row."""
    out: dict[str, Any] = {}
    for verb, entries in legal.items():
        keys: list[str] = []
        for entry in entries:
            keys.extend(k for k in entry if k != "verb" and k not in keys)
        fields = sorted((k for k in keys if k not in L.TEMPLATED),
                        key=lambda k: -len(str(entries[0].get(k, ""))))
        rows = [dict(e) for e in entries]
        templates: dict[str, list[str]] = {}
        for column in L.TEMPLATED:
            made = [reference_template(e[column], e, fields)
                    if isinstance(e.get(column), str) else None for e in entries]
            unique = list(dict.fromkeys(made))
            if None in unique or len(unique) * 2 > len(entries):
                continue
            index = {t: i for i, t in enumerate(unique)}
            templates[column] = [t for t in unique if t is not None]
            for row, made_one in zip(rows, made, strict=True):
                row[column] = index[made_one]
        table: dict[str, Any] = {}
        lists = {k: names for k in keys
                 if (names := reference_list_of_fields(k, rows, fields))}
        same = {k: rows[0].get(k) for k in keys if k not in lists and len(rows) > 1
                and all(r.get(k) == rows[0].get(k) for r in rows)}
        keys = [k for k in keys if k not in lists and k not in same]
        table["keys"] = keys
        table["rows"] = [[r.get(k) for k in keys] for r in rows]
        for name, part in (("same", same), ("lists", lists), ("templates", templates)):
            if part:
                table[name] = part
        out[verb] = table
    return out


def wire(value: Any) -> Any:
    """``value`` as a client reads it (JSON: a row sent as a tuple arrives as a list)."""
    return orjson.loads(orjson.dumps(value))


def reference_diff(old: Any, new: Any, path: list[Any], ops: list[list[Any]]) -> None:
    """diff as it was: every item gone into."""
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append([[*path, key]])
        for key, value in new.items():
            if key in old:
                reference_diff(old[key], value, [*path, key], ops)
            else:
                ops.append([[*path, key], value])
    elif isinstance(old, list) and isinstance(new, list) and path:
        if D._only_removed(old, new, path, ops):  # noqa: SLF001 (the same helper)
            return
        mine: list[list[Any]] = []
        for i, (a, b) in enumerate(zip(old, new, strict=False)):
            reference_diff(a, b, [*path, i], mine)
        mine.extend([[*path, i], new[i]] for i in range(len(old), len(new)))
        mine.extend([[*path, i]] for i in range(len(old) - 1, len(new) - 1, -1))
        if len(mine) > 4 and len(orjson.dumps(mine)) > len(orjson.dumps(new)) + 16:
            ops.append([path, new])
        else:
            ops.extend(mine)
    elif isinstance(old, str) and isinstance(new, str) and len(new) >= D.SPLICE_FROM:
        ops.append(D.splice(old, new, path))
    else:
        ops.append([path, new])


def reference_signatures(g: Any, cells: list[int]) -> dict[int, tuple[Any, ...]]:
    seats = list(zip(g.workers, g.leader, strict=True))
    out: dict[int, tuple[Any, ...]] = {}
    for cell in cells:
        placed = g.tiles.get(cell)
        out[cell] = (
            None if placed is None else (placed.spec.tile_id, placed.rotation, placed.stones),
            g.levels.get(cell), len(g.tokens.get(cell, ())), g.camps.get(cell),
            g.guards.get(cell), cell in g.frontier,
            tuple((workers.get(cell, 0), leader == cell) for workers, leader in seats),
        )
    return out


# ------------------------------------------------------------------ the properties


@EXAMPLES
@given(GAMES, st.sampled_from(LANGUAGES), st.sampled_from(NAMES))
def test_legal_tables_equal_the_row_by_row_ones(
    game: tuple[tuple[str, int], int], language: str, names: list[str],
) -> None:
    (rules, players), seed = game
    for state in play(rules, players, seed, max_steps=120):
        legal = legal_json(state, names, language)
        assert wire(compact_legal(legal)) == wire(reference_compact_legal(legal))


@EXAMPLES
@given(GAMES, st.sampled_from(LANGUAGES), st.sampled_from(NAMES))
def test_remembered_legal_tables_equal_tables_made_afresh(
    game: tuple[tuple[str, int], int], language: str, names: list[str],
) -> None:
    """A table made once per list of offers is the one its entries make (the cache is
    shared by every game, so the same games are played twice: the second time every
    table is one remembered)."""
    (rules, players), seed = game
    for _ in range(2):
        for state in play(rules, players, seed, max_steps=120):
            assert legal_tables(state, names, language) == compact_legal(
                legal_json(state, names, language))


@EXAMPLES
@given(GAMES, st.sampled_from(LANGUAGES))
def test_texts_remembered_across_games_equal_fresh_ones(
    game: tuple[tuple[str, int], int], language: str,
) -> None:
    """A text is shared by games with other players' names only if it names no player."""
    (rules, players), seed = game
    for state in play(rules, players, seed, max_steps=80):
        actions = state.legal_actions() + list(state.history[-3:])
        for names in NAMES:
            for action in actions:
                message = state.describe(action)
                for form in ("action", "log"):
                    assert (cached_render(message, form, names, language)
                            == render(message, form, names, language))


def test_a_text_naming_a_player_is_not_shared_across_names() -> None:
    message = Message("swap", {"give": "a", "player": 1, "take": "b"})
    texts = {cached_render(message, "action", names) for names in NAMES}
    assert texts == {render(message, "action", names) for names in NAMES}
    assert len(texts) == 2


@EXAMPLES
@given(GAMES)
def test_diffs_equal_the_item_by_item_ones(game: tuple[tuple[str, int], int]) -> None:
    (rules, players), seed = game
    board = BoardCache()
    before: Any = None
    for state in play(rules, players, seed, max_steps=150):
        view = state.view(None)
        now = {"board": dict(board.update(view)), "position": view.position_json(),
               "players": players_json(view),
               "legal": compact_legal(legal_json(view.state, NAMES[0]))}
        if before is not None:
            fast: list[list[Any]] = []
            slow: list[list[Any]] = []
            D.diff(before, now, [], fast)
            reference_diff(before, now, [], slow)
            assert fast == slow
        before = now


@EXAMPLES
@given(GAMES)
def test_space_signatures_change_where_the_reference_ones_do(
    game: tuple[tuple[str, int], int],
) -> None:
    """The signatures tell the same spaces apart as the ones that listed every seat's
    figures on every space, and equal signatures still mean equal pictures."""
    (rules, players), seed = game
    seen: dict[tuple[Any, ...], str] = {}
    before: tuple[dict[int, Any], dict[int, Any]] | None = None
    rng = random.Random(seed)
    for state in play(rules, players, seed, max_steps=150):
        cells = svg.drawn_cells(state)
        fast, slow = space_signatures(state, cells), reference_signatures(state, cells)
        if before is not None:
            assert ({c for c in cells if before[0].get(c) != fast[c]}
                    == {c for c in cells if before[1].get(c) != slow[c]})
        before = fast, slow
        cell = rng.choice(cells)
        picture = svg.board_spaces(state, [cell])[0]
        key = (cell, fast[cell])
        assert seen.setdefault(key, str(picture)) == str(picture)


@settings(max_examples=6, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(GAMES, st.sampled_from(LANGUAGES))
def test_a_board_redrawn_where_something_changed_equals_one_drawn_afresh(
    game: tuple[tuple[str, int], int], language: str,
) -> None:
    """Only the spaces where a part of the position changed are looked at again: the
    pieces still equal the whole board's drawn anew, with undos among the moves."""
    (rules, players), seed = game
    patched = BoardCache(language)
    rng = random.Random(seed)
    for step, state in enumerate(play(rules, players, seed, max_steps=150)):
        if state.can_undo() and rng.random() < 0.1:
            state.undo()
        view = state.view(None)
        parts = patched.update(view)
        if step % 4 == 0:
            assert parts == BoardCache(language).update(view)


def reference_common_prefix(x: str, y: str) -> int:
    low, high = 0, min(len(x), len(y))
    while low < high:
        mid = (low + high + 1) // 2
        if x[:mid] == y[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


LETTERS = [*'ab<>\\"', "\u00d7", "\u2192", "\u00fc", "\u6f22", "\uffff"]
TEXTS = st.text(alphabet=st.sampled_from(LETTERS), max_size=40)


@settings(max_examples=150, deadline=None, database=None)
@given(TEXTS, TEXTS, TEXTS, TEXTS)
def test_splices_equal_the_bisected_ones(head: str, one: str, other: str, tail: str) -> None:
    """The common start and end found by XOR of the encoded texts are those the
    bisection on slices found, ASCII or not."""
    old, new = head + one + tail, head + other + tail
    a = reference_common_prefix(old, new)
    b = reference_common_prefix(old[a:][::-1], new[a:][::-1])
    assert D._common_ends(old, new) == (a, b)  # noqa: SLF001
    op = D.splice(old, new, ["x"])
    if len(op) == 4:
        assert old[:op[2]] + op[1] + old[len(old) - op[3]:] == new


@settings(max_examples=6, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(GAMES, st.sampled_from(LANGUAGES))
def test_spaces_from_remembered_pieces_equal_spaces_drawn_in_one_go(
    game: tuple[tuple[str, int], int], language: str,
) -> None:
    """The server draws a space from parts remembered from any game (its tile, its
    figures, the rest): the text and the shapes, with their order, are those of
    tikal.svg drawing the space in one go, and no shape draws another (so the shapes a
    board defines are those its spaces draw)."""
    (rules, players), seed = game
    rng = random.Random(seed)
    for state in play(rules, players, seed, max_steps=200):
        cells = rng.sample(svg.drawn_cells(state), 3)
        view = state.view(None)
        drawn = drawn_spaces(view, cells, space_signatures(state, cells), language)
        for cell in cells:
            plain = svg.space(state, cell, language=language)
            text, shapes = drawn[label(cell)]
            assert text == plain.text
            assert list(shapes.items()) == list(svg.shape_texts(plain.shapes).items())
            assert not any("href" in shape for shape in shapes.values())
