"""How long the garbage collector paused a server process, per generation.

The cyclic collector stops the whole process, and its pauses are the tail of the move
-> update latency (docs/web.md), so ``tikal loadtest`` reports them beside the
latencies: ``tikal serve`` records every collection when ``TIKAL_GC_REPORT`` names a
file, and writes every pause there (with its wall-clock start) when it shuts down, so
that the load test counts only the pauses of its timed window, not those of creating
the games.  Recording costs three clock reads per collection.
"""

from __future__ import annotations

import gc
import json
import math
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The environment variable naming the file ``tikal serve`` writes its summary to.
REPORT_ENV = "TIKAL_GC_REPORT"


@dataclass
class GcPauses:
    """Collections and their pause times by generation, while :meth:`start`-ed: for each,
    when it began (``time.time()``, comparable across processes) and how long it took (ms)."""

    pauses: dict[int, list[tuple[float, float]]] = field(
        default_factory=lambda: {0: [], 1: [], 2: []})
    _began: float = 0.0
    _began_at: float = 0.0

    def start(self) -> None:
        if self._record not in gc.callbacks:
            gc.callbacks.append(self._record)

    def stop(self) -> None:
        if self._record in gc.callbacks:
            gc.callbacks.remove(self._record)

    def _record(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began_at = time.time()
            self._began = time.perf_counter()
        else:
            taken = (time.perf_counter() - self._began) * 1e3
            self.pauses[info["generation"]].append((self._began_at, taken))

    def summary(self, since: float = 0.0, until: float = math.inf) -> dict[str, Any]:
        """Per generation: collections, total and longest pause (ms); and the longest of all;
        of the collections that began between ``since`` and ``until`` (``time.time()``)."""
        return summarize(self.pauses, since, until)

    def write(self, path: str | Path) -> None:
        """Every pause, for :func:`read_summary` to summarise over any window."""
        Path(path).write_text(json.dumps({"pauses": self.pauses}), encoding="utf-8")


def summarize(pauses: Mapping[Any, list[Any]], since: float = 0.0,
              until: float = math.inf) -> dict[str, Any]:
    """The summary of :meth:`GcPauses.summary` over (start, ms) pairs by generation."""
    out: dict[str, Any] = {}
    for generation, times in pauses.items():
        taken = [ms for began, ms in times if since <= began <= until]
        out[str(generation)] = {"count": len(taken), "total_ms": round(sum(taken), 1),
                                "max_ms": round(max(taken, default=0.0), 1)}
    out["max_ms"] = max(entry["max_ms"] for entry in out.values())
    return out


def read_summary(report: dict[str, Any], since: float = 0.0,
                 until: float = math.inf) -> dict[str, Any]:
    """The summary of a written report over a window.  A report of an older server holds
    only its whole-life summary, which is returned as it is."""
    if "pauses" not in report:
        return report
    return summarize(report["pauses"], since, until)


#: The recorder ``tikal serve`` started (see :func:`record_from_env`).
_serving: GcPauses | None = None


def record_from_env() -> None:
    """Start recording if ``TIKAL_GC_REPORT`` is set (``tikal serve`` calls this)."""
    global _serving
    if os.environ.get(REPORT_ENV) and _serving is None:
        _serving = GcPauses()
        _serving.start()


def write_report() -> None:
    """Write the summary to ``TIKAL_GC_REPORT``, if recording: at the app's shutdown, since
    uvicorn ends the process with the signal that stopped it once the app has shut down."""
    target = os.environ.get(REPORT_ENV)
    if _serving is not None and target:
        _serving.write(target)
