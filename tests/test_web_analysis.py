"""Analysis in the web app: background jobs over the API, stored results, refusals, and the
replay page's graph and better turn in a real browser (Debian's Chromium).

Budgets are tiny (one determinization, two candidates): the tests check the plumbing,
the analysis itself is tested in test_analysis.py.  Screenshots go to
``artifacts/analysis/`` (gitignored).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from pg_helpers import fresh_database
from test_analysis import blunder_record
from tikal import Game
from tikal.actions import parse_action
from tikal.bots import make_bot
from tikal.bots.analysis import decisions, game_at
from tikal.hexes import label
from tikal.messages import Message, render
from tikal.server import create_app
from tikal.server.analysis_jobs import AnalysisJobs, AnalysisSettings, review_decision
from tikal.server.limits import LimitSettings, Rate
from tikal.server.store import GameRecord, LogEntry, SeatRecord, Storage, open_storage
from web_helpers import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, ServerProcess, tiny_analysis

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
TINY = AnalysisSettings(budget=1, candidates=2)
SHOTS = ARTIFACTS / "analysis"
CLASSIFIED = ("inaccuracy", "mistake", "blunder")


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A short demo game (greedy self-play) with a deliberate blunder by seat 1."""
    return blunder_record(seed=6)


def app_client(db: Path, settings: AnalysisSettings = TINY,
               limits: LimitSettings | None = None) -> TestClient:
    return TestClient(create_app(db, bot_delay=0.0, analysis=settings, limit_settings=limits))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path / "games.sqlite3") as c:
        yield c


def jobs(client: TestClient) -> AnalysisJobs:
    found: AnalysisJobs = client.app.state.analysis  # type: ignore[attr-defined]
    return found


def play(client: httpx.Client, record: dict[str, Any], stop: int | None = None) -> str:
    """The game of ``record`` played on the server by hot-seat (same seed: same draws),
    its first ``stop`` actions only if given; the game's id."""
    r = client.post("/api/games", json={
        "rules": record["rules"], "seats": [{"kind": "human"}] * record["players"],
        "hotseat": True, "seed": record["seed"], "options": record.get("options") or {},
    })
    assert r.status_code == 201, r.text
    game = r.json()
    headers = {"X-Tikal-Token": game["hotseat_token"]}
    state = game["state"]
    actions = [t for t in record["log"] if not t.startswith("*")][:stop]
    for action in actions:
        r = client.post(f"/api/games/{game['id']}/actions", headers=headers,
                        json={"action": action, "state": state})
        assert r.status_code == 200, r.text
        state = r.json()["state"]
    game_id: str = game["id"]
    return game_id


def upload(client: httpx.Client, record: dict[str, Any]) -> str:
    r = client.post("/api/replays", json=record)
    assert r.status_code == 201, r.text
    replay_id: str = r.json()["id"]
    return replay_id


def wait_done(client: TestClient, replay_id: str, timeout: float = 120) -> tuple[
        dict[str, Any], list[int]]:
    """Poll until the analysis is done: the result and every ``done`` count seen."""
    seen: list[int] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        data: dict[str, Any] = client.get(f"/api/replays/{replay_id}/analysis").json()
        assert data["status"] in ("queued", "running", "done"), data
        seen.append(data["done"])
        if data["status"] == "done":
            return data, seen
        time.sleep(0.02)
    raise AssertionError(f"analysis of {replay_id} not done in {timeout} s")


def without_timing(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k not in ("id", "seconds")}


# ------------------------------------------------------------------ the API


def test_a_finished_game_is_analysed_once_and_the_result_stored(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    db = tmp_path / "games.sqlite3"
    with app_client(db) as client:
        game_id = play(client, record)
        url = f"/api/replays/{game_id}/analysis"
        assert client.get(url).json() == {"type": "analysis", "id": game_id, "status": "none",
                                          "over": True}
        r = client.post(url)
        assert r.status_code == 202, r.text
        assert r.json()["status"] in ("queued", "running") and r.json()["total"] > 0
        again = client.post(url)
        assert again.status_code == 409 and again.json()["code"] == "analysis_running"
        result, seen = wait_done(client, game_id)
        # progress only goes up, and was seen part way
        assert seen == sorted(seen) and seen[-1] == result["total"]
        assert any(0 < n < result["total"] for n in seen) or len(set(seen)) > 2
        reviewed = jobs(client).reviewed
        assert reviewed == result["total"] == len(result["decisions"])
        # asked again: the stored result, nothing computed
        r = client.post(url)
        assert r.status_code == 200 and r.json() == result
        assert client.get(url).json() == result
        assert jobs(client).reviewed == reviewed
        storage: Storage = client.app.state.services.storage  # type: ignore[attr-defined]
        assert storage.load_analysis(game_id) == result
        # asked in German: the same analysis, its moves said in German by the engine
        german = client.get(url, params={"lang": "de"}).json()
        played, gespielt = result["decisions"][0]["played_moves"][0], \
            german["decisions"][0]["played_moves"][0]
        assert gespielt["text"] == render(Message.from_json(played["message"]), "action",
                                          result["names"], "de") != played["text"]
        assert {**gespielt, "text": played["text"]} == played
        assert [d["win_chance"] for d in german["decisions"]] == [
            d["win_chance"] for d in result["decisions"]]
    # a new server process on the same file finds it stored
    with app_client(db) as client:
        assert client.get(url).json() == result
        assert client.post(url).status_code == 200
        assert jobs(client).reviewed == 0
    check_result(result, record)


def check_result(result: dict[str, Any], record: dict[str, Any]) -> None:
    """Decisions cover the game step by step; texts and spaces are the engine's."""
    assert result["budget"] == 1 and result["seed"] == 0 and result["players"] == 2
    decisions = result["decisions"]
    assert [d["index"] for d in decisions] == list(range(len(decisions)))
    assert decisions[0]["step"] == 0
    for d, nxt in pairwise(decisions):
        assert nxt["step"] == d["step"] + d["steps"]
    actions = [t for t in record["log"] if not t.startswith("*")]
    assert decisions[-1]["step"] + decisions[-1]["steps"] == len(actions) == result["steps"]
    for d in decisions:
        assert [m["action"] for m in d["played_moves"]] == d["played"]
        assert d["played"] == actions[d["step"]: d["step"] + d["steps"]]
        assert [m["action"] for m in d["best_moves"]] == d["best"]
        assert len(d["win_chance"]) == 2 and 0 <= d["loss"] <= 1
    # the first decision's texts, as the engine describes them at the start
    game = Game.from_record({**record, "log": record["log"][: decisions[0]["start"]],
                             "scoring": None, "result": None})
    first = decisions[0]["played_moves"][0]
    action = parse_action(first["action"])
    assert first["text"] == render(game.describe(action), "action", result["names"])
    assert first["cells"] == [label(c) for c in action.cells]
    # the deliberate blunder of seat 1 is found
    assert any(d["player"] == 1 and d["verdict"] in CLASSIFIED for d in decisions)


def test_uploaded_records_are_analysed_by_replay_id_deterministically(
    client: TestClient, record: dict[str, Any]
) -> None:
    """The same game uploaded under other names is another upload (another id), and its
    analysis is the same but for the names."""
    renamed = {**record, "seats": [{"name": "Ana"}, {"name": "Bo"}]}
    first, second = upload(client, record), upload(client, renamed)
    assert first != second
    for replay_id in (first, second):
        assert client.post(f"/api/replays/{replay_id}/analysis").status_code == 202
    a, _ = wait_done(client, first)
    b, _ = wait_done(client, second)
    assert a["id"] == first and b["id"] == second and b["names"] == ["Ana", "Bo"]
    same = ("id", "seconds", "names")  # same game, same seed: same analysis
    assert {k: v for k, v in a.items() if k not in same} == \
        {k: v for k, v in b.items() if k not in same}


def test_a_failed_job_says_so_and_can_be_asked_again(
    client: TestClient, record: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = client.app.state.services.storage  # type: ignore[attr-defined]
    save = storage.save_analysis

    def broken(game_id: str, analysis: dict[str, Any]) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(storage, "save_analysis", broken)
    replay_id = upload(client, record)
    assert client.post(f"/api/replays/{replay_id}/analysis").status_code == 202
    deadline = time.monotonic() + 120
    while (found := client.get(f"/api/replays/{replay_id}/analysis").json())["status"] != "failed":
        assert found["status"] in ("queued", "running") and time.monotonic() < deadline
        time.sleep(0.05)
    assert "failed" in found["message"] and "disk" not in found["message"]  # no internals
    monkeypatch.setattr(storage, "save_analysis", save)
    assert client.post(f"/api/replays/{replay_id}/analysis").status_code == 202
    assert wait_done(client, replay_id)[0]["status"] == "done"


def test_bad_requests_get_clear_errors(client: TestClient, record: dict[str, Any]) -> None:
    r = client.post("/api/replays/nosuchgame1/analysis")
    assert r.status_code == 404 and r.json()["code"] == "unknown_game"
    assert client.get("/api/replays/nosuchgame1/analysis").json()["code"] == "unknown_game"
    # a game in progress, and an uploaded record of an unfinished game
    playing = play(client, record, stop=20)
    assert client.get(f"/api/replays/{playing}/analysis").json()["over"] is False
    partial = {**record, "log": record["log"][:30], "scoring": None, "result": None}
    for replay_id in (playing, upload(client, partial)):
        r = client.post(f"/api/replays/{replay_id}/analysis")
        assert r.status_code == 409 and r.json()["code"] == "not_finished", r.text
    assert jobs(client).reviewed == 0


def test_the_queue_is_bounded_and_says_where_a_job_waits(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    settings = AnalysisSettings(budget=1, candidates=2, jobs=1, queue=1)
    unlimited = LimitSettings(enabled=False)
    with app_client(tmp_path / "q.sqlite3", settings, unlimited) as client:
        # three uploads (other names: the same record twice is one upload)
        ids = [upload(client, {**record, "seats": [{"name": f"P{i}"}, {"name": "Q"}]})
               for i in range(3)]
        running = client.post(f"/api/replays/{ids[0]}/analysis").json()
        assert running["status"] == "running"
        waiting = client.post(f"/api/replays/{ids[1]}/analysis").json()
        assert waiting["status"] == "queued" and waiting["position"] == 1
        r = client.post(f"/api/replays/{ids[2]}/analysis")
        assert r.status_code == 429 and r.json()["code"] == "analysis_busy"
        assert "Retry-After" in r.headers
        wait_done(client, ids[1])  # the waiting job runs once the first is done
        assert client.post(f"/api/replays/{ids[2]}/analysis").status_code == 202


def test_starting_analyses_is_rate_limited_per_client(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    limits = LimitSettings(analysis=Rate(1, 1))
    with app_client(tmp_path / "r.sqlite3", limits=limits) as client:
        replay_id = upload(client, record)
        assert client.post(f"/api/replays/{replay_id}/analysis").status_code == 202
        r = client.post(f"/api/replays/{replay_id}/analysis")
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) >= 1
        wait_done(client, replay_id)  # polling is not limited


def test_what_the_page_is_sent_never_depends_on_hidden_parts() -> None:
    """The reviews and the described moves (played and better) of the same log replayed
    from two shuffles, which differ only in what nobody has seen, are the same."""
    game = Game.new("standard", 2, seed=4)
    bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    while sum(1 for a in game.history if a.verb == "*token") < 2:
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    record = {**game.record(), "scoring": None, "result": None}
    reshuffled = {**record, "seed": 5}
    options = {"budget": 2, "seed": 1, "candidates": 3}
    for d in decisions(record)[-3:]:
        real, other = game_at(record, d.start), game_at(reshuffled, d.start)
        assert (real.stack, real.tokens) != (other.stack, other.tokens)
        names = ["A", "B"]
        assert review_decision(record, d, names, options) == review_decision(
            reshuffled, d, names, options)


def test_settings_come_from_the_environment_and_options() -> None:
    env = {"TIKAL_ANALYSIS_BUDGET": "3", "TIKAL_ANALYSIS_JOBS": "2", "TIKAL_ANALYSIS_SEED": ""}
    settings = AnalysisSettings.from_env(env)
    assert (settings.budget, settings.jobs, settings.seed, settings.candidates) == (3, 2, 0, 6)
    assert settings.with_options(budget=5, jobs=None).budget == 5
    assert AnalysisSettings.from_env({}) == AnalysisSettings()
    with pytest.raises(ValueError):
        AnalysisSettings(budget=0)


#: The start entry a stored game is created with (its draws do not matter here).
START = LogEntry(seq=0, kind="start", seat=-1)


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    """A SQLite file, or a fresh PostgreSQL database (skipped without TIKAL_TEST_PG)."""
    if request.param == "sqlite":
        store = open_storage(str(tmp_path / "s.sqlite3"))
        yield store
        store.close()
        return
    for url in fresh_database():
        store = open_storage(url)
        yield store
        store.close()


def test_storage_keeps_the_first_analysis(storage: Storage) -> None:
    seats = (SeatRecord("human", "A"), SeatRecord("human", "B"))
    storage.create(GameRecord("g1234567890", "demo", 2, {}, 1, seats, {}), START)
    assert storage.load_analysis("g1234567890") is None
    storage.save_analysis("g1234567890", {"decisions": [1, 2]})
    storage.save_analysis("g1234567890", {"decisions": [3]})
    assert storage.load_analysis("g1234567890") == {"decisions": [1, 2]}
    assert storage.load_analysis("other") is None


def test_storage_lets_one_owner_at_a_time_compute_an_analysis(storage: Storage) -> None:
    """The claim that makes several server processes compute an analysis once: one owner
    at a time, renewed with the progress, taken over once it runs out (its process died),
    dropped when the analysis is stored."""
    now = time.time()
    assert storage.analysis_claim("g1") is None
    assert storage.claim_analysis("g1", "A", 12, now + 60)
    assert not storage.claim_analysis("g1", "B", 12, now + 60)
    assert storage.claim_analysis("g1", "A", 12, now + 60)  # its own: still A's
    storage.renew_analysis("g1", "A", 5, now + 90)
    storage.renew_analysis("g1", "B", 9, now + 99)  # not B's: nothing changes
    assert storage.analysis_claim("g1") == {"owner": "A", "done": 5, "total": 12,
                                            "until": now + 90}
    storage.release_analysis("g1", "B")
    assert storage.analysis_claim("g1") is not None
    storage.renew_analysis("g1", "A", 6, now - 1)  # A stopped renewing: ran out
    assert storage.claim_analysis("g1", "B", 12, now + 60)
    assert storage.analysis_claim("g1") == {"owner": "B", "done": 0, "total": 12,
                                            "until": now + 60}
    seats = (SeatRecord("human", "A"), SeatRecord("human", "B"))
    storage.create(GameRecord("g1", "demo", 2, {}, 1, seats, {}), START)
    storage.save_analysis("g1", {"decisions": []})
    assert storage.analysis_claim("g1") is None
    storage.release_analysis("g1", "B")  # nothing left to release: no error


def test_two_server_processes_compute_an_analysis_once(
    tmp_path: Path, record: dict[str, Any]
) -> None:
    """Two servers on one database (as several ``tikal serve`` processes): asked on both,
    the analysis is computed by one; the other follows its progress through the claim
    and answers with the stored result."""
    db = tmp_path / "games.sqlite3"
    with app_client(db) as one, app_client(db) as two:
        for client in (one, two):
            jobs(client).follow_every = 0.05
        game_id = play(one, record)
        url = f"/api/replays/{game_id}/analysis"
        assert one.post(url).status_code == 202
        assert two.post(url).status_code == 202
        first, _ = wait_done(one, game_id)
        second, seen = wait_done(two, game_id)
        assert first == second
        assert sorted([jobs(one).reviewed, jobs(two).reviewed]) == [0, first["total"]]
        assert seen == sorted(seen)


class FinishesWhileLooked:
    """A storage on which the other process stores its analysis (dropping its claim, in
    one transaction) just after this one looked for a stored result and before it looks
    at the claim: the moment in which a follower used to take the claim and compute the
    whole analysis a second time (seen as [19, 19] decisions reviewed under load)."""

    def __init__(self, inner: Storage, game_id: str) -> None:
        self.inner, self.game_id, self.finished = inner, game_id, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def analysis_claim(self, game_id: str) -> dict[str, Any] | None:
        if not self.finished:
            self.finished = True
            self.inner.save_analysis(game_id, {"decisions": [], "by": "other"})
        return self.inner.analysis_claim(game_id)


def test_a_follower_never_computes_an_analysis_stored_while_it_looked(tmp_path: Path) -> None:
    import asyncio

    from tikal.server.analysis_jobs import Job

    storage = open_storage(tmp_path / "race.sqlite3")
    seats = (SeatRecord("human", "A"), SeatRecord("human", "B"))
    storage.create(GameRecord("g1", "demo", 2, {}, 1, seats, {}), START)
    assert storage.claim_analysis("g1", "other", 3, time.time() + 60)
    jobs = AnalysisJobs(FinishesWhileLooked(storage, "g1"))
    jobs.follow_every = 0.0
    job = Job("g1", {}, ["A", "B"], 2, 0, [])
    assert asyncio.run(jobs._claim(job)) is False  # noqa: SLF001 (the follower's loop)
    assert storage.analysis_claim("g1") is None  # no claim of ours is left behind
    assert storage.load_analysis("g1") == {"decisions": [], "by": "other"}


# ------------------------------------------------------------------ the replay page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("analysis") / "web.sqlite3"
    with tiny_analysis():
        proc = ServerProcess(db).start()
    yield proc
    proc.stop()


def wait_frame(page: Any, step: int, total: int) -> None:
    """Until the replay shows the frame after ``step`` steps (the board and the counter)."""
    page.wait_for_function(
        "([n, text]) => window.tikalReplay.step() === n && "
        "document.getElementById('counter').textContent === text",
        arg=[step, f"{step} / {total}"],
    )


@pytest.mark.browser
def test_the_replay_page_analyses_a_game_and_shows_the_better_turn(
    server: ServerProcess, record: dict[str, Any]
) -> None:
    from playwright import sync_api

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is needed at {CHROMIUM} for the browser tests")
    SHOTS.mkdir(parents=True, exist_ok=True)
    with httpx.Client(base_url=server.url) as http:
        game_id = play(http, record)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}/replay/{game_id}")
        page.wait_for_selector("#analyze:not([disabled])")
        page.screenshot(path=str(SHOTS / "00-replay-before.png"))
        page.click("#analyze")
        page.wait_for_selector("svg.analysis-graph .point", timeout=120_000)
        graph = page.locator("svg.analysis-graph")
        assert graph.locator("title").first.text_content() == "Win chance per player over the game"
        assert graph.locator("polyline.chance").count() == 2
        with httpx.Client(base_url=server.url) as http:
            result = http.get(f"/api/replays/{game_id}/analysis").json()
        assert result["status"] == "done"
        assert graph.locator(".point").count() == len(result["decisions"])
        # the classified decisions are listed with the move played and the better one
        classified = [d for d in result["decisions"] if d["verdict"] in CLASSIFIED]
        assert page.locator("#analysis-list > li").count() == len(classified)
        # the worst decision with spaces to show: click its point
        shown = [d for d in classified if any(m["cells"] for m in d["best_moves"])]
        d = max(shown, key=lambda x: x["loss"])
        point = graph.locator(f'.point[data-index="{d["index"]}"]')
        assert point.get_attribute("tabindex") == "0" and point.get_attribute("aria-label")
        point.click()
        wait_frame(page, d["step"], result["steps"])
        page.wait_for_selector("#board svg g.space.better")
        cells = {c for m in d["best_moves"] for c in m["cells"]}
        marked = set(page.eval_on_selector_all(
            "#board svg g.space.better", "els => els.map((e) => e.dataset.cell)"))
        assert marked == cells
        turn = page.locator("#analysis-turn").text_content() or ""
        for m in d["best_moves"] + d["played_moves"]:
            assert m["text"] in turn
        page.screenshot(path=str(SHOTS / "01-better-turn.png"), full_page=True)
        # keyboard: the next point by arrow key, picked with Enter
        point.focus()
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        nxt = result["decisions"][d["index"] + 1]
        wait_frame(page, nxt["step"], result["steps"])
        page.screenshot(path=str(SHOTS / "02-keyboard.png"))
        # reloading shows the stored analysis at once
        page.reload()
        page.wait_for_selector("svg.analysis-graph .point")
        assert page.locator("#analyze").is_hidden()
        assert errors == []
        browser.close()
