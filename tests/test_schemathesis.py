"""Property-based API fuzz: schemathesis generates requests from ``/openapi.json`` (valid
and invalid ones) against the real app on a temporary SQLite database; no request may
get a server error (5xx).  Examples are bounded so CI stays fast."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402

from tikal.server import create_app  # noqa: E402
from tikal.server.limits import LimitSettings  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Examples per API operation and generation mode (positive and negative).
EXAMPLES = 30

_DB = Path(tempfile.mkdtemp(prefix="tikal-fuzz-")) / "fuzz.sqlite3"
APP = create_app(_DB, bot_delay=0.0, limit_settings=LimitSettings(enabled=False))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_request_gets_a_server_error(case: schemathesis.Case) -> None:
    case.call_and_validate(checks=[not_a_server_error])
