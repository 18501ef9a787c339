"""The one schema of both databases, and the numbered migrations that build it.

A database records the number of the last migration applied to it (``meta``, key
``schema``).  Opening one applies the migrations after that number, in one transaction,
and records the new number; a database from a newer version (a higher number) is refused,
and so is a database file of something else.  A fresh database gets every migration, so
new and upgraded databases have the same schema.

The tables are written once, for both databases: the few words that differ between
SQLite and PostgreSQL are the :class:`Dialect`'s, put in where a statement says
``{real}``, ``{bigint}``, ``{boolean}`` or ``{false}``; queries are written with ``?``
for their parameters (PostgreSQL's driver gets ``%s``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .faults import StorageUnavailable
from .rows import upload_digest


class Db(Protocol):
    """A database connection as the migrations and queries use it (sqlite3 or psycopg)."""

    def execute(self, sql: str, params: Any = ..., /) -> Any: ...


@dataclass(frozen=True)
class Dialect:
    """What differs between the two databases, said once."""

    name: str
    real: str
    bigint: str
    boolean: str
    false: str
    placeholder: str
    #: the names of the tables (no parameter) and of one table's columns (one)
    tables_sql: str
    columns_sql: str

    def ddl(self, template: str) -> str:
        return template.format(real=self.real, bigint=self.bigint, boolean=self.boolean,
                               false=self.false)

    def sql(self, query: str) -> str:
        """``query`` with this database's parameter marks (cached: queries are constants)."""
        return _marked(query, self.placeholder)


@functools.cache
def _marked(query: str, placeholder: str) -> str:
    return query if placeholder == "?" else query.replace("?", placeholder)


SQLITE = Dialect(
    "sqlite", real="REAL", bigint="INTEGER", boolean="INTEGER", false="0", placeholder="?",
    tables_sql="SELECT name FROM sqlite_master WHERE type = 'table' "
               "AND name NOT LIKE 'sqlite_%'",
    columns_sql="SELECT name FROM pragma_table_info(?)",
)
POSTGRES = Dialect(
    "postgresql", real="DOUBLE PRECISION", bigint="BIGINT", boolean="BOOLEAN", false="FALSE",
    placeholder="%s",
    tables_sql="SELECT table_name AS name FROM information_schema.tables "
               "WHERE table_schema = current_schema()",
    columns_sql="SELECT column_name AS name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = %s",
)


def names(db: Db, query: str, *params: Any) -> set[str]:
    return {row["name"] for row in db.execute(query, params).fetchall()}


# ------------------------------------------------------------------ migration steps


@dataclass(frozen=True)
class Statement:
    """One statement (a template for :meth:`Dialect.ddl`)."""

    template: str

    def apply(self, db: Db, dialect: Dialect) -> None:
        db.execute(dialect.ddl(self.template))


@dataclass(frozen=True)
class AddColumn:
    """A column, added unless the table has it (older files may have it, or not);
    ``fill`` sets it on the rows there are, when it is added."""

    table: str
    column: str
    definition: str
    fill: str | None = None

    def apply(self, db: Db, dialect: Dialect) -> None:
        if self.column in names(db, dialect.columns_sql, self.table):
            return
        db.execute(dialect.ddl(f"ALTER TABLE {self.table} ADD COLUMN {self.column} "
                               f"{self.definition}"))
        if self.fill:
            db.execute(dialect.ddl(self.fill))


@dataclass(frozen=True)
class Code:
    """A step that is code (what SQL cannot say the same way in both databases)."""

    run: Callable[[Db, Dialect], None]

    def apply(self, db: Db, dialect: Dialect) -> None:
        self.run(db, dialect)


Step = Statement | AddColumn | Code


@dataclass(frozen=True)
class Migration:
    number: int
    what: str
    steps: tuple[Step, ...]


def digest_old_uploads(db: Db, dialect: Dialect) -> None:
    """Uploads stored before uploads had a digest get one; of identical ones the oldest
    keeps it (the others stay without, and go first when the cap is reached)."""
    rows = db.execute("SELECT id, record, seats FROM games WHERE kind = 'replay' "
                      "AND digest IS NULL ORDER BY created").fetchall()
    seen: set[str] = set()
    for row in rows:
        record = json.loads(row["record"]) if row["record"] else {}
        seat_names = [seat.get("name") for seat in json.loads(row["seats"])]
        digest = upload_digest(record, seat_names)
        if digest not in seen:
            seen.add(digest)
            db.execute(dialect.sql("UPDATE games SET digest = ? WHERE id = ?"),
                       (digest, row["id"]))


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "games, their logs and the schema number", (
        Statement("""CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL DEFAULT 'game',
            rules TEXT NOT NULL,
            players INTEGER NOT NULL,
            options TEXT NOT NULL,
            seed {bigint} NOT NULL,
            seats TEXT NOT NULL,
            tokens TEXT NOT NULL,
            record TEXT,
            status TEXT NOT NULL DEFAULT 'playing',
            created {real} NOT NULL,
            updated {real} NOT NULL)"""),
        Statement("""CREATE TABLE IF NOT EXISTS log (
            game_id TEXT NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT,
            chance TEXT NOT NULL,
            at {real} NOT NULL,
            PRIMARY KEY (game_id, seq))"""),
        Statement("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"),
        AddColumn("games", "seeded", "{boolean} NOT NULL DEFAULT {false}"),
    )),
    Migration(2, "the state counter in both databases, analyses, indexes for start-up", (
        AddColumn("games", "state", "INTEGER NOT NULL DEFAULT -1", fill=(
            "UPDATE games SET state = COALESCE("
            "(SELECT MAX(seq) FROM log WHERE log.game_id = games.id), -1)")),
        Statement("""CREATE TABLE IF NOT EXISTS analyses (
            game_id TEXT PRIMARY KEY REFERENCES games(id),
            analysis TEXT NOT NULL,
            created {real} NOT NULL)"""),
        Statement("""CREATE TABLE IF NOT EXISTS analysis_claims (
            game_id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            done INTEGER NOT NULL,
            total INTEGER NOT NULL,
            until {real} NOT NULL)"""),
        Statement("CREATE INDEX IF NOT EXISTS games_updated ON games (updated)"),
        Statement("CREATE INDEX IF NOT EXISTS games_status ON games (kind, status, created)"),
    )),
    Migration(3, "uploads stored once per content, their size and last visit", (
        AddColumn("games", "digest", "TEXT"),
        AddColumn("games", "size", "INTEGER NOT NULL DEFAULT 0", fill=(
            "UPDATE games SET size = LENGTH(record) WHERE record IS NOT NULL")),
        AddColumn("games", "visited", "{real}"),
        Code(digest_old_uploads),
        Statement("CREATE UNIQUE INDEX IF NOT EXISTS games_digest ON games (digest)"),
    )),
    Migration(4, "accounts, their sign-in sessions and the seats they hold", (
        # name: as shown (NFKC); handle: the name case-folded (unique, for sign-in);
        # skeleton: its look-alike form (unique: no confusable names); a deleted account
        # keeps its row (its games show a deleted player) with no name, handle nor password
        Statement("""CREATE TABLE IF NOT EXISTS accounts (
            id TEXT PRIMARY KEY,
            name TEXT,
            handle TEXT UNIQUE,
            skeleton TEXT UNIQUE,
            password TEXT,
            created {real} NOT NULL,
            deleted {real})"""),
        # a session is stored by the digest of its cookie's secret, never the secret
        Statement("""CREATE TABLE IF NOT EXISTS account_sessions (
            digest TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts(id),
            csrf TEXT NOT NULL,
            created {real} NOT NULL,
            seen {real} NOT NULL,
            expires {real} NOT NULL)"""),
        Statement("CREATE INDEX IF NOT EXISTS account_sessions_account "
                  "ON account_sessions (account_id)"),
        Statement("""CREATE TABLE IF NOT EXISTS seat_accounts (
            game_id TEXT NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            account_id TEXT NOT NULL REFERENCES accounts(id),
            PRIMARY KEY (game_id, seat))"""),
        Statement("CREATE INDEX IF NOT EXISTS seat_accounts_account "
                  "ON seat_accounts (account_id)"),
    )),
    Migration(5, "ratings per player and rule set, their history, rated games", (
        # player: an account's id or "bot:<level>"; shown: the display rating (indexed
        # for the leaderboard)
        Statement("""CREATE TABLE IF NOT EXISTS ratings (
            player TEXT NOT NULL,
            rules TEXT NOT NULL,
            mu {real} NOT NULL,
            sigma {real} NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            shown INTEGER NOT NULL,
            updated {real} NOT NULL,
            PRIMARY KEY (player, rules))"""),
        Statement("CREATE INDEX IF NOT EXISTS ratings_board ON ratings (rules, shown)"),
        Statement("""CREATE TABLE IF NOT EXISTS rating_history (
            player TEXT NOT NULL,
            rules TEXT NOT NULL,
            game_id TEXT NOT NULL,
            at {real} NOT NULL,
            mu {real} NOT NULL,
            sigma {real} NOT NULL,
            shown INTEGER NOT NULL,
            PRIMARY KEY (player, rules, game_id))"""),
        Statement("CREATE INDEX IF NOT EXISTS rating_history_time "
                  "ON rating_history (player, rules, at)"),
        # a game its creator asked to be rated; applied: when its result was rated (once)
        Statement("""CREATE TABLE IF NOT EXISTS rated_games (
            game_id TEXT PRIMARY KEY REFERENCES games(id),
            rules TEXT NOT NULL,
            asked_by TEXT NOT NULL,
            applied {real})"""),
    )),
    Migration(6, "passkeys (WebAuthn) and their one-use challenges", (
        # id: the credential's id (base64url); public_key: COSE, base64url; sign_count:
        # the authenticator's counter (a lower one is a cloned key: refused)
        Statement("""CREATE TABLE IF NOT EXISTS passkeys (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts(id),
            public_key TEXT NOT NULL,
            sign_count {bigint} NOT NULL,
            name TEXT NOT NULL,
            created {real} NOT NULL,
            used {real})"""),
        Statement("CREATE INDEX IF NOT EXISTS passkeys_account ON passkeys (account_id)"),
        Statement("""CREATE TABLE IF NOT EXISTS passkey_challenges (
            id TEXT PRIMARY KEY,
            challenge TEXT NOT NULL,
            purpose TEXT NOT NULL,
            account_id TEXT,
            expires {real} NOT NULL)"""),
    )),
    Migration(7, "the lobby's tables and their seats", (
        # creator: a player id (account:<id> or guest:<digest>); status: open, starting,
        # started or closed; game_id once started; quick: a quick match's table (not
        # listed, started when full), rating: its first player's (rated quick matches)
        Statement("""CREATE TABLE IF NOT EXISTS lobby_tables (
            id TEXT PRIMARY KEY,
            rules TEXT NOT NULL,
            players INTEGER NOT NULL,
            options TEXT NOT NULL,
            rated {boolean} NOT NULL,
            fill TEXT NOT NULL,
            creator TEXT NOT NULL,
            status TEXT NOT NULL,
            game_id TEXT,
            created {real} NOT NULL,
            updated {real} NOT NULL,
            quick {boolean} NOT NULL,
            rating INTEGER)"""),
        Statement("CREATE INDEX IF NOT EXISTS lobby_tables_status "
                  "ON lobby_tables (status, updated)"),
        # one row per taken seat: the primary key makes a seat one player's, the unique
        # index a player one seat's (two processes asking for the last seat: one insert)
        Statement("""CREATE TABLE IF NOT EXISTS lobby_seats (
            table_id TEXT NOT NULL REFERENCES lobby_tables(id),
            seat INTEGER NOT NULL,
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            token TEXT,
            joined {real} NOT NULL,
            PRIMARY KEY (table_id, seat))"""),
        Statement("CREATE UNIQUE INDEX IF NOT EXISTS lobby_seats_player "
                  "ON lobby_seats (table_id, player)"),
        Statement("CREATE INDEX IF NOT EXISTS lobby_seats_of ON lobby_seats (player)"),
    )),
    Migration(8, "game chat", (
        # seq: the line's number in its game; text or phrase (a quick phrase's key);
        # state: the game's state counter when it was said (a replay shows it there)
        Statement("""CREATE TABLE IF NOT EXISTS game_chat (
            game_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            text TEXT,
            phrase TEXT,
            state INTEGER NOT NULL,
            at {real} NOT NULL,
            PRIMARY KEY (game_id, seq))"""),
    )),
    Migration(9, "rematch offers", (
        # one offer per finished game: status offered, starting, declined or started;
        # accepted: the seats that said yes (JSON); tokens: old seat -> the new game's token
        Statement("""CREATE TABLE IF NOT EXISTS rematches (
            game_id TEXT PRIMARY KEY,
            by_seat INTEGER NOT NULL,
            accepted TEXT NOT NULL,
            status TEXT NOT NULL,
            declined_by INTEGER,
            new_game TEXT,
            tokens TEXT NOT NULL,
            updated {real} NOT NULL)"""),
    )),
    Migration(10, "time controls; spectators in the chat", (
        # the game's time control as JSON (NULL: untimed); the clocks follow from log.at
        AddColumn("games", "clock", "TEXT"),
        # a lobby table's time control: a preset's name (NULL: untimed)
        AddColumn("lobby_tables", "clock", "TEXT"),
        # whether a game's spectators may write in its chat (its creator's choice)
        Statement("""CREATE TABLE IF NOT EXISTS chat_rooms (
            game_id TEXT PRIMARY KEY,
            spectators {boolean} NOT NULL,
            updated {real} NOT NULL)"""),
    )),
)
#: The schema this version writes: the number of its last migration.
LATEST = MIGRATIONS[-1].number


def stored_version(db: Db, dialect: Dialect, where: str) -> int:
    """The schema number of the database (0 for an empty one); refuses a file that is
    not a tikal database (other tables, no ``games`` nor ``meta``)."""
    tables = names(db, dialect.tables_sql)
    if not tables:
        return 0
    if not {"games", "meta"} & tables:
        raise StorageUnavailable(f"tables {', '.join(sorted(tables))}", "foreign", where)
    if "meta" not in tables:
        return 0
    row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None:
        return 0
    try:
        return int(row["value"])
    except ValueError:
        raise StorageUnavailable(f"schema {row['value']!r}", "foreign", where) from None


def pending(version: int, where: str) -> Sequence[Migration]:
    """The migrations a database at ``version`` still needs; refuses a newer one."""
    if version > LATEST:
        raise StorageUnavailable(f"schema {version}, this version knows up to {LATEST}",
                                 "too_new", where)
    return [m for m in MIGRATIONS if m.number > version]


def migrate(db: Db, dialect: Dialect, where: str) -> list[int]:
    """Apply the migrations ``db`` still needs (call in a transaction that holds the
    database for itself); the numbers applied."""
    done = []
    for migration in pending(stored_version(db, dialect, where), where):
        for step in migration.steps:
            step.apply(db, dialect)
        db.execute(dialect.sql(
            "INSERT INTO meta (key, value) VALUES ('schema', ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value"), (str(migration.number),))
        done.append(migration.number)
    return done
