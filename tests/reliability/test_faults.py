"""Faults under load: kill -9 of a worker, PostgreSQL and Redis restarted, a reconnect storm.

For each: acknowledged actions lost = 0, duplicates = 0, every client back in sync, and
the time to recover is recorded (docs/reliability.md). Loopback only, bounded in time.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.db.migrate import upgrade_head
from tests.reliability import driver
from tests.reliability.processes import PostgresCluster, RedisServer, Worker
from tests.support.client import Client
from tests.support.services import postgres_database, require_service

pytestmark = pytest.mark.slow

MATCHES = 16
START = 40  # actions per match
BUDGET = 90.0  # seconds a scenario may take at most

Fault = Callable[[list[driver.MatchRun]], Awaitable[float]]
"""Injects the fault and returns the monotonic time the service was whole again."""


async def run_scenario(
    http_base: str, urls: driver.Urls, database_url: str, fault: Fault
) -> tuple[driver.Verdict, dict[str, float]]:
    runs = await driver.create_matches(http_base, MATCHES, START, urls)
    started = time.monotonic()
    tasks = await driver.play_all(runs, started + BUDGET)
    while sum(c.version or 0 for r in runs for c in r.seats[:1]) < MATCHES * START // 4:
        await asyncio.sleep(0.05)  # a quarter of the game played: matches are in progress
    in_flight = sum(1 for r in runs for c in r.seats if c.pending is not None)
    fault_at = time.monotonic()
    restored = await fault(runs)
    while (back := driver.progressed_since(runs, restored)) is None:
        assert time.monotonic() < started + BUDGET, "the matches never progressed again"
        await asyncio.sleep(0.02)
    await asyncio.gather(*tasks)
    elapsed = time.monotonic() - started
    returns = [
        min(t for t in c.connects if t > fault_at)
        for r in runs
        for c in [*r.seats, r.spectator]
        if any(t > fault_at for t in c.connects)
    ]
    result = await driver.verdict(database_url, runs)
    figures = {
        "matches": MATCHES,
        "actions_per_match": START,
        "in_flight_at_fault": in_flight,
        "outage_s": round(restored - fault_at, 3),
        "recovery_after_restore_s": round(back - restored, 3),
        "sockets_back": len(returns),
        "all_sockets_back_s": round(max(returns) - fault_at, 3) if returns else 0.0,
        "fault_to_progress_s": round(back - fault_at, 3),
        "total_s": round(elapsed, 2),
        "actions_per_s": round(result.committed / elapsed, 1),
    }
    return result, figures


def assert_whole(result: driver.Verdict) -> None:
    assert result.lost == 0, result
    assert result.duplicates == 0, result
    assert result.out_of_sync == 0, result
    assert result.unfinished == 0, result
    assert result.committed == result.acknowledged == MATCHES * START, result


@pytest.fixture
def shared_postgres() -> Iterator[str]:
    with postgres_database() as url:
        upgrade_head(url)
        yield url


def channel() -> str:
    return f"rel{uuid.uuid4().hex[:8]}"


async def test_kill_9_of_a_worker_under_load(
    shared_postgres: str, figures: Callable[..., None]
) -> None:
    require_service("redis")
    bus = {"SKIRMISH_BUS__BACKEND": "redis", "SKIRMISH_BUS__CHANNEL": channel()}
    workers = [Worker(shared_postgres, bus).start() for _ in range(2)]
    alive = list(workers)
    try:

        async def kill_one(_runs: list[driver.MatchRun]) -> float:
            alive.remove(workers[0])
            workers[0].kill()
            return time.monotonic()

        def urls() -> list[str]:
            return [f"ws://127.0.0.1:{w.port}" for w in alive]

        result, found = await run_scenario(workers[1].http, urls, shared_postgres, kill_one)
    finally:
        for worker in workers:
            worker.kill()
    figures(**found, **asdict(result))
    assert_whole(result)


async def test_postgresql_restarted_mid_match(figures: Callable[..., None]) -> None:
    cluster = PostgresCluster().init()
    worker: Worker | None = None
    try:
        cluster.start()
        upgrade_head(cluster.url)
        worker = Worker(cluster.url).start()

        async def restart(_runs: list[driver.MatchRun]) -> float:
            await asyncio.to_thread(cluster.stop)
            await asyncio.sleep(1.0)
            await asyncio.to_thread(cluster.start)
            return time.monotonic()

        base = f"ws://127.0.0.1:{worker.port}"
        result, found = await run_scenario(worker.http, lambda: [base], cluster.url, restart)
    finally:
        if worker is not None:
            worker.kill()
        cluster.remove()
    figures(**found, **asdict(result))
    assert_whole(result)


async def test_redis_restarted_mid_match(
    tmp_path: Path, shared_postgres: str, figures: Callable[..., None]
) -> None:
    redis = RedisServer(tmp_path)
    redis.start()
    bus = {
        "SKIRMISH_BUS__BACKEND": "redis",
        "SKIRMISH_BUS__URL": redis.url,
        "SKIRMISH_BUS__CHANNEL": channel(),
    }
    workers = [Worker(shared_postgres, bus).start() for _ in range(2)]
    try:

        async def restart(_runs: list[driver.MatchRun]) -> float:
            await asyncio.to_thread(redis.stop)
            await asyncio.sleep(1.0)
            await asyncio.to_thread(redis.start)
            return time.monotonic()

        def urls() -> list[str]:
            return [f"ws://127.0.0.1:{w.port}" for w in workers]

        result, found = await run_scenario(workers[0].http, urls, shared_postgres, restart)
    finally:
        for worker in workers:
            worker.kill()
        redis.stop()
    figures(**found, **asdict(result))
    assert_whole(result)


async def test_reconnect_storm(shared_postgres: str, figures: Callable[..., None]) -> None:
    worker = Worker(shared_postgres).start()
    try:
        sockets = 3 * MATCHES

        async def storm(runs: list[driver.MatchRun]) -> float:
            await driver.drop_all(runs)
            return time.monotonic()

        base = f"ws://127.0.0.1:{worker.port}"
        result, found = await run_scenario(worker.http, lambda: [base], shared_postgres, storm)
        assert found["sockets_back"] == sockets
    finally:
        worker.kill()
    figures(sockets=sockets, **found, **asdict(result))
    assert_whole(result)


def north_shown_gone(presence: dict[str, Any]) -> bool:
    return not next(s["connected"] for s in presence["seats"] if s["seat"] == "north")


async def test_a_seat_on_a_killed_worker_is_seen_gone(
    shared_postgres: str, figures: Callable[..., None]
) -> None:
    """The killed worker never clears its seats' ``connected`` flags; the lease lapses, the
    flag is cleared by the survivor and the other player is told (app/matches/presence.py)."""
    require_service("redis")
    env = {
        "SKIRMISH_BUS__BACKEND": "redis",
        "SKIRMISH_BUS__CHANNEL": channel(),
        "SKIRMISH_LIMITS__CLOCK_TICK_SECONDS": "0.2",
    }
    doomed, survivor = Worker(shared_postgres, env).start(), Worker(shared_postgres, env).start()
    try:
        async with httpx.AsyncClient(base_url=survivor.http) as http:
            body = {"game": "countdown", "seat": "north", "clock": {"grace_seconds": 2}}
            made = (await http.post("/api/matches", json=body)).json()
            match_id = made["match_id"]
            south = (await http.post(f"/api/matches/{match_id}/seats", json={})).json()
            await Client.open(doomed.ws(match_id), made["secret"])
            other = await Client.open(survivor.ws(match_id), south["secret"])
            await asyncio.sleep(0.6)
            doomed.kill()
            killed = time.monotonic()
            while not north_shown_gone(await other.expect("presence", timeout=10)):
                pass
            told = time.monotonic() - killed
            while (found := (await http.get(f"/api/matches/{match_id}")).json())["status"] == (
                "active"
            ):
                assert time.monotonic() - killed < 15, found
                await asyncio.sleep(0.1)
    finally:
        doomed.kill()
        survivor.kill()
    north_flag = next(s["connected"] for s in found["seats"] if s["seat"] == "north")
    figures(
        kill_to_presence_s=round(told, 2),
        kill_to_forfeit_s=round(time.monotonic() - killed, 2),
        lease_s=2.0,
        grace_s=2.0,
    )
    assert not north_flag  # the stale flag the dead worker left was cleared
    assert (found["outcome"]["winner"], found["outcome"]["reason"]) == ("south", "abandoned")
