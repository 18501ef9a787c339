"""Actions: small immutable values with a compact text notation.

Every player action is one atomic step ("move a worker from F3 to G3"), so a
turn is a sequence of actions ending with :data:`END_TURN`.  ``str(action)``
gives the notation and :func:`parse_action` reads it back; see
``docs/notation.md``.  Chance outcomes (a tile drawn, a token revealed) are
:class:`Draw` and :class:`Reveal`; they appear in records but are never played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

from .hexes import label, parse_label

TOKEN_LETTERS: Final = "abcdefgh"


def token_name(token_type: int) -> str:
    """Treasure types are printed as letters a-h (the demo's single type is ``a``)."""
    return TOKEN_LETTERS[token_type]


def parse_token(text: str) -> int:
    if len(text) != 1 or text.lower() not in TOKEN_LETTERS:
        raise ValueError(f"{text!r} is not a treasure type (a-h)")
    return TOKEN_LETTERS.index(text.lower())


def _figure(leader: bool) -> str:
    return "L" if leader else "W"


class Action:
    """Base class of every action; subclasses are frozen dataclasses."""

    __slots__ = ()
    verb: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class PlaceTile(Action):
    """Place the drawn (or picked) terrain tile on ``cell`` turned ``rotation`` sixth-turns."""

    cell: int
    rotation: int
    verb: ClassVar[str] = "tile"

    def __str__(self) -> str:
        return f"tile {label(self.cell)} {self.rotation}"


@dataclass(frozen=True, slots=True)
class PickTile(Action):
    """Auction: choose one tile of the display for this turn."""

    tile_id: str
    verb: ClassVar[str] = "pick"

    def __str__(self) -> str:
        return f"pick {self.tile_id}"


@dataclass(frozen=True, slots=True)
class PutFigure(Action):
    """Bring a figure from the supply onto the basecamp or an own camp."""

    cell: int
    leader: bool
    verb: ClassVar[str] = "put"

    def __str__(self) -> str:
        return f"put {_figure(self.leader)} {label(self.cell)}"


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Walk one figure across the stones of a shared edge."""

    src: int
    dst: int
    leader: bool
    verb: ClassVar[str] = "move"

    def __str__(self) -> str:
        return f"move {_figure(self.leader)} {label(self.src)} {label(self.dst)}"


@dataclass(frozen=True, slots=True)
class SecretPath(Action):
    """Move one figure between the basecamp and own camps for 1 AP."""

    src: int
    dst: int
    leader: bool
    verb: ClassVar[str] = "path"

    def __str__(self) -> str:
        return f"path {_figure(self.leader)} {label(self.src)} {label(self.dst)}"


@dataclass(frozen=True, slots=True)
class Dig(Action):
    cell: int
    verb: ClassVar[str] = "dig"

    def __str__(self) -> str:
        return f"dig {label(self.cell)}"


@dataclass(frozen=True, slots=True)
class TakeTreasure(Action):
    cell: int
    verb: ClassVar[str] = "take"

    def __str__(self) -> str:
        return f"take {label(self.cell)}"


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Give own single treasure ``give`` for seat ``other``'s single treasure ``take``."""

    give: int
    take: int
    other: int
    verb: ClassVar[str] = "swap"

    def __str__(self) -> str:
        return f"swap {token_name(self.give)} {token_name(self.take)} {self.other}"


@dataclass(frozen=True, slots=True)
class BuildCamp(Action):
    cell: int
    verb: ClassVar[str] = "camp"

    def __str__(self) -> str:
        return f"camp {label(self.cell)}"


@dataclass(frozen=True, slots=True)
class PlaceGuard(Action):
    cell: int
    leader: bool
    verb: ClassVar[str] = "guard"

    def __str__(self) -> str:
        return f"guard {_figure(self.leader)} {label(self.cell)}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    verb: ClassVar[str] = "end"

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    amount: int
    verb: ClassVar[str] = "bid"

    def __str__(self) -> str:
        return f"bid {self.amount}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Chance: the tile that came off the stack."""

    tile_id: str
    verb: ClassVar[str] = "*draw"

    def __str__(self) -> str:
        return f"*draw {self.tile_id}"


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Chance: the type of the treasure token just taken."""

    token: int
    verb: ClassVar[str] = "*token"

    def __str__(self) -> str:
        return f"*token {token_name(self.token)}"


END_TURN: Final = EndTurn()
PASS: Final = Pass()
ChanceEvent = Draw | Reveal


def _leader(word: str) -> bool:
    upper = word.upper()
    if upper not in ("W", "L"):
        raise ValueError(f"{word!r} is not a figure: W (worker) or L (leader)")
    return upper == "L"


def _int(word: str, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise ValueError(f"{word!r} is not a number ({what})") from None


_ARITY: Final = {
    "tile": 2, "pick": 1, "put": 2, "move": 3, "path": 3, "dig": 1, "take": 1,
    "swap": 3, "camp": 1, "guard": 2, "end": 0, "bid": 1, "pass": 0, "*draw": 1, "*token": 1,
}


def parse_action(text: str) -> Action:
    """Read one action (or chance event) in the notation of ``docs/notation.md``."""
    words = text.split()
    if not words:
        raise ValueError("empty action")
    verb, args = words[0].lower(), words[1:]
    if verb not in _ARITY:
        raise ValueError(f"unknown action {words[0]!r}; verbs are {', '.join(_ARITY)}")
    if len(args) != _ARITY[verb]:
        raise ValueError(f"{verb!r} takes {_ARITY[verb]} argument(s), got {len(args)}: {text!r}")
    return _build(verb, args)


def _build(verb: str, args: list[str]) -> Action:
    if verb == "tile":
        rotation = _int(args[1], "rotation 0-5")
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
