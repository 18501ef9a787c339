"""The recorded wire traffic (tests/fixtures/wire) is what the server sends, and a client
that applies it arrives at the server's own full state.

The first test plays each fixture's game again on a fresh app and compares every message
every connection receives with the file, so any change to the wire shows up here: after a
deliberate protocol change, regenerate (``python tests/wire_fixtures.py``) and bump the
protocol version.  The second decodes the files as a client does.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tikal.server.wire.client import apply_message
from tikal.server.wire.codec import decode, encode, encode_bytes
from tikal.server.wire.legal import expand_legal
from wire_fixtures import SCRIPTS, Script, dump, path_of, record

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
IDS = [script.name for script in SCRIPTS]


def stored(script: Script) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path_of(script).read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_the_server_sends_the_recorded_messages(script: Script) -> None:
    assert dump(record(script)) == path_of(script).read_text(encoding="utf-8")


@pytest.mark.parametrize("script", SCRIPTS, ids=IDS)
def test_applying_the_messages_gives_the_servers_full_state(script: Script) -> None:
    data = stored(script)
    kinds = {m["type"] for c in data["connections"] for m in c["messages"]}
    assert kinds == {"state", "delta"}  # both forms are exercised
    for conn in data["connections"]:
        checkpoints = {c["after"]: c for c in conn["checkpoints"]}
        assert checkpoints, "every connection has a checkpoint"
        state: dict[str, Any] = {}
        for n, message in enumerate(conn["messages"], start=1):
            assert apply_message(state, message), f"message {n} does not follow on"
            point = checkpoints.pop(n, None)
            if point is not None:
                assert state == point["full"], f"{conn['seats']}: after message {n}"
                assert expand_legal(state["legal"]) == point["legal"]
        assert not checkpoints, "every checkpoint was reached"


def test_the_codec_reads_back_what_it_writes_and_only_server_messages() -> None:
    """encode/decode is the one JSON codec of the protocol: every recorded message comes
    back as it went, and text that is no server message is refused."""
    for script in SCRIPTS:
        for conn in stored(script)["connections"]:
            for message in conn["messages"]:
                assert decode(encode(message)) == message
                assert decode(encode_bytes(message)) == message
    for text in ('{"type": "hello", "token": null}', "[1, 2]", '{"state": 3}'):
        with pytest.raises(ValueError, match="not a server message"):
            decode(text)
