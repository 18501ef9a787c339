"""The lobby on the server: who asks (:class:`~.model.Player`), the table changes, the
game a full table starts, and the lobby's live connections.

Every change goes to the database first (:mod:`.store`), then to the connections of this
process as one ``table`` message encoded once for all of them (a bounded queue each:
:class:`~tikal.server.hub.Connection`); other processes hear of it by ``NOTIFY`` and
publish the table as they read it (:meth:`Lobby.changed_elsewhere`).
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import ServerError
from ..hub import Connection
from ..keeper import Keeper
from ..manager import Manager
from ..rating.model import display
from ..rating.service import Ratings
from ..wire.codec import encode
from .model import (
    STARTED,
    Player,
    Spec,
    Table,
    game_clock,
    game_seats,
    refused,
    settings,
    table_json,
)
from .store import LobbyStore

T = TypeVar("T")
#: The order of "my tables": my move first, then open tables, the others' moves, the ends.
TURN_ORDER: dict[str | None, int] = {"yours": 0, None: 1, "theirs": 2, "over": 3}


class Lobby:
    def __init__(self, store: LobbyStore, manager: Manager, keeper: Keeper,
                 ratings: Ratings, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.manager = manager
        self.keeper = keeper
        self.ratings = ratings
        self.clock = clock
        self.connections: set[Connection] = set()
        self.loop: asyncio.AbstractEventLoop | None = None
        #: the listing every new lobby connection gets first, encoded (text, when made);
        #: dropped at each change, so 2,000 clients connecting cost one query, not 2,000
        self._public: tuple[str, float] | None = None
        self._public_lock = asyncio.Lock()

    async def _db(self, work: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(work, *args)

    # -- reads --------------------------------------------------------------------------

    async def listing(self, player: Player | None) -> dict[str, Any]:
        """What a lobby page shows: open tables, games to watch, and the asker's own."""
        since = self.clock() - settings()["open_hours"] * 3600
        opened, started = await self._db(self.store.listing, since)
        mine = await self._db(self._mine_with_turns, player) if player else []
        return {"type": "lobby", "tables": [table_json(t) for t in opened],
                "playing": [table_json(t) for t in started],
                "mine": mine,
                "you": player.tag if player else None,
                "fill_levels": settings()["fill_levels"],
                "fill_default": settings()["fill_default"]}

    async def public_listing_text(self) -> str:
        """The listing of nobody in particular (what ``/ws/lobby`` sends first), encoded;
        made again after a change or once it is ``public_seconds`` old (tables leave
        the listing's window by age)."""
        async with self._public_lock:
            cached = self._public
            if cached is None or self.clock() - cached[1] > settings()["public_seconds"]:
                cached = (encode(await self.listing(None)), self.clock())
                self._public = cached
            return cached[0]

    def _mine_with_turns(self, player: Player) -> list[dict[str, Any]]:
        """The asker's tables, those waiting for its move first (then the open ones, the
        others' turns, the games over), each started one with ``turn``."""
        out = []
        for table in self.store.of_player(player.player_id):
            entry = self.mine_json(table, player)
            seat = table.seat_of(player.player_id)
            if table.status == STARTED and table.game_id and seat is not None:
                entry["turn"] = self._turn(table.game_id, seat.seat)
            out.append(entry)
        return sorted(out, key=lambda e: TURN_ORDER.get(e.get("turn"), 1))

    def _turn(self, game_id: str, seat: int) -> str | None:
        """``yours``, ``theirs`` or ``over`` for ``seat`` of the game (None if it cannot
        be read now)."""
        try:
            session = self.manager.get(game_id)
        except ServerError:
            return None
        if session.over:
            return "over"
        return "yours" if session.game.current == seat else "theirs"

    def mine_json(self, table: Table, player: Player) -> dict[str, Any]:
        """A table of the asker's, with its own seat's invite token once started."""
        seat = table.seat_of(player.player_id)
        token = seat.token if seat is not None and table.status == STARTED else None
        return {**table_json(table), "your_seat": None if seat is None else seat.seat,
                "token": token}

    # -- changes ------------------------------------------------------------------------

    async def create(self, player: Player, spec: Spec) -> Table:
        if spec.rated and player.account_id is None:
            raise refused("rated_needs_account", "rated_needs_account", 403)
        if spec.rated:
            kinds = ["human"] + ["bot"] * (spec.players - 1)
            self.ratings.check_rated_game(spec.rules, kinds, False, False)
        table = await self._db(self.store.create, secrets.token_urlsafe(9), spec, player,
                               self.clock())
        self.publish(table)
        return table

    async def join(self, table_id: str, player: Player, seat: int | None) -> Table:
        table = await self._db(self.store.join, table_id, player, seat, self.clock())
        self.publish(table)
        return table

    async def leave(self, table_id: str, player: Player) -> Table:
        table = await self._db(self.store.leave, table_id, player, self.clock())
        self.publish(table)
        return table

    async def start(self, table_id: str, player: Player, client: str) -> Table:
        """The creator starts: the free seats go to bots of the table's level, each
        player's seat gets its invite token (seen in "my tables"), accounts are bound to
        their seats, a rated table's game is marked rated."""
        table = await self._db(self.store.claim_start, table_id, player, self.clock())
        return await self._launch(table, client)

    async def _launch(self, table: Table, client: str) -> Table:
        """The game of a table claimed to start: made, its seats bound, the table
        started; if it cannot be made (a cap, storage), the table is open again."""
        table_id = table.table_id
        try:
            self.keeper.check_create(client, False)
        except BaseException:
            await self._db(self.store.unclaim, table_id, self.clock())
            raise
        try:
            session, links = await self._db(self.manager.create, table.spec.rules,
                                            game_seats(table), table.spec.options,
                                            False, None, game_clock(table))
        except BaseException:
            self.keeper.released(client, False)
            await self._db(self.store.unclaim, table_id, self.clock())
            raise
        self.keeper.created(client, session.game_id, False)
        tokens = {n: seat["token"] for n, seat in enumerate(links["seats"]) if seat["token"]}
        await self._db(self._bind_accounts, table, session.game_id, tokens)
        started = await self._db(self.store.started, table_id, session.game_id, tokens,
                                 self.clock())
        self.publish(started)
        return started

    async def quick(self, player: Player, spec: Spec, client: str) -> tuple[Table, bool]:
        """Quick match: matched to a waiting table of the same game (by rating if rated,
        the window widening with its waiting time) or waiting at a new one; the game
        starts as soon as a table is full.  (the table, whether a game started)."""
        rating = None
        if spec.rated:
            if player.account_id is None:
                raise refused("rated_needs_account", "rated_needs_account", 403)
            self.ratings.check_rated_game(spec.rules, ["human"] * spec.players, False, False)
            rating = await self._db(self._rating_of, player.account_id, spec.rules)
        table, full = await self._db(self.store.quick, secrets.token_urlsafe(9), spec,
                                     player, rating, self.clock())
        if not full:
            self.publish(table)
            return table, False
        try:
            return await self._launch(table, client), True
        except BaseException:
            # the last seat is given back, so the table waits again for someone else
            await self._db(self.store.leave, table.table_id, player, self.clock())
            raise

    def _rating_of(self, account_id: str, rules: str) -> int:
        return display(self.ratings.store.rating(account_id, rules))

    async def cancel_quick(self, player: Player) -> Table:
        """Stop waiting for a quick match (``not_queued`` 409 when not waiting)."""
        table_id = await self._db(self.store.waiting_at, player.player_id)
        if table_id is None:
            raise refused("not_queued", "not_queued")
        return await self.leave(table_id, player)

    def _bind_accounts(self, table: Table, game_id: str, tokens: dict[int, str]) -> None:
        for seat in table.seats:
            if seat.player_id.startswith("account:") and seat.seat in tokens:
                account_id = seat.player_id.removeprefix("account:")
                self.ratings.accounts.claim(account_id, [(game_id, tokens[seat.seat])])
        if table.spec.rated:
            self.ratings.store.ask(game_id, table.spec.rules,
                                   table.creator.removeprefix("account:"))

    # -- live ---------------------------------------------------------------------------

    def publish(self, table: Table) -> None:
        """Every lobby connection of this process gets the table as it is now."""
        self._public = None
        text = encode({"type": "table", "table": table_json(table)})
        for conn in list(self.connections):
            conn.put_text(text)

    def changed_elsewhere(self, table_id: str) -> None:
        """Another process changed a table (its NOTIFY, from the bridge's thread)."""
        table = self.store.get(table_id)
        loop = self.loop
        if table is not None and loop is not None:
            loop.call_soon_threadsafe(self.publish, table)
