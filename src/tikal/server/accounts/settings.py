"""The accounts' parameters, from ``data/accounts.json`` (data, not code)."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any


@functools.cache
def settings() -> dict[str, Any]:
    text = resources.files("tikal").joinpath("data", "accounts.json").read_text("utf-8")
    found: dict[str, Any] = json.loads(text)
    return found
