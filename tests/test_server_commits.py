"""The one move path (Manager.change): every change (a human's move, an undo, a bot's move)
is applied on the event loop with only its commit in the writer thread
(tikal.server.commits): stored exactly, batched, never two at once on a game, never lost
when the client goes away, refused cleanly when the storage refuses."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from pg_helpers import database_of_kind
from tikal.server.commits import CommitQueue
from tikal.server.errors import ServerError
from tikal.server.manager import Manager
from tikal.server.session import Session
from tikal.server.store import LogEntry, SqliteStorage, StorageConflict, open_storage

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from database_of_kind(request.param, tmp_path)


def hold_commits(store: SqliteStorage, before: Callable[[], None]) -> None:
    """Make every batch commit of ``store`` run ``before`` first (to hold it back)."""
    append_many = store.append_many

    def held(entries: Any) -> Any:
        before()
        return append_many(entries)

    store.append_many = held  # type: ignore[method-assign]


def new_game(manager: Manager, seed: int = 5) -> tuple[Session, list[str]]:
    session, links = manager.create("standard", HUMANS, seed=seed)
    return session, [seat["token"] for seat in links["seats"]]


def play_then_read_log(manager: Manager, play: Coroutine[Any, Any, None], game_id: str,
                       ) -> list[LogEntry]:
    """Run ``play`` on a new loop, then close the manager and its storage; the stored log
    of ``game_id`` after the start entry."""
    try:
        asyncio.run(play)
        return manager.storage.log_since(game_id, 0)
    finally:
        manager.close()
        manager.storage.close()


def stored_game(db: str | Path, game_id: str) -> tuple[list[LogEntry], str]:
    """What a fresh manager on ``db`` rebuilds of ``game_id``: its log and its game (JSON)."""
    again = Manager(open_storage(str(db)), bot_delay=0.0)
    try:
        rebuilt = again.get(game_id)
        return rebuilt.log, rebuilt.game.to_json()
    finally:
        again.close()
        again.storage.close()


def some_actions(session: Session, count: int) -> list[str]:
    """The first ``count`` actions of a game played by always taking the first legal one
    (worked out on a copy: the session stays as it is)."""
    game, played = session.game.clone(), []
    for _ in range(count):
        action = game.legal_actions()[0]
        played.append(str(action))
        game.apply(action)
    return played


def test_moves_applied_on_the_loop_are_stored_and_replay_exactly(db: str) -> None:
    """A dozen moves through Manager.act: the game in memory is the one the engine gives for
    them, and a fresh manager on the same database rebuilds it exactly from the log."""
    manager = Manager(open_storage(db), bot_delay=0.0)
    session, tokens = new_game(manager)
    actions = some_actions(session, 12)

    async def play() -> None:
        for action in actions:
            await manager.act(session.game_id, tokens[session.game.current], action,
                              session.state)

    try:
        asyncio.run(play())
        assert session.state == 12 and session.pending is None
        expected = session.game.clone()
    finally:
        manager.close()
        manager.storage.close()
    log, rebuilt = stored_game(db, session.game_id)
    assert [e.action for e in log[1:]] == actions
    assert rebuilt == expected.to_json()


def test_appends_that_arrive_together_share_one_commit(db: str) -> None:
    """40 games appending at once from one loop: every entry stored once, in fewer batches
    than entries, and a duplicate refused on its own (StorageConflict) without taking the
    others of its batch down (SQLite: one transaction with a savepoint per entry;
    PostgreSQL: one pipelined transaction, the counter refusing the second entry)."""
    store = open_storage(db)
    manager = Manager(store, bot_delay=0.0)
    games = [new_game(manager, seed)[0].game_id for seed in range(40)]
    commits = CommitQueue(store)

    async def append_all() -> list[Any]:
        entry = LogEntry(seq=1, kind="action", seat=0, action="end")
        jobs = [commits.append(game_id, entry) for game_id in games]
        jobs.append(commits.append(games[0], entry))  # the same entry twice
        return await asyncio.gather(*jobs, return_exceptions=True)

    try:
        results = asyncio.run(append_all())
        stored = [store.log_since(game_id, 0) for game_id in games]
    finally:
        commits.close()
        manager.close()
        store.close()
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], StorageConflict)
    assert all(len(log) == 1 and log[0].action == "end" for log in stored)
    assert commits.entries == 41 and commits.batches < commits.entries


def test_no_second_move_is_taken_while_a_commit_is_under_way(tmp_path: Path) -> None:
    """While the first move's entry is being committed, a second move on the same state
    (here from a thread, as a bot or an HTTP request would send it) is refused as stale,
    and the game ends up with exactly the first move."""
    store = SqliteStorage(tmp_path / "games.sqlite3")
    manager = Manager(store, bot_delay=0.0)
    session, tokens = new_game(manager)
    first, second = (str(a) for a in session.game.legal_actions()[:2])
    seat = session.game.current
    gate, release = threading.Event(), threading.Event()

    def wait_for_the_other_move() -> None:
        gate.set()
        release.wait(10)

    hold_commits(store, wait_for_the_other_move)
    refusals: list[ServerError] = []

    def meanwhile() -> None:
        gate.wait(10)
        try:
            manager.act_blocking(session.game_id, tokens[seat], second, 0)
        except ServerError as exc:
            refusals.append(exc)
        finally:
            release.set()

    async def play() -> None:
        other = threading.Thread(target=meanwhile)
        other.start()
        await manager.act(session.game_id, tokens[seat], first, 0)
        other.join()

    stored = play_then_read_log(manager, play(), session.game_id)
    assert [r.code for r in refusals] == ["stale"] and refusals[0].status == 409
    assert [e.action for e in session.log[1:]] == [first] == [e.action for e in stored]
    assert session.state == 1 and session.pending is None


def test_a_move_whose_client_went_away_is_still_installed(tmp_path: Path) -> None:
    """The request is cancelled while its entry is being committed (the WebSocket closed):
    the entry is stored all the same, so the game in memory must have the move too."""
    store = SqliteStorage(tmp_path / "games.sqlite3")
    manager = Manager(store, bot_delay=0.0)
    session, tokens = new_game(manager)
    action = str(session.game.legal_actions()[0])
    started = threading.Event()

    def take_a_while() -> None:
        started.set()
        threading.Event().wait(0.2)

    hold_commits(store, take_a_while)

    async def play() -> None:
        request = asyncio.ensure_future(
            manager.act(session.game_id, tokens[session.game.current], action, 0))
        while not started.is_set():
            await asyncio.sleep(0.005)
        request.cancel()
        with pytest.raises(asyncio.CancelledError):
            await request
        for _ in range(200):  # the commit finishes on its own
            if session.state == 1:
                break
            await asyncio.sleep(0.01)

    stored = play_then_read_log(manager, play(), session.game_id)
    assert session.state == 1 and [e.action for e in stored] == [action]
    assert session.log[-1] == stored[-1]


def test_a_move_another_process_stored_first_is_refused_and_brought_in(
    tmp_path: Path,
) -> None:
    """Two managers on one SQLite file (as two processes): the second stores its own move
    for state 0 first, so the first one's move on the loop is refused as stale, its game
    is left as it was, and the other process's move is read in."""
    path = tmp_path / "games.sqlite3"
    here = Manager(SqliteStorage(path), bot_delay=0.0)
    there = Manager(SqliteStorage(path), bot_delay=0.0)
    session, tokens = new_game(here)
    mirror = there.get(session.game_id)
    seat = session.game.current
    mine, theirs = (str(a) for a in session.game.legal_actions()[:2])
    there.act_blocking(session.game_id, tokens[seat], theirs, 0)

    async def play() -> ServerError:
        with pytest.raises(ServerError) as refused:
            await here.act(session.game_id, tokens[seat], mine, 0)
        return refused.value

    try:
        refused = asyncio.run(play())
        assert refused.code == "stale" and refused.status == 409 and refused.state == 1
        assert [e.action for e in session.log[1:]] == [theirs]
        assert session.game.to_json() == mirror.game.to_json() and session.pending is None
    finally:
        here.close()
        there.close()
        here.storage.close()
        there.storage.close()


def test_undos_and_bot_moves_take_the_same_path_and_replay_exactly(tmp_path: Path) -> None:
    """A human's move and its undo, then a bot's turn: every entry goes through the commit
    thread (its counter sees each one), the undo is stored as an ``undo`` entry, and a
    fresh manager rebuilds the same game from the log."""
    path = tmp_path / "games.sqlite3"
    manager = Manager(SqliteStorage(path), bot_delay=0.0)
    session, links = manager.create("demo", [{"kind": "human"}, {"kind": "bot", "level": "random"}],
                                    seed=3)
    token = links["seats"][0]["token"]

    async def play() -> None:
        manager.bots.loop = asyncio.get_running_loop()
        tile = next(str(a) for a in session.game.legal_actions() if str(a).startswith("tile"))
        await manager.act(session.game_id, token, tile, 0)
        state = session.state
        action = str(session.game.legal_actions()[0])
        await manager.act(session.game_id, token, action, state)
        await manager.undo(session.game_id, token, state + 1)
        await manager.act(session.game_id, token, "end", state + 2)
        for _ in range(500):  # the bot plays its whole turn
            if session.game.current == 0 and session.bot_busy is False:
                break
            await asyncio.sleep(0.01)

    try:
        asyncio.run(play())
        kinds = [entry.kind for entry in session.log]
        assert kinds[:5] == ["start", "action", "action", "undo", "action"]
        bot_moves = [e for e in session.log if e.seat == 1]
        assert bot_moves and session.game.current == 0
        assert manager.commits.entries == len(session.log) - 1  # every change, the commit thread
        expected = session.game.to_json()
    finally:
        manager.close()
        manager.storage.close()
    assert stored_game(path, session.game_id)[1] == expected
