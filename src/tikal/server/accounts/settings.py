"""The accounts' parameters, from ``data/accounts.json`` (data, not code)."""

from __future__ import annotations

import functools
from typing import Any

from ...packaged import data_json


@functools.cache
def settings() -> dict[str, Any]:
    found: dict[str, Any] = data_json("accounts.json")
    return found
