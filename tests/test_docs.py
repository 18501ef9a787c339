"""The documentation stays true: notation examples parse, JSON examples load, rule anchors exist."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tikal import Game, parse_action
from tikal.actions import _ARITY

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def code_blocks(name: str, lang: str = "") -> list[str]:
    """The fenced blocks of a doc whose info string is ``lang``."""
    blocks: list[str] = []
    current: list[str] | None = None
    info = ""
    for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            if current is None:
                current, info = [], line[3:].strip()
            else:
                if info == lang:
                    blocks.append("\n".join(current))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_every_notation_example_parses_and_prints_back() -> None:
    seen = set()
    for block in code_blocks("notation.md"):
        for line in block.splitlines():
            example = re.split(r"\s{2,}", line.strip())[0]
            if not example or example.split()[0] not in _ARITY:
                continue
            action = parse_action(example)
            assert str(action) == example
            seen.add(action.verb)
    assert seen == set(_ARITY), f"verbs without an example: {set(_ARITY) - seen}"


def test_record_and_position_examples_are_real() -> None:
    blocks = [json.loads(b) for b in code_blocks("records.md", "json")]
    record = next(b for b in blocks if b.get("format") == "tikal-record")
    position = next(b for b in blocks if b.get("format") == "tikal-position")
    game = Game.from_record(record)
    assert game.to_json() == position
    assert Game.from_json(position).legal_actions() == game.legal_actions()


def rule_ids_cited_by_the_engine() -> set[str]:
    ids: set[str] = set()
    for path in (ROOT / "src" / "tikal").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        ids.update(re.findall(r'IllegalAction\(\s*"([A-Z]+(?:-\d+)?)"', text))
        ids.update(re.findall(r'return "([A-Z]+-\d+)", f?"', text))
        ids.update(re.findall(r'\("([A-Z]+-\d+)", "', text))
    return ids


def anchors() -> set[str]:
    return set(re.findall(r'<a id="([A-Z]+(?:-\d+)?)"></a>', (DOCS / "rules.md").read_text()))


def test_rulebook_has_an_anchor_for_every_rule_the_engine_cites() -> None:
    cited = rule_ids_cited_by_the_engine()
    assert {"MOVE-2", "TILE-3", "NOTATION"} <= cited
    assert cited <= anchors()


def test_rulebook_has_an_anchor_for_every_rule_of_the_spec() -> None:
    spec = next(
        (p for p in (ROOT.parent / "shared" / "RULES.md", Path("/work/shared/RULES.md"))
         if p.exists()),
        None,
    )
    if spec is None:
        pytest.skip("the shared RULES.md is not beside this checkout")
    ids = set(re.findall(r"\[([A-Z]+-\d+)\]", spec.read_text(encoding="utf-8")))
    assert ids and ids <= anchors(), sorted(ids - anchors())


def test_readme_examples_run() -> None:
    import doctest

    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 10 and result.failed == 0


def test_readme_quick_start_is_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert text.split("\n## ")[1].startswith("Quick start")
    quick = text.split("## Quick start", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    lines = [line for line in quick.splitlines() if line.strip()]
    assert len(lines) == 2
    assert lines[0].startswith("pip install '.[web]' && tikal serve")
    assert lines[1] == "bash .ci/run"


def test_packaged_rulebook_copy_matches_docs() -> None:
    """``pip install .`` serves the bundled copy; it must say what docs/rules.md says."""
    bundled = ROOT / "src" / "tikal" / "static" / "rules.md"
    assert bundled.read_text(encoding="utf-8") == (DOCS / "rules.md").read_text(encoding="utf-8")


# ------------------------------------------------------------------ paths the docs name

#: Where a path named in a doc may be found: the repository, the package, the doc's folder.
SEARCHED = (ROOT, ROOT / "src", ROOT / "src" / "tikal", ROOT / "src" / "tikal" / "server")
PATH_LIKE = re.compile(r"`([A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+/?|[A-Za-z0-9_\-]+\.(?:py|md"
                       r"|json|js|css|html|toml|po|png|jsonl|sh|cfg|yaml|svg))`")


def documents() -> list[Path]:
    found = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    found += [p for p in (ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md") if p.exists()]
    return found


#: Names that look like paths but are not files of the repository, and why.
NOT_IN_THE_REPOSITORY = {
    "RULES.md": "the specification, in the project's shared folder beside the repository",
    "game-0000.json": "a file the arena writes for each game it keeps",
}


def named_paths(doc: Path) -> set[str]:
    """Paths a doc names in backticks: folders and files (not URLs, routes, options,
    dotted module names, figures, patterns or placeholders)."""
    names = set()
    for name in PATH_LIKE.findall(doc.read_text(encoding="utf-8")):
        if ("://" in name or name.startswith(("/", "~", "-", "tikal.", "chess."))
                or name[0].isdigit() or any(c in name for c in "*{}<>")):
            continue
        names.add(name)
    return names - set(NOT_IN_THE_REPOSITORY)


def exists(name: str, doc: Path) -> bool:
    """A path from one of :data:`SEARCHED` or the doc's folder; a bare file name anywhere
    in the package; a folder under ``artifacts/``, which the browser tests make for their
    screenshots (gitignored: a fresh clone has none until they have run)."""
    if name.startswith("artifacts/"):
        return True
    if any((base / name).exists() for base in (*SEARCHED, doc.parent)):
        return True
    return "/" not in name and any((ROOT / "src" / "tikal").rglob(name))


def test_every_path_the_docs_name_exists() -> None:
    checked = {doc.name: named_paths(doc) for doc in documents()}
    assert sum(map(len, checked.values())) > 40  # the scan sees the docs' paths
    missing = {doc.name: sorted(n for n in checked[doc.name] if not exists(n, doc))
               for doc in documents()}
    assert {k: v for k, v in missing.items() if v} == {}


# ------------------------------------------------------------------ layout maps


def layout_block(doc: Path, heading: str) -> str:
    """The ``text`` block after ``heading`` in ``doc``."""
    part = doc.read_text(encoding="utf-8").split(heading, 1)[1]
    return part.split("```text\n", 1)[1].split("```", 1)[0]


def listed_modules(block: str, top: str) -> set[str]:
    """The modules a layout block lists: a line ``name.py  what`` at the top level of the
    block, or under a folder line ``folder/`` (nested by indentation)."""
    found: set[str] = set()
    folders: list[tuple[int, str]] = []
    for line in block.splitlines():
        stripped = line.strip()
        if not stripped or stripped.rstrip("/") == top.rstrip("/"):
            continue
        indent = len(line) - len(line.lstrip())
        name = stripped.split()[0]
        while folders and folders[-1][0] >= indent:
            folders.pop()
        prefix = "".join(f"{f}/" for _, f in folders)
        if name.endswith("/"):
            folders.append((indent, name.rstrip("/")))
            found.add(prefix + name.rstrip("/"))
        elif name.endswith(".py"):
            found.add(prefix + name)
    return found


def package_modules(folder: Path) -> set[str]:
    """Every module and subpackage below ``folder`` (``__init__.py`` of a listed package
    and caches left out)."""
    found: set[str] = set()
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if "__pycache__" in rel.parts or rel.name == "__init__.py":
            continue
        if (path.is_dir() and (path / "__init__.py").exists()) or path.suffix == ".py":
            found.add(rel.as_posix())
    return found


def test_the_server_layout_in_docs_web_lists_every_module() -> None:
    """docs/web.md's map of ``tikal/server/`` names each module and subpackage that
    exists and nothing else, so a newcomer's map cannot drift from the code."""
    server = ROOT / "src" / "tikal" / "server"
    listed = listed_modules(layout_block(DOCS / "web.md", "## Code layout"), "tikal/server/")
    assert listed == package_modules(server)


def test_the_readme_layout_names_every_part_of_the_package() -> None:
    """The README's layout paragraph names every top-level module and subpackage."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = text.split("\nLayout: ", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`([a-z_]+)(?:\.py|/)`", layout))
    package = ROOT / "src" / "tikal"
    parts = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    parts |= {p.name for p in package.iterdir() if (p / "__init__.py").exists()}
    assert parts - named == set(), "modules the layout paragraph leaves out"
    folders = {"data", "static", "locale", "tests"}
    inside = {p.stem for p in package.glob("*/*.py")}  # e.g. cli/root.py
    assert named - parts - folders - inside == set(), "names of no module"


def test_the_contributors_map_names_every_part_of_the_package() -> None:
    """CONTRIBUTING.md's layout map lists every top-level module and subpackage."""
    package = ROOT / "src" / "tikal"
    listed = listed_modules(layout_block(ROOT / "CONTRIBUTING.md", "## Layout"), "src/tikal/")
    assert {name for name in listed if name.endswith(".py")} == {
        p.name for p in package.glob("*.py") if p.name != "__init__.py"}
    assert {p.name for p in package.iterdir() if (p / "__init__.py").exists()} <= listed
