"""Rematches on the server: who asks (a seat's token of a finished game), the offer
stored (:mod:`.store`), the new game made once everyone agreed, and every connection of
the old game told, each with its own seat's new token (other processes by ``NOTIFY``).

The new game keeps the old one's rule set, options and bot levels with the seats rotated
(:func:`~.model.rotated`); a hot-seat game gets a hot-seat rematch; accounts bound to the
old seats are bound to their new seats, and a rated game's rematch is rated.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from ..hub import Hub
from ..keeper import Keeper
from ..manager import Manager
from ..rating.service import Ratings
from ..session import Session
from .model import HOTSEAT, Offer, check_asker, new_seat, offer_json, rotated
from .store import RematchStore


class Rematch:
    def __init__(self, store: RematchStore, manager: Manager, hub: Hub, keeper: Keeper,
                 ratings: Ratings, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.manager = manager
        self.hub = hub
        self.keeper = keeper
        self.ratings = ratings
        self.clock = clock
        self.loop: asyncio.AbstractEventLoop | None = None

    def _asker(self, game_id: str, token: str | None) -> tuple[Session, tuple[int, ...],
                                                              frozenset[int]]:
        session = self.manager.get(game_id)
        seats = session.seats_for(token)
        humans = frozenset(session.human_seats)
        check_asker(session.over, seats, humans)
        return session, tuple(s for s in seats if s in humans), humans

    async def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The offer as ``token``'s holder sees it (anyone may look; only seats see
        their new token)."""
        session = await asyncio.to_thread(self.manager.get, game_id)
        seats = session.seats_for(token)
        humans = frozenset(session.human_seats)
        offer = await asyncio.to_thread(self.store.get, game_id)
        return dict(offer_json(offer, seats, humans))

    async def accept(self, game_id: str, token: str | None, client: str) -> dict[str, Any]:
        """Offer the rematch, or accept the one offered; the last to agree starts it."""
        session, seats, humans = await asyncio.to_thread(self._asker, game_id, token)
        offer, everyone = await asyncio.to_thread(self.store.accept, game_id,
                                                  frozenset(seats), humans, self.clock())
        if everyone:
            offer = await self._start(session, client)
        self.publish(game_id, offer, humans)
        return dict(offer_json(offer, seats, humans))

    async def decline(self, game_id: str, token: str | None) -> dict[str, Any]:
        _session, seats, humans = await asyncio.to_thread(self._asker, game_id, token)
        offer = await asyncio.to_thread(self.store.decline, game_id, seats[0], self.clock())
        self.publish(game_id, offer, humans)
        return dict(offer_json(offer, seats, humans))

    async def _start(self, old: Session, client: str) -> Offer:
        game_id = old.game_id
        seats = [s.to_json() for s in old.record.seats]
        hotseat = any(len(owned) > 1 for owned in old.record.tokens.values())
        try:
            self.keeper.check_create(client, False)
        except BaseException:
            await asyncio.to_thread(self.store.unclaim, game_id, self.clock())
            raise
        try:
            new, links = await asyncio.to_thread(
                self.manager.create, old.record.rules,
                [{"kind": s["kind"], "name": s["name"], "level": s["level"]}
                 for s in rotated(seats)], dict(old.record.options), hotseat, None,
                old.record.clock)
        except BaseException:
            self.keeper.released(client, False)
            await asyncio.to_thread(self.store.unclaim, game_id, self.clock())
            raise
        self.keeper.created(client, new.game_id, False)
        count = len(seats)
        by_new = {n: seat["token"] for n, seat in enumerate(links["seats"]) if seat["token"]}
        tokens = {old_seat: by_new[new_seat(old_seat, count)]
                  for old_seat in range(count) if new_seat(old_seat, count) in by_new}
        if links.get("hotseat_token"):  # for whoever played every seat on one screen
            tokens[HOTSEAT] = links["hotseat_token"]
        await asyncio.to_thread(self._carry_accounts, old, new.game_id, by_new)
        return await asyncio.to_thread(self.store.started, game_id, new.game_id, tokens,
                                       self.clock())

    def _carry_accounts(self, old: Session, new_game: str, by_new: dict[int, str]) -> None:
        """Accounts bound to the old seats bound to the new ones; rated stays rated."""
        bound = self.ratings.accounts.accounts_of(old.game_id)
        count = len(old.record.seats)
        for seat, account_id in bound.items():
            token = by_new.get(new_seat(seat, count))
            if token is not None:
                self.ratings.accounts.claim(account_id, [(new_game, token)])
        if bound and self.ratings.store.asked(old.game_id):
            self.ratings.store.ask(new_game, old.record.rules, next(iter(bound.values())))

    def publish(self, game_id: str, offer: Offer | None, humans: frozenset[int]) -> None:
        """Every connection of the game on this process gets the offer as its seats see
        it (a spectator: without any token)."""
        for conn in list(self.hub.games.get(game_id, ())):
            conn.put(offer_json(offer, conn.seats, humans))

    def changed_elsewhere(self, game_id: str) -> None:
        """Another process changed the game's offer (its NOTIFY, from the bridge's
        thread)."""
        if game_id not in self.hub.games or self.loop is None:
            return
        offer = self.store.get(game_id)
        session = self.manager.get(game_id)
        humans = frozenset(session.human_seats)
        self.loop.call_soon_threadsafe(self.publish, game_id, offer, humans)
