"""``tikal ratings``: the bot levels as rated players: ``calibrate`` (play the levels against
each other and store their ratings), ``show`` (the stored ones); ``bench`` (the leaderboard
and profile answers' times on a PostgreSQL database of many accounts and rated games).

Only input and output live here; the games and the ratings are
:mod:`tikal.server.rating.calibrate`'s, the reading :mod:`tikal.server.rating.bots`'s.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape
from rich.table import Table

from .common import LangOption, console, fail, language_of, progress_bar, say
from .db import DbOption, refuse_start

if TYPE_CHECKING:
    from ..server.rating import Rating
    from ..server.store import Storage

#: Exit status of a calibration in which a game failed (nothing is written then).
GAMES_FAILED = 2

RulesOption = Annotated[
    list[str] | None,
    typer.Option(help="A rated rule set (repeat for several; default: every rated one)."),
]

#: One row of a ratings table: rule set, level, rating, wins.
Row = tuple[str, str, "Rating", int]


def register(app: typer.Typer) -> None:
    """Add ``ratings calibrate`` and ``ratings show`` to ``app``."""
    ratings = typer.Typer(help="The bots' ratings: calibrate them by bot games, show them.",
                          no_args_is_help=True)
    ratings.command("calibrate")(calibrate)
    ratings.command("show")(show)
    ratings.command("export")(export)
    ratings.command("bench")(bench)
    app.add_typer(ratings, name="ratings")


def calibrate(
    db: DbOption = "tikal.sqlite3",
    games: Annotated[
        int, typer.Option(min=1, help="Games per rule set (rounded up so that every deal is "
                          "played in all rotations of its table).")] = 100,
    rules: RulesOption = None,
    levels: Annotated[
        list[str] | None,
        typer.Option(help="Bot levels, comma-separated or repeated (default: every level the "
                     "web app offers).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the tables, deals and bots.")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help="Games played in parallel processes.")] = 1,
    lang: LangOption = None,
) -> None:
    """Rate every bot level by games between the levels, per rule set, and store the
    ratings (replacing the levels' earlier ones in those rule sets). The search levels
    (hard, mcts) think 1.8 s a turn: a game with one takes 15 s (demo) to 30 s (standard)."""
    from ..bots.arena import make_executor
    from ..server.rating.calibrate import calibrate as play
    from ..server.rating.calibrate import save
    from ..server.rating.store import RatingStore

    language = language_of(lang)
    rule_sets = _rule_sets(rules, language)
    chosen = _levels(levels, language)
    storage = _open(db, language)
    try:
        with progress_bar(console()) as bar:
            task = bar.add_task(say("ratings.calibrating", language), total=None)
            found = play(
                rule_sets, chosen, games, seed, make_executor(jobs),
                lambda done, total: bar.update(task, completed=done, total=total))
        if found.errors:
            for error in found.errors:
                console(stderr=True).print(escape(error), soft_wrap=True)
            fail(say("ratings.not_written", language, count=len(found.errors)), language)
            raise typer.Exit(GAMES_FAILED)
        save(RatingStore(storage), found)
    finally:
        storage.close()
    rows = [(r, level, result.rating, result.wins)
            for r, by_level in found.ratings.items() for level, result in by_level.items()]
    shown = console()
    shown.print(ratings_table(rows, say("ratings.calibrated_title", language, seed=seed),
                              language))
    shown.print(escape(say("ratings.calibrated", language, games=found.games,
                           seconds=f"{found.seconds:.1f}", jobs=jobs)))


def show(db: DbOption = "tikal.sqlite3", rules: RulesOption = None,
         lang: LangOption = None) -> None:
    """The stored ratings of the bot levels the web app offers."""
    from ..server.rating.bots import bot_standings
    from ..server.rating.store import RatingStore

    language = language_of(lang)
    rule_sets = _rule_sets(rules, language)
    storage = _open(db, language)
    try:
        standings = bot_standings(RatingStore(storage))
    finally:
        storage.close()
    rows = [(r, level, found[r].rating, found[r].wins)
            for r in rule_sets for level, found in standings.items() if r in found]
    if not rows:
        console().print(escape(say("ratings.none", language)), soft_wrap=True)
        return
    console().print(ratings_table(rows, say("ratings.title", language), language))


def export(
    out: Annotated[Path, typer.Option(help="The JSON file to write (the form of the shipped "
                                      "data/bot_ratings.json).")],
    db: DbOption = "tikal.sqlite3",
    about: Annotated[str, typer.Option(help="What the ratings come from (kept in the "
                                       "file).")] = "",
    lang: LangOption = None,
) -> None:
    """Write the stored bot ratings as a file a new server starts with (the package's
    data/bot_ratings.json is one: a calibration, exported)."""
    from ..server.rating.bots import exported
    from ..server.rating.store import RatingStore

    language = language_of(lang)
    storage = _open(db, language)
    try:
        data = exported(RatingStore(storage), about)
    finally:
        storage.close()
    if not data["ratings"]:
        raise fail(say("ratings.none", language), language)
    out.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    count = sum(len(levels) for levels in data["ratings"].values())
    console().print(escape(say("ratings.exported", language, count=count, path=str(out))),
                    soft_wrap=True)


def bench(
    pg: Annotated[str, typer.Option(help="An empty PostgreSQL database to fill "
                                    "(postgresql://...).")],
    accounts: Annotated[int, typer.Option(min=10, help="Accounts to make up.")] = 10_000,
    games: Annotated[int, typer.Option(min=1, help="Rated games to make up.")] = 100_000,
    requests: Annotated[int, typer.Option(min=1, help="Requests per endpoint.")] = 300,
    seed: Annotated[int, typer.Option(help="Seed of the made-up data and requests.")] = 1,
    lang: LangOption = None,
) -> None:
    """Fill an empty PostgreSQL database with made-up accounts, rated games and ratings,
    serve it and time the leaderboard and profile answers (p50/p95/p99; a benchmark, not
    a test); prints the plans' top lines, to show indexes are used."""
    from ..server.rating.bench import run_bench, scans

    language = language_of(lang)
    shown = console()
    with shown.status(say("ratings.bench.fill", language, accounts=f"{accounts:,}",
                          games=f"{games:,}")) as status:
        def step(name: str) -> None:
            status.update(say(f"ratings.bench.{name}", language, accounts=f"{accounts:,}",
                              games=f"{games:,}", requests=requests))

        try:
            result = run_bench(pg, accounts, games, requests, seed, step)
        except ValueError:
            raise fail(say("ratings.bench.not_empty", language), language) from None
    for name, plan in result.plans.items():
        shown.print(escape(say("ratings.bench.plan", language, query=name,
                               plan="; ".join(scans(plan)))), soft_wrap=True)
    sizes = result.sizes
    table = Table(title=say("ratings.bench.title", language, accounts=f"{accounts:,}",
                            games=f"{games:,}", history=f"{sizes['history']:,}",
                            ratings=f"{sizes['ratings']:,}"))
    for key in ("endpoint", "requests", "p50", "p95", "p99", "max"):
        table.add_column(say(f"ratings.bench.{key}", language),
                         justify="left" if key == "endpoint" else "right")
    for name, values in result.times.items():
        table.add_row(name, str(len(values)), *(
            f"{result.percentile(name, q) * 1000:.1f}" for q in (0.5, 0.95, 0.99, 1.0)))
    shown.print(table)


def ratings_table(rows: Iterable[Row], title: str, language: str) -> Table:
    """Rule set, level, display rating, mu, sigma, games, wins; best first per rule set."""
    from ..server.rating import display

    table = Table(title=title)
    for key in ("ratings.col.rules", "ratings.col.level", "ratings.col.shown",
                "ratings.col.mu", "ratings.col.sigma", "col.games", "col.wins"):
        table.add_column(say(key, language), justify="left" if key.endswith(
            ("rules", "level")) else "right")
    order = {rules: n for n, rules in enumerate(dict.fromkeys(row[0] for row in rows))}
    for rules, level, rating, wins in sorted(rows, key=lambda row: (
            order[row[0]], -display(row[2]), row[1])):
        table.add_row(rules, level, str(display(rating)), f"{rating.mu:.2f}",
                      f"{rating.sigma:.2f}", str(rating.games), str(wins))
    return table


def _rule_sets(rules: list[str] | None, language: str) -> list[str]:
    """The rule sets asked for (default: every rated one); exits on one that is not rated."""
    from ..server.rating import rated_rule_sets

    rated = rated_rule_sets()
    chosen = list(dict.fromkeys(rules or rated))
    for name in chosen:
        if name not in rated:
            raise fail(say("ratings.unrated_rules", language, rules=name,
                           choices=", ".join(rated)), language)
    return chosen


def _levels(levels: list[str] | None, language: str) -> list[str]:
    """The levels asked for (default: those the web app offers); exits on an unknown one
    or fewer than two."""
    from ..server.bots import bot_names

    offered = bot_names()
    given = [part.strip() for text in levels or [] for part in text.split(",") if part.strip()]
    chosen = list(dict.fromkeys(given or offered))
    for level in chosen:
        if level not in offered:
            raise fail(say("ratings.unknown_level", language, level=level,
                           choices=", ".join(offered)), language)
    if len(chosen) < 2:
        raise fail(say("ratings.two_levels", language), language)
    return chosen


def _open(db: str, language: str) -> Storage:
    """The database (migrated), or the exit that says why it cannot be used."""
    from ..server.store import StorageUnavailable, open_storage

    try:
        return open_storage(db)
    except StorageUnavailable as fault:
        raise refuse_start(fault, db, language) from None
