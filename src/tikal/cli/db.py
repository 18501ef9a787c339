"""``tikal db``: the server's database: ``check`` (is every stored game whole), ``backup``
(a copy of a SQLite file while the server runs), ``bench`` (start-up time and memory).

The work is done by :mod:`tikal.server.store.check` and :mod:`tikal.server.store.bench`;
:func:`refuse_start` is how ``tikal serve`` says that it cannot use a database.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from .common import LangOption, console, fail, language_of, progress_bar, say

if TYPE_CHECKING:
    from ..server.store import StorageUnavailable

#: Exit status of a command that cannot use its database (damaged, foreign, too new...).
CANNOT_USE = 2
#: Exit status of ``tikal db check`` when it found damage.
DAMAGE_FOUND = 1

DbOption = Annotated[
    str, typer.Option(help="SQLite database file, or a postgresql://user:password@host/db URL.")
]


def register(app: typer.Typer) -> None:
    """Add ``db check``, ``db backup`` and ``db bench`` to ``app``."""
    db = typer.Typer(help="The server's database: check it, back it up, time its start-up.",
                     no_args_is_help=True)
    db.command("check")(check)
    db.command("backup")(backup)
    db.command("bench")(bench)
    app.add_typer(db, name="db")


def refuse_start(fault: StorageUnavailable, db: str, language: str) -> typer.Exit:
    """Say in one line why the database ``db`` cannot be used, and what to do next; the
    exit to raise (status 2)."""
    fail(say(f"db.start.{fault.cause}", language, where=fault.where or db,
             why=fault.driver_text, db=db), language)
    return typer.Exit(CANNOT_USE)


def say_set_aside(set_aside: dict[str, str], db: str, language: str) -> None:
    """Tell the operator which games do not load (they answer 410 ``damaged_game``)."""
    if set_aside:
        ids = ", ".join(sorted(set_aside))
        console(stderr=True).print(escape(say("db.set_aside", language, count=len(set_aside),
                                              ids=ids, db=db)), soft_wrap=True)


def check(db: DbOption = "tikal.sqlite3", lang: LangOption = None) -> None:
    """Check a database: SQLite's integrity check of the file, then a replay of every
    stored game and upload; lists what does not replay (exit status 1 if anything)."""
    from ..server.store import StorageUnavailable, is_postgres_url, open_storage, shown_location
    from ..server.store.check import integrity, replay_all

    language = language_of(lang)
    shown = console()
    where = shown_location(db)
    try:
        problems = None if is_postgres_url(db) else integrity(db)
        if problems is None:
            shown.print(escape(say("db.check.integrity_none", language, where=where)))
        elif problems:
            shown.print(escape(say("db.check.integrity_bad", language, where=where,
                                   count=len(problems), problems="; ".join(problems))))
        else:
            shown.print(escape(say("db.check.integrity_ok", language, where=where)))
        storage = open_storage(db)
    except StorageUnavailable as fault:
        raise refuse_start(fault, db, language) from None
    try:
        with progress_bar(shown) as bar:
            task = bar.add_task(say("db.check.replaying", language), total=None)
            found = replay_all(storage, lambda done, total: bar.update(
                task, completed=done, total=total))
    except StorageUnavailable as fault:
        raise refuse_start(fault, db, language) from None
    finally:
        storage.close()
    if not found.damaged:
        shown.print(escape(say("db.check.all_fine", language, games=found.games,
                               uploads=found.uploads)))
    else:
        shown.print(escape(say("db.check.some_damaged", language, games=found.games,
                               uploads=found.uploads, count=len(found.damaged))))
        for game_id, (kind, why) in sorted(found.damaged.items()):
            shown.print(escape(say("db.check.damaged", language, game_id=game_id, kind=kind,
                                   why=why)), soft_wrap=True)
    if problems or found.damaged:
        raise typer.Exit(DAMAGE_FOUND)


def backup(
    target: Annotated[Path, typer.Argument(help="The copy to write (a new file).")],
    db: DbOption = "tikal.sqlite3",
    lang: LangOption = None,
) -> None:
    """Copy a SQLite database while the server runs (SQLite's online backup API): a
    consistent copy that can replace the file after a fault."""
    from ..server.store import StorageUnavailable, is_postgres_url, shown_location
    from ..server.store.check import backup as copy_file

    language = language_of(lang)
    if is_postgres_url(db):
        raise fail(say("db.backup.postgres", language), language)
    if target.exists():
        raise fail(say("db.backup.exists", language, target=str(target)), language)
    try:
        size = copy_file(db, target)
    except StorageUnavailable as fault:
        raise refuse_start(fault, db, language) from None
    console().print(escape(say("db.backup.done", language, target=str(target),
                               where=shown_location(db), size=size)))


def seconds_or_dash(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.3f}"


def bench(
    finished: Annotated[
        list[int] | None,
        typer.Option(help="Finished games in the database (repeat for several databases; "
                     "default 0 and 20000).")] = None,
    playing: Annotated[int, typer.Option(min=1, help="Games in play beside them.")] = 20,
    starts: Annotated[int, typer.Option(min=1, help="Starts timed on each database (the "
                                        "median is shown).")] = 5,
    rules: Annotated[str, typer.Option(help="Rule set of the games copied.")] = "demo",
    server_path: Annotated[
        str | None, typer.Option(help="Run the server from this source directory (e.g. an "
                                 "older checkout's src) to compare versions.")] = None,
    folder: Annotated[
        Path | None, typer.Option(help="Keep the databases here (built once, reused).")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Time ``tikal serve``'s start on databases of many finished games: seconds to its
    first answer and resident memory (a benchmark, not a test)."""
    import tempfile

    from rich.table import Table

    from ..server.store.bench import run

    language = language_of(lang)
    counts = finished or [0, 20_000]
    with tempfile.TemporaryDirectory() as scratch:
        where = folder or Path(scratch)
        where.mkdir(parents=True, exist_ok=True)
        results = run(counts, playing, rules, server_path, where, starts)
    table = Table(title=say("db.bench.title", language, rules=rules, playing=playing,
                            server=server_path or "src"),
                  caption=say("db.bench.median", language, starts=starts))
    for key in ("finished", "seconds", "imports", "database", "rss", "peak"):
        table.add_column(say(f"db.bench.{key}", language), justify="right")
    for found in results:
        table.add_row(f"{found.finished:,}", f"{found.seconds:.2f}",
                      seconds_or_dash(found.import_seconds),
                      seconds_or_dash(found.database_seconds), f"{found.rss_mb:.0f}",
                      f"{found.peak_mb:.0f}")
    console().print(table)
