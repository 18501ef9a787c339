"""Seeded mutations of real game records, for the upload fuzz (``test_record_fuzz.py``).

The records are the bot games of ``tests/fixtures/records/`` and random games of every
rule set and player count (``random_games.py``), finished and cut short.  Each case is
one record with one to three mutations: a log entry changed, dropped, repeated, moved
or cut; a header field, the options, the scoring, the result or the seats given another
value or type (huge numbers, floats, booleans, strings, nesting).  A case is a pure
function of its number, so a failing case is named by it and reproduces alone.
"""

from __future__ import annotations

import copy
import json
import random
import string
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from random_games import CONFIGS, finished
from record_fixtures import FIXTURES

Record = dict[str, Any]

#: Values of every JSON type that parsers tend to trip on.
NASTY: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 2, 3, 4, 5, 2**31, 2**63, -(2**63) - 1, 10**40, 1.5, -0.0,
    1e308, "", " ", "2", "standard", "demo", "auction", "tikal-record", "end", "*draw A.1",
    "\x00", "ü" * 30, [], [None], [1, 2], ["end"], {}, {"a": 1}, {"camp_needs_own_figure": 1},
    [[[]]], {"": {"": []}},
)
TOP_FIELDS = ("format", "version", "rules", "options", "players", "seed", "log", "scoring",
              "result", "seats", "game_id")
WORD_CHARS = string.ascii_letters + string.digits + ",.-*_ "


@cache
def base_records() -> tuple[str, ...]:
    """Every source record as JSON text (each case decodes its own copy)."""
    texts = [path.read_text() for path in sorted(FIXTURES.glob("*.json"))]
    for i, (rules, players) in enumerate(CONFIGS):
        texts.append(json.dumps(finished(rules, players, seed=100 + i).record()))
        texts.append(json.dumps(finished(rules, players, seed=200 + i, max_steps=40).record()))
    return tuple(texts)


def nasty(rng: random.Random) -> Any:
    """A value of some JSON type: one of :data:`NASTY`, or a random number or word."""
    pick = rng.random()
    if pick < 0.6:
        return copy.deepcopy(rng.choice(NASTY))
    if pick < 0.8:
        return rng.choice((-1, 1)) * rng.randrange(10 ** rng.randrange(1, 25))
    return word(rng)


def word(rng: random.Random) -> str:
    return "".join(rng.choice(WORD_CHARS) for _ in range(rng.randrange(0, 12)))


def _log(record: Record) -> list[Any] | None:
    log = record.get("log")
    return log if isinstance(log, list) and log else None


def change_word(record: Record, rng: random.Random) -> None:
    """One word of a log entry replaced: a number, a label, a verb, a random word."""
    log = _log(record)
    if log is None or not isinstance(entry := log[i := rng.randrange(len(log))], str):
        return
    words = entry.split(" ")
    j = rng.randrange(len(words))
    words[j] = rng.choice((
        str(rng.randrange(-3, 12)), str(rng.choice((-1, 1)) * 10 ** rng.randrange(3, 40)),
        f"{rng.randrange(-9, 9)},{rng.randrange(-9, 9)}", rng.choice("LWABCDEFGHIJ"),
        rng.choice(("tile", "put", "move", "path", "dig", "take", "camp", "swap", "guard",
                    "bid", "pass", "end", "pick", "*draw", "*token")),
        word(rng), "", "nan", "inf", "1e9", "0x10", "+1", "-0", "1_000",
    ))
    log[i] = " ".join(words)


def change_chars(record: Record, rng: random.Random) -> None:
    """A few characters of a log entry inserted, dropped or replaced."""
    log = _log(record)
    if log is None or not isinstance(entry := log[i := rng.randrange(len(log))], str):
        return
    chars = list(entry)
    for _ in range(rng.randrange(1, 4)):
        k = rng.randrange(len(chars) + 1)
        op = rng.randrange(3)
        if op == 0:
            chars.insert(k, rng.choice(WORD_CHARS))
        elif chars and k < len(chars):
            chars[k:k + 1] = [] if op == 1 else [rng.choice(WORD_CHARS)]
    log[i] = "".join(chars)


def reorder_log(record: Record, rng: random.Random) -> None:
    """An entry dropped, repeated, moved or swapped, or the log cut short."""
    log = _log(record)
    if log is None:
        return
    i, j = rng.randrange(len(log)), rng.randrange(len(log))
    op = rng.randrange(5)
    if op == 0:
        del log[i]
    elif op == 1:
        log.insert(j, log[i])
    elif op == 2:
        log.insert(j, log.pop(i))
    elif op == 3:
        log[i], log[j] = log[j], log[i]
    else:
        del log[i:]


def foreign_entry(record: Record, rng: random.Random) -> None:
    """An entry of another record (another rule set, perhaps) put into this log."""
    log = _log(record)
    other = _log(json.loads(rng.choice(base_records())))
    if log is None or other is None:
        return
    log.insert(rng.randrange(len(log) + 1), rng.choice(other))


def retype_entry(record: Record, rng: random.Random) -> None:
    """A log entry that is not a string."""
    log = _log(record)
    if log is not None:
        log[rng.randrange(len(log))] = nasty(rng)


def change_field(record: Record, rng: random.Random) -> None:
    """A top-level field with another value (or type), or left out."""
    key = rng.choice(TOP_FIELDS)
    if rng.random() < 0.15:
        record.pop(key, None)
    else:
        record[key] = nasty(rng)


def change_options(record: Record, rng: random.Random) -> None:
    """An option with a strange value, or an unknown option."""
    options = record.get("options")
    if not isinstance(options, dict):
        record["options"] = options = {}
    key = rng.choice(("camp_needs_own_figure", word(rng), "players", "seed", "rules"))
    options[key] = nasty(rng)


def change_outcome(record: Record, rng: random.Random) -> None:
    """The scoring or the result claimed otherwise (values of other types)."""
    if rng.random() < 0.5:
        scoring = record.get("scoring")
        if isinstance(scoring, list) and scoring and isinstance(scoring[0], dict):
            event = rng.choice(scoring)
            event[rng.choice([*event, "extra"])] = nasty(rng)
        else:
            record["scoring"] = [nasty(rng)]
        return
    result = record.get("result")
    if not isinstance(result, dict):
        record["result"] = result = {}
    key = rng.choice(("over", "scores", "winners"))
    result[key] = nasty(rng) if rng.random() < 0.5 else [nasty(rng), nasty(rng)]


def change_seats(record: Record, rng: random.Random) -> None:
    """Seats (as downloaded records carry them) of strange shapes."""
    seats: list[Any] = [
        rng.choice(({"name": nasty(rng)}, {"name": word(rng), "kind": nasty(rng)}, nasty(rng)))
        for _ in range(rng.randrange(0, 6))
    ]
    record["seats"] = rng.choice((seats, nasty(rng)))


MUTATIONS: tuple[Callable[[Record, random.Random], None], ...] = (
    change_word, change_word, change_chars, reorder_log, reorder_log, foreign_entry,
    retype_entry, change_field, change_field, change_options, change_outcome, change_seats,
)


def mutated(case: int) -> Record:
    """Record number ``case``: a source record with one to three mutations."""
    rng = random.Random(case)
    record: Record = json.loads(rng.choice(base_records()))
    for _ in range(rng.randrange(1, 4)):
        rng.choice(MUTATIONS)(record, rng)
    return record


def cases(count: int, start: int = 0) -> Iterator[tuple[int, Record]]:
    for case in range(start, start + count):
        yield case, mutated(case)
