"""The leaderboard and profile API under a realistic amount of data: :func:`run_bench` fills
an empty PostgreSQL database (accounts, finished games with their seats, ratings and their
history, by ``COPY``), starts a real ``tikal serve`` on it and measures the answers' p50,
p95 and p99 over HTTP (``tikal ratings bench`` prints them as a table).  A benchmark,
never a timed test.

The ratings are made up, not played: each rated game moves its players' belief a little
(the winner up, the others down, every spread shrinking) and stores what the display
formula shows, so the tables hold what real play would put there - about three history
rows a game, most players provisional at first - in seconds rather than hours of
OpenSkill updates.  :func:`plans` runs the real queries under ``EXPLAIN`` (the bench
prints each plan's top line: an index scan, never a sequential one, on the big tables).
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx
import psycopg
from psycopg.rows import dict_row

from ...bots import BOT_NAMES
from ..loadtest.servers import start_servers, stop_servers
from ..store import open_storage
from ..store.protocol import TableStorage
from ..store.schema import Db
from .lookup import PlayerLookup
from .model import Rating, display, initial
from .store import RatingStore, bot_player

T = TypeVar("T")

RULE_WEIGHTS = {"standard": 6, "auction": 3, "demo": 1}
PLAYER_COUNTS = (2, 3, 4)
BOT_SEAT = 0.25  # the chance that a seat after the first is a bot
DELETED = 0.01  # the share of accounts deleted since they played
YEAR = 365 * 86_400.0


@dataclass
class Fill:
    """Rows to copy into each table, and the ratings as they end up."""

    accounts: list[tuple[Any, ...]] = field(default_factory=list)
    games: list[tuple[Any, ...]] = field(default_factory=list)
    seats: list[tuple[Any, ...]] = field(default_factory=list)
    rated: list[tuple[Any, ...]] = field(default_factory=list)
    history: list[tuple[Any, ...]] = field(default_factory=list)
    ratings: dict[tuple[str, str], tuple[Rating, int, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchResult:
    sizes: dict[str, int]
    #: endpoint -> answer times in seconds
    times: dict[str, list[float]]
    plans: dict[str, str]

    def percentile(self, endpoint: str, q: float) -> float:
        ordered = sorted(self.times[endpoint])
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


# ---------------------------------------------------------------- made-up play


def account_row(index: int, now: float, rng: random.Random) -> tuple[Any, ...]:
    name = f"Player{index}"
    deleted = rng.random() < DELETED
    if deleted:
        return (f"ubench{index}", None, None, None, None, now - YEAR, now)
    return (f"ubench{index}", name, name.casefold(), name.casefold(), None, now - YEAR, None)


def step(old: Rating, won: bool, rng: random.Random) -> Rating:
    """One rated game's made-up change: the winner gains, the others lose, noise on top."""
    move = (1.2 if won else -0.5) * old.sigma / 8 + rng.gauss(0, 0.3)
    return Rating(old.mu + move, max(0.9, old.sigma * 0.96), old.games + 1)


def rate(fill: Fill, game_id: str, rules: str, players: Sequence[str], at: float,
         rng: random.Random) -> None:
    winner = rng.randrange(len(players))
    for seat, player in enumerate(players):
        before, wins, _ = fill.ratings.get((player, rules), (initial(), 0, at))
        after = step(before, seat == winner, rng)
        fill.ratings[(player, rules)] = (after, wins + (seat == winner), at)
        fill.history.append((player, rules, game_id, at, after.mu, after.sigma, display(after)))


def seats_of(accounts: int, count: int, rng: random.Random) -> list[tuple[str, int | str]]:
    """("account", index) or ("bot", level) per seat; the first is an account, regulars
    (low indexes) sit more often than the rest, no account twice."""
    taken: set[int] = set()
    levels = list(BOT_NAMES)
    rng.shuffle(levels)  # one seat of a level a game at most (a history row each)
    seats: list[tuple[str, int | str]] = []
    for seat in range(count):
        if seat and (rng.random() < BOT_SEAT or len(taken) >= accounts):
            seats.append(("bot", levels.pop()))
            continue
        index = int(accounts * rng.random() ** 2)
        while index in taken:
            index = rng.randrange(accounts)
        taken.add(index)
        seats.append(("account", index))
    return seats


def game_rows(fill: Fill, number: int, accounts: int, at: float, rng: random.Random) -> None:
    game_id = f"bench{number:07d}"
    rules = rng.choices(list(RULE_WEIGHTS), weights=list(RULE_WEIGHTS.values()))[0]
    seats = seats_of(accounts, 2 if rules == "demo" else rng.choice(PLAYER_COUNTS), rng)
    shown = [{"kind": "bot", "name": str(v), "level": v, "token": None} if kind == "bot" else
             {"kind": "human", "name": f"Player{v}", "level": None, "token": None}
             for kind, v in seats]
    fill.games.append((game_id, "game", rules, len(seats), "{}", number, False,
                       json.dumps(shown), "{}", None, "over", at, at, 0, None, 0))
    players = [bot_player(str(v)) if kind == "bot" else f"ubench{v}" for kind, v in seats]
    for seat, (kind, _) in enumerate(seats):
        if kind == "account":
            fill.seats.append((game_id, seat, players[seat]))
    fill.rated.append((game_id, rules, players[0], at))
    rate(fill, game_id, rules, players, at, rng)


def made_up(accounts: int, games: int, seed: int = 1) -> Fill:
    rng = random.Random(seed)
    now = time.time()
    fill = Fill(accounts=[account_row(i, now, rng) for i in range(accounts)])
    for number in range(games):
        game_rows(fill, number, accounts, now - YEAR + YEAR * number / max(1, games), rng)
    return fill


# ---------------------------------------------------------------- the database


COPIES = {
    "accounts": "accounts (id, name, handle, skeleton, password, created, deleted)",
    "games": ("games (id, kind, rules, players, options, seed, seeded, seats, tokens, record, "
              "status, created, updated, state, digest, size)"),
    "seats": "seat_accounts (game_id, seat, account_id)",
    "rated": "rated_games (game_id, rules, asked_by, applied)",
    "history": "rating_history (player, rules, game_id, at, mu, sigma, shown)",
    "ratings": "ratings (player, rules, mu, sigma, games, wins, shown, updated)",
}


def rating_rows(fill: Fill) -> Iterator[tuple[Any, ...]]:
    for (player, rules), (rating, wins, at) in fill.ratings.items():
        yield player, rules, rating.mu, rating.sigma, rating.games, wins, display(rating), at


def copy_in(url: str, fill: Fill) -> dict[str, int]:
    """Every row in one transaction (COPY: the fastest way in); the tables' sizes."""
    tables = {"accounts": fill.accounts, "games": fill.games, "seats": fill.seats,
              "rated": fill.rated, "history": fill.history, "ratings": list(rating_rows(fill))}
    with psycopg.connect(url) as conn:
        with conn.cursor() as cursor:
            for name, rows in tables.items():
                with cursor.copy(f"COPY {COPIES[name]} FROM STDIN") as copy:
                    for row in rows:
                        copy.write_row(row)
        conn.commit()
        conn.autocommit = True
        conn.execute("ANALYZE")
    return {name: len(rows) for name, rows in tables.items()}


def fill_database(url: str, accounts: int, games: int, seed: int = 1) -> dict[str, int]:
    """Made-up accounts, games and ratings in the empty database ``url`` (migrated first)."""
    open_storage(url).close()  # the schema
    with psycopg.connect(url) as conn:
        if conn.execute("SELECT COUNT(*) FROM accounts").fetchone() != (0,):
            raise ValueError("the ratings bench needs an empty database")
    return copy_in(url, made_up(accounts, games, seed))


class ExplainingDb:
    """A connection that runs each query under ``EXPLAIN`` first, keeping the plan."""

    def __init__(self, db: Db, plans: list[str]) -> None:
        self.db, self.plans = db, plans

    def execute(self, sql: str, params: Any = (), /) -> Any:
        rows = self.db.execute("EXPLAIN " + sql, params).fetchall()
        self.plans.append("\n".join(row["QUERY PLAN"] for row in rows))
        return self.db.execute(sql, params)


class Explaining:
    """A :class:`TableStorage` whose queries leave their plans in :attr:`plans`."""

    def __init__(self, storage: TableStorage) -> None:
        self.storage = storage
        self.plans: list[str] = []

    def transaction(self, work: Callable[[Any], T], *, write: bool = True) -> T:
        return self.storage.transaction(lambda db: work(ExplainingDb(db, self.plans)),
                                        write=write)

    def sql(self, query: str) -> str:
        return self.storage.sql(query)


def plans(url: str, rules: str = "standard") -> dict[str, str]:
    """The plans of the leaderboard's, a history's and the game lists' queries, as the
    server runs them (the busiest player's history and games)."""
    with psycopg.connect(url, row_factory=dict_row) as conn:
        busiest = conn.execute(
            "SELECT account_id FROM seat_accounts GROUP BY account_id "
            "ORDER BY COUNT(*) DESC LIMIT 1").fetchone()
    player = busiest["account_id"] if busiest else "nobody"
    storage = open_storage(url)
    try:
        found: dict[str, str] = {}
        for name, run in (
            ("leaderboard", lambda s: PlayerLookup(s).board(rules, 50, 0)),
            ("history", lambda s: RatingStore(s).history(player, rules)),
            ("account games", lambda s: PlayerLookup(s).account_games(player)),
            ("bot games", lambda s: PlayerLookup(s).bot_games("greedy")),
        ):
            explaining = Explaining(storage)
            run(explaining)
            found[name] = "\n\n".join(explaining.plans)
        return found
    finally:
        storage.close()


def scans(plan: str) -> list[str]:
    """The table reads of a plan (``Index Scan using ratings_board on ratings``, ``Seq
    Scan on games`` ...), in plan order, without their costs."""
    found = re.findall(r"((?:Parallel )?(?:Bitmap Heap|Bitmap Index|Index Only|Index|Seq)"
                       r" Scan[^(]*?)\s*\(", plan)
    return list(dict.fromkeys(found))


# ---------------------------------------------------------------- the measurement


def endpoints(accounts: int, rng: random.Random) -> dict[str, Callable[[], str]]:
    """A path maker per measured endpoint (random pages, players and cases)."""
    def board() -> str:
        return f"/api/ratings/{rng.choice(list(RULE_WEIGHTS))}?limit=50"

    def deep() -> str:
        return f"/api/ratings/standard?limit=50&offset={rng.randrange(max(1, accounts))}"

    def account() -> str:
        name = f"Player{int(accounts * rng.random() ** 2)}"
        return "/api/players/" + (name.lower() if rng.random() < 0.5 else name)

    return {
        "GET /api/ratings/{rules}": board,
        "GET /api/ratings/{rules}?offset=N": deep,
        "GET /api/players/{name}": account,
        "GET /api/players/bot:{level}": lambda: f"/api/players/bot:{rng.choice(BOT_NAMES)}",
        "GET /leaderboard (page)": lambda: "/leaderboard?rules=standard",
        "GET /players/{name} (page)": lambda: account().replace("/api/players/", "/players/"),
    }


def measure(base: str, paths: dict[str, Callable[[], str]],
            requests: int) -> dict[str, list[float]]:
    """Each endpoint ``requests`` times in turn, one request at a time over one kept-alive
    connection (after a warm-up round); 404s (a deleted account) count as answers."""
    times: dict[str, list[float]] = {name: [] for name in paths}
    with httpx.Client(base_url=base, timeout=30) as client:
        for make in paths.values():
            client.get(make())
        for _ in range(requests):
            for name, make in paths.items():
                start = time.perf_counter()
                answer = client.get(make())
                times[name].append(time.perf_counter() - start)
                if answer.status_code not in (200, 404):
                    raise RuntimeError(f"{name}: {answer.status_code} {answer.text[:200]}")
    return times


def run_bench(url: str, accounts: int = 10_000, games: int = 100_000, requests: int = 300,
              seed: int = 1, on_step: Callable[[str], None] | None = None) -> BenchResult:
    """Fill the empty PostgreSQL database ``url``, serve it with ``tikal serve`` and
    measure the leaderboard and profile answers; ``on_step`` hears each step's name
    (``fill``, ``plans``, ``serve``, ``measure``) as it starts."""
    tell = on_step or (lambda _: None)
    tell("fill")
    sizes = fill_database(url, accounts, games, seed)
    tell("plans")
    found = plans(url)
    tell("serve")
    servers = start_servers(1, url, None, 0.6, [])
    try:
        tell("measure")
        paths = endpoints(accounts, random.Random(seed))
        times = measure(f"http://{servers[0].url}", paths, requests)
    finally:
        stop_servers(servers)
    return BenchResult(sizes, times, found)
