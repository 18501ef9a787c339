"""The ``tikal`` command line: :data:`app` (the Typer app) and :func:`main` (the console script).

The layers: :mod:`tikal.cli.root` builds the app and registers each command module
(:mod:`~tikal.cli.engine`, :mod:`~tikal.cli.bots`, :mod:`~tikal.cli.play`,
:mod:`~tikal.cli.strength`, :mod:`~tikal.cli.web`).  The command modules only read options
and print; the work is done by the engine, :mod:`tikal.terminal`, :mod:`tikal.bots` and
:mod:`tikal.server`.
"""

from .root import app, main

__all__ = ["app", "main"]
