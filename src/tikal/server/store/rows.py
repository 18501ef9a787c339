"""Records <-> database rows, by column name (both databases: ``sqlite3.Row`` and
psycopg's ``dict_row`` are read alike)."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol

from .protocol import GameRecord, LogEntry, SeatRecord


class Row(Protocol):
    def __getitem__(self, key: str, /) -> Any: ...


#: The ``games`` columns a new game is inserted with, in the order of :func:`game_values`.
GAME_COLUMNS = ("id", "kind", "rules", "players", "options", "seed", "seeded", "seats",
                "tokens", "record", "status", "created", "updated", "state", "digest", "size",
                "clock")
#: The ``log`` columns, in the order of :func:`entry_values`.
LOG_COLUMNS = ("game_id", "seq", "kind", "seat", "action", "chance", "at")

INSERT_GAME = (f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) "
               f"VALUES ({', '.join('?' for _ in GAME_COLUMNS)})")
INSERT_ENTRY = (f"INSERT INTO log ({', '.join(LOG_COLUMNS)}) "
                f"VALUES ({', '.join('?' for _ in LOG_COLUMNS)})")


def game_values(game: GameRecord, state: int, digest: str | None = None,
                status: str | None = None) -> tuple[Any, ...]:
    """A new game's row (:data:`GAME_COLUMNS`); ``state`` is its last entry's seq, the
    status "playing" (an upload's "replay") unless given."""
    record = json.dumps(game.record) if game.record is not None else None
    status = status or ("playing" if game.kind == "game" else "replay")
    return (
        game.game_id, game.kind, game.rules, game.players, json.dumps(game.options),
        game.seed, game.seeded, json.dumps([s.to_json() for s in game.seats]),
        json.dumps({t: list(s) for t, s in game.tokens.items()}), record,
        status, game.created, game.created, state,
        digest, len(record) if record is not None else 0,
        json.dumps(game.clock) if game.clock is not None else None,
    )


def game_from_row(row: Row) -> GameRecord:
    return GameRecord(
        game_id=row["id"], kind=row["kind"], rules=row["rules"], players=row["players"],
        options=json.loads(row["options"]), seed=row["seed"],
        seats=tuple(SeatRecord.from_json(s) for s in json.loads(row["seats"])),
        tokens={t: tuple(s) for t, s in json.loads(row["tokens"]).items()},
        record=json.loads(row["record"]) if row["record"] else None,
        created=row["created"], seeded=bool(row["seeded"]),
        clock=json.loads(row["clock"]) if row["clock"] else None,
    )


def entry_values(game_id: str, entry: LogEntry) -> tuple[Any, ...]:
    """An entry's row (:data:`LOG_COLUMNS`)."""
    return (game_id, entry.seq, entry.kind, entry.seat, entry.action,
            json.dumps(list(entry.chance)), entry.at)


def entry_from_row(row: Row) -> LogEntry:
    return LogEntry(seq=row["seq"], kind=row["kind"], seat=row["seat"], action=row["action"],
                    chance=tuple(json.loads(row["chance"])), at=row["at"])


def listing_from_row(row: Row) -> dict[str, Any]:
    return {
        "id": row["id"], "rules": row["rules"], "players": row["players"],
        "status": row["status"], "created": row["created"], "updated": row["updated"],
        "moves": row["moves"],
        "seats": [
            {"kind": s["kind"], "name": s["name"], "level": s.get("level")}
            for s in json.loads(row["seats"])
        ],
    }


def claim_from_row(row: Row | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"owner": row["owner"], "done": int(row["done"]), "total": int(row["total"]),
            "until": float(row["until"])}


def upload_digest(record: dict[str, Any], names: list[Any]) -> str:
    """What makes two uploads the same: the record as stored and its players' names."""
    canonical = json.dumps({"record": record, "names": names}, sort_keys=True,
                           separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()
