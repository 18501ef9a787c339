"""tikal behind a real nginx (Debian's package, README's example) on loopback: the rate
limits see each client's own address, and ``X-Forwarded-For`` is believed only from the
proxy (``--forwarded-allow-ips``).

Clients are told apart by their loopback source address (127.0.0.2, 127.0.0.3 ...): nginx
sees each as itself and forwards it in ``X-Forwarded-For`` / ``X-Real-IP``.  Creating
games allows a burst of 10 per client, so an 11th create at once is refused (429) for
that client only.  Before: with the README's old example all clients were 127.0.0.1
(6 of 10 got only 429s), and any loopback client's own ``X-Forwarded-For`` was believed
(45 games created against a cap of 20).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from nginx_helpers import NGINX, Nginx
from web_helpers import ServerProcess

pytestmark = [
    pytest.mark.skipif(not Path(NGINX).exists(), reason="nginx is not installed"),
    pytest.mark.slow,  # real nginx and tikal serve processes (3-4 s a test)
]

TWO = [{"kind": "human"}, {"kind": "human"}]
#: Creates one client may make at once (``LimitSettings.create``'s burst).
BURST = 10


def client_at(address: str) -> httpx.Client:
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


def creates(url: str, address: str, count: int, spoof: bool = False) -> list[int]:
    """The statuses of ``count`` game creations from ``address`` (each with another
    made-up ``X-Forwarded-For`` if ``spoof``)."""
    with client_at(address) as client:
        return [client.post(f"{url}/api/games", json={"seats": TWO}, headers={
            "X-Forwarded-For": f"10.1.{address[-1]}.{i}"} if spoof else {}).status_code
            for i in range(count)]


@pytest.fixture(scope="module")
def tikal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("proxy") / "proxy.sqlite3",
                         options=("--forwarded-allow-ips", "127.0.0.1")).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def nginx(tmp_path_factory: pytest.TempPathFactory, tikal: ServerProcess) -> Iterator[Nginx]:
    proxy = Nginx(tmp_path_factory.mktemp("nginx"), tikal.port).start()
    yield proxy
    proxy.stop()


def test_each_client_behind_nginx_has_its_own_limits(nginx: Nginx) -> None:
    answers = {f"127.0.0.{i}": creates(nginx.url, f"127.0.0.{i}", 3) for i in range(2, 12)}
    assert answers == {address: [201] * 3 for address in answers}
    # one client past its burst is refused, and only that one
    assert creates(nginx.url, "127.0.0.12", BURST + 1)[-1] == 429
    assert creates(nginx.url, "127.0.0.13", 1) == [201]


def test_a_forwarded_for_sent_through_nginx_counts_the_real_client(nginx: Nginx) -> None:
    assert creates(nginx.url, "127.0.0.14", BURST + 1, spoof=True)[-1] == 429


def test_a_forwarded_for_sent_to_tikal_directly_is_not_believed(tikal: ServerProcess) -> None:
    assert creates(tikal.url, "127.0.0.15", BURST + 1, spoof=True)[-1] == 429


def test_the_websocket_works_through_nginx(nginx: Nginx) -> None:
    with client_at("127.0.0.16") as client:
        game = client.post(f"{nginx.url}/api/games", json={"seats": TWO}).json()
    assert game["seats"][0]["url"].startswith(f"{nginx.url}/play/")  # Host kept

    async def hello() -> str:
        url = f"ws://127.0.0.1:{nginx.port}/ws/{game['id']}"
        async with websockets.connect(url, additional_headers={"Origin": nginx.url}) as ws:
            await ws.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
            return str(json.loads(await ws.recv())["type"])

    assert asyncio.run(hello()) == "state"


def test_by_default_no_forwarded_for_is_believed(tmp_path: Path) -> None:
    proc = ServerProcess(tmp_path / "plain.sqlite3").start()
    try:  # even from 127.0.0.1, which uvicorn alone would trust
        assert creates(proc.url, "127.0.0.1", BURST + 1, spoof=True)[-1] == 429
    finally:
        proc.stop()
