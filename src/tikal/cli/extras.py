"""Which optional part of tikal a missing module belongs to, read from the installed
package's own metadata (pyproject.toml's extras), so the command line can say what to
install instead of showing a traceback.

``pip install tikal`` is the engine, the bots and the command line; a command that needs
an extra imports it when it runs (``tikal serve`` imports uvicorn and FastAPI), so without
the extra that import fails with :class:`ModuleNotFoundError` naming the module.
"""

from __future__ import annotations

import re
from importlib import metadata

#: Import names whose distribution is named otherwise.
DISTRIBUTIONS = {"markdown_it": "markdown-it-py", "yaml": "pyyaml", "PIL": "pillow"}

#: Extras that only gather others (or the test tools): never the one to name.
GATHERING = frozenset({"all", "test"})

_EXTRA = re.compile(r"""extra\s*==\s*['"]([^'"]+)['"]""")


def normalized(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(spec: str) -> str:
    return normalized(re.split(r"[\s\[<>=!~;]", spec.strip(), maxsplit=1)[0])


def extra_providing(module: str, requirements: list[str] | None = None) -> str | None:
    """The extra of tikal that brings the top-level module of ``module`` (None if the
    module is not an optional dependency: then the error is not a missing extra)."""
    top = module.split(".")[0]
    wanted = normalized(DISTRIBUTIONS.get(top, top))
    if requirements is None:
        try:
            requirements = metadata.requires("tikal") or []
        except metadata.PackageNotFoundError:
            return None
    for spec in requirements:
        found = _EXTRA.search(spec)
        if found and found.group(1) not in GATHERING and requirement_name(spec) == wanted:
            return found.group(1)
    return None
