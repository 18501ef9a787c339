"""Passkeys (WebAuthn, the ``webauthn`` package): register one for a signed-in account, sign
in with one, list and remove them.

Every ceremony is two requests: options with a fresh challenge (stored, one use, five
minutes), then the browser's answer, verified by the library against that challenge, the
relying party id (the server's host name) and the page's origin.  Passkeys are
discoverable (``residentKey: required``), so signing in needs no name: the credential
names its account, and its user handle must be that account's.  A counter that goes back
(a cloned authenticator) and any answer that does not verify are refused with one
answer, 401 ``passkey_refused``; nothing is stored then.

``webauthn`` is imported on the first ceremony, not with the server: its certificate and
ASN.1 tables took 0.09-0.1 s of every start (issue 35), for a feature few requests use.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from ...messages import Message
from ..errors import ServerError
from ..store.protocol import TableStorage
from .passkey_store import PasskeyRow, PasskeyStore
from .service import Account, Accounts, Current, SignedIn
from .settings import settings

T = TypeVar("T")
REGISTER, SIGN_IN = "register", "signin"


@dataclass(frozen=True)
class Party:
    """Who the passkeys are for: the relying party id (a host name: WebAuthn takes no IP
    address) and the origin the pages are served from."""

    rp_id: str
    origin: str


@dataclass(frozen=True)
class Ceremony:
    """Options for the browser (``navigator.credentials``) and the id of their challenge."""

    challenge_id: str
    options: dict[str, Any]


def refused(key: str = "accounts.passkey_refused", status: int = 401) -> ServerError:
    return ServerError("passkey_refused", Message(key), status)


class Passkeys:
    def __init__(self, storage: TableStorage, accounts: Accounts,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = PasskeyStore(storage)
        self.accounts = accounts
        self.clock = clock

    async def _db(self, query: Callable[..., T], *args: object) -> T:
        return await asyncio.to_thread(query, *args)

    async def _ceremony(self, options: Any, purpose: str, account_id: str | None) -> Ceremony:
        import webauthn
        from webauthn.helpers import bytes_to_base64url

        challenge_id, now = secrets.token_urlsafe(18), self.clock()
        await self._db(self.store.put_challenge, challenge_id,
                       bytes_to_base64url(options.challenge), purpose, account_id,
                       now + settings()["passkeys"]["challenge_seconds"], now)
        return Ceremony(challenge_id, orjson.loads(webauthn.options_to_json(options)))

    async def _challenge(self, challenge_id: str, purpose: str,
                         account_id: str | None) -> bytes:
        """The stored challenge of this ceremony (taken: one use), else refused."""
        import webauthn

        row = await self._db(self.store.take_challenge, challenge_id)
        if (row is None or row.purpose != purpose or row.expires < self.clock()
                or row.account_id != account_id):
            raise refused("accounts.passkey_challenge")
        return webauthn.base64url_to_bytes(row.challenge)

    # -- registration -------------------------------------------------------------

    async def registration_options(self, current: Current, party: Party) -> Ceremony:
        import webauthn
        from webauthn.helpers.structs import (
            AuthenticatorSelectionCriteria,
            PublicKeyCredentialDescriptor,
            ResidentKeyRequirement,
            UserVerificationRequirement,
        )

        account = current.account
        mine = await self._db(self.store.of_account, account.account_id)
        if len(mine) >= settings()["passkeys"]["per_account"]:
            raise ServerError("too_many_passkeys", Message(
                "accounts.too_many_passkeys", {"max": settings()["passkeys"]["per_account"]}),
                409)
        options = webauthn.generate_registration_options(
            rp_id=party.rp_id, rp_name=settings()["passkeys"]["rp_name"],
            user_name=account.name, user_id=account.account_id.encode(),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
            exclude_credentials=[PublicKeyCredentialDescriptor(
                id=webauthn.base64url_to_bytes(key.credential_id)) for key in mine])
        return await self._ceremony(options, REGISTER, account.account_id)

    async def register(self, current: Current, party: Party, challenge_id: str,
                       credential: dict[str, Any], name: str) -> PasskeyRow:
        """Verify the browser's new credential and store it as the account's passkey."""
        import webauthn
        from webauthn.helpers import bytes_to_base64url
        from webauthn.helpers.exceptions import WebAuthnException

        account_id = current.account.account_id
        challenge = await self._challenge(challenge_id, REGISTER, account_id)
        try:
            verified = webauthn.verify_registration_response(
                credential=credential, expected_challenge=challenge,
                expected_rp_id=party.rp_id, expected_origin=party.origin)
        except (WebAuthnException, ValueError, KeyError, TypeError):
            raise refused() from None
        key = PasskeyRow(bytes_to_base64url(verified.credential_id), account_id,
                         bytes_to_base64url(verified.credential_public_key),
                         verified.sign_count, name.strip()[:settings()["passkeys"]["name_max"]]
                         or current.account.name, self.clock(), None)
        if not await self._db(self.store.add, key):
            raise refused()  # that credential is stored already
        return key

    # -- signing in ---------------------------------------------------------------

    async def sign_in_options(self, party: Party) -> Ceremony:
        import webauthn
        from webauthn.helpers.structs import UserVerificationRequirement

        options = webauthn.generate_authentication_options(
            rp_id=party.rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        return await self._ceremony(options, SIGN_IN, None)

    async def sign_in(self, party: Party, challenge_id: str, credential: dict[str, Any],
                      client: str, replaces: str | None) -> SignedIn:
        """A new session for the account whose passkey answered the challenge."""
        import webauthn
        from webauthn.helpers.exceptions import WebAuthnException

        self.accounts.limits.check(client, "signin")
        challenge = await self._challenge(challenge_id, SIGN_IN, None)
        key = await self._db(self.store.by_credential, str(credential.get("id", "")))
        if key is None:
            raise refused()
        try:
            verified = webauthn.verify_authentication_response(
                credential=credential, expected_challenge=challenge,
                expected_rp_id=party.rp_id, expected_origin=party.origin,
                credential_public_key=webauthn.base64url_to_bytes(key.public_key),
                credential_current_sign_count=key.sign_count)
        except (WebAuthnException, ValueError, KeyError, TypeError):
            raise refused() from None
        if _user_handle(credential) not in (None, key.account_id):
            raise refused()  # the credential of one account, the handle of another
        await self._db(self.store.used, key.credential_id, verified.new_sign_count,
                       self.clock())
        row = await self._db(self.accounts.store.by_id, key.account_id)
        if row is None or row.name is None:
            raise refused()
        return await self.accounts.start_session(Account(row.account_id, row.name), replaces)

    # -- the account's passkeys -----------------------------------------------------

    async def listed(self, current: Current) -> list[PasskeyRow]:
        return await self._db(self.store.of_account, current.account.account_id)

    async def remove(self, current: Current, credential_id: str) -> None:
        if not await self._db(self.store.remove, current.account.account_id, credential_id):
            raise ServerError("not_found", Message("accounts.no_such_passkey"), 404)


def _user_handle(credential: dict[str, Any]) -> str | None:
    response = credential.get("response")
    handle = response.get("userHandle") if isinstance(response, dict) else None
    if not handle:
        return None
    import webauthn

    try:
        return webauthn.base64url_to_bytes(str(handle)).decode()
    except (ValueError, UnicodeDecodeError):
        return ""
