"""What a rematch is and who may do what with it: no I/O.

An offer belongs to a finished game.  Its players are the game's human seats; it starts
once each of them has accepted (the one who offered accepts by offering), and a single
decline ends it for good: a declined rematch is not offered again (``rematch_declined``),
so nobody can be pestered.  The new game has the same rule set, options and bot levels,
and every seat moved one place on (seat ``i`` plays as ``i + 1``, the last as the first),
so the first player changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...messages import Message
from ..errors import ServerError
from ..wire.schema import RematchMessage

OFFERED, STARTING, DECLINED, STARTED = "offered", "starting", "declined", "started"
#: the key of a hot-seat rematch's token among an offer's tokens (the others are seats)
HOTSEAT = -1


def refused(code: str, key: str, status: int = 409) -> ServerError:
    return ServerError(code, Message(f"rematch.{key}"), status)


@dataclass(frozen=True)
class Offer:
    game_id: str
    by_seat: int
    accepted: frozenset[int]
    status: str
    declined_by: int | None = None
    new_game: str | None = None
    #: the new game's invite token of each old seat (each player sees only its own)
    tokens: dict[int, str] = field(default_factory=dict)


def rotated(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The new game's seats: old seat ``i`` at ``(i + 1) mod n``."""
    return [seats[(n - 1) % len(seats)] for n in range(len(seats))]


def new_seat(old: int, count: int) -> int:
    return (old + 1) % count


def check_asker(over: bool, seats: tuple[int, ...], humans: frozenset[int]) -> None:
    if not seats or not set(seats) & humans:
        raise refused("not_a_player", "not_a_player", 403)
    if not over:
        raise refused("game_not_over", "game_not_over")


def accepting(offer: Offer | None, seats: tuple[int, ...]) -> Offer | None:
    """The offer once ``seats`` accepted it (None: there is none to accept yet)."""
    if offer is None:
        return None
    if offer.status == DECLINED:
        raise refused("rematch_declined", "declined")
    if offer.status in (STARTED, STARTING):
        return offer
    return Offer(offer.game_id, offer.by_seat, offer.accepted | set(seats), OFFERED)


def offer_json(offer: Offer | None, seats: tuple[int, ...],
               humans: frozenset[int]) -> RematchMessage:
    """The offer as the holder of ``seats`` sees it (the new game's token of its own
    seat only)."""
    if offer is None:
        return {"type": "rematch", "status": None, "waiting": sorted(humans)}
    own = HOTSEAT if len(seats) > 1 and HOTSEAT in offer.tokens else next(
        (s for s in seats if s in offer.tokens), None)
    token = offer.tokens.get(own) if own is not None else None
    return {"type": "rematch", "status": offer.status, "by": offer.by_seat,
            "accepted": sorted(offer.accepted), "waiting": sorted(humans - offer.accepted),
            "declined_by": offer.declined_by, "game": offer.new_game,
            "token": token if offer.status == STARTED else None}
