"""Two workers sharing PostgreSQL and a Redis bus: sockets on either see every version."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import httpx
import pytest

from app.config import BusSettings
from app.db.migrate import upgrade_head
from app.realtime.redis_bus import RedisBus
from tests.realtime.conftest import open_table
from tests.support.client import Client
from tests.support.server import LiveServer
from tests.support.services import postgres_database, require_service
from tests.support.settings import make_settings


@pytest.fixture
def bus_settings() -> BusSettings:
    require_service("redis")
    return BusSettings(backend="redis", channel=f"skirmish-test:{uuid.uuid4().hex}")


@pytest.fixture
def two_workers(bus_settings: BusSettings) -> Iterator[tuple[LiveServer, LiveServer]]:
    with postgres_database() as url:
        upgrade_head(url)
        workers = [LiveServer(make_settings(url, bus=bus_settings)).start() for _ in range(2)]
        yield workers[0], workers[1]
        for worker in workers:
            worker.stop()


async def test_redis_bus_delivers_to_every_subscriber(bus_settings: BusSettings) -> None:
    bus = RedisBus(bus_settings.url, bus_settings.channel)
    heard: list[tuple[str, int]] = []
    bus.subscribe(lambda match_id, version: heard.append((match_id, version)))
    await bus.start()
    await bus.publish("match-1", 7)
    for _ in range(100):
        if heard:
            break
        await asyncio.sleep(0.01)
    await bus.close()
    assert heard == [("match-1", 7)]


async def test_sockets_on_two_workers_see_every_version(
    two_workers: tuple[LiveServer, LiveServer],
) -> None:
    first, second = two_workers
    table = await open_table(first)
    north = await Client.open(first.ws(table.match_id), table.north)
    south = await Client.open(second.ws(table.match_id), table.south)
    spectator = await Client.open(second.ws(table.match_id))
    for version, (mover, amount) in enumerate([(north, 3), (south, 3), (north, 3), (south, 1)]):
        assert (await mover.act(version, {"type": "take", "amount": amount}))["type"] == "ack"
        for client in (north, south, spectator):
            assert (await client.expect("state"))["version"] == version + 1
    for client in (north, south, spectator):
        assert [f["version"] for f in client.frames if f["type"] == "state"] == [0, 1, 2, 3, 4]


async def test_worker_without_redis_starts_but_is_not_ready(sqlite_url: str) -> None:
    bus = BusSettings(backend="redis", url="redis://127.0.0.1:9/0")  # nothing listens there
    server = LiveServer(make_settings(sqlite_url, bus=bus)).start()
    try:
        async with httpx.AsyncClient(base_url=server.http) as http:
            assert (await http.get("/healthz")).status_code == 200
            assert (await http.get("/readyz")).status_code == 503
    finally:
        server.stop()
