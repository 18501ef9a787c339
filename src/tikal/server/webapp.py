"""tikal as an installable web app: the manifest and the service worker (docs/web.md,
Call-backs).  The worker is ``static/sw.js`` with the package version and the list of
static files filled in, so each release gets its own cache and nothing is listed that is
not shipped; it is served from ``/sw.js`` because a worker controls only the paths below
its own."""

from __future__ import annotations

import functools
import json

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from .. import __version__
from .routes_pages import static_dir

router = APIRouter(include_in_schema=False)
#: What the worker keeps: the files the pages load besides their HTML.
CACHED = (".js", ".css", ".svg", ".ogg", ".mp3", ".wav", ".webmanifest")


def cached_assets() -> list[str]:
    root = static_dir()
    return sorted(f"/static/{path.relative_to(root).as_posix()}" for path in root.rglob("*")
                  if path.is_file() and path.suffix in CACHED and path.name != "sw.js")


@functools.cache
def service_worker() -> str:
    text = (static_dir() / "sw.js").read_text(encoding="utf-8")
    return (text.replace("__VERSION__", __version__)
            .replace("__ASSETS__", json.dumps(cached_assets())))


@router.get("/sw.js")
async def worker() -> Response:
    return Response(service_worker(), media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


@router.get("/manifest.webmanifest")
async def manifest() -> FileResponse:
    return FileResponse(static_dir() / "manifest.webmanifest",
                        media_type="application/manifest+json")
