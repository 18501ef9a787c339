"""Position snapshots: any reachable situation as JSON (python-chess's FEN is the model).

``position_to_json`` writes everything, hidden parts included; with
``public=True`` it writes only what every player may see [HIDDEN-1] (stack as
counts per letter, face-down tokens as counts).  ``position_from_json`` checks
that a snapshot is complete and consistent and names the field when it is not.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, TypeVar

from . import hexes
from .actions import TOKEN_LETTERS, parse_action, parse_token, token_name
from .components import TEMPLE, TREASURE, VOLCANO, rule_set
from .errors import NotationError, PositionError
from .messages import Message
from .state import LEADER_PLACES, GameState, Phase, ScoreEvent

S = TypeVar("S", bound=GameState)

FORMAT = "tikal-position"
VERSION = 1


def _where(cell: int) -> str:
    return hexes.label(cell)


def _leader_text(value: int) -> str:
    return LEADER_PLACES.get(value) or _where(value)


def _tokens_text(tokens: tuple[int, ...] | list[int]) -> str:
    return "".join(token_name(t) for t in tokens)


def _board_entry(game: GameState, cell: int, public: bool) -> dict[str, Any]:
    tile = game.tiles[cell]
    spec = tile.spec
    kind = spec.kind
    entry: dict[str, Any] = {
        "at": hexes.label(cell), "tile": spec.tile_id, "kind": kind, "rotation": tile.rotation,
        "stones": list(tile.stones),
    }
    if kind == TEMPLE:
        entry["printed"] = spec.value
        entry["level"] = game.levels[cell]
    elif kind == TREASURE:
        tokens = game.tokens.get(cell, ())
        entry["tokens"] = len(tokens) if public else _tokens_text(tokens)
    if cell in game.camps:
        entry["camp"] = game.camps[cell]
    if cell in game.guards:
        owner, leader = game.guards[cell]
        entry["guard"] = {"player": owner, "figure": "L" if leader else "W"}
    return entry


def stack_letters(game: GameState) -> list[str]:
    """The letter of every tile in the stack, in its order.  The tiles are looked up
    straight in the rule set's table (the web server writes the public position after
    every move, and a call of ``rules.tile`` per tile was a tenth of that); a tile the
    rule set lacks goes through ``rules.tile``, which names it in its error."""
    by_id = game.rules.tiles_by_id
    try:
        return [by_id[t].letter for t in game.stack]
    except KeyError:
        return [game.rules.tile(t).letter for t in game.stack]


def _player_entry(game: GameState, p: int) -> dict[str, Any]:
    return {
        "leader": _leader_text(game.leader[p]),
        "workers": {_where(c): n for c, n in sorted(game.workers[p].items())},
        "supply": game.supply[p],
        "out": game.out[p],
        "treasures": _tokens_text([t for t, n in enumerate(game.treasures[p]) for _ in range(n)]),
        "score": game.scores[p],
        "bids_paid": game.bids_paid[p],
    }


def position_to_json(game: GameState, public: bool = False) -> dict[str, Any]:
    """A JSON-ready dict of the whole position (or only its public part)."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.name,
        "options": dict(game.options),
        "players": game.players,
        "phase": game.phase.value,
        "current": game.current,
        "ap": game.ap,
        "drawn": game.drawn,
        "board": [_board_entry(game, c, public) for c in sorted(game.tiles)],
        "figures": [_player_entry(game, p) for p in range(game.players)],
        "level_supply": {str(v): n for v, n in enumerate(game.level_supply) if v >= 2},
        "display": list(game.display),
        "markers": list(game.markers),
        "discarded": list(game.discarded),
        "turn": {
            "dug": {_where(c): n for c, n in sorted(game.dug.items())},
            "taken": {_where(c): n for c, n in sorted(game.taken.items())},
        },
        "scoring": {
            "queue": list(game.scoring_queue),
            "final": game.scoring_final,
            "volcano": game.volcano,
            "holder": game.volcano_holder,
            "rounds": game.scoring_rounds,
        },
        "auction": {
            "order": list(game.bid_order),
            "passed": list(game.passed),
            "high_bid": game.high_bid,
            "high_bidder": game.high_bidder,
        },
        "last_placer": game.last_placer,
        "tiles_placed": game.tiles_placed,
    }
    if public:
        letters = Counter(stack_letters(game))
        data["stack"] = {letter: letters[letter] for letter in sorted(letters)}
        data["unseen_tiles"] = sorted(game.stack)
        data["token_pool"] = len(game.token_pool)
    else:
        data["seed"] = game.seed
        data["stack"] = list(reversed(game.stack))
        data["token_pool"] = _tokens_text(game.token_pool)
    return data


# ---------------------------------------------------------------- reading


def _get(data: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str = "") -> Any:
    name = f"{where}{key}"
    if key not in data:
        raise PositionError(name, "position.missing", {})
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PositionError(name, "position.expected_type", {
            "kind": str(getattr(kind, "__name__", kind)), "value": repr(value)})
    return value


def _opt(
    data: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any, where: str = ""
) -> Any:
    """An optional field: ``default`` when it is missing, else checked like :func:`_get`."""
    return _get(data, key, kind, where) if key in data else default


def _tile_ids(data: dict[str, Any], key: str, required: bool = True) -> list[str]:
    ids = _get(data, key, list) if required else _opt(data, key, list, [])
    for i, tile_id in enumerate(ids):
        if not isinstance(tile_id, str):
            raise PositionError(f"{key}[{i}]", "position.tile_id", {"value": repr(tile_id)})
    return list(ids)


def _turn_counts(turn: dict[str, Any], key: str, game: GameState) -> dict[int, int]:
    """``turn.dug`` / ``turn.taken``: per space, 0..2 this turn [DIG-3][TREASURE-3]."""
    counts = {}
    for text, count in _opt(turn, key, dict, {}, "turn.").items():
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 2:
            raise PositionError(f"turn.{key}.{text}", "position.count_0_2",
                                {"value": repr(count)})
        counts[_cell(text, f"turn.{key}", game)] = count
    return counts


def _cell(text: Any, field: str, game: GameState) -> int:
    if not isinstance(text, str):
        raise PositionError(field, "position.space_name", {"value": repr(text)})
    try:
        cell = hexes.parse_label(text)
    except ValueError:
        raise PositionError(field, "position.not_a_space", {"text": text}) from None
    if game.rules.bounded_board and cell not in hexes.STANDARD_CELL_SET:
        raise PositionError(field, "position.off_board", {"text": text})
    return cell


def _tokens(text: Any, field: str, game: GameState) -> list[int]:
    if not isinstance(text, str):
        raise PositionError(field, "position.letters", {"value": repr(text)})
    try:
        tokens = [parse_token(ch) for ch in text]
    except ValueError:
        raise PositionError(field, "position.letters", {"value": repr(text)}) from None
    if any(t >= game.rules.token_types for t in tokens):
        raise PositionError(field, "position.token_types", {
            "letters": TOKEN_LETTERS[: game.rules.token_types]})
    return tokens


def _seat(value: Any, field: str, players: int, optional: bool = False) -> Any:
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise PositionError(field, "position.seat", {"last": players - 1, "value": repr(value)})
    return value


def position_from_json(data: Any, cls: type[S]) -> S:
    """Build a game of class ``cls`` from a snapshot; raises :class:`PositionError` naming
    the bad field."""
    if not isinstance(data, dict):
        raise PositionError("position", "position.object", {})
    if data.get("format") != FORMAT:
        raise PositionError("format", "position.format", {"format": repr(FORMAT)})
    name = _get(data, "rules", str)
    try:
        rs = rule_set(name)
    except ValueError:
        raise PositionError("rules", "position.rules", {"rules": repr(name)}) from None
    players = _get(data, "players", int)
    if players not in rs.player_counts:
        raise PositionError("players", "position.players", {
            "rules": name, "counts": str(rs.player_counts)})
    options = {**rs.default_options, **_get(data, "options", dict)}
    if set(options) - set(rs.default_options):
        raise PositionError("options", "position.options", {"rules": name})
    seed = data.get("seed")
    game = cls.empty(rs, players, options, seed if isinstance(seed, int) else None)
    game.tiles.clear()
    game.exits.clear()
    game.frontier.clear()
    game.levels.clear()
    _read_board(game, _get(data, "board", list))
    _read_figures(game, _get(data, "figures", list))
    _read_supplies(game, data)
    _read_flow(game, data)
    _check_conservation(game, data)
    return game


def _read_board(game: GameState, board: list[Any]) -> None:
    rs = game.rules
    for i, entry in enumerate(board):
        where = f"board[{i}]."
        if not isinstance(entry, dict):
            raise PositionError(f"board[{i}]", "position.object", {})
        cell = _cell(entry.get("at"), where + "at", game)
        if cell in game.tiles:
            raise PositionError(where + "at", "position.two_tiles", {"cell": _where(cell)})
        tile_id = _get(entry, "tile", str, where)
        try:
            spec = rs.tile(tile_id)
        except ValueError:
            raise PositionError(where + "tile", "position.unknown_tile", {
                "tile": repr(tile_id)}) from None
        rotation = _get(entry, "rotation", int, where)
        if not 0 <= rotation <= 5:
            raise PositionError(where + "rotation", "position.rotation", {})
        game.set_tile(cell, spec, rotation)
        if spec.kind == TEMPLE and "level" in entry:
            level = _get(entry, "level", int, where)
            if not spec.value <= level <= 10:
                raise PositionError(where + "level", "position.level", {"low": spec.value})
            game.levels[cell] = level
        if spec.kind == TREASURE:
            game.tokens[cell] = tuple(_tokens(entry.get("tokens", ""), where + "tokens", game))
        if "camp" in entry:
            game.camps[cell] = _seat(entry["camp"], where + "camp", game.players)
        if "guard" in entry:
            guard = _get(entry, "guard", dict, where)
            owner = _seat(guard.get("player"), where + "guard.player", game.players)
            game.guards[cell] = (owner, guard.get("figure") == "L")
    for cell, spec in rs.preprinted:
        if game.tiles.get(cell, None) is None or game.tiles[cell].spec != spec:
            raise PositionError("board", "position.preprinted", {
                "kind": Message(f"kind.{spec.kind}"), "cell": _where(cell)})
    # frontier excludes placed cells (``set_tile`` may have added some before they were placed)
    game.frontier.difference_update(game.tiles)


def _read_figures(game: GameState, figures: list[Any]) -> None:
    if len(figures) != game.players:
        raise PositionError("figures", "position.entries", {"count": game.players})
    for p, entry in enumerate(figures):
        where = f"figures[{p}]."
        if not isinstance(entry, dict):
            raise PositionError(f"figures[{p}]", "position.object", {})
        leader = _get(entry, "leader", str, where)
        lookup = {name: place for place, name in LEADER_PLACES.items()}
        if leader in lookup:
            game.leader[p] = lookup[leader]
        else:
            game.leader[p] = _cell(leader, where + "leader", game)
        workers = _get(entry, "workers", dict, where)
        game.workers[p] = {}
        for text, count in workers.items():
            cell = _cell(text, f"{where}workers.{text}", game)
            if not isinstance(count, int) or count < 1:
                raise PositionError(f"{where}workers.{text}", "position.positive", {})
            game.workers[p][cell] = count
        for cell in [*game.workers[p], game.leader[p]]:
            if cell >= 0 and (cell not in game.tiles or game.tiles[cell].spec.kind == VOLCANO):
                name = "leader" if cell == game.leader[p] else f"workers.{_where(cell)}"
                raise PositionError(where + name, "position.not_walkable", {"cell": _where(cell)})
        game.supply[p] = _get(entry, "supply", int, where)
        game.out[p] = _get(entry, "out", int, where)
        counts = [0] * game.rules.token_types
        for t in _tokens(entry.get("treasures", ""), where + "treasures", game):
            counts[t] += 1
        game.treasures[p] = tuple(counts)
        game.scores[p] = _get(entry, "score", int, where)
        game.bids_paid[p] = _opt(entry, "bids_paid", int, 0, where)


def _read_supplies(game: GameState, data: dict[str, Any]) -> None:
    levels = _get(data, "level_supply", dict)
    game.level_supply = [0] * 11
    for key, count in levels.items():
        if not key.isdigit() or not 2 <= int(key) <= 10 or not isinstance(count, int) or count < 0:
            raise PositionError(f"level_supply.{key}", "position.level_supply", {})
        game.level_supply[int(key)] = count
    stack = _get(data, "stack", list)
    for i, tile_id in enumerate(stack):
        if not isinstance(tile_id, str) or tile_id not in game.rules.tiles_by_id:
            raise PositionError(f"stack[{i}]", "position.unknown_tile", {"tile": repr(tile_id)})
    letters = [game.rules.tile(t).letter for t in stack]
    if letters != sorted(letters):
        raise PositionError("stack", "position.stack_order", {})
    game.stack = list(reversed(stack))
    game.token_pool = _tokens(data.get("token_pool", ""), "token_pool", game)
    game.display = _tile_ids(data, "display")
    game.discarded = _tile_ids(data, "discarded", required=False)
    markers = _get(data, "markers", list)
    if len(markers) != game.players or not all(isinstance(m, bool) for m in markers):
        raise PositionError("markers", "position.booleans", {"count": game.players})
    game.markers = list(markers)


def _read_flow(game: GameState, data: dict[str, Any]) -> None:
    try:
        game.phase = Phase(_get(data, "phase", str))
    except ValueError:
        raise PositionError("phase", "position.phase", {
            "phases": ", ".join(p.value for p in Phase)}) from None
    game.current = _seat(data.get("current"), "current", game.players)
    game.ap = _get(data, "ap", int)
    if not 0 <= game.ap <= game.rules.action_points:
        raise PositionError("ap", "position.ap", {"high": game.rules.action_points})
    drawn = data.get("drawn")
    if drawn is not None and (not isinstance(drawn, str) or drawn not in game.rules.tiles_by_id):
        raise PositionError("drawn", "position.unknown_tile", {"tile": repr(drawn)})
    if game.phase is Phase.TILE and drawn is None:
        raise PositionError("drawn", "position.needs_drawn", {})
    game.drawn = drawn
    turn = _opt(data, "turn", dict, {})
    game.dug = _turn_counts(turn, "dug", game)
    game.taken = _turn_counts(turn, "taken", game)
    scoring = _opt(data, "scoring", dict, {})
    queue = _opt(scoring, "queue", list, [], "scoring.")
    game.scoring_queue = [_seat(p, "scoring.queue", game.players) for p in queue]
    if game.phase is Phase.SCORING and not game.scoring_queue:
        raise PositionError("scoring.queue", "position.needs_queue", {})
    game.scoring_final = bool(scoring.get("final", False))
    game.volcano = _opt(scoring, "volcano", (str, type(None)), None, "scoring.")
    game.volcano_holder = _seat(scoring.get("holder"), "scoring.holder", game.players, True)
    game.scoring_rounds = _opt(scoring, "rounds", int, 0, "scoring.")
    auction = _opt(data, "auction", dict, {})
    order = _opt(auction, "order", list, [], "auction.")
    game.bid_order = [_seat(p, "auction.order", game.players) for p in order]
    passed = _opt(auction, "passed", list, [], "auction.")
    game.passed = [_seat(p, "auction.passed", game.players) for p in passed]
    game.high_bid = _opt(auction, "high_bid", int, -1, "auction.")
    game.high_bidder = _seat(auction.get("high_bidder"), "auction.high_bidder", game.players, True)
    game.last_placer = _seat(data.get("last_placer"), "last_placer", game.players, True)
    game.tiles_placed = _opt(data, "tiles_placed", int, 0)
    for i, entry in enumerate(_opt(data, "history", list, [])):
        try:
            game.history.append(parse_action(entry if isinstance(entry, str) else ""))
        except ValueError as exc:
            reason = exc.reason if isinstance(exc, NotationError) else Message(
                "record.text", {"text": str(exc)})
            raise PositionError(f"history[{i}]", "position.history", {
                "entry": repr(entry), "reason": reason}) from None
    for i, event in enumerate(_opt(data, "score_events", list, [])):
        if not isinstance(event, dict) or set(event) != set(ScoreEvent._fields) or not all(
            isinstance(v, int) for v in event.values()
        ):
            raise PositionError(f"score_events[{i}]", "position.score_event", {
                "fields": ", ".join(ScoreEvent._fields)})
        game.score_events.append(ScoreEvent.from_json(event))


def _check_conservation(game: GameState, data: dict[str, Any]) -> None:
    """Every tile, figure, token and temple level is somewhere exactly once."""
    rs = game.rules
    places = [t.spec.tile_id for c, t in game.tiles.items()]
    places += game.stack + game.display + game.discarded
    places += [t for t in (game.drawn, game.volcano) if t is not None]
    counted = Counter(places)
    expected = Counter(t.tile_id for t in rs.terrain) + Counter(s.tile_id for _, s in rs.preprinted)
    if counted != expected:
        extra = sorted((counted - expected).elements())
        missing = sorted((expected - counted).elements())
        raise PositionError("board/stack", "position.tiles_conserved", {
            "extra": str(extra), "missing": str(missing)})
    for p in range(game.players):
        if sum(game.figures_total(p)) != rs.figures_per_player:
            raise PositionError(f"figures[{p}]", "position.figures_conserved",
                                {"count": rs.figures_per_player})
    hidden = game.token_pool + [t for stack in game.tokens.values() for t in stack]
    held = [t for counts in game.treasures for t, n in enumerate(counts) for _ in range(n)]
    if Counter(hidden + held) != Counter({t: rs.token_copies for t in range(rs.token_types)}):
        raise PositionError("tokens", "position.tokens_conserved", {"count": rs.token_count})
    used = Counter(v for c, level in game.levels.items()
                   for v in range(game.tiles[c].spec.value + 1, level + 1))
    for v in range(2, 11):
        if game.level_supply[v] + used[v] != rs.level_supply[v]:
            raise PositionError("level_supply", "position.levels_conserved", {"value": v})
