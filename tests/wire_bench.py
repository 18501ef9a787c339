"""The wire's forms measured over the recorded traffic (``tests/fixtures/wire``): today's
delta against a standard JSON Patch (RFC 6902), and TypedDicts written by orjson against
validating models (pydantic, msgspec).

For every delta in ``tests/fixtures/wire/*.json`` (each connection's messages applied in
order, as a client does) this compares three ways of sending the same change:

* ``diff``: the delta as the server sends it (protocol 4: ``set`` operations
  ``[path, value]``, ``[path]``, ``[path, middle, a, b]``, and the ``log`` patch);
* ``ops->6902``: the same operations written as RFC 6902 operations (``add``,
  ``replace``, ``remove`` with JSON Pointer paths; a splice becomes a ``replace`` of the
  whole string, since the standard has none), the log as today;
* ``jsonpatch``: what the ``jsonpatch`` package makes of the two states
  (``jsonpatch.make_patch``), log included: adopting the package on both ends.  Its
  patches are checked too: applied to the state before, does each give the state after?

Sizes are the JSON text of the whole message (orjson); CPU is the encoder (the diff of the
two states, then the JSON text) and the decoder (the JSON text parsed, then applied to the
client's copy), per delta, each the best of ``--repeat`` passes.  Run:
``PYTHONPATH=src python tests/wire_patch_bench.py`` (needs the ``jsonpatch`` package,
which the project does not depend on).
"""

from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from tikal.server.wire.client import apply_message
from tikal.server.wire.diff import diff

FIXTURES = Path(__file__).parent / "fixtures" / "wire"
SPLICE_OP = 4  # [path, middle, a, b]


def pointer(path: list[Any]) -> str:
    """A JSON Pointer (RFC 6901) of a path of keys and indexes."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _at(state: Any, path: list[Any]) -> Any:
    for key in path:
        state = state[key]
    return state


def as_rfc6902(before: dict[str, Any], ops: list[list[Any]]) -> list[dict[str, Any]]:
    """Today's operations as RFC 6902 ones, worked out on a copy of the client's state
    (``add`` where the key or index is new, else ``replace``)."""
    state = copy.deepcopy(before)
    out: list[dict[str, Any]] = []
    for op in ops:
        path = op[0]
        parent = _at(state, path[:-1])
        last = path[-1]
        if len(op) == 1:
            out.append({"op": "remove", "path": pointer(path)})
        else:
            new = len(op) == 2 and (
                (isinstance(parent, dict) and last not in parent)
                or (isinstance(parent, list) and last == len(parent)))
            value = op[1]
            if len(op) == SPLICE_OP:
                old = parent[last]
                value = old[:op[2]] + op[1] + old[len(old) - op[3]:]
            out.append({"op": "add" if new else "replace", "path": pointer(path),
                        "value": value})
        apply_message(state, {"type": "delta", "base": state.get("state"),
                              "state": state.get("state"), "set": [op]})
    return out


def deltas() -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(state before, delta message, state after) of every delta in the fixtures."""
    found = []
    for path in sorted(FIXTURES.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for conn in data["connections"]:
            state: dict[str, Any] = {}
            for message in conn["messages"]:
                before = copy.deepcopy(state)
                if not apply_message(state, message):
                    raise SystemExit(f"{path.name}: a delta does not follow on")
                if message["type"] == "delta":
                    found.append((before, message, copy.deepcopy(state)))
    return found


def best(work: Callable[[], Any], repeat: int) -> float:
    """The shortest of ``repeat`` runs of ``work``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def without_log(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "log"}


def measure(repeat: int) -> dict[str, dict[str, float]]:
    import jsonpatch

    found = deltas()
    sizes: dict[str, list[int]] = {"diff": [], "ops->6902": [], "jsonpatch": []}
    cpu: dict[str, float] = {}
    std_patches = []
    wrong = 0
    for before, message, after in found:
        ops = message.get("set", [])
        sizes["diff"].append(len(orjson.dumps(message)))
        translated = {k: v for k, v in message.items() if k != "set"}
        if ops:
            translated["patch"] = as_rfc6902(before, ops)
        sizes["ops->6902"].append(len(orjson.dumps(translated)))
        patch = jsonpatch.make_patch(before, after).patch
        if jsonpatch.apply_patch(before, patch) != after:
            wrong += 1  # python-json-patch issue 160: moves in the wrong order at times
        std = {"type": "delta", "v": 5, "base": message["base"], "state": message["state"],
               "patch": patch}
        std_patches.append(std)
        sizes["jsonpatch"].append(len(orjson.dumps(std)))
    pairs = [(without_log(b), without_log(a)) for b, _, a in found]

    def encode_diff() -> None:
        for b, a in pairs:
            ops: list[list[Any]] = []
            diff(b, a, [], ops)
            orjson.dumps(ops)

    def encode_std() -> None:
        for b, a in pairs:
            orjson.dumps(jsonpatch.make_patch(b, a).patch)

    texts = [orjson.dumps(m) for _, m, _ in found]
    std_texts = [orjson.dumps(m) for m in std_patches]
    copies = [[orjson.loads(orjson.dumps(b)) for b, _, _ in found] for _ in range(repeat)]
    copies_std = [[orjson.loads(orjson.dumps(b)) for b, _, _ in found] for _ in range(repeat)]
    round_of = iter(range(repeat * 2))

    def decode_diff() -> None:
        states = copies[next(round_of) % repeat]
        for state, text in zip(states, texts, strict=True):
            apply_message(state, orjson.loads(text))

    std_round = iter(range(repeat * 2))

    def decode_std() -> None:
        states = copies_std[next(std_round) % repeat]
        for state, text in zip(states, std_texts, strict=True):
            jsonpatch.apply_patch(state, orjson.loads(text)["patch"], in_place=True)

    n = len(found)
    cpu["diff encode"] = best(encode_diff, repeat) / n
    cpu["jsonpatch encode"] = best(encode_std, repeat) / n
    cpu["diff decode"] = best(decode_diff, repeat) / n
    cpu["jsonpatch decode"] = best(decode_std, repeat) / n
    table = {
        name: {"deltas": float(len(values)), "total KB": sum(values) / 1024,
               "p50 B": statistics.median(values),
               "p95 B": sorted(values)[int(0.95 * len(values))], "max B": max(values)}
        for name, values in sizes.items()
    }
    return {"sizes": table, "cpu_us": {k: v * 1e6 for k, v in cpu.items()},
            "wrong": {"jsonpatch": float(wrong)}}


def messages() -> list[dict[str, Any]]:
    return [message for path in sorted(FIXTURES.glob("*.json"))
            for conn in json.loads(path.read_text(encoding="utf-8"))["connections"]
            for message in conn["messages"]]


def pydantic_schema() -> Any:
    """The protocol's TypedDicts made of ``typing_extensions.TypedDict``, which pydantic
    needs before Python 3.12 (``typing.TypedDict`` it refuses there)."""
    import types

    from tikal.server.wire import schema

    source = Path(schema.__file__).read_text(encoding="utf-8").replace(
        "from typing import Any, Literal, NotRequired, TypeAlias, TypedDict",
        "from typing import Any, Literal, TypeAlias\n"
        "from typing_extensions import NotRequired, TypedDict")
    module = types.ModuleType("pydantic_wire_schema")
    sys.modules[module.__name__] = module
    exec(compile(source, "pydantic_wire_schema", "exec"), module.__dict__)
    return module


def measure_models(repeat: int) -> dict[str, float]:
    """µs per message to write and to read every recorded message, by library."""
    from tikal.server.wire.schema import DeltaMessage, StateMessage

    found = messages()
    texts = [orjson.dumps(m) for m in found]
    kinds = [StateMessage if m["type"] == "state" else DeltaMessage for m in found]
    n = len(found)
    out = {
        "orjson write": best(lambda: [orjson.dumps(m) for m in found], repeat) / n,
        "orjson read": best(lambda: [orjson.loads(t) for t in texts], repeat) / n,
    }
    try:
        from pydantic import TypeAdapter
    except ImportError:  # pragma: no cover - a dependency of the server
        pass
    else:
        pyd = pydantic_schema()
        adapters = {StateMessage: TypeAdapter(pyd.StateMessage),
                    DeltaMessage: TypeAdapter(pyd.DeltaMessage)}
        pairs = list(zip(kinds, found, texts, strict=True))
        out["pydantic write"] = best(
            lambda: [adapters[k].dump_json(m) for k, m, _ in pairs], repeat) / n
        out["pydantic read"] = best(
            lambda: [adapters[k].validate_json(t) for k, _, t in pairs], repeat) / n
    try:
        import msgspec
    except ImportError:
        return out
    # msgspec validates no union of two TypedDicts (a log line is an ActionLine or a
    # ScoreLine), so it can only read the messages untyped here
    out["msgspec write"] = best(lambda: [msgspec.json.encode(m) for m in found], repeat) / n
    out["msgspec read (untyped)"] = best(lambda: [msgspec.json.decode(t) for t in texts],
                                         repeat) / n
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--models", action="store_true",
                        help="also time orjson against pydantic and msgspec")
    args = parser.parse_args()
    try:
        import jsonpatch  # noqa: F401
    except ImportError:
        sys.exit("needs the jsonpatch package")
    result = measure(args.repeat)
    print(f"{'form':<12} {'deltas':>6} {'total KB':>9} {'p50 B':>7} {'p95 B':>7} {'max B':>7}")
    for name, row in result["sizes"].items():
        print(f"{name:<12} {row['deltas']:>6.0f} {row['total KB']:>9.1f} {row['p50 B']:>7.0f} "
              f"{row['p95 B']:>7.0f} {row['max B']:>7.0f}")
    print()
    for name, value in result["cpu_us"].items():
        print(f"{name:<18} {value:>8.1f} µs per delta")
    print(f"jsonpatch patches that do not give the state back: "
          f"{result['wrong']['jsonpatch']:.0f} of {result['sizes']['diff']['deltas']:.0f}")
    if args.models:
        print()
        for name, value in measure_models(args.repeat).items():
            print(f"{name:<24} {value * 1e6:>8.1f} µs per message")


if __name__ == "__main__":
    main()
