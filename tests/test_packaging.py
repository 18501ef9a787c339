"""Packaging: ``pip install tikal`` brings only what the engine, the bots and the command
line need; everything else is an extra, and a command whose extra is missing says which
one to install."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from test_imports import PACKAGE, ROOT, modules
from tikal.cli.extras import extra_providing, normalized, requirement_name

#: Parts of the package that are the optional front ends (their extras say what they need).
OPTIONAL_PARTS = ("tikal.server", "tikal.rl")


def project() -> dict[str, object]:
    data: dict[str, object] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return data


def base_requirements() -> set[str]:
    deps = project()["dependencies"]
    assert isinstance(deps, list)
    return {requirement_name(spec) for spec in deps}


def pyproject_requirements() -> list[str]:
    """The project's requirements in the form the installed metadata has them."""
    extras = project()["optional-dependencies"]
    assert isinstance(extras, dict)
    return [f'{spec}; extra == "{name}"' for name, specs in extras.items() for spec in specs]


def module_level_imports(path: Path) -> set[str]:
    """Top-level names of the third-party modules imported when ``path`` is imported
    (not inside functions, not under ``if TYPE_CHECKING``)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found |= {n.split(".")[0] for n in names}
    return {n for n in found if n != "tikal" and n not in sys.stdlib_module_names}


def test_the_base_install_is_the_engine_and_the_command_line() -> None:
    assert base_requirements() == {"typer", "rich", "babel"}


def test_the_engine_bots_and_command_line_import_only_base_requirements() -> None:
    """Outside the web server and the learning environments, a module imports optional
    packages only inside the function that needs them."""
    base = base_requirements()
    found = {
        name: sorted(imports)
        for name, path in modules().items()
        if not name.startswith(OPTIONAL_PARTS)
        if (imports := {i for i in module_level_imports(path) if normalized(i) not in base})
    }
    assert "tikal.cli.common" in modules()  # the scan sees the command line
    assert found == {}


@pytest.mark.parametrize(("module", "extra"), [
    ("fastapi", "web"), ("uvicorn.config", "web"), ("markdown_it", "web"), ("psycopg", "pg"),
    ("matplotlib.pyplot", "plots"), ("cma", "tune"), ("numpy", "rl"), ("ray", "ray"),
    ("typer", None), ("json", None), ("nonexistent_module", None),
])
def test_a_missing_module_is_traced_to_its_extra(module: str, extra: str | None) -> None:
    assert extra_providing(module, pyproject_requirements()) == extra


def run_blocked(blocked: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``tikal ARGS`` in a fresh interpreter where ``blocked`` modules cannot be imported."""
    code = ("import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in blocked)
            + f"sys.argv = ['tikal', *{list(args)!r}]\nfrom tikal.cli import main\nmain()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "TIKAL_LANG": "en"})


def test_serve_without_the_web_extra_says_what_to_install() -> None:
    done = run_blocked(["uvicorn", "fastapi"], "serve", "--port", "1")
    assert done.returncode == 2
    assert "pip install 'tikal[web]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_commands_of_the_base_install_run_without_any_extra() -> None:
    blocked = ["fastapi", "uvicorn", "starlette", "matplotlib", "psycopg", "numpy", "orjson"]
    done = run_blocked(blocked, "simulate", "--rules", "demo", "--games", "2", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "demo" in done.stdout


@pytest.mark.slow
def test_a_fresh_environment_gets_only_the_base_requirements(tmp_path: Path) -> None:
    """``pip install .`` into an empty virtual environment: the engine and the command
    line work, the web stack is not there, and ``tikal serve`` names its extra."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    subprocess.run([*pip, str(ROOT)], check=True, timeout=900, capture_output=True)
    listed = subprocess.run([str(python), "-m", "pip", "list", "--format=freeze"],
                            capture_output=True, text=True, check=True).stdout
    installed = {normalized(line.split("==")[0]) for line in listed.splitlines()}
    assert {"tikal", "typer", "rich", "babel"} <= installed
    assert installed & {"fastapi", "uvicorn", "matplotlib", "psycopg", "numpy"} == set()
    tikal = env_dir / "bin" / "tikal"
    played = subprocess.run([str(tikal), "simulate", "--rules", "demo", "--games", "1"],
                            capture_output=True, text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    served = subprocess.run([str(tikal), "serve"], capture_output=True, text=True,
                            timeout=120, env={**os.environ, "TIKAL_LANG": "en"})
    assert served.returncode == 2
    assert "pip install 'tikal[web]'" in served.stderr
    assert (PACKAGE / "py.typed").exists()
