"""Property-based API fuzz with every schemathesis check: requests generated from
``/openapi.json`` (examples, coverage and fuzzing phases, valid and invalid data, and a
stateful run that chains operations) against the real app on a temporary SQLite
database.  No server error, no status the document does not name, no schema-valid
request refused with 400, no schema-violating request accepted, ``Allow`` on every 405.

Before the document was made true (openapi.py), a ``schemathesis run --checks all``
(30 examples, seed 1) found 36 unique failures: 23 undocumented statuses, 4 schema-valid
requests rejected, 9 TRACE answers without ``Allow``.

One setting differs from schemathesis's defaults, with its reason:

* ``positive_data_acceptance`` also expects 422.  A 422 here is the game's refusal of a
  well-formed request (an illegal move, a record whose log does not replay, an option the
  rule set has not, three seats for the two-player demo): whether a move is legal is what
  the rules decide, and no schema can say it.  A malformed request is a 400, and that
  stays a failure for schema-valid data.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402

from tikal.server import create_app  # noqa: E402
from tikal.server.limits import LimitSettings  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Examples per API operation and generation mode (positive and negative).
EXAMPLES = 30

_DB = Path(tempfile.mkdtemp(prefix="tikal-fuzz-")) / "fuzz.sqlite3"
APP = create_app(_DB, bot_delay=0.0, limit_settings=LimitSettings(enabled=False))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
schema.config.checks.update(included_check_names=["all"])
acceptance = schema.config.checks.positive_data_acceptance
acceptance.expected_statuses = [*acceptance.expected_statuses, "422"]  # see the docstring


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_every_check_holds_for_every_operation(case: schemathesis.Case) -> None:
    case.call_and_validate()


Workflow = schema.as_state_machine()
TestStatefulWorkflow = Workflow.TestCase
TestStatefulWorkflow.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=6, deadline=None, derandomize=True,
    suppress_health_check=list(HealthCheck))
