"""Durable storage of games: setup plus an append-only log of entries.

A game is stored as its rule set, options, seats (with their secret tokens),
the secret seed and the log of what happened: every player action with the
chance outcomes it produced (tiles drawn, treasures revealed), and every undo.
Nothing else is needed to rebuild the game exactly (see ``session.py``).

:class:`Storage` is the interface; :class:`SqliteStorage` implements it with
the standard library's ``sqlite3`` (WAL journal, ``synchronous=FULL``): an
entry is committed before the server acknowledges the move, so killing the
server (even with SIGKILL) loses nothing that a client was told about.
:class:`~tikal.server.storage_pg.PostgresStorage` provides the same methods on
PostgreSQL, for several server processes sharing their games;
:func:`tikal.server.databases.open_storage` picks one from the ``--db`` argument.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


class StorageConflict(Exception):
    """An entry with this sequence number is already stored (a concurrent or replayed move)."""


class StorageUnavailable(Exception):
    """The database cannot be reached (for longer than a restart takes); nothing was stored,
    and the request may be sent again later."""


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


@dataclass(frozen=True)
class LogEntry:
    """One step of a game: ``kind`` is "action" (with ``chance``) or "undo"."""

    seq: int  # 1, 2, 3, ... per game; the state counter after this entry
    kind: str
    seat: int
    action: str | None = None
    chance: tuple[str, ...] = ()
    at: float = field(default_factory=time.time)


class Storage(Protocol):
    """What the server needs from a database."""

    def create(self, game: GameRecord) -> None:
        """Store a new game (its id must be new)."""
        ...

    def append(self, game_id: str, entry: LogEntry) -> None:
        """Durably append ``entry``; raises :class:`StorageConflict` if ``entry.seq`` exists."""
        ...

    def load(self, game_id: str) -> tuple[GameRecord, list[LogEntry]] | None:
        """A game and its log, or None."""
        ...

    def log_since(self, game_id: str, seq: int) -> list[LogEntry]:
        """The entries after ``seq`` (another server process may have stored them)."""
        ...

    def game_ids(self, kind: str = "game") -> list[str]:
        """Ids of all stored games of ``kind``, oldest first."""
        ...

    def set_status(self, game_id: str, status: str) -> None:
        """Remember a short status ("playing", "over") for listings."""
        ...

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        """Recent games: id, rules, players, status, created, updated, seats (names, kinds)."""
        ...

    def close(self) -> None: ...

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


SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL DEFAULT 'game',
    rules TEXT NOT NULL,
    players INTEGER NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seeded INTEGER NOT NULL DEFAULT 0,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    record TEXT,
    status TEXT NOT NULL DEFAULT 'playing',
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT,
    chance TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO meta VALUES ('schema', '1');
"""


@dataclass(eq=False)
class _Pending:
    """An entry waiting for the group commit, and how its commit went."""

    game_id: str
    entry: LogEntry
    done: bool = False
    error: BaseException | None = None


class SqliteStorage:
    """:class:`Storage` in one SQLite file (``:memory:`` works too, for tests)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._turn = threading.Condition()  # the group commit's queue (see append)
        self._queue: list[_Pending] = []
        self._writing = False
        self.commits = 0  # group commits so far (each one sync to disk)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(games)")}
        if "seeded" not in columns:  # files written before the column existed
            self._db.execute("ALTER TABLE games ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0")

    def create(self, game: GameRecord) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    f"INSERT INTO games ({GAME_INSERT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    game_row(game),
                )
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def append(self, game_id: str, entry: LogEntry) -> None:
        """Group commit: entries that arrive while a commit is syncing to disk wait and are
        then committed together, one sync for all of them (each in its own savepoint, so a
        conflict refuses only its own entry).  With one sync per move, moves queued behind
        each other's syncs and held the worker threads the broadcasts need."""
        pending = _Pending(game_id, entry)
        with self._turn:
            self._queue.append(pending)
            while not pending.done and self._writing:
                self._turn.wait()
            if pending.done:
                batch: list[_Pending] = []
            else:  # lead: write everything queued so far, own entry included
                self._writing = True
                batch, self._queue = self._queue, []
        if batch:
            try:
                self._write(batch)
            finally:
                with self._turn:
                    self._writing = False
                    for item in batch:
                        item.done = True
                    self._turn.notify_all()
        if pending.error is not None:
            raise pending.error

    def append_many(self, entries: Sequence[tuple[str, LogEntry]]) -> list[BaseException | None]:
        """Append every ``(game_id, entry)`` in one transaction (one sync); per entry
        None if it was stored, else the error (:class:`StorageConflict` for a sequence
        number that exists: only that entry is refused).  The server's commit thread
        batches the moves applied on the event loop through this."""
        batch = [_Pending(game_id, entry) for game_id, entry in entries]
        if batch:
            self._write(batch)
        return [item.error for item in batch]

    def _write(self, batch: list[_Pending]) -> None:
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for item in batch:
                    self._insert(item)
                self._db.execute("COMMIT")
                self.commits += 1
            except BaseException as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                for item in batch:
                    item.error = item.error or exc
                if not isinstance(exc, Exception):
                    raise

    def _insert(self, item: _Pending) -> None:
        entry = item.entry
        self._db.execute("SAVEPOINT entry")
        try:
            self._db.execute(
                "INSERT INTO log (game_id, seq, kind, seat, action, chance, at) "
                "VALUES (?,?,?,?,?,?,?)",
                entry_row(item.game_id, entry),
            )
            self._db.execute("UPDATE games SET updated=? WHERE id=?", (entry.at, item.game_id))
        except sqlite3.IntegrityError:
            self._db.execute("ROLLBACK TO entry")
            item.error = StorageConflict(f"entry {entry.seq} of {item.game_id} already exists")
        self._db.execute("RELEASE entry")

    def load(self, game_id: str) -> tuple[GameRecord, list[LogEntry]] | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {GAME_SELECT_COLUMNS} FROM games WHERE id=?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            rows = self._db.execute(
                f"SELECT {LOG_SELECT_COLUMNS} FROM log WHERE game_id=? ORDER BY seq", (game_id,)
            ).fetchall()
        return game_from_row(row), [entry_from_row(r) for r in rows]

    def log_since(self, game_id: str, seq: int) -> list[LogEntry]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {LOG_SELECT_COLUMNS} FROM log WHERE game_id=? AND seq>? ORDER BY seq",
                (game_id, seq),
            ).fetchall()
        return [entry_from_row(r) for r in rows]

    def game_ids(self, kind: str = "game") -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id FROM games WHERE kind=? ORDER BY created", (kind,)
            ).fetchall()
        return [r[0] for r in rows]

    def set_status(self, game_id: str, status: str) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET status=? WHERE id=?", (status, game_id))

    def listing(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                f"SELECT {LISTING_COLUMNS} FROM games WHERE kind='game' "
                "ORDER BY updated DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [listing_from_row(r) for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- analyses (see tikal.server.analysis_jobs) -----------------------------

    def _analysis_table(self) -> None:
        """Create the ``analyses`` tables on first use (older files lack them)."""
        if not getattr(self, "_has_analyses", False):
            self._db.execute(ANALYSIS_SCHEMA)
            self._db.execute(CLAIM_SCHEMA)
            self._has_analyses = True

    def save_analysis(self, game_id: str, analysis: dict[str, Any]) -> None:
        with self._lock:
            self._analysis_table()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT OR IGNORE INTO analyses (game_id, analysis, created) "
                    "VALUES (?,?,?)", (game_id, json.dumps(analysis), time.time()),
                )
                self._db.execute("DELETE FROM analysis_claims WHERE game_id=?", (game_id,))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def claim_analysis(self, game_id: str, owner: str, total: int, until: float) -> bool:
        with self._lock:
            self._analysis_table()
            row = self._db.execute(
                CLAIM_SQL.replace("%s", "?"), (game_id, owner, total, until, time.time())
            ).fetchone()
        return row is not None

    def renew_analysis(self, game_id: str, owner: str, done: int, until: float) -> None:
        with self._lock:
            self._analysis_table()
            self._db.execute(
                "UPDATE analysis_claims SET done=?, until=? WHERE game_id=? AND owner=?",
                (done, until, game_id, owner),
            )

    def analysis_claim(self, game_id: str) -> dict[str, Any] | None:
        with self._lock:
            self._analysis_table()
            row = self._db.execute(
                "SELECT owner, done, total, until FROM analysis_claims WHERE game_id=?",
                (game_id,),
            ).fetchone()
        return claim_from_row(row)

    def release_analysis(self, game_id: str, owner: str) -> None:
        with self._lock:
            self._analysis_table()
            self._db.execute(
                "DELETE FROM analysis_claims WHERE game_id=? AND owner=?", (game_id, owner))

    def load_analysis(self, game_id: str) -> dict[str, Any] | None:
        with self._lock:
            self._analysis_table()
            row = self._db.execute(
                "SELECT analysis FROM analyses WHERE game_id=?", (game_id,)
            ).fetchone()
        return dict(json.loads(row[0])) if row is not None else None


# ------------------------------------------------------------------ rows (both databases)


def game_row(game: GameRecord) -> tuple[Any, ...]:
    """The ``games`` columns of a new game, in the order of :data:`GAME_INSERT_COLUMNS`."""
    return (
        game.game_id, game.kind, game.rules, game.players,
        json.dumps(game.options), game.seed, game.seeded,
        json.dumps([s.to_json() for s in game.seats]),
        json.dumps({t: list(s) for t, s in game.tokens.items()}),
        json.dumps(game.record) if game.record is not None else None,
        "playing" if game.kind == "game" else "replay",
        game.created, game.created,
    )


GAME_INSERT_COLUMNS = (
    "id, kind, rules, players, options, seed, seeded, seats, tokens, record, status, created, "
    "updated"
)
#: The ``games`` columns :func:`game_from_row` reads, in its order.
GAME_SELECT_COLUMNS = (
    "id, kind, rules, players, options, seed, seats, tokens, record, created, seeded"
)
#: The ``log`` columns :func:`entry_from_row` reads, in its order.
LOG_SELECT_COLUMNS = "seq, kind, seat, action, chance, at"
#: The ``games`` listing :func:`listing_from_row` reads (the last column counts log entries).
LISTING_COLUMNS = (
    "id, rules, players, status, created, updated, seats, "
    "(SELECT COUNT(*) FROM log WHERE log.game_id = games.id)"
)


def game_from_row(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        game_id=row[0], kind=row[1], rules=row[2], players=row[3],
        options=json.loads(row[4]), seed=row[5],
        seats=tuple(SeatRecord.from_json(s) for s in json.loads(row[6])),
        tokens={t: tuple(s) for t, s in json.loads(row[7]).items()},
        record=json.loads(row[8]) if row[8] else None, created=row[9], seeded=bool(row[10]),
    )


def entry_from_row(row: Sequence[Any]) -> LogEntry:
    return LogEntry(seq=row[0], kind=row[1], seat=row[2], action=row[3],
                    chance=tuple(json.loads(row[4])), at=row[5])


def entry_row(game_id: str, entry: LogEntry) -> tuple[Any, ...]:
    """The ``log`` columns of an entry: game_id, seq, kind, seat, action, chance, at."""
    return (game_id, entry.seq, entry.kind, entry.seat, entry.action,
            json.dumps(list(entry.chance)), entry.at)


def listing_from_row(row: Sequence[Any]) -> dict[str, Any]:
    return {
        "id": row[0], "rules": row[1], "players": row[2], "status": row[3], "created": row[4],
        "updated": row[5], "moves": row[7],
        "seats": [
            {"kind": s["kind"], "name": s["name"], "level": s.get("level")}
            for s in json.loads(row[6])
        ],
    }


#: Who is computing which analysis (both databases), so that several server processes
#: compute each one once: a claim lasts while its owner renews it after every decision.
CLAIM_SCHEMA = """
CREATE TABLE IF NOT EXISTS analysis_claims (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    done INTEGER NOT NULL,
    total INTEGER NOT NULL,
    until DOUBLE PRECISION NOT NULL
)
"""

#: Take the claim if there is none, it ran out, or it is the owner's own (both
#: databases; parameters: game, owner, total, until, now); a row comes back if taken.
CLAIM_SQL = """
INSERT INTO analysis_claims (game_id, owner, done, total, until) VALUES (%s, %s, 0, %s, %s)
ON CONFLICT (game_id) DO UPDATE SET owner=excluded.owner, done=0, total=excluded.total,
    until=excluded.until
WHERE analysis_claims.until < %s OR analysis_claims.owner = excluded.owner
RETURNING game_id
"""


def claim_from_row(row: Any) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"owner": row[0], "done": int(row[1]), "total": int(row[2]), "until": float(row[3])}


#: Stored analyses (both databases): one per game or uploaded record, as JSON.
ANALYSIS_SCHEMA = """
CREATE TABLE IF NOT EXISTS analyses (
    game_id TEXT PRIMARY KEY REFERENCES games(id),
    analysis TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
)
"""
