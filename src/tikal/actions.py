"""Actions: small immutable values with a compact text notation.

Every player action is one atomic step ("move a worker from F3 to G3"), so a
turn is a sequence of actions ending with :data:`END_TURN`.  ``str(action)``
gives the notation and :func:`parse_action` reads it back; see
``docs/notation.md``.  Chance outcomes (a tile drawn, a token revealed) are
:class:`Draw` and :class:`Reveal`; they appear in records but are never played.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Final, NamedTuple, Self

from .errors import NotationError
from .hexes import label, parse_label
from .messages import Message

TOKEN_LETTERS: Final = "abcdefgh"


def token_name(token_type: int) -> str:
    """Treasure types are printed as letters a-h (the demo's single type is ``a``)."""
    return TOKEN_LETTERS[token_type]


def parse_token(text: str) -> int:
    if len(text) != 1 or text.lower() not in TOKEN_LETTERS:
        raise NotationError("notation.not_a_token", {"word": text})
    return TOKEN_LETTERS.index(text.lower())


def _figure(leader: bool) -> str:
    return "L" if leader else "W"


#: Fields that hold a space (printed as its label) and a treasure type (printed as a letter).
_CELL_FIELDS: Final = frozenset({"cell", "src", "dst"})
_TOKEN_FIELDS: Final = frozenset({"give", "take", "token"})


class Action:
    """Base class of every action; subclasses are frozen dataclasses.

    ``str(action)`` is the notation, ``repr(action)`` an expression that builds it again
    (``Move.parse('move W A5 A4')``, like python-chess's ``Move.from_uci``), ``cells``
    the spaces it touches (for highlighting).  What an action costs, whether it is legal
    and how it reads are questions for the game: ``game.cost``, ``game.check``,
    ``game.describe``.
    """

    __slots__ = ()
    verb: ClassVar[str] = ""
    #: Chance outcomes (a tile drawn, a token revealed) are logged but never played.
    is_chance: ClassVar[bool] = False

    @property
    def cells(self) -> tuple[int, ...]:
        """The spaces this action touches, in the order it names them."""
        return ()

    @classmethod
    def parse(cls, text: str) -> Self:
        """Read the notation; on a subclass, the text must be an action of that kind."""
        action = parse_action(text)
        if not isinstance(action, cls):
            raise NotationError("notation.wrong_kind", {"text": text, "verb": cls.verb})
        return action

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    def to_json(self) -> dict[str, Any]:
        """The verb and each field by name; spaces as labels, treasure types as letters."""
        data: dict[str, Any] = {"verb": self.verb}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if f.name in _CELL_FIELDS:
                value = label(value)
            elif f.name in _TOKEN_FIELDS:
                value = token_name(value)
            data[f.name] = value
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Action:
        """Inverse of :meth:`to_json`; raises :class:`NotationError` on anything else."""
        kind = _BY_VERB.get(str(data.get("verb")))
        if kind is None:
            raise NotationError("notation.unknown_verb", {"word": data.get("verb"),
                                                          "verbs": ", ".join(_ARITY)})
        values: dict[str, Any] = {}
        for f in fields(kind):  # type: ignore[arg-type]
            if f.name not in data:
                raise NotationError("notation.missing_field", {"verb": kind.verb, "field": f.name})
            value = data[f.name]
            if f.name in _CELL_FIELDS:
                value = parse_label(str(value))
            elif f.name in _TOKEN_FIELDS:
                value = parse_token(str(value))
            values[f.name] = value
        return kind(**values)


@dataclass(frozen=True, slots=True, repr=False)
class PlaceTile(Action):
    """Place the drawn (or picked) terrain tile on ``cell`` turned ``rotation`` sixth-turns."""

    cell: int
    rotation: int
    verb: ClassVar[str] = "tile"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def __str__(self) -> str:
        return f"tile {label(self.cell)} {self.rotation}"


@dataclass(frozen=True, slots=True, repr=False)
class PickTile(Action):
    """Auction: choose one tile of the display for this turn."""

    tile_id: str
    verb: ClassVar[str] = "pick"

    def __str__(self) -> str:
        return f"pick {self.tile_id}"


@dataclass(frozen=True, slots=True, repr=False)
class PutFigure(Action):
    """Bring a figure from the supply onto the basecamp or an own camp."""

    cell: int
    leader: bool
    verb: ClassVar[str] = "put"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def __str__(self) -> str:
        return f"put {_figure(self.leader)} {label(self.cell)}"


@dataclass(frozen=True, slots=True, repr=False)
class Move(Action):
    """Walk one figure across the stones of a shared edge."""

    src: int
    dst: int
    leader: bool
    verb: ClassVar[str] = "move"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.src, self.dst)

    def __str__(self) -> str:
        return f"move {_figure(self.leader)} {label(self.src)} {label(self.dst)}"


@dataclass(frozen=True, slots=True, repr=False)
class SecretPath(Action):
    """Move one figure between the basecamp and own camps for 1 AP."""

    src: int
    dst: int
    leader: bool
    verb: ClassVar[str] = "path"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.src, self.dst)

    def __str__(self) -> str:
        return f"path {_figure(self.leader)} {label(self.src)} {label(self.dst)}"


@dataclass(frozen=True, slots=True, repr=False)
class Dig(Action):
    cell: int
    verb: ClassVar[str] = "dig"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def __str__(self) -> str:
        return f"dig {label(self.cell)}"


@dataclass(frozen=True, slots=True, repr=False)
class TakeTreasure(Action):
    cell: int
    verb: ClassVar[str] = "take"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def __str__(self) -> str:
        return f"take {label(self.cell)}"


@dataclass(frozen=True, slots=True, repr=False)
class Swap(Action):
    """Give own single treasure ``give`` for seat ``other``'s single treasure ``take``."""

    give: int
    take: int
    other: int
    verb: ClassVar[str] = "swap"

    def __str__(self) -> str:
        return f"swap {token_name(self.give)} {token_name(self.take)} {self.other}"


@dataclass(frozen=True, slots=True, repr=False)
class BuildCamp(Action):
    cell: int
    verb: ClassVar[str] = "camp"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def __str__(self) -> str:
        return f"camp {label(self.cell)}"


@dataclass(frozen=True, slots=True, repr=False)
class PlaceGuard(Action):
    cell: int
    leader: bool
    verb: ClassVar[str] = "guard"

    @property
    def cells(self) -> tuple[int, ...]:
        return (self.cell,)

    def __str__(self) -> str:
        return f"guard {_figure(self.leader)} {label(self.cell)}"


@dataclass(frozen=True, slots=True, repr=False)
class EndTurn(Action):
    verb: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True, repr=False)
class Bid(Action):
    amount: int
    verb: ClassVar[str] = "bid"

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True, repr=False)
class Pass(Action):
    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True, repr=False)
class Draw(Action):
    """Chance: the tile that came off the stack."""

    tile_id: str
    verb: ClassVar[str] = "*draw"
    is_chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return f"*draw {self.tile_id}"


@dataclass(frozen=True, slots=True, repr=False)
class Reveal(Action):
    """Chance: the type of the treasure token just taken."""

    token: int
    verb: ClassVar[str] = "*token"
    is_chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return f"*token {token_name(self.token)}"


END_TURN: Final = EndTurn()
PASS: Final = Pass()


def _leader(word: str) -> bool:
    upper = word.upper()
    if upper not in ("W", "L"):
        raise NotationError("notation.not_a_figure", {"word": word})
    return upper == "L"


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        what_message = Message(f"notation.what.{what}")
        raise NotationError(
            "notation.not_a_number", {"word": word, "what": what_message}
        ) from None


_ARITY: Final = {
    "tile": 2, "pick": 1, "put": 2, "move": 3, "path": 3, "dig": 1, "take": 1,
    "swap": 3, "camp": 1, "guard": 2, "end": 0, "bid": 1, "pass": 0, "*draw": 1, "*token": 1,
}


def parse_action(text: str) -> Action:
    """Read one action (or chance event) in the notation of ``docs/notation.md``."""
    words = text.split()
    if not words:
        raise NotationError("notation.empty")
    verb, args = words[0].lower(), words[1:]
    if verb not in _ARITY:
        raise NotationError("notation.unknown_verb", {"word": words[0], "verbs": ", ".join(_ARITY)})
    if len(args) != _ARITY[verb]:
        raise NotationError(
            "notation.arity", {"verb": verb, "arity": _ARITY[verb], "got": len(args), "text": text}
        )
    return _build(verb, args)


def _build(verb: str, args: list[str]) -> Action:
    if verb == "tile":
        rotation = _int(args[1], "rotation")
        return PlaceTile(parse_label(args[0]), rotation)
    if verb in ("pick", "*draw"):
        tile_id = args[0].upper()
        return PickTile(tile_id) if verb == "pick" else Draw(tile_id)
    if verb == "put":
        return PutFigure(parse_label(args[1]), _leader(args[0]))
    if verb in ("move", "path"):
        kind = Move if verb == "move" else SecretPath
        return kind(parse_label(args[1]), parse_label(args[2]), _leader(args[0]))
    if verb in ("dig", "take", "camp"):
        simple = {"dig": Dig, "take": TakeTreasure, "camp": BuildCamp}[verb]
        return simple(parse_label(args[0]))
    if verb == "swap":
        return Swap(parse_token(args[0]), parse_token(args[1]), _int(args[2], "seat"))
    if verb == "guard":
        return PlaceGuard(parse_label(args[1]), _leader(args[0]))
    if verb == "bid":
        return Bid(_int(args[0], "bid"))
    if verb == "*token":
        return Reveal(parse_token(args[0]))
    return END_TURN if verb == "end" else PASS


_BY_VERB: Final[dict[str, type[Action]]] = {
    kind.verb: kind
    for kind in (PlaceTile, PickTile, PutFigure, Move, SecretPath, Dig, TakeTreasure, Swap,
                 BuildCamp, PlaceGuard, EndTurn, Bid, Pass, Draw, Reveal)
}


class LogStep(NamedTuple):
    """One step of a game log: a played action and the chance outcomes it caused.

    The first step of a log has ``action=None``: the draws that set the game up.
    """

    action: Action | None
    chance: tuple[Action, ...]


def log_steps(log: Sequence[Action]) -> list[LogStep]:
    """Split a log (``game.history`` or a parsed record) into steps; the setup step first."""
    steps: list[LogStep] = []
    action: Action | None = None
    chance: list[Action] = []
    for entry in log:
        if entry.is_chance:
            chance.append(entry)
            continue
        if action is not None or not steps:
            steps.append(LogStep(action, tuple(chance)))
        action, chance = entry, []
    if action is not None or not steps:
        steps.append(LogStep(action, tuple(chance)))
    return steps
