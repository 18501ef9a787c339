"""The cap on games in progress per client holds for creates sent at once: the check and
the count are one step (keeper.py).  Before, 40 creates at once from one address (rate
limits scaled up out of the way) made 40 games against a cap of 20.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from web_helpers import ServerProcess

TWO = [{"kind": "human"}, {"kind": "human"}]
CAP = 20


@pytest.fixture
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("caps") / "caps.sqlite3", options=(
        "--rate-scale", "100", "--games-per-client", str(CAP))).start()
    yield proc
    proc.stop()


async def at_once(url: str, bodies: list[dict[str, object]]) -> list[httpx.Response]:
    async with httpx.AsyncClient(timeout=60) as client:
        return list(await asyncio.gather(*(client.post(f"{url}/api/games", json=body)
                                           for body in bodies)))


def test_creates_at_once_never_pass_the_cap(server: ServerProcess) -> None:
    answers = asyncio.run(at_once(server.url, [{"seats": TWO}] * (2 * CAP)))
    codes = [a.status_code for a in answers]
    assert codes.count(201) == CAP and codes.count(429) == CAP
    assert {a.json()["code"] for a in answers if a.status_code == 429} == {"too_many_games"}


def test_a_refused_create_gives_its_place_back(server: ServerProcess) -> None:
    bad = [{"rules": "demo", "seats": TWO * 2}] * CAP  # four seats: demo is for two
    assert {a.status_code for a in asyncio.run(at_once(server.url, bad))} == {422}
    codes = [a.status_code for a in asyncio.run(at_once(server.url, [{"seats": TWO}] * CAP))]
    assert codes == [201] * CAP
