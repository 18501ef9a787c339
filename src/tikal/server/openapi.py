"""The OpenAPI document says what the API really does: every status each operation
answers (with the error object's schema), and request schemas that say what is refused.

Routes of :mod:`.routes_api` name their statuses with :func:`errors`; the other routers'
operations (tutorial, analysis) are documented from :data:`OTHER_OPERATIONS` when the
app is built (:func:`document`).  ``tests/test_schemathesis.py`` checks the document
against the app with every schemathesis check.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI
from pydantic import BaseModel, BeforeValidator, Field

from ..components import RULE_SET_NAMES, rule_set

#: What each error status means here (the error object's ``code`` values).
STATUS_TEXT = {
    400: "`bad_request` or `too_deep`: the request is malformed (its JSON, a field's type, "
         "a header too long)",
    401: "`not_signed_in` (no live session), `bad_credentials` (a wrong name or password: "
         "one answer for both) or `passkey_refused` (a passkey answer that does not verify, "
         "or a challenge unknown, used or run out)",
    403: "`bad_token`, `forbidden` or `not_your_turn`: the token may not do this; `csrf`: a "
         "change made with the session cookie without its CSRF token, or from another "
         "site; `bad_credentials`: the account's password was not proven",
    404: "`unknown_game`, `no_frame` or `not_found`: no such game, replay, frame or step",
    409: "`stale` (the move is for another state; `state` is the current one), "
         "`not_finished`, `analysis_running`, `name_taken` (an account has this name or "
         "one that looks like it) or `too_many_passkeys`",
    408: "`timeout`: the body did not arrive in time (docs/web.md, Limits)",
    413: "`too_large`: the body is over the limit (docs/web.md, Limits)",
    422: "`illegal`, `bad_action`, `bad_record`, `bad_request`, `name_invalid`, "
         "`password_invalid` or `unrated` (a rated game that could never be): well formed, "
         "but a value out of range or refused by the rules "
         "(`rule`, `field`)",
    429: "`rate_limited`, `too_many_games`, `hint_busy` or `analysis_busy`; `Retry-After` "
         "says when to try again",
    503: "`unavailable`: the database cannot be reached; nothing was stored (`Retry-After`)",
}


class ErrorOut(BaseModel):
    """Every refusal of the API: a machine-readable ``code`` and the words for people."""

    type: str = Field("error", description="always 'error'")
    code: str = Field(..., description="machine-readable, e.g. 'stale', 'illegal'")
    message: str = Field(..., description="in the request's language")
    key: str | None = Field(None, description="the refusal's message key (engine refusals)")
    params: dict[str, Any] | None = Field(None, description="its parameters")
    rule: str | None = Field(None, description="the rule id refused by, e.g. 'MOVE-2'")
    rule_url: str | None = None
    field: str | None = Field(None, description="the field at fault, e.g. 'log[12]'")
    state: int | None = Field(None, description="the game's current state counter")
    retry_after: float | None = Field(None, description="seconds to wait (429)")


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """FastAPI ``responses=`` for these error statuses, each with the error object (by
    reference: ``"model": ErrorOut`` made the framework build a validator per status and
    route, 170 of them, 54 ms of every start; :func:`add_error_statuses` puts its schema
    in the document)."""
    return {status: error_spec(status) for status in statuses}


#: Statuses of the operations of routers other than routes_api (method, path).
OTHER_OPERATIONS: dict[tuple[str, str], tuple[int, ...]] = {
    ("GET", "/api/tutorial"): (400,),
    ("GET", "/api/tutorial/{part}/{step}"): (400, 404),
    ("POST", "/api/tutorial/{part}/{step}"): (400, 404, 408, 413, 422, 429),
    ("GET", "/api/replays/{replay_id}/analysis"): (404, 422, 503),
    ("POST", "/api/replays/{replay_id}/analysis"): (404, 408, 409, 413, 422, 429, 503),
}


def error_spec(status: int) -> dict[str, Any]:
    """One error status as the OpenAPI document writes it."""
    return {"description": STATUS_TEXT[status], "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/ErrorOut"}}}}


def add_error_statuses(schema: dict[str, Any]) -> dict[str, Any]:
    """The document with the statuses of :data:`OTHER_OPERATIONS`, and the framework's
    own 422 (``HTTPValidationError``, which this app never sends: its validation errors
    are error objects, 400 or 422) replaced by the error object and a 400."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("ErrorOut", ErrorOut.model_json_schema(
        ref_template="#/components/schemas/{model}"))
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            for status in OTHER_OPERATIONS.get((method.upper(), path), ()):
                responses.setdefault(str(status), error_spec(status))
            framework = responses.get("422", {}).get("content", {}).get("application/json", {})
            if "HTTPValidationError" in str(framework.get("schema")):
                responses["422"] = error_spec(422)
                responses.setdefault("400", error_spec(400))
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    return schema


def document(app: FastAPI) -> None:
    """Serve the document with every status of every operation (:func:`add_error_statuses`)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        return add_error_statuses(build())

    app.openapi = openapi  # type: ignore[method-assign]


#: Methods a 405's ``Allow`` header can name.
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(app: Any, scope: dict[str, Any]) -> str:
    """The ``Allow`` header of a 405: every method some route of this path takes (the
    framework names only the first route's, and GET and POST of one path are two)."""
    from starlette.routing import Match

    found = [method for method in METHODS if any(
        route.matches({**scope, "method": method})[0] is Match.FULL for route in app.routes)]
    return ", ".join(found)


# ------------------------------------------------------------------ request values


def _integral(value: Any) -> Any:
    """A JSON number with no fraction (``12.0``) is an integer, as JSON Schema says; the
    field stays strict for everything else (``"12"``, ``true`` are refused)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: The largest integer every JSON reader keeps exactly (2**53 - 1; JavaScript's, and
#: the one past which a schema's bounds and a float compare equal): seeds, state counters.
MAX_JSON_INT = 2**53 - 1

#: An integer field that takes ``12.0`` too (see :func:`_integral`).
Integer = Annotated[int, BeforeValidator(_integral), Field(strict=True)]


def rule_set_names() -> dict[str, Any]:
    return {"enum": list(RULE_SET_NAMES)}


def option_schema() -> dict[str, Any]:
    """The options every rule set knows, each of its default's type."""
    names: dict[str, Any] = {}
    for name in RULE_SET_NAMES:
        for option, default in rule_set(name).default_options.items():
            names[option] = {"type": "boolean"} if isinstance(default, bool) else {}
    return {"type": "object", "properties": names, "additionalProperties": False}


def record_schema() -> dict[str, Any]:
    """A tikal-record as ``POST /api/replays`` reads it (tikal.record checks each field)."""
    seat = {"type": "object", "properties": {"name": {"type": ["string", "null"]}}}
    return {
        "type": "object",
        "required": ["format", "rules", "players", "log"],
        "properties": {
            "format": {"const": "tikal-record"},
            "version": {"const": 1},
            "rules": {"type": "string", **rule_set_names()},
            "players": {"type": "integer", "minimum": 2, "maximum": 4},
            "options": option_schema(),
            "seed": {"type": ["integer", "null"]},
            "log": {"type": "array", "items": {"type": "string"}},
            "scoring": {"type": ["array", "null"]},
            "result": {"type": ["object", "null"]},
            "seats": {"type": ["array", "null"], "items": seat, "maxItems": 4},
        },
    }
