"""The ``tikal`` command line: :data:`app` (the Typer app) and :func:`main` (the console script).

The layers: :mod:`tikal.cli.root` builds the app and registers each command module
(:mod:`~tikal.cli.engine`, :mod:`~tikal.cli.bots`, :mod:`~tikal.cli.play`,
:mod:`~tikal.cli.strength`, :mod:`~tikal.cli.web`).  The command modules only read options
and print; the work is done by the engine, :mod:`tikal.terminal`, :mod:`tikal.bots` and
:mod:`tikal.server`.
"""

from typing import Any

from .root import main

__all__ = ["app", "main"]


def __getattr__(name: str) -> Any:
    """``app`` is built on first use (:mod:`tikal.cli.root`)."""
    from . import root

    return getattr(root, name)
