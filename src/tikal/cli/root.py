"""The Typer app with every command registered, in the order ``tikal --help`` lists them.

Each command module exposes ``register(app)``; they are named in :data:`COMMAND_MODULES`
one by one (no import loop) so a missing module is an error, and none of them imports
this module back.  The console script imports only the module of the command it runs
(``tikal serve`` needs neither the terminal game nor the arena): importing all of them
took 0.2 s of the server's start (issue 35).  ``tikal``, ``tikal --help`` and anything
not in the table get the whole app.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from typing import Any

import typer

from ..messages import text
from .common import console, language_of

#: Each command module (``tikal.cli.<name>``) and the commands it adds, in ``--help``'s order.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "engine": ("simulate", "replay", "bench"),
    "bots": ("arena",),
    "play": ("play",),
    "rules": ("rules",),
    "strength": ("strength", "compare"),
    "analyze": ("analyze",),
    "tune": ("tune",),
    "learn": ("learn",),
    "web": ("serve",),
    "db": ("db",),
    "ratings": ("ratings",),
    "loadtest": ("loadtest",),
}


HELP = "Tikal (Kramer & Kiesling): play, simulate, replay, benchmark, serve."


def _as_group() -> None:
    """Nothing to do before a command; registered so that an app of one command still
    takes the command's name (Typer runs a lone command without it)."""


def module_of(command: str) -> str | None:
    """The command module that adds ``command``, if any."""
    return next((module for module, names in COMMAND_MODULES.items() if command in names),
                None)


def build_app(modules: Iterable[str] = COMMAND_MODULES) -> typer.Typer:
    """A fresh app with the commands of ``modules`` (all by default; tests may build their
    own)."""
    app = typer.Typer(
        name="tikal",
        help=HELP,
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback(help=HELP)(_as_group)
    for module in modules:
        importlib.import_module(f"{__package__}.{module}").register(app)
    return app


def __getattr__(name: str) -> Any:
    """``app``, the whole app, built when first asked for (the console script builds
    only what it runs)."""
    if name != "app":
        raise AttributeError(name)
    globals()["app"] = whole = build_app()
    return whole


def app_for(argv: list[str]) -> typer.Typer:
    """The app ``tikal`` runs for these arguments: only the named command's module, or
    everything."""
    module = module_of(argv[0]) if argv else None
    if module is None:
        whole: typer.Typer = __getattr__("app")
        return whole
    return build_app([module])


def main() -> None:
    """The ``tikal`` console script; a command whose optional part is not installed says
    which extra to install (exit code 2) instead of a traceback."""
    try:
        app_for(sys.argv[1:])()
    except ModuleNotFoundError as error:
        from .extras import extra_providing  # package metadata: read only when needed

        extra = extra_providing(error.name or "")
        if extra is None:
            raise
        console(stderr=True).print(
            text("cli.missing_extra", language_of(None), module=error.name, extra=extra),
            soft_wrap=True, markup=False)
        raise SystemExit(2) from None
