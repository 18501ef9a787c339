"""Where ``tikal serve``'s start-up time goes, for ``tikal db bench`` (issue 35).

The time to the first answer is two parts that grow with different things: starting
Python and importing the server (FastAPI, pydantic, the routes: the same on every
database), and opening the database and loading the games in play (what grows with
the stored games, the part issue 35 bounds).  When ``TIKAL_STARTUP_REPORT`` names a
file, ``tikal serve`` writes the wall-clock time (``time.time()``, comparable with the
bench's own clock) at which each part ended there, so the bench can show them apart.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

#: The environment variable naming the file ``tikal serve`` writes its marks to.
REPORT_ENV = "TIKAL_STARTUP_REPORT"

_marks: dict[str, float] = {}


def mark(name: str) -> None:
    """Note that the part ``name`` of the start-up ended now (and write the marks so far,
    if asked for: the server may be stopped before it writes again)."""
    _marks[name] = time.time()
    target = os.environ.get(REPORT_ENV)
    if target:
        Path(target).write_text(json.dumps(_marks), encoding="utf-8")


def read(path: Path) -> dict[str, float]:
    """The marks a server wrote to ``path`` (none if it wrote nothing, e.g. an older
    version of the server)."""
    try:
        marks = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(name): float(at) for name, at in marks.items()}
