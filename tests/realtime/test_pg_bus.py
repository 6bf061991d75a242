"""PostgreSQL LISTEN/NOTIFY bus: the same checks as Redis, plus a whole game on two workers."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import asyncpg
import pytest
from pydantic import ValidationError

from app.config import BusSettings
from app.realtime.pg_bus import PostgresBus, asyncpg_dsn
from app.realtime.pubsub import RemoteBus
from tests.realtime import bus_checks
from tests.support.server import LiveServer
from tests.support.services import POSTGRES_ADMIN_DSN, require_service

pytestmark = pytest.mark.postgres

SHARED_DB = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


@pytest.fixture
def bus_settings() -> BusSettings:
    require_service("postgresql")
    return BusSettings(backend="postgresql", channel=f"t{uuid.uuid4().hex[:12]}", retry_seconds=0.1)


def test_channel_names_fit_postgres_limit() -> None:
    """63 bytes at most: the longest prefix settings allow, a colon, a uuid."""
    longest = BusSettings(channel="x" * 24)
    assert len(PostgresBus(longest, SHARED_DB).channel(str(uuid.uuid4()))) <= 63
    with pytest.raises(ValidationError):
        BusSettings(channel="x" * 25)
    with pytest.raises(ValueError, match="PostgreSQL"):
        asyncpg_dsn("sqlite+aiosqlite:///x.db")


async def test_pg_bus_delivers_watched_matches_only(bus_settings: BusSettings) -> None:
    await bus_checks.check_only_watched_matches_arrive(lambda: PostgresBus(bus_settings, SHARED_DB))


async def terminate_listener(bus: RemoteBus) -> None:
    """Kill only this bus's LISTEN backend (the PostgreSQL server is shared)."""
    assert isinstance(bus, PostgresBus)
    pid = bus.listener_pid()
    assert pid is not None
    admin = await asyncpg.connect(POSTGRES_ADMIN_DSN)
    try:
        assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await admin.close()


async def test_pg_bus_reconnects_and_resyncs(bus_settings: BusSettings) -> None:
    await bus_checks.check_reconnects_and_resyncs(
        lambda: PostgresBus(bus_settings, SHARED_DB), terminate_listener
    )


@pytest.fixture
def two_workers(bus_settings: BusSettings) -> Iterator[tuple[LiveServer, LiveServer]]:
    with bus_checks.two_live_workers(bus_settings) as workers:
        yield workers


async def test_sockets_on_two_workers_see_every_version(
    two_workers: tuple[LiveServer, LiveServer],
) -> None:
    await bus_checks.check_sockets_on_two_workers_see_every_version(two_workers, [3, 3, 1])
