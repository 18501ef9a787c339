"""The Typer app with every command registered, in the order ``tikal --help`` lists them.

Each command module exposes ``register(app)``; they are named here one by one (no import
loop) so a missing module is an error, and none of them imports this module back.
"""

from __future__ import annotations

import typer

from . import analyze, bots, db, engine, loadtest, play, rules, strength, tune, web


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
    loadtest.register(app)
    return app


app = build_app()


def main() -> None:
    """The ``tikal`` console script."""
    app()
