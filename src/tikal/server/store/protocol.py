"""What the server stores and the protocols a database implements.

A game is stored as its rule set, options, seats (with their secret tokens), the secret
seed and the log of what happened: every player action with the chance outcomes it
produced (tiles drawn, treasures revealed), and every undo.  Nothing else is needed to
rebuild the game exactly (see ``session.py``).

:class:`Storage` is everything the server needs: games (:class:`GameStorage`), uploaded
records (:class:`UploadStorage`), analyses (:class:`AnalysisStorage`, used only by
:mod:`tikal.server.analysis_jobs`) and the tables of other modules (:class:`TableStorage`:
accounts).  :class:`~.sqlite.SqliteStorage` and
:class:`~.postgres.PostgresStorage` implement it; :func:`tikal.server.store.open_storage`
picks one from the ``--db`` argument.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

#: Status of a game whose stored log does not replay (quarantined, see Manager.get).
DAMAGED = "damaged"
#: Statuses of the games a server loads at start: those in play, and those set aside
#: as damaged (tried again: a newer version may load them).
UNFINISHED = ("playing", DAMAGED)


@dataclass(frozen=True)
class SeatRecord:
    """One seat: a human (with an invite token) or a bot (with a level)."""

    kind: str  # "human" or "bot"
    name: str
    level: str | None = None
    token: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "level": self.level, "token": self.token}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatRecord:
        return cls(str(data["kind"]), str(data["name"]), data.get("level"), data.get("token"))


@dataclass(frozen=True)
class GameRecord:
    """Everything about a game that is fixed at creation."""

    game_id: str
    rules: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: tuple[SeatRecord, ...]
    #: token -> seats it may act for (each human seat's own token, plus hot-seat tokens)
    tokens: dict[str, tuple[int, ...]]
    created: float = field(default_factory=time.time)
    kind: str = "game"  # "game" (played here) or "replay" (an uploaded record)
    #: the creator chose the seed (so may know the shuffle): shown to every player
    seeded: bool = False
    record: dict[str, Any] | None = None  # the uploaded record, for kind == "replay"
    #: the time control (:class:`~tikal.server.clock.model.TimeControl` as JSON), if any
    clock: dict[str, Any] | None = None


@dataclass(frozen=True)
class LogEntry:
    """One step of a game: ``kind`` is "start", "action" (with ``chance``), "undo", or
    "standin" / "back" (a bot takes the seat over, its ``action`` the level / the player
    takes it back: :mod:`tikal.server.clock`)."""

    seq: int  # 0, 1, 2, ... per game; the state counter after this entry
    kind: str
    seat: int
    action: str | None = None
    chance: tuple[str, ...] = ()
    at: float = field(default_factory=time.time)


@dataclass(frozen=True)
class UploadCap:
    """How much the uploaded records may take: beyond either bound the oldest unvisited
    uploads go first (``tikal serve --upload-cap``, ``--upload-cap-mb``)."""

    count: int = 5_000
    megabytes: float = 100.0

    @property
    def bytes(self) -> int:
        return int(self.megabytes * 1024 * 1024)


class GameStorage(Protocol):
    """Games and their logs."""

    #: "sqlite" or "postgresql" (a storage of another kind says its own name)
    kind: str
    #: other server processes may write the same database: listen for their moves
    shared: bool

    def create(self, game: GameRecord, start: LogEntry | None = None) -> None:
        """Store a new game (its id must be new) with its log's ``start`` entry, in one
        transaction: a game (``kind == "game"``) must have one, an upload must not."""
        ...

    def append(self, game_id: str, entry: LogEntry) -> None:
        """Durably append ``entry``; raises :class:`StorageConflict` if ``entry.seq`` exists."""
        ...

    def append_many(self, entries: Sequence[tuple[str, LogEntry]]) -> list[BaseException | None]:
        """Append every ``(game_id, entry)`` in one transaction; per entry, None if it was
        stored, else why not (a :class:`StorageConflict` refuses only its entry)."""
        ...

    def load(self, game_id: str) -> tuple[GameRecord, list[LogEntry]] | None:
        """A game and its log, or None."""
        ...

    def log_since(self, game_id: str, seq: int) -> list[LogEntry]:
        """The entries after ``seq`` (another server process may have stored them)."""
        ...

    def game_ids(self, kind: str = "game", status: Sequence[str] = ()) -> list[str]:
        """Ids of the stored games of ``kind`` (of one of the statuses ``status``, if
        given), oldest first."""
        ...

    def set_status(self, game_id: str, status: str) -> None:
        """Remember a short status ("playing", "over", "damaged") for listings."""
        ...

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        """Recent games: id, rules, players, status, created, updated, seats (names, kinds),
        moves; damaged games left out."""
        ...

    def close(self) -> None: ...


class UploadStorage(Protocol):
    """Uploaded records, stored once per content and within a cap."""

    def store_upload(self, game: GameRecord, digest: str,
                     cap: UploadCap) -> tuple[str, list[str]]:
        """Store an uploaded record (``game.kind == "replay"``) unless one with the same
        ``digest`` is stored: the id it is stored under.  Then, while the uploads exceed
        ``cap``, the oldest unvisited ones (then the least recently visited) are deleted,
        with their analyses: their ids come second."""
        ...

    def visit(self, game_id: str, at: float) -> None:
        """An upload was opened (it goes later when uploads are evicted)."""
        ...

    def upload_totals(self) -> tuple[int, int]:
        """(number, bytes) of the uploads stored."""
        ...


class AnalysisStorage(Protocol):
    """Analyses of finished games and uploads (see :mod:`tikal.server.analysis_jobs`)."""

    def save_analysis(self, game_id: str, analysis: dict[str, Any]) -> None:
        """Store the analysis of a finished game or uploaded record (the first one stored
        stays: an analysis is deterministic, so a second one would be the same)."""
        ...

    def load_analysis(self, game_id: str) -> dict[str, Any] | None:
        """The stored analysis of ``game_id``, or None."""
        ...

    def claim_analysis(self, game_id: str, owner: str, total: int, until: float) -> bool:
        """Whether ``owner`` may compute the analysis of ``game_id``: nobody else holds a
        claim on it that lasts past now (a process that died stops renewing its claim, so
        another takes over).  The claim lasts until ``until`` (a time.time())."""
        ...

    def renew_analysis(self, game_id: str, owner: str, done: int, until: float) -> None:
        """``owner`` has done ``done`` decisions; its claim lasts until ``until``."""
        ...

    def analysis_claim(self, game_id: str) -> dict[str, Any] | None:
        """The claim on ``game_id``'s analysis (owner, done, total, until), or None."""
        ...

    def release_analysis(self, game_id: str, owner: str) -> None:
        """Drop ``owner``'s claim (the analysis was stored, failed or was cancelled)."""
        ...


class TableStorage(Protocol):
    """What modules beside the games (accounts) need: their own tables in the same
    database, queried in its transactions."""

    def transaction(self, work: Callable[[Any], T], *, write: bool = True) -> T:
        """``work`` given a connection, in one transaction."""
        ...

    def sql(self, query: str) -> str:
        """``query`` (written with ``?``) with the database's own parameter marks."""
        ...


class Storage(GameStorage, UploadStorage, AnalysisStorage, TableStorage, Protocol):
    """What the server needs from a database."""


def check_start(game: GameRecord, start: LogEntry | None) -> None:
    """A game is created with its start entry, an upload without one (every storage
    checks this, so no caller can leave a game without its start)."""
    if (game.kind == "game") != (start is not None):
        needed = "with" if game.kind == "game" else "without"
        raise ValueError(f"a {game.kind} must be created {needed} a start entry")
    if start is not None and (start.kind != "start" or start.seq != 0):
        raise ValueError("a game's first entry is its start entry, seq 0")


def is_postgres_url(db: str | Path) -> bool:
    return str(db).startswith(("postgresql://", "postgres://"))


def shown_location(db: str | Path) -> str:
    """The database as shown to people: a file's full path, a URL without its password."""
    if not is_postgres_url(db):
        return str(Path(db).resolve())
    scheme, _, rest = str(db).partition("://")
    credentials, at, host = rest.rpartition("@")
    user = credentials.partition(":")[0]
    return f"{scheme}://{user}{at}{host}"
