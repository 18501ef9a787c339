"""Who offers to end the game, and whether it ended, derived from the stored log.

An ``end_offer`` entry is a seat's offer; it stands until a move, an undo or an
``end_decline`` entry follows.  Once every player's seat (every human seat: bots have no
say) offers, an ``ended`` entry ends the game with the scores as they stand.  None of
these entries changes the engine's game (its replay skips them), so the rules engine
knows nothing of an early end: the server holds it, as it holds the clocks.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..store import LogEntry

OFFER = "end_offer"
DECLINE = "end_decline"
ENDED = "ended"
#: Entries after which earlier offers no longer stand (the position changed, or a no).
CLEARS = ("action", "undo", DECLINE)


def end_offers(log: Sequence[LogEntry]) -> list[int]:
    """The seats whose offer to end the game stands, in the order they offered."""
    seats: list[int] = []
    for entry in reversed(log):
        if entry.kind in CLEARS:
            break
        if entry.kind == OFFER and entry.seat not in seats:
            seats.append(entry.seat)
    return seats[::-1]


def ended_early(log: Sequence[LogEntry]) -> bool:
    return any(entry.kind == ENDED for entry in log)


def winners_as_they_stand(scores: Sequence[int]) -> list[int]:
    """The seats with the highest score, ties sharing (as [END-2] reads a final score)."""
    best = max(scores)
    return [seat for seat, score in enumerate(scores) if score == best]
