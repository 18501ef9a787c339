"""``tikal ratings bench`` (issue 28's benchmark): it fills an empty PostgreSQL database with
made-up accounts, rated games and ratings that agree with each other, serves it and times
every leaderboard and profile endpoint; it refuses a database that is not empty.  A small
run here proves it works; the figures come from the full-size run (docs/web.md)."""

from __future__ import annotations

from collections import Counter

import psycopg
from typer.testing import CliRunner

from tikal.cli import app
from tikal.messages import text
from tikal.server.rating import display
from tikal.server.rating.bench import made_up, scans


def test_made_up_ratings_agree_with_their_history_and_games() -> None:
    fill = made_up(accounts=40, games=300, seed=3)
    history = Counter((row[0], row[1]) for row in fill.history)
    for (player, rules), (rating, wins, _) in fill.ratings.items():
        assert rating.games == history[(player, rules)]  # one history row per rated game
        assert 0 <= wins <= rating.games
    last = {(row[0], row[1]): row[6] for row in fill.history}
    assert all(last[key] == display(rating) for key, (rating, _, _) in fill.ratings.items())
    assert len(fill.games) == len(fill.rated) == 300
    seated = Counter(row[0] for row in fill.seats)
    assert all(1 <= n <= 4 for n in seated.values())  # the first seat is always an account


def test_scans_name_each_table_read_of_a_plan() -> None:
    plan = ("Limit  (cost=8.30..37.25 rows=50 width=55)\n"
            "  ->  Index Scan Backward using ratings_board on ratings r  (cost=0.29..1)\n"
            "  ->  Seq Scan on accounts a  (cost=0.29..0.37 rows=1 width=20)\n")
    assert scans(plan) == ["Index Scan Backward using ratings_board on ratings r",
                           "Seq Scan on accounts a"]


def test_the_bench_fills_serves_and_times_every_endpoint(pg_url: str) -> None:
    done = CliRunner().invoke(app, ["ratings", "bench", "--pg", pg_url, "--accounts", "30",
                                    "--games", "120", "--requests", "3", "--lang", "en"],
                              env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    for endpoint in ("GET /api/ratings/{rules}", "GET /api/players/{name}",
                     "GET /api/players/bot:{level}", "GET /players/{name} (page)"):
        assert endpoint in done.stdout
    # (tables this small are read whole; the full-size run's plans name the indexes)
    assert "plan of leaderboard:" in done.stdout and "on ratings r" in done.stdout
    with psycopg.connect(pg_url) as conn:
        rated = conn.execute("SELECT COUNT(*) FROM rated_games").fetchone()
        accounts = conn.execute("SELECT COUNT(*) FROM accounts").fetchone()
    assert rated == (120,) and accounts == (30,)

    again = CliRunner().invoke(app, ["ratings", "bench", "--pg", pg_url, "--accounts", "30",
                                     "--games", "10", "--lang", "en"])
    assert again.exit_code != 0
    assert text("cli.ratings.bench.not_empty", "en") in again.output
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM rated_games").fetchone() == (120,)
