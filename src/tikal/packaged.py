"""The package's own data files (``tikal/data``), read in one place.

Why: rules, weights, tables and server settings live in data files, not in code; every
reader finding them the same way (inside the installed package, not the working
directory) keeps a wheel and an editable checkout alike.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def data_json(*path: str) -> Any:
    """The decoded JSON file ``data/<path...>`` of the package (e.g. ``"seats.json"``,
    ``"tutorial", "ui.en.json"``)."""
    return json.loads(resources.files("tikal").joinpath("data", *path).read_text("utf-8"))
