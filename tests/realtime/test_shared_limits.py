"""Per-IP limits shared through Redis: two guards stand for two workers of one deployment.

Each test has its own key prefix on the shared Redis; the outage tests use a private
``redis-server`` they can stop and start again.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import LimitSettings
from app.realtime.redis_limits import RedisGuard
from tests.realtime import guard_checks as checks
from tests.realtime.guard_checks import ADDRESS, actions_taken, can_open, until
from tests.reliability.processes import RedisServer
from tests.support.services import require_service

pytestmark = pytest.mark.redis

SHARED_REDIS = "redis://127.0.0.1:6379/0"
NOBODY_LISTENS = "redis://127.0.0.1:9/0"
LIMITS = LimitSettings(
    ip_rate_per_second=0.001,  # no refill within a test
    ip_rate_burst=3,
    join_rate_per_second=0.001,
    join_rate_burst=2,
    max_sockets_per_ip=3,
)

MakeGuard = Callable[..., Awaitable[RedisGuard]]


@pytest.fixture
async def make_guard() -> AsyncIterator[MakeGuard]:
    """Guards (workers) on one fresh prefix; ``start`` runs the lease renewal."""
    prefix = f"t{uuid.uuid4().hex[:12]}:limits"
    guards: list[RedisGuard] = []

    async def make(url: str = SHARED_REDIS, start: bool = True, **options: Any) -> RedisGuard:
        guard = RedisGuard(LIMITS, url, prefix, **options)
        guards.append(guard)
        if start:
            await guard.start()
        return guard

    yield make
    for guard in guards:
        await guard.close()


def unreachable(make_guard: MakeGuard) -> MakeGuard:
    return functools.partial(make_guard, NOBODY_LISTENS)


@pytest.fixture
def shared_redis() -> None:
    require_service("redis")


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[RedisServer]:
    require_service("redis")  # the binary comes with the service (DESIGN.md §8)
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


async def test_two_workers_share_one_action_budget(
    shared_redis: None, make_guard: MakeGuard
) -> None:
    await checks.check_two_workers_share_one_action_budget(make_guard)


async def test_two_workers_share_one_join_budget(shared_redis: None, make_guard: MakeGuard) -> None:
    await checks.check_two_workers_share_one_join_budget(make_guard)


async def test_each_address_has_its_own_budget(shared_redis: None, make_guard: MakeGuard) -> None:
    await checks.check_each_address_has_its_own_budget(make_guard)


async def test_two_workers_share_one_socket_cap(shared_redis: None, make_guard: MakeGuard) -> None:
    await checks.check_two_workers_share_one_socket_cap(make_guard)


async def test_a_closed_socket_frees_its_place_on_every_worker(
    shared_redis: None, make_guard: MakeGuard
) -> None:
    await checks.check_a_closed_socket_frees_its_place_on_every_worker(make_guard)


async def test_a_killed_workers_sockets_stop_counting_after_its_lease(
    shared_redis: None, make_guard: MakeGuard
) -> None:
    await checks.check_a_killed_workers_sockets_stop_counting_after_its_lease(make_guard)


async def test_a_live_workers_sockets_outlive_its_lease(
    shared_redis: None, make_guard: MakeGuard
) -> None:
    await checks.check_a_live_workers_sockets_outlive_its_lease(make_guard)


async def test_a_worker_that_shuts_down_withdraws_its_sockets(
    shared_redis: None, make_guard: MakeGuard
) -> None:
    await checks.check_a_worker_that_shuts_down_withdraws_its_sockets(make_guard)


async def test_unreachable_redis_falls_back_to_local_action_limits(make_guard: MakeGuard) -> None:
    await checks.check_unreachable_store_keeps_local_action_limits(unreachable(make_guard))


async def test_unreachable_redis_falls_back_to_local_join_limits(make_guard: MakeGuard) -> None:
    await checks.check_unreachable_store_keeps_local_join_limits(unreachable(make_guard))


async def test_unreachable_redis_falls_back_to_local_socket_cap(make_guard: MakeGuard) -> None:
    await checks.check_unreachable_store_keeps_a_local_socket_cap(unreachable(make_guard))


async def test_fallback_is_counted_and_warned_about_once(
    make_guard: MakeGuard, caplog: pytest.LogCaptureFixture
) -> None:
    warning = await checks.check_fallback_is_counted_and_warned_about_once(
        unreachable(make_guard), caplog
    )
    assert warning.startswith("Redis unreachable")


async def test_limits_are_shared_again_when_redis_returns(
    private_redis: RedisServer, make_guard: MakeGuard
) -> None:
    north = await make_guard(private_redis.url, retry_seconds=0.1)
    south = await make_guard(private_redis.url, retry_seconds=0.1)
    private_redis.stop()
    await north.check_action(ADDRESS)
    assert not north.shared
    private_redis.start()
    await until(lambda: north.shared)
    await until(lambda: south.shared)  # it may not have noticed the outage at all
    assert await actions_taken(north, 3) == [True, True, True]
    assert await actions_taken(south, 1) == [False]


async def test_sockets_opened_during_an_outage_count_when_redis_returns(
    private_redis: RedisServer, make_guard: MakeGuard
) -> None:
    north = await make_guard(private_redis.url, retry_seconds=0.1)
    south = await make_guard(private_redis.url, retry_seconds=0.1)
    private_redis.stop()
    for _ in range(3):
        await north.open_socket(ADDRESS)  # counted by north alone, Redis is down
    private_redis.start()
    await until(lambda: north.shared)
    assert not await can_open(south)


async def test_two_live_workers_on_a_redis_bus_cap_an_address_together(
    shared_redis: None, sqlite_url: str
) -> None:
    await checks.check_two_live_workers_cap_an_address_together(sqlite_url, "redis")


async def test_redis_never_holds_an_address(shared_redis: None, make_guard: MakeGuard) -> None:
    guard = await make_guard(pepper="pepper")
    await guard.check_action(ADDRESS)
    await guard.check_join(ADDRESS)
    assert await can_open(guard)
    client = guard._client
    keys = [k.decode() async for k in client.scan_iter(match=f"{guard._prefix}*")]
    fields = [
        f.decode() for k in keys if await client.type(k) == b"hash" for f in await client.hkeys(k)
    ]
    assert any(guard.tag(ADDRESS) in text for text in keys + fields)
    assert not any(ADDRESS in text for text in keys + fields)


def test_an_address_tag_depends_on_the_pepper() -> None:
    one, other = (RedisGuard(LIMITS, SHARED_REDIS, "p", pepper=p) for p in ("a", "b"))
    assert one.tag(ADDRESS) != other.tag(ADDRESS) and one.tag(ADDRESS) == one.tag(ADDRESS)
    assert one.tag(ADDRESS) != one.tag("203.0.113.8")
