"""Redis bus: per-match channels, reconnection, and two workers sharing PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
import redis.asyncio as redis

from app.config import BusSettings
from app.realtime.pubsub import RemoteBus
from app.realtime.redis_bus import RedisBus
from tests.realtime import bus_checks
from tests.support.server import LiveServer
from tests.support.services import require_service
from tests.support.settings import make_settings

pytestmark = pytest.mark.redis


@pytest.fixture
def bus_settings() -> BusSettings:
    require_service("redis")
    return BusSettings(backend="redis", channel=f"t{uuid.uuid4().hex[:12]}", retry_seconds=0.1)


@pytest.fixture
def two_workers(bus_settings: BusSettings) -> Iterator[tuple[LiveServer, LiveServer]]:
    with bus_checks.two_live_workers(bus_settings) as workers:
        yield workers


async def test_redis_bus_delivers_watched_matches_only(bus_settings: BusSettings) -> None:
    await bus_checks.check_only_watched_matches_arrive(lambda: RedisBus(bus_settings))


async def kill_own_subscription(bus: RemoteBus) -> None:
    """Cut only this bus's subscriber connection (the Redis server is shared)."""
    assert isinstance(bus, RedisBus)
    admin = redis.Redis(host="127.0.0.1", port=6379)
    try:
        clients = await admin.client_list(_type="pubsub")
        ids = [c["id"] for c in clients if c.get("name") == bus.client_name]
        assert ids, "the bus has no subscriber connection"
        for client_id in ids:
            await admin.client_kill_filter(_id=client_id)
    finally:
        await admin.aclose()


async def test_redis_bus_reconnects_and_resyncs(bus_settings: BusSettings) -> None:
    await bus_checks.check_reconnects_and_resyncs(
        lambda: RedisBus(bus_settings), kill_own_subscription
    )


async def test_sockets_on_two_workers_see_every_version(
    two_workers: tuple[LiveServer, LiveServer],
) -> None:
    await bus_checks.check_sockets_on_two_workers_see_every_version(two_workers, [3, 3, 3, 1])


async def test_worker_without_redis_starts_but_is_not_ready(sqlite_url: str) -> None:
    bus = BusSettings(backend="redis", url="redis://127.0.0.1:9/0")  # nothing listens there
    server = LiveServer(make_settings(sqlite_url, bus=bus)).start()
    try:
        async with httpx.AsyncClient(base_url=server.http) as http:
            assert (await http.get("/healthz")).status_code == 200
            ready = await http.get("/readyz")
            assert ready.status_code == 503
            assert ready.json()["detail"].startswith("bus:")
    finally:
        server.stop()
