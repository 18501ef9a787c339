"""The JSON API (OpenAPI at /docs): meta data, games, moves, hints, records, replays."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictBool

from .. import __version__
from ..components import RULE_SET_NAMES, rule_set
from ..messages import Message
from ..seats import seat_look, seat_table
from .accounts.routes import signed_in
from .bots import PACES, bot_names, hint_bot_name
from .chat.model import settings as chat_settings
from .clock.model import settings as clock_settings
from .deps import TokenIn, client_of, services
from .errors import ServerError
from .i18n import request_language
from .limits import MAX_NAME, parse_json
from .openapi import MAX_JSON_INT, Integer, errors, option_schema, record_schema, rule_set_names
from .rating.bots import bot_ratings
from .rating.service import Ratings
from .replay import download_record
from .round.texts import colour_name, rule_set_json
from .routes_pages import render_rules
from .security import public_base
from .session import Session
from .wire.codec import ack, encode_bytes

router = APIRouter(prefix="/api")

Token = Header(None, max_length=64)


class SeatIn(BaseModel):
    kind: str = Field("human", description="'human' or 'bot'",
                      json_schema_extra={"enum": ["human", "bot"]})
    name: str | None = Field(None, max_length=MAX_NAME)
    level: str | None = Field(None, description="bot level, see GET /api/meta",
                              json_schema_extra={"enum": [*bot_names(), None]})


class ClockIn(BaseModel):
    preset: str | None = Field(None, max_length=24, description="a preset's name")
    kind: str | None = Field(None, description="'realtime' or 'turn'",
                             json_schema_extra={"enum": ["realtime", "turn", None]})
    bank: float | None = Field(None, description="real-time: seconds per player")
    increment: float | None = Field(None, description="real-time: seconds added per turn")
    per_turn: float | None = Field(None, description="turn-based: seconds per turn")
    standin: str | None = Field(None, description="the level of the bot that plays a seat "
                                "whose time ran out (default medium)",
                                json_schema_extra={"enum": [*bot_names(), None]})


class CreateGame(BaseModel):
    rules: str = Field("standard", description="standard, auction or demo",
                       json_schema_extra=rule_set_names())
    seats: list[SeatIn] = Field(..., min_length=2, max_length=4)
    options: dict[str, StrictBool] = Field(
        default_factory=dict, description="the rule set's options (GET /api/meta)",
        json_schema_extra=option_schema())
    hotseat: StrictBool = Field(False, description="one extra token that plays every human seat")
    rated: StrictBool = Field(False, description="a rated game (signed in; the first seat, "
                              "the creator's, is human; every other seat a bot or an "
                              "account that takes it by invite link; docs/web.md, Ratings)")
    seed: Integer | None = Field(None, ge=0, le=MAX_JSON_INT,
                                 description="fixed shuffle (tests); random if omitted")
    clock: str | ClockIn | None = Field(
        None, description="a time control: a preset's name (GET /api/meta clock_presets) "
        "or its fields; untimed if omitted (docs/web.md, Time controls)")


class ActionIn(BaseModel):
    action: str = Field(..., min_length=1, max_length=64, pattern=r"\S",
                        description="an action in notation, e.g. 'move W F3 G3' (not blank)")
    state: Integer = Field(
        ..., ge=0, le=MAX_JSON_INT, description="the state counter of the position the move is for",
    )
    token: str | None = Field(None, max_length=64, description="or send X-Tikal-Token")


class UndoIn(BaseModel):
    state: Integer = Field(..., ge=0, le=MAX_JSON_INT)
    token: str | None = Field(None, max_length=64)


#: The error statuses of a move, an undo or a hint (besides the framework's 400 / 422).
PLAY_ERRORS = errors(400, 403, 404, 408, 409, 413, 422, 429, 503)
#: A record upload's body (FastAPI reads it raw: records are checked by tikal.record).
RECORD_BODY = {"requestBody": {"required": True, "content": {
    "application/json": {"schema": record_schema()}}}}


class PaceIn(BaseModel):
    pace: str = Field(..., pattern="^(" + "|".join(PACES) + ")$",
                      description="how long this game's bots wait before each action: "
                                  "fast, normal or slow (see GET /api/meta `paces`)")
    token: str | None = Field(None, max_length=64)


def _rule_set_meta(name: str, language: str) -> dict[str, Any]:
    """A rule set as in the state message, plus what a page shows of a game's progress
    beside it: the volcanoes among its tiles (the scoring rounds to come) and the tiles
    per letter of its stack."""
    rs = rule_set(name)
    letters: dict[str, int] = {}
    for spec in rs.terrain:
        letters[spec.letter] = letters.get(spec.letter, 0) + 1
    return {**rule_set_json(rs, language),
            "volcanoes": sum(1 for spec in rs.terrain if spec.kind == "volcano"),
            "letters": letters}


def meta(language: str = "en") -> dict[str, Any]:
    """What a client needs before a game: seat looks, rule sets, bot levels, the version."""
    sets = {name: _rule_set_meta(name, language) for name in RULE_SET_NAMES}
    return {
        "version": __version__,
        "seats": [seat.to_json() for seat in seat_table()],
        "colour_names": [colour_name(seat.name, language) for seat in seat_table()],
        "rulesets": sets,
        "bots": bot_names(),
        "hint_bot": hint_bot_name(),
        "paces": list(PACES),
        "chat_phrases": chat_settings()["phrases"],
        "chat_max_length": chat_settings()["max_length"],
        "clock_presets": clock_settings()["presets"],
        "clock_standin": clock_settings()["standin"],
    }


@router.get("/meta", tags=["games"], name="meta")
async def get_meta(request: Request) -> dict[str, Any]:
    """Seat looks (colour, shape, ...), rule sets (players, options, costs), bot levels,
    the hint bot and the version; texts in the language of ``?lang=`` (else the
    ``tikal_lang`` cookie, else ``Accept-Language``); ``bot_ratings``: each level's
    rating per rule set it has one in (``tikal ratings calibrate``, then rated games)."""
    ratings = await asyncio.to_thread(bot_ratings, request.app.state.ratings.store)
    return {**meta(request_language(request)), "bot_ratings": ratings}


@router.get("/rules", tags=["rules"])
async def rules_json(request: Request) -> dict[str, str]:
    """Every rule id with its text (for explaining refused moves), in the language of
    ``?lang=`` (else the ``tikal_lang`` cookie, else ``Accept-Language``)."""
    _, summaries = await asyncio.to_thread(render_rules, request_language(request))
    return summaries


Reply = Query("ack", description="ack: just the new state counter (the WebSocket brings "
              "the changes); state: the whole state message")


def json_bytes(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """A JSON response, encoded by the protocol's encoder (orjson: state messages are
    large)."""
    return Response(encode_bytes(data), status_code=status, headers=headers,
                    media_type="application/json")


async def full_state(request: Request, session: Session, token: str | None) -> Response:
    """The whole state message for ``token``'s seats, from the game's shared snapshot."""
    seats = session.seats_for(token)
    snap = await services(request).hub.snapshot(session, {seats}, request_language(request))
    return json_bytes(snap.full(seats))


@router.get("/games", tags=["games"], responses=errors(503))
async def list_games(request: Request) -> list[dict[str, Any]]:
    """Recent games (no tokens)."""
    listing: list[dict[str, Any]] = await asyncio.to_thread(services(request).storage.listing)
    return listing


def named_seats(seats: list[SeatIn], language: str) -> list[dict[str, Any]]:
    """The seats asked for, each left unnamed called by its colour in the language of the
    request ("Orange" was "Red" in a German game, where the seat should read "Orange")."""
    out = []
    for p, seat in enumerate(seats):
        data = seat.model_dump()
        if not (data.get("name") or "").strip():
            data["name"] = colour_name(seat_look(p).name, language)
        out.append(data)
    return out


async def rated_creator(request: Request, body: CreateGame) -> str | None:
    """The account asking for a rated game (None: not rated); refusals before creation."""
    if not body.rated:
        return None
    current = await signed_in(request)
    ratings: Ratings = request.app.state.ratings
    ratings.check_rated_game(body.rules, [seat.kind for seat in body.seats], body.hotseat,
                             body.seed is not None)
    return current.account.account_id


def ask_rated(request: Request, game_id: str, rules: str, account_id: str, token: str) -> None:
    """The creator takes the first seat and the game is marked to be rated."""
    ratings: Ratings = request.app.state.ratings
    ratings.accounts.claim(account_id, [(game_id, token)])
    ratings.store.ask(game_id, rules, account_id)


def clock_request(clock: str | ClockIn | None) -> Any:
    """The time control as :class:`~tikal.server.clock.model.TimeControl` reads it."""
    if isinstance(clock, ClockIn):
        return clock.model_dump(exclude_none=True)
    return clock


@router.post("/games", tags=["games"], status_code=201,
             responses=errors(400, 401, 408, 413, 422, 429, 503))
async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
    """Create a game. The answer holds each human seat's secret token (shown once).
    Rate limited per client; at most so many games in progress per client and so many
    games of bots only per server (429 ``too_many_games``)."""
    svc = services(request)
    client = client_of(request)
    svc.limits.check(client, "create")
    creator = await rated_creator(request, body)
    bot_only = all(s.kind == "bot" for s in body.seats)
    svc.keeper.check_create(client, bot_only)  # holds the game's place under the caps
    try:
        session, links = await asyncio.to_thread(
            svc.manager.create, body.rules, named_seats(body.seats, request_language(request)),
            body.options, body.hotseat, body.seed, clock_request(body.clock),
        )
    except BaseException:
        svc.keeper.released(client, bot_only)
        raise
    svc.keeper.created(client, session.game_id, bot_only)
    if creator is not None:
        await asyncio.to_thread(ask_rated, request, session.game_id, body.rules, creator,
                                links["seats"][0]["token"])
    base = public_base(request)
    for seat in links["seats"]:
        if seat["token"]:
            seat["url"] = f"{base}/play/{session.game_id}#t={seat['token']}"
    hot = links["hotseat_token"]
    return {
        "id": session.game_id,
        "state": session.state,
        "seats": links["seats"],
        "hotseat_token": hot,
        "hotseat_url": f"{base}/play/{session.game_id}#t={hot}" if hot else None,
        "spectator_url": f"{base}/play/{session.game_id}",
        "replay_url": f"{base}/replay/{session.game_id}",
    }


@router.get("/games/{game_id}", tags=["games"], responses=errors(400, 403, 404, 422, 503))
async def get_game(request: Request, game_id: str, x_tikal_token: str | None = Token
                   ) -> Response:
    """The whole state message as this token's seat(s) see it (spectators: no token)."""
    session = await asyncio.to_thread(services(request).manager.get, game_id)
    return await full_state(request, session, x_tikal_token)


async def answer_move(
    request: Request, session: Session, token: str | None, base: int, reply: str
) -> Response:
    if reply == "state":
        return await full_state(request, session, token)
    return json_bytes(ack(base, session.state))


@router.post("/games/{game_id}/actions", tags=["play"], responses=PLAY_ERRORS)
async def post_action(request: Request, game_id: str, body: ActionIn,
                      x_tikal_token: str | None = Token,
                      reply: Literal["ack", "state"] = Reply) -> Response:
    """Play one action; answers ``{"type": "ack", "base", "state"}`` (or the whole state
    with ``?reply=state``). Refused moves answer 4xx with code, message, rule id and the
    refusal's message key and parameters."""
    svc = services(request)
    svc.limits.check(client_of(request), "move")
    token = body.token or x_tikal_token
    session = await svc.manager.act(game_id, token, body.action, body.state)
    return await answer_move(request, session, token, body.state, reply)


@router.post("/games/{game_id}/undo", tags=["play"], responses=PLAY_ERRORS)
async def post_undo(request: Request, game_id: str, body: UndoIn,
                    x_tikal_token: str | None = Token,
                    reply: Literal["ack", "state"] = Reply) -> Response:
    """Take back the last action of this turn (never across a reveal)."""
    svc = services(request)
    svc.limits.check(client_of(request), "move")
    token = body.token or x_tikal_token
    session = await svc.manager.undo(game_id, token, body.state)
    return await answer_move(request, session, token, body.state, reply)


@router.post("/games/{game_id}/pace", tags=["play"], responses=PLAY_ERRORS)
async def post_pace(request: Request, game_id: str, body: PaceIn,
                    x_tikal_token: str | None = Token) -> dict[str, Any]:
    """Set the pace of this game's bots (a player's preference; spectators may not):
    ``fast``, ``normal`` or ``slow``.  Kept in memory by the process that runs the game."""
    svc = services(request)
    svc.limits.check(client_of(request), "move")
    session = await asyncio.to_thread(svc.manager.get, game_id)
    if not session.seats_for(body.token or x_tikal_token):
        raise ServerError("forbidden", Message("server.spectator"), 403)
    svc.manager.bots.set_pace(session.game_id, body.pace)
    return {"type": "pace", "pace": body.pace}


@router.post("/games/{game_id}/hint", tags=["play"], responses=PLAY_ERRORS)
async def post_hint(request: Request, game_id: str, body: TokenIn,
                    x_tikal_token: str | None = Token) -> dict[str, Any]:
    """A suggested action from the strongest available bot (a legal-action entry); cached
    per position, one at a time per seat (429 ``hint_busy``), rate limited per client."""
    svc = services(request)
    svc.limits.check(client_of(request), "hint")
    token = body.token or x_tikal_token
    session = await asyncio.to_thread(svc.manager.get, game_id)
    return await svc.hints.ask(session, session.seats_for(token), request_language(request))


@router.get("/games/{game_id}/record", tags=["replays"],
            responses=errors(400, 404, 422, 503))
async def get_record(request: Request, game_id: str) -> JSONResponse:
    """The game record (tikal-record JSON) as a download."""
    data = await asyncio.to_thread(download_record, services(request).manager, game_id)
    return JSONResponse(
        data, headers={"Content-Disposition": f'attachment; filename="tikal-{game_id}.json"'}
    )


@router.post("/replays", tags=["replays"], status_code=201, openapi_extra=RECORD_BODY,
             responses=errors(400, 408, 413, 422, 429, 503))
async def post_replay(request: Request) -> dict[str, Any]:
    """Upload a record (JSON body) to view it as a replay; rate limited per client. The
    same record uploaded again gets the same id; the oldest unvisited uploads go when
    the uploads exceed the server's cap (``tikal serve --upload-cap``)."""
    svc = services(request)
    svc.limits.check(client_of(request), "upload")
    record = parse_json(await request.body())
    replay_id = await asyncio.to_thread(svc.replays.upload, record)
    return {"id": replay_id, "url": f"/replay/{replay_id}"}


@router.get("/replays/{replay_id}", tags=["replays"],
            responses=errors(400, 404, 422, 503))
async def get_replay(request: Request, replay_id: str) -> dict[str, Any]:
    """A replay's players and every step (seat, notation, text, chance, scores)."""
    replay = await asyncio.to_thread(services(request).replays.get, replay_id)
    return await asyncio.to_thread(replay.summary, request_language(request))


@router.get("/replays/{replay_id}/frames/{step}", tags=["replays"],
            responses=errors(400, 404, 422, 503))
async def get_frame(request: Request, replay_id: str, step: int) -> dict[str, Any]:
    """The public position after ``step`` steps (0 = the start), with its SVG; a step
    outside 0 .. total is 404 ``no_frame``."""
    replay = await asyncio.to_thread(services(request).replays.get, replay_id)
    return await asyncio.to_thread(replay.frame, step, request_language(request))
