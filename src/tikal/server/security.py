"""HTTP hardening: security headers on every answer, trusted hosts, the WebSocket's Origin,
and the public base URL that invite links are built from (docs/web.md, Security model).

* Every HTTP answer carries the headers of ``data/http_headers.json``: a
  Content-Security-Policy (the pages load only ``/static/*``; nothing may frame them),
  ``X-Content-Type-Options``, ``Referrer-Policy``, ``X-Frame-Options``,
  ``Permissions-Policy``, COOP and CORP; HSTS when the request came over https.  The
  layer sits outside the framework's own error layer, so a bare 500 has them too.
* ``Host`` must be one of the allowed hosts (Starlette's ``TrustedHostMiddleware``,
  400 otherwise): a forged ``Host`` can no longer put invite links on another site.
* A WebSocket whose ``Origin`` is another site is refused at the handshake (HTTP 403):
  cross-site WebSocket hijacking is harmless while tokens live in the URL fragment, and
  must stay impossible once a cookie authenticates the socket.  Clients that send no
  ``Origin`` (not browsers) are let in.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection

from ..packaged import data_json
from .limits import ASGIApp, AsgiMessage, Receive, Scope, Send

#: Host names a server that listens on loopback only answers to by default.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: The close code of a refused WebSocket before it is accepted (the client sees HTTP 403).
ORIGIN_REFUSED = 4403


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL, lower case (as browsers send ``Origin``)."""
    parts = urlsplit(url.strip())
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def public_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be the public base URL (None if it can): an http(s) URL of a
    host, without path, query or fragment (the app is served at the root)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "scheme"
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        return "path"
    return None


@dataclass(frozen=True)
class SecuritySettings:
    """What ``tikal serve`` can change: the public URL, the hosts and origins allowed.

    The defaults (every host, no public URL) are for apps built in tests and embedders;
    ``tikal serve`` allows only loopback names while it listens on loopback."""

    public_url: str | None = None
    allowed_hosts: tuple[str, ...] = ("*",)
    #: origins allowed besides the page's own (``*``: any)
    allowed_origins: tuple[str, ...] = ()

    @property
    def base(self) -> str | None:
        """The public URL without its trailing slash, or None."""
        return self.public_url.rstrip("/") if self.public_url else None

    def origin_allowed(self, origin: str, host: str) -> bool:
        """Whether a WebSocket from page ``origin`` may connect to ``host``: the same
        site, the public URL's, or one configured."""
        allowed = {origin_of(o) for o in self.allowed_origins if o != "*"}
        if self.base:
            allowed.add(origin_of(self.base))
        seen = origin_of(origin)
        return ("*" in self.allowed_origins or seen in allowed
                or urlsplit(seen).netloc == host.lower())


def default_hosts(listen: str, public_url: str | None) -> tuple[str, ...]:
    """The hosts ``tikal serve`` answers to unless told (``--allowed-hosts``): the public
    URL's host and loopback names; loopback names alone on loopback; any host when it
    listens on every address without a public URL (nobody could guess the names)."""
    if public_url:
        host = urlsplit(public_url).hostname or ""
        return (host, *LOOPBACK_HOSTS)
    if listen in LOOPBACK_HOSTS or listen.startswith("127."):
        return (*LOOPBACK_HOSTS, listen) if listen not in LOOPBACK_HOSTS else LOOPBACK_HOSTS
    if listen in ("0.0.0.0", "::", ""):
        return ("*",)
    return (listen, *LOOPBACK_HOSTS)


@cache
def header_table() -> dict[str, Any]:
    table: dict[str, Any] = data_json("http_headers.json")
    return table


def sha256_source(text: str) -> str:
    """A CSP hash source: what lets exactly this inline text run or apply."""
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return f"'sha256-{digest}'"


def inline_styles() -> tuple[list[str], list[str]]:
    """(hashes of ``<style>`` texts, hashes of ``style=""`` attributes) the pages really
    have: the boards' SVG carries one ``<style>`` (``svg.STYLE``), and the static pages
    a few style attributes.  Allowing them by hash keeps every other inline style out."""
    from .. import svg
    from .routes_pages import static_dir

    attributes = sorted({value for page in static_dir().glob("*.html")
                         for value in STYLE_ATTRIBUTE.findall(page.read_text("utf-8"))})
    return [sha256_source(svg.STYLE)], [sha256_source(value) for value in attributes]


STYLE_ATTRIBUTE = re.compile(r'\sstyle="([^"]*)"')


def policy(name: str) -> bytes:
    """A Content-Security-Policy of the table as header text; the pages' policy with the
    hashes of their inline styles (:func:`inline_styles`)."""
    rules = {key: list(values) for key, values in
             header_table()["content_security_policy"][name].items()}
    if name == "pages":
        elements, attributes = inline_styles()
        rules["style-src"] += elements
        if attributes:
            rules["style-src-attr"] = ["'unsafe-hashes'", *attributes]
    return "; ".join(f"{key} {' '.join(values)}" for key, values in rules.items()).encode()


def encoded(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.lower().encode(), v.encode()) for k, v in headers.items()]


class SecurityHeaders:
    """Add the table's headers to every HTTP answer that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        table = header_table()
        self.every = encoded(table["every_answer"])
        self.https = encoded(table["https_only"])
        self.pages, self.api_docs = policy("pages"), policy("api_docs")
        self.docs_paths = frozenset(table["api_docs_paths"])

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(self.every)
        csp = self.api_docs if scope["path"] in self.docs_paths else self.pages
        extra.append((b"content-security-policy", csp))
        if scope.get("scheme") == "https":
            extra.extend(self.https)

        async def send_with_headers(message: AsgiMessage) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers.extend((k, v) for k, v in extra if k not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class OriginCheck:
    """Refuse a WebSocket from a page of another site before it is accepted."""

    def __init__(self, app: ASGIApp, settings: SecuritySettings) -> None:
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            headers = Headers(scope=scope)
            origin = headers.get("origin")
            if origin is not None and not self.settings.origin_allowed(
                    origin, headers.get("host", "")):
                await receive()  # the websocket.connect event
                await send({"type": "websocket.close", "code": ORIGIN_REFUSED})
                return
        await self.app(scope, receive, send)


def public_base(conn: HTTPConnection) -> str:
    """The base URL of links given out (invites, spectators, replays): the configured
    public URL, else the request's own (its Host is one of the allowed hosts)."""
    settings: SecuritySettings = conn.app.state.security
    return settings.base or str(conn.base_url).rstrip("/")


def install(app: FastAPI, settings: SecuritySettings) -> None:
    """Wire the layers into ``app``: headers outermost (even around the framework's 500),
    then the host check, then the WebSocket's Origin."""
    app.state.security = settings
    app.add_middleware(OriginCheck, settings=settings)
    if settings.allowed_hosts != ("*",):
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts),
                           www_redirect=False)
    build: Callable[[], ASGIApp] = app.build_middleware_stack

    def outermost() -> ASGIApp:
        return SecurityHeaders(build())

    app.build_middleware_stack = outermost  # type: ignore[method-assign]
