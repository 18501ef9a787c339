"""How long the garbage collector paused a server process, per generation.

The cyclic collector stops the whole process, and its pauses are the tail of the move
-> update latency (docs/web.md), so ``tikal loadtest`` reports them beside the
latencies: ``tikal serve`` records every collection when ``TIKAL_GC_REPORT`` names a
file, and writes the summary there when it shuts down.  Recording costs two clock reads
per collection.
"""

from __future__ import annotations

import gc
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The environment variable naming the file ``tikal serve`` writes its summary to.
REPORT_ENV = "TIKAL_GC_REPORT"


@dataclass
class GcPauses:
    """Collections and their pause times (ms) by generation, while :meth:`start`-ed."""

    pauses: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: [], 2: []})
    _began: float = 0.0

    def start(self) -> None:
        if self._record not in gc.callbacks:
            gc.callbacks.append(self._record)

    def stop(self) -> None:
        if self._record in gc.callbacks:
            gc.callbacks.remove(self._record)

    def _record(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses[info["generation"]].append((time.perf_counter() - self._began) * 1e3)

    def summary(self) -> dict[str, Any]:
        """Per generation: collections, total and longest pause (ms); and the longest of all."""
        out: dict[str, Any] = {}
        for generation, times in self.pauses.items():
            out[str(generation)] = {"count": len(times), "total_ms": round(sum(times), 1),
                                    "max_ms": round(max(times, default=0.0), 1)}
        out["max_ms"] = max(entry["max_ms"] for entry in out.values())
        return out

    def write(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.summary()), encoding="utf-8")


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
