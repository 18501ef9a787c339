"""The code stays readable by a newcomer: no module of the package over 800 lines (the rules
core excepted) and no function over cyclomatic complexity 25 (radon's measure), so a
grown module is split by concern before it becomes the one room nobody can find their
way in."""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "tikal"
MAX_LINES = 800
MAX_COMPLEXITY = 25
#: The rules core: every rule in one place, by design (docs/rules.md ids throughout).
LONG_BY_DESIGN = {"state.py"}


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_no_module_is_over_the_line_limit() -> None:
    long = {str(p.relative_to(PACKAGE)): n for p in sources()
            if p.name not in LONG_BY_DESIGN
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert len(sources()) > 50  # the scan sees the package
    assert long == {}


def functions(path: Path) -> list[Function]:
    """Every function and method of a module (a class's own figure is its methods')."""
    found: list[Function] = []
    for block in cc_visit(path.read_text(encoding="utf-8")):
        found.extend(block.methods if isinstance(block, Class) else [block])
    return found


def test_no_function_is_over_the_complexity_limit() -> None:
    complex_ = {
        f"{p.relative_to(PACKAGE)}:{f.lineno} {f.fullname}": f.complexity
        for p in sources() for f in functions(p) if f.complexity > MAX_COMPLEXITY
    }
    assert sum(len(functions(p)) for p in sources()) > 1000  # the scan sees the methods
    assert complex_ == {}
