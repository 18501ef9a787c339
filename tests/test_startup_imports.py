"""What ``tikal serve`` imports before its first answer (issue 35: start-up under a
second): the console script builds only the command it runs, passkeys and look-alike
names load their libraries on first use, the bots' workers start after the server
answers.  The seconds are measured by ``tikal db bench``; these tests pin the causes."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
import typer.main

from tikal.cli.root import COMMAND_MODULES, app_for, build_app
from tikal.server.app import warm_later

#: Modules a server's start must not import (each was 0.02-0.1 s of it).
NOT_AT_START_UP = ("webauthn", "confusable_homoglyphs", "tikal.terminal", "tikal.bots.arena",
                   "tikal.bots.tuning", "rich.progress")


def modules_after(code: str) -> set[str]:
    """The modules imported by a fresh interpreter that runs ``code``."""
    shown = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys; print(' '.join(sys.modules))"],
        capture_output=True, text=True, check=True).stdout.split()
    return set(shown)


def loaded(modules: set[str], prefix: str) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for name in modules)


def test_the_serve_command_and_the_server_import_none_of_the_unneeded_libraries() -> None:
    modules = modules_after("import tikal.server\nfrom tikal.cli.root import app_for\n"
                            "import typer.main\n"
                            "typer.main.get_command(app_for(['serve']))")
    assert "tikal.server.app" in modules and "tikal.cli.web" in modules
    assert [name for name in NOT_AT_START_UP if loaded(modules, name)] == []


def test_the_whole_app_still_has_every_command_and_loads_them() -> None:
    modules = modules_after("from tikal.cli import app\nimport typer.main\n"
                            "typer.main.get_command(app)")
    assert loaded(modules, "tikal.terminal") and "tikal.bots.arena" in modules


def test_the_command_table_names_what_each_module_adds() -> None:
    whole = typer.main.get_command(build_app())
    listed = [c for names in COMMAND_MODULES.values() for c in names]
    assert sorted(whole.commands) == sorted(listed) and len(set(listed)) == len(listed)  # type: ignore[attr-defined]
    for module, names in COMMAND_MODULES.items():
        alone = typer.main.get_command(build_app([module]))
        assert tuple(alone.commands) == names, module  # type: ignore[attr-defined]


@pytest.mark.parametrize("argv,expected", [
    (["serve", "--help"], {"serve"}),
    (["db", "check"], {"db"}),
    (["simulate"], {"simulate", "replay", "bench"}),
    ([], None), (["--help"], None), (["nonsense"], None),
])
def test_the_console_script_builds_only_the_command_it_runs(
        argv: list[str], expected: set[str] | None) -> None:
    commands = set(typer.main.get_command(app_for(argv)).commands)  # type: ignore[attr-defined]
    everything = {c for names in COMMAND_MODULES.values() for c in names}
    assert commands == (expected or everything)


def test_a_lone_command_keeps_its_name_on_the_command_line() -> None:
    """Typer runs an app of one command without its name; the group callback keeps
    ``tikal serve --port 1`` meaning the serve command."""
    out = subprocess.run([sys.executable, "-c", "from tikal.cli import main; main()",
                          "rules", "MOVE-2"], capture_output=True, text=True)
    assert out.returncode == 0 and "MOVE-2" in out.stdout


class CountingPool:
    def __init__(self) -> None:
        self.warmed = 0

    async def warm(self) -> list[int]:
        self.warmed += 1
        return []


def test_the_bots_workers_start_only_after_the_delay() -> None:
    async def scenario() -> tuple[int, int]:
        early, late = CountingPool(), CountingPool()
        cancelled = asyncio.create_task(warm_later(early, after=30))  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        cancelled.cancel()  # the server stopped before the delay ran out
        await warm_later(late, after=0.01)  # type: ignore[arg-type]
        return early.warmed, late.warmed

    assert asyncio.run(scenario()) == (0, 1)
