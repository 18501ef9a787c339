"""The Typer app with every command registered, in the order ``tikal --help`` lists them.

Each command module exposes ``register(app)``; they are named here one by one (no import
loop) so a missing module is an error, and none of them imports this module back.
"""

from __future__ import annotations

import typer

from ..messages import text
from . import analyze, bots, db, engine, loadtest, play, ratings, rules, strength, tune, web
from .common import console, language_of
from .extras import extra_providing


def build_app() -> typer.Typer:
    """A fresh app with all commands (tests may build their own)."""
    app = typer.Typer(
        name="tikal",
        help="Tikal (Kramer & Kiesling): play, simulate, replay, benchmark, serve.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    engine.register(app)
    bots.register(app)
    play.register(app)
    rules.register(app)
    strength.register(app)
    analyze.register(app)
    tune.register(app)
    web.register(app)
    db.register(app)
    ratings.register(app)
    loadtest.register(app)
    return app


app = build_app()


def main() -> None:
    """The ``tikal`` console script; a command whose optional part is not installed says
    which extra to install (exit code 2) instead of a traceback."""
    try:
        app()
    except ModuleNotFoundError as error:
        extra = extra_providing(error.name or "")
        if extra is None:
            raise
        console(stderr=True).print(
            text("cli.missing_extra", language_of(None), module=error.name, extra=extra),
            soft_wrap=True, markup=False)
        raise SystemExit(2) from None
