"""Passkeys over HTTP (``/api/account/passkeys*``, ``/api/account/passkey-signin*``); the
ceremonies are in ``passkeys.py``, the cookie and CSRF rules those of ``routes.py``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from ..deps import client_of
from ..openapi import errors
from ..security import SecuritySettings, origin_of
from .passkey_store import PasskeyRow
from .passkeys import Ceremony, Party, Passkeys
from .routes import (
    CsrfHeader,
    changing,
    cookie_name,
    digest_or_none,
    me,
    same_site,
    set_session,
    signed_in,
)

router = APIRouter(prefix="/api/account", tags=["accounts"])
CHALLENGE = Field(..., pattern="^[A-Za-z0-9_-]{1,64}$", description="from the options")


class NewPasskey(BaseModel):
    challenge_id: str = CHALLENGE
    credential: dict[str, Any] = Field(..., description="the browser's credential "
                                       "(PublicKeyCredential.toJSON())")
    name: str = Field("", max_length=80, description="what to call it (e.g. 'phone')")


class PasskeyAnswer(BaseModel):
    challenge_id: str = CHALLENGE
    credential: dict[str, Any] = Field(..., description="PublicKeyCredential.toJSON()")


def passkeys_of(request: Request) -> Passkeys:
    found: Passkeys = request.app.state.passkeys
    return found


def party(request: Request) -> Party:
    """The relying party: the public URL's host and origin, else the request's."""
    settings: SecuritySettings = request.app.state.security
    if settings.base:
        origin = origin_of(settings.base)
        return Party(origin.split("://", 1)[1].rsplit(":", 1)[0], origin)
    return Party(request.url.hostname or "", origin_of(str(request.base_url)))


def ceremony(found: Ceremony) -> dict[str, Any]:
    return {"challenge_id": found.challenge_id, "options": found.options}


def shown(key: PasskeyRow) -> dict[str, Any]:
    return {"id": key.credential_id, "name": key.name, "created": key.created,
            "used": key.used}


@router.post("/passkeys/options", responses=errors(400, 401, 403, 408, 409, 413, 503))
async def passkey_options(request: Request, csrf: str | None = CsrfHeader) -> dict[str, Any]:
    """Options to create a passkey for the signed-in account (``navigator.credentials.
    create``), valid five minutes, once."""
    current = await changing(request, csrf)
    return ceremony(await passkeys_of(request).registration_options(current, party(request)))


@router.post("/passkeys", status_code=201,
             responses=errors(400, 401, 403, 408, 413, 422, 503))
async def add_passkey(request: Request, body: NewPasskey,
                      csrf: str | None = CsrfHeader) -> dict[str, Any]:
    """Store the new passkey the browser made from the options (verified first)."""
    current = await changing(request, csrf)
    key = await passkeys_of(request).register(current, party(request), body.challenge_id,
                                              body.credential, body.name)
    return shown(key)


@router.get("/passkeys", responses=errors(401, 503))
async def list_passkeys(request: Request) -> dict[str, Any]:
    """The signed-in account's passkeys."""
    current = await signed_in(request)
    return {"passkeys": [shown(key) for key in await passkeys_of(request).listed(current)]}


@router.post("/passkeys/{credential_id}/delete",
             responses=errors(400, 401, 403, 404, 408, 413, 503))
async def remove_passkey(request: Request, credential_id: str,
                         csrf: str | None = CsrfHeader) -> dict[str, Any]:
    """Remove one of the account's passkeys."""
    current = await changing(request, csrf)
    await passkeys_of(request).remove(current, credential_id)
    return {"removed": credential_id}


@router.post("/passkey-signin/options", responses=errors(400, 403, 408, 413, 503))
async def passkey_sign_in_options(request: Request) -> dict[str, Any]:
    """Options to sign in with a passkey (``navigator.credentials.get``; no name needed)."""
    same_site(request)
    return ceremony(await passkeys_of(request).sign_in_options(party(request)))


@router.post("/passkey-signin", responses=errors(400, 401, 403, 408, 413, 422, 429, 503))
async def passkey_sign_in(request: Request, response: Response,
                          body: PasskeyAnswer) -> dict[str, Any]:
    """Sign in with the passkey that answered the options' challenge: a new session."""
    same_site(request)
    opened = await passkeys_of(request).sign_in(
        party(request), body.challenge_id, body.credential, client_of(request),
        digest_or_none(request.cookies.get(cookie_name(request))))
    set_session(request, response, opened)
    return me(opened)
