"""The lobby across two ``tikal serve`` processes on one PostgreSQL database (issue 29): a
change made through one process reaches the lobby clients of the other (NOTIFY
tikal_lobby), and two players grabbing the last seat through the two processes at once
get exactly one seat between them.
"""

from __future__ import annotations

import json
import secrets
import threading
from typing import Any

import httpx
import psycopg
import websockets.sync.client as ws_client

from pg_helpers import PgServerProcess

#: A bound for a broken server, not a timing assertion.
PATIENCE = 60.0


def guest() -> dict[str, str]:
    return {"X-Tikal-Guest": secrets.token_urlsafe(18)}


def post(base: str, path: str, who: dict[str, str], body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{base}{path}", headers=who, json=body, timeout=PATIENCE)


def next_table_message(ws: Any, table_id: str) -> dict[str, Any]:
    """The next ``table`` message about ``table_id`` (others skipped)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=PATIENCE))
        if message.get("type") == "table" and message["table"]["id"] == table_id:
            return message["table"]


def test_a_table_opened_and_joined_through_one_process_reaches_lobby_clients_of_the_other(
    servers: list[PgServerProcess],
) -> None:
    a, b = servers
    with ws_client.connect(f"ws://127.0.0.1:{b.port}/ws/lobby",
                           open_timeout=PATIENCE) as on_b:
        first = json.loads(on_b.recv(timeout=PATIENCE))
        assert first["type"] == "lobby" and first["tables"] == []
        created = post(a.url, "/api/lobby/tables", guest(),
                       {"rules": "demo", "players": 2, "name": "Ana"})
        assert created.status_code == 201, created.text
        tid = created.json()["id"]
        seen = next_table_message(on_b, tid)
        assert seen["status"] == "open"
        assert [s["name"] for s in seen["seats"]] == ["Ana", None]
        joined = post(a.url, f"/api/lobby/tables/{tid}/join", guest(), {"name": "Ben"})
        assert joined.status_code == 200, joined.text
        assert [s["name"] for s in next_table_message(on_b, tid)["seats"]] == ["Ana", "Ben"]
    listed = httpx.get(f"{b.url}/api/lobby", timeout=PATIENCE).json()
    assert [t["id"] for t in listed["tables"]] == [tid]


def grab_at_once(urls: list[str], table_id: str) -> list[httpx.Response]:
    """One new guest per URL joins ``table_id`` through it, all at the same moment."""
    barrier = threading.Barrier(len(urls))
    answers: dict[int, httpx.Response] = {}

    def grab(n: int) -> None:
        barrier.wait()
        answers[n] = post(urls[n], f"/api/lobby/tables/{table_id}/join", guest(),
                          {"name": f"P{n}"})

    threads = [threading.Thread(target=grab, args=(n,)) for n in range(len(urls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [answers[n] for n in range(len(urls))]


def test_two_players_grabbing_the_last_seat_through_two_processes_get_one_seat(
    servers: list[PgServerProcess], pg_url: str,
) -> None:
    urls = [s.url for s in servers]
    for round_ in range(5):  # several rounds: a race lost once would hide a broken check
        tid = post(urls[0], "/api/lobby/tables", guest(),
                   {"rules": "demo", "players": 2, "name": f"Host{round_}"}).json()["id"]
        answers = grab_at_once(urls, tid)
        assert sorted(r.status_code for r in answers) == [200, 409]
        loser = next(r for r in answers if r.status_code == 409)
        assert loser.json()["code"] in ("table_full", "seat_taken")
        with psycopg.connect(pg_url) as conn:
            names = conn.execute("SELECT name FROM lobby_seats WHERE table_id = %s "
                                 "ORDER BY seat", (tid,)).fetchall()
        winner = next(r for r in answers if r.status_code == 200)
        assert [n for (n,) in names] == [f"Host{round_}", winner.json()["seats"][1]["name"]]
