"""The accounts' HTTP face (``/api/account/*``): bodies in, cookies out; the logic is in
``service.py``.

The session cookie is ``HttpOnly``, ``SameSite=Lax``, for the whole site; over https it is
``Secure`` and named ``__Host-tikal_session`` (a name only a secure, host-only cookie may
have).  A change made with the cookie must send the session's CSRF token back in
``X-CSRF-Token`` (403 ``csrf`` otherwise), and any account request sent by a page of
another site (``Sec-Fetch-Site: cross-site``, or an ``Origin`` not allowed) is refused the
same way, signing in included (no login CSRF).
"""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Header, Request, Response
from pydantic import BaseModel, Field

from ...messages import Message
from ..deps import client_of
from ..errors import ServerError
from ..openapi import errors
from ..security import SecuritySettings
from .service import Accounts, Current, SignedIn, digest_of
from .settings import settings

router = APIRouter(prefix="/api/account", tags=["accounts"])

COOKIE = "tikal_session"
SECURE_COOKIE = "__Host-tikal_session"
#: invite tokens are ``secrets.token_urlsafe`` texts
TOKEN_PATTERN = "^[A-Za-z0-9_-]{1,64}$"
GAME_PATTERN = "^[A-Za-z0-9_-]{1,32}$"


class SeatClaim(BaseModel):
    game: str = Field(..., pattern=GAME_PATTERN, description="a game id")
    token: str = Field(..., pattern=TOKEN_PATTERN, description="the seat's invite token")


def _seats_field() -> Any:
    return Field(default_factory=list, max_length=settings()["seats_per_claim"],
                 description="seats held as a guest (game id, invite token), bound to the "
                             "account")


class Credentials(BaseModel):
    name: str = Field(..., min_length=1, max_length=64)
    password: str = Field(..., min_length=1, max_length=1024)
    seats: list[SeatClaim] = _seats_field()


class PasswordChange(BaseModel):
    current_password: str = Field(..., min_length=1, max_length=1024)
    new_password: str = Field(..., min_length=1, max_length=1024)


class PasswordProof(BaseModel):
    password: str = Field(..., min_length=1, max_length=1024)


class SeatClaims(BaseModel):
    seats: list[SeatClaim] = _seats_field()


CsrfHeader = Header(None, alias="X-CSRF-Token", max_length=64)
#: statuses of the account operations
OPEN_ERRORS = errors(400, 401, 403, 408, 409, 413, 422, 429, 503)
SIGNED_IN_ERRORS = errors(400, 401, 403, 408, 413, 422, 429, 503)


def accounts_of(request: Request) -> Accounts:
    found: Accounts = request.app.state.accounts
    return found


def secure(request: Request) -> bool:
    settings_: SecuritySettings = request.app.state.security
    return request.url.scheme == "https" or (settings_.base or "").startswith("https:")


def cookie_name(request: Request) -> str:
    return SECURE_COOKIE if secure(request) else COOKIE


def csrf_refused() -> ServerError:
    return ServerError("csrf", Message("accounts.csrf"), 403)


def same_site(request: Request) -> None:
    """Refuse a request a page of another site sent (the browser says so)."""
    if request.headers.get("sec-fetch-site") == "cross-site":
        raise csrf_refused()
    origin = request.headers.get("origin")
    settings_: SecuritySettings = request.app.state.security
    if origin is not None and not settings_.origin_allowed(origin,
                                                           request.headers.get("host", "")):
        raise csrf_refused()


async def signed_in(request: Request) -> Current:
    """The request's session, or 401 ``not_signed_in``."""
    current = await accounts_of(request).current(request.cookies.get(cookie_name(request)))
    if current is None:
        raise ServerError("not_signed_in", Message("accounts.not_signed_in"), 401)
    return current


async def changing(request: Request, csrf: str | None) -> Current:
    """The session of a change made with the cookie: same site, and its CSRF token."""
    same_site(request)
    current = await signed_in(request)
    if csrf is None or not hmac.compare_digest(csrf.encode(), current.csrf.encode()):
        raise csrf_refused()
    return current


def set_session(request: Request, response: Response, opened: SignedIn) -> None:
    response.set_cookie(cookie_name(request), opened.secret,
                        max_age=int(settings()["session"]["lifetime_days"] * 86_400),
                        path="/", secure=secure(request), httponly=True, samesite="lax")


def clear_session(request: Request, response: Response) -> None:
    response.delete_cookie(cookie_name(request), path="/", secure=secure(request),
                           httponly=True, samesite="lax")


def me(opened: SignedIn | Current | None) -> dict[str, Any]:
    if opened is None:
        return {"signed_in": False}
    return {"signed_in": True, "name": opened.account.name, "csrf": opened.csrf}


def claims(seats: list[SeatClaim]) -> list[tuple[str, str]]:
    return [(seat.game, seat.token) for seat in seats]


@router.get("", name="account")
async def get_account(request: Request) -> dict[str, Any]:
    """Who is signed in here (and the session's CSRF token), or ``signed_in: false``."""
    return me(await accounts_of(request).current(request.cookies.get(cookie_name(request))))


@router.post("/signup", status_code=201, responses=OPEN_ERRORS)
async def sign_up(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    """A new account (name 3-20 letters, digits, ``_`` or ``-``; password 8-128
    characters), signed in; the guest's ``seats`` are bound to it."""
    same_site(request)
    old = request.cookies.get(cookie_name(request))
    opened = await accounts_of(request).sign_up(
        body.name, body.password, client_of(request), claims(body.seats),
        replaces=digest_or_none(old))
    set_session(request, response, opened)
    return me(opened)


@router.post("/signin", responses=OPEN_ERRORS)
async def sign_in(request: Request, response: Response, body: Credentials) -> dict[str, Any]:
    """Sign in by name and password: a new session (401 ``bad_credentials`` for a wrong
    name or password alike); the guest's ``seats`` are bound to the account."""
    same_site(request)
    old = request.cookies.get(cookie_name(request))
    opened = await accounts_of(request).sign_in(
        body.name, body.password, client_of(request), claims(body.seats),
        replaces=digest_or_none(old))
    set_session(request, response, opened)
    return me(opened)


@router.post("/signout", responses=SIGNED_IN_ERRORS)
async def sign_out(request: Request, response: Response,
                   csrf: str | None = CsrfHeader) -> dict[str, Any]:
    """End this session."""
    current = await changing(request, csrf)
    await accounts_of(request).sign_out(current)
    clear_session(request, response)
    return me(None)


@router.post("/signout-everywhere", responses=SIGNED_IN_ERRORS)
async def sign_out_everywhere(request: Request, response: Response,
                              csrf: str | None = CsrfHeader) -> dict[str, Any]:
    """End every session of the account, on every device, this one included."""
    current = await changing(request, csrf)
    await accounts_of(request).sign_out_everywhere(current)
    clear_session(request, response)
    return me(None)


@router.post("/password", responses=SIGNED_IN_ERRORS)
async def change_password(request: Request, response: Response, body: PasswordChange,
                          csrf: str | None = CsrfHeader) -> dict[str, Any]:
    """A new password (the current one proven); every other session ends, this one is
    replaced by a new one."""
    current = await changing(request, csrf)
    opened = await accounts_of(request).change_password(
        current, body.current_password, body.new_password, client_of(request))
    set_session(request, response, opened)
    return me(opened)


@router.post("/delete", responses=SIGNED_IN_ERRORS)
async def delete_account(request: Request, response: Response, body: PasswordProof,
                         csrf: str | None = CsrfHeader) -> dict[str, Any]:
    """Delete the account (its password proven): its games stay, its seats show a
    deleted player, the name becomes free."""
    current = await changing(request, csrf)
    await accounts_of(request).delete(current, body.password, client_of(request))
    clear_session(request, response)
    return me(None)


@router.post("/seats", responses=SIGNED_IN_ERRORS)
async def claim_seats(request: Request, body: SeatClaims,
                      csrf: str | None = CsrfHeader) -> dict[str, Any]:
    """Bind seats held by invite token to the account (a seat bound already stays)."""
    current = await changing(request, csrf)
    bound = await accounts_of(request).claim(current, claims(body.seats))
    return {"bound": [{"game": game, "seat": seat} for game, seat in bound]}


@router.get("/seats", responses=errors(401, 503))
async def my_seats(request: Request) -> dict[str, Any]:
    """The seats bound to the signed-in account (game id, seat index)."""
    current = await signed_in(request)
    seats = await accounts_of(request).seats(current)
    return {"seats": [{"game": game, "seat": seat} for game, seat in seats]}


def digest_or_none(secret: str | None) -> str | None:
    return digest_of(secret) if secret else None
