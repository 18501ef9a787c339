"""Import hygiene: the engine loads no front end, every third-party import is a declared
dependency, and the layers above the engine import in one direction only (no cycles)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "tikal"

FRONT_ENDS = ("fastapi", "uvicorn", "starlette", "matplotlib", "rich", "typer")

#: Import names whose distribution is named otherwise, for when it is not installed here.
DISTRIBUTIONS = {"markdown_it": "markdown-it-py", "yaml": "pyyaml", "PIL": "pillow"}

#: The modules above the engine (and the engine-side tools written with them); none of them may
#: take part in an import cycle.
LAYERED = ("tikal.cli", "tikal.terminal", "tikal.bots", "tikal.loop", "tikal.rulebook",
           "tikal.simulate", "tikal.bench")


def loaded_after(statement: str) -> set[str]:
    """Top-level modules present after ``statement`` runs in a fresh interpreter."""
    listing = "print(' '.join({m.split('.')[0] for m in sys.modules}))"
    code = f"import sys\n{statement}\n{listing}"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    return set(proc.stdout.split())


@pytest.mark.parametrize(
    "statement",
    ["import tikal", "import tikal.loop, tikal.rulebook, tikal.simulate, tikal.bench"],
)
def test_the_engine_loads_no_front_end(statement: str) -> None:
    assert loaded_after(statement) & set(FRONT_ENDS) == set()


def test_the_command_line_loads_the_web_stack_only_to_serve() -> None:
    """``tikal --help`` and the terminal game start without FastAPI, uvicorn or matplotlib."""
    loaded = loaded_after("import tikal.cli")
    assert {"typer", "rich"} <= loaded
    assert loaded & {"fastapi", "uvicorn", "starlette", "matplotlib"} == set()


# ------------------------------------------------------------------ dependencies


def modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the package."""
    return {
        ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts): path
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def import_nodes(path: Path) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, also inside functions and under ``TYPE_CHECKING``."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def third_party_imports() -> dict[str, set[str]]:
    """Top-level import name -> the modules importing it (stdlib and tikal left out)."""
    found: dict[str, set[str]] = {}
    for name, path in modules().items():
        for node in import_nodes(path):
            if isinstance(node, ast.ImportFrom):
                targets = [node.module] if node.level == 0 and node.module else []
            else:
                targets = [alias.name for alias in node.names]
            for target in targets:
                top = target.split(".")[0]
                if top != "tikal" and top not in sys.stdlib_module_names:
                    found.setdefault(top, set()).add(name)
    return found


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project.get("optional-dependencies", {})
    specs = [*project["dependencies"], *(s for name, group in extras.items() if name != "test"
                                         for s in group)]  # tikal[rl], tikal[ray] count
    return {normalized(re.split(r"[\s\[<>=!~;]", spec, maxsplit=1)[0]) for spec in specs}


def distribution(import_name: str) -> str:
    installed = packages_distributions().get(import_name)
    return normalized(installed[0] if installed else DISTRIBUTIONS.get(import_name, import_name))


def test_every_third_party_import_is_a_declared_dependency() -> None:
    imports = third_party_imports()
    assert {"typer", "rich", "fastapi"} <= set(imports)  # the scan sees the package's imports
    declared = declared_dependencies()
    missing = {
        name: sorted(users) for name, users in imports.items()
        if distribution(name) not in declared
    }
    assert missing == {}, f"imported but not in [project] dependencies: {missing}"


# ------------------------------------------------------------------ cycles


def resolve(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement in ``module`` (not an ``__init__``) may name;
    ``from . import x`` may name the module ``pkg.x``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = module.split(".")[:-1]
    if node.level:
        base = base[: len(base) - (node.level - 1)]
        prefix = ".".join([*base, *([node.module] if node.module else [])])
    else:
        prefix = node.module or ""
    return [prefix, *(f"{prefix}.{alias.name}" for alias in node.names)]


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports; ``__init__`` modules are left out (they
    re-export, so counting them would make every package a cycle)."""
    files = modules()
    plain = {name for name, path in files.items() if path.name != "__init__.py"}
    graph: dict[str, set[str]] = {}
    for name in plain:
        graph[name] = {
            target
            for node in import_nodes(files[name])
            for target in resolve(name, node)
            if target in plain and target != name
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def test_cycle_detection_finds_a_cycle_and_its_members_only() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_counts_imports_in_functions_and_for_type_checking(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .game import Game\n"
        "def f():\n    from . import svg\n"
    )
    found = [node.module or "" for node in import_nodes(source)]
    assert found == ["typing", "game", ""]
    graph = import_graph()
    assert "tikal.bench" in graph["tikal.cli.engine"]  # imported inside the bench command


def test_no_cycle_involves_the_layers_above_the_engine() -> None:
    def layered(module: str) -> bool:
        return any(module == top or module.startswith(f"{top}.") for top in LAYERED)

    bad = [group for group in cycles(import_graph()) if any(map(layered, group))]
    assert bad == []


def test_no_import_cycles_at_all() -> None:
    assert cycles(import_graph()) == []


# ---------------------------------------------------------------- one vocabulary

#: The engine: the only modules that may tell actions apart by their class.
ENGINE_CORE = {"tikal.actions", "tikal.state"}
ACTION_CLASSES = {
    "Action", "PlaceTile", "PickTile", "PutFigure", "Move", "SecretPath", "Dig", "TakeTreasure",
    "Swap", "BuildCamp", "PlaceGuard", "EndTurn", "Bid", "Pass", "Draw", "Reveal",
}


def _class_names(node: ast.expr) -> set[str]:
    parts = node.elts if isinstance(node, ast.Tuple) else [node]
    return {p.id if isinstance(p, ast.Name) else getattr(p, "attr", "") for p in parts}


def test_only_the_engine_tells_actions_apart_by_class() -> None:
    """Front ends ask the engine (cost, check, describe, cells) instead of isinstance ladders."""
    found = []
    for name, path in modules().items():
        if name in ENGINE_CORE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance":
                hit = _class_names(node.args[1]) & ACTION_CLASSES if len(node.args) == 2 else ()
                if hit:
                    found.append(f"{name}:{node.lineno} {sorted(hit)}")
    assert found == []


def test_the_browser_knows_no_rules() -> None:
    """The pages get texts, costs and spaces from the server: no hex geometry, no tile-kind
    or rule-set tables, no action sentences of their own."""
    rules_in_js = re.compile(
        r"Math\.(hypot|sqrt)|[\"'](temple|jungle|volcano|basecamp)[\"']|"
        r"rules *[!=]==? *[\"'](demo|standard|auction)[\"']|\b(moved|placed|dug|built) (a|the)\b"
    )
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted((PACKAGE / "static").rglob("*.js"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if rules_in_js.search(line)
    ]
    assert found == []
