"""The ``tikal`` command line.  Each concern registers its commands on :data:`app`
from its own module under :mod:`tikal.commands` (engine tools, bots, web)."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="tikal",
    help="Tikal (Kramer & Kiesling): play, simulate, replay, benchmark, serve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

COMMAND_MODULES = ("tikal.commands.engine", "tikal.commands.bots", "tikal.commands.web")


def load_commands() -> typer.Typer:
    """Import every command module so that its ``@app.command()`` functions register."""
    for name in COMMAND_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
    return app


def main() -> None:
    load_commands()()
