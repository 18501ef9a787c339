"""Every message of the protocol as a typed structure (docs/web.md, "WebSocket" and
"Protocol"): what the server sends (``state``, ``delta``, ``ack``, ``error``, ``hint``,
``pong``, ``chat``, ``rematch``), what a client sends (``hello``, ``action``, ``undo``, ``hint``,
``sync``, ``ping``, ``chat``), and the parts a full state is made of.

TypedDicts: the messages are built as plain dicts and written by orjson, so the types
cost nothing at run time (a message is built on every move, and validating it as a
model would cost more than building it: see docs/web.md, "Protocol").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NotRequired, TypeAlias, TypedDict

#: The protocol version every message carries (``v``): 1 sent the whole state after
#: every move, 2 sent legal tables without ``same``/``lists``/``templates`` and the
#: drawn tile as six whole pictures, 3 had no string splices, 4 had no clocks and
#: stand-ins.
PROTOCOL = 5

# ------------------------------------------------------------------ parts of a state


class SeatInfo(TypedDict):
    """A seat as clients draw it: its name and its look from :mod:`tikal.seats`."""

    seat: int
    name: str
    kind: NotRequired[str]
    level: NotRequired[str | None]
    colour: str
    ink: str
    shape: str
    colour_name: str


class RuleSetInfo(TypedDict):
    """What a client needs to know of a rule set to lay out its screens (no rules)."""

    players: list[int]
    action_points: int
    costs: dict[str, int]
    auction: bool
    actions: list[str]
    tiles: int
    options: dict[str, Any]
    option_texts: dict[str, str]


class ScoreInfo(TypedDict):
    """One player's scoring (:class:`~tikal.state.ScoreEvent`) with its total."""

    round: int
    player: int
    temples: int
    treasures: int
    at: int
    total: int


class PlayerInfo(TypedDict):
    """What changes of each player in play."""

    score: int
    treasures: dict[str, int]
    treasure_points: int
    temple_points: int
    supply_workers: int
    leader: str
    on_board: int
    out: int
    in_supply: int
    camps_left: int
    guards_left: int
    bids_paid: int
    marker: Any


class DisplayTile(TypedDict):
    """A tile on offer in the auction, with its picture."""

    tile: str
    describe: str
    svg: str


class Rotations(TypedDict):
    """The drawn tile in each rotation: ``head + middles[r] + tail`` is rotation ``r``."""

    head: str
    tail: str
    middles: list[str]


class DrawnTile(TypedDict):
    tile: str
    kind: str
    describe: str
    rotations: Rotations


class AuctionInfo(TypedDict):
    order: list[int]
    passed: list[int]
    high_bid: int
    high_bidder: int | None


class ScoringInfo(TypedDict):
    queue: list[int]
    final: bool
    rounds: int


class BoardParts(TypedDict):
    """The board picture in pieces: ``root + head + defs... + mid + spaces in order +
    tail`` is the SVG (``defs`` in id order: the shapes the spaces draw)."""

    root: str
    head: str
    defs: dict[str, str]
    mid: str
    order: list[str]
    spaces: dict[str, str]
    tail: str


class ActionLine(TypedDict):
    """A log line of an action or a chance outcome."""

    seat: int
    kind: Literal["action", "chance"]
    notation: str
    text: str
    step: int | None
    #: the stand-in bot's level, when one played this action for the seat's player
    by: NotRequired[str]


class ScoreLine(TypedDict):
    """A log line of one player's scoring."""

    seat: int
    kind: Literal["score"]
    score: ScoreInfo
    text: str


LogLine: TypeAlias = ActionLine | ScoreLine


class LegalTable(TypedDict):
    """One verb's legal actions as a table (docs/web.md, "Legal tables")."""

    keys: list[str]
    rows: Sequence[Sequence[Any]]
    same: NotRequired[dict[str, Any]]
    lists: NotRequired[dict[str, list[str]]]
    templates: NotRequired[dict[str, list[str]]]


#: A legal action as a client reads it: ``action``, ``verb``, the action's own fields,
#: ``cost``, ``cells`` and ``text`` (its fields depend on the verb).
LegalEntry: TypeAlias = dict[str, Any]


class ClockInfo(TypedDict):
    """A timed game's clocks (docs/web.md, Time controls): the time control, each seat's
    seconds ``left`` as of ``since`` (server time, seconds since the epoch), the seat
    whose time runs and when it runs out; a client counts down from the message's
    ``now``."""

    control: dict[str, Any]
    left: list[float]
    running: int | None
    since: float
    deadline: float | None


class PublicPart(TypedDict):
    """What every connection of a game is told, from the public view [HIDDEN-1]."""

    game_id: str
    rules: str
    players: int
    seats: list[SeatInfo]
    phase: str
    current: int
    ap: int
    rule_set: RuleSetInfo
    over: bool
    winners: list[int]
    scores: list[int]
    player_info: list[PlayerInfo]
    position: dict[str, Any]
    score_events: list[ScoreInfo]
    stack_left: int
    display: list[DisplayTile]
    auction: AuctionInfo
    scoring: ScoringInfo
    bot_thinking: bool
    seeded: bool
    drawn: DrawnTile | None
    board: BoardParts
    #: each seat's stand-in bot level while one plays it for its player, else None
    standins: list[str | None]
    clock: ClockInfo | None
    #: ended by every player's agreement, the scores as they stood (docs/web.md)
    ended_early: bool
    #: the seats whose offer to end the game early stands
    end_offers: list[int]


class SeatPart(TypedDict):
    """What only the connections of one set of seats are told."""

    you: list[int]
    spectator: bool
    your_turn: bool
    can_undo: bool
    legal: NotRequired[dict[str, LegalTable]]
    verbs: NotRequired[dict[str, str]]


# ------------------------------------------------------------------ server to client


class StateMessage(PublicPart, SeatPart):
    """The whole state: on connecting, on ``sync``, after a ``stale`` error, and the
    answer of ``GET /api/games/{id}``."""

    type: Literal["state"]
    v: int
    state: int
    lang: str
    log: list[LogLine]
    #: server time (seconds since the epoch) as sent: only in a timed game's messages
    now: NotRequired[float]


#: A delta's operation on the client's copy: ``[path]`` deletes, ``[path, value]`` sets
#: (one past a list's end appends), ``[path, middle, keep_start, keep_end]`` splices a
#: string.
Op: TypeAlias = list[Any]

LogPatch = TypedDict("LogPatch", {"from": int, "lines": list[LogLine]})


class DeltaMessage(TypedDict):
    """What changed since state ``base``: the operations and the log from line ``from``."""

    type: Literal["delta"]
    v: int
    base: int | None
    state: int
    now: NotRequired[float]
    set: NotRequired[list[Op]]
    log: NotRequired[LogPatch]


class AckMessage(TypedDict):
    """A move or undo accepted: it was for ``base``, the game is now at ``state``."""

    type: Literal["ack"]
    base: int
    state: int


class PongMessage(TypedDict):
    type: Literal["pong"]
    state: int


class ErrorMessage(TypedDict):
    """A refusal (docs/web.md, "JSON API"): a refusal by the engine carries its message
    ``key`` and ``params``, and the rule it cites."""

    type: Literal["error"]
    code: str
    message: str
    key: NotRequired[str]
    params: NotRequired[dict[str, Any]]
    rule: NotRequired[str]
    rule_url: NotRequired[str]
    state: NotRequired[int]
    retry_after: NotRequired[float]


class HintMessage(TypedDict):
    """A suggested action: a legal entry (with the action's own fields besides these)
    plus the bot that chose it and the state it is for."""

    type: Literal["hint"]
    action: str
    verb: str
    cost: int
    cells: list[str]
    text: str
    bot: str
    state: int


class ChatLine(TypedDict):
    """A chat line (issue 29): its number in the game, who said it, a text or a quick
    phrase's key, the game's state counter then and the time (s since the epoch)."""

    seq: int
    seat: int
    name: str
    text: str | None
    phrase: str | None
    state: int
    at: float


class ChatMessage(TypedDict):
    """A line said at the game's table (sent to every connection of the game), or the
    creator's choice whether spectators may write (``spectators``)."""

    type: Literal["chat"]
    line: NotRequired[ChatLine]
    spectators: NotRequired[bool]


class RematchMessage(TypedDict):
    """A finished game's rematch offer as one connection's seats see it (``status`` None:
    nobody offered yet; ``token``: this seat's token of the new game once started)."""

    type: Literal["rematch"]
    status: str | None
    waiting: list[int]
    by: NotRequired[int]
    accepted: NotRequired[list[int]]
    declined_by: NotRequired[int | None]
    game: NotRequired[str | None]
    token: NotRequired[str | None]


ServerMessage: TypeAlias = (
    StateMessage | DeltaMessage | AckMessage | PongMessage | ErrorMessage | HintMessage
    | ChatMessage | RematchMessage)

# ------------------------------------------------------------------ client to server


class HelloMessage(TypedDict):
    """The first message on a WebSocket (``token`` null: a spectator)."""

    type: Literal["hello"]
    token: str | None


class ActionMessage(TypedDict):
    type: Literal["action"]
    action: str
    state: int


class UndoMessage(TypedDict):
    type: Literal["undo"]
    state: int


class HintRequest(TypedDict):
    type: Literal["hint"]


class SyncMessage(TypedDict):
    """Ask for the whole state (a client whose copy does not follow on)."""

    type: Literal["sync"]


class PingMessage(TypedDict):
    type: Literal["ping"]


class ChatRequest(TypedDict):
    """A line to say: a text or a quick phrase's key (a spectator's only if the creator
    lets spectators write, with the ``name`` to show)."""

    type: Literal["chat"]
    text: NotRequired[str]
    phrase: NotRequired[str]
    name: NotRequired[str]


ClientMessage: TypeAlias = (
    HelloMessage | ActionMessage | UndoMessage | HintRequest | SyncMessage | PingMessage
    | ChatRequest)
