"""The in-memory guard behind the async interface, and which guard a deployment gets.

``AddressGuard`` itself (buckets, socket counts) is tested in tests/reliability/test_limits.py;
these show the async ``MemoryGuard`` keeps its refusals and codes.
"""

from __future__ import annotations

import pytest

from app.config import BusSettings, LimitSettings
from app.matches import errors
from app.realtime.redis_limits import RedisGuard
from app.realtime.throttle import MemoryGuard, create_guard

LIMITS = LimitSettings(
    ip_rate_per_second=0.001,
    ip_rate_burst=2,
    join_rate_per_second=0.001,
    join_rate_burst=1,
    max_sockets_per_ip=1,
)


async def test_memory_guard_refuses_actions_past_the_address_budget() -> None:
    guard = MemoryGuard(LIMITS)
    answers = [await guard.check_action("10.0.0.1") for _ in range(3)]
    assert answers[:2] == [None, None]
    assert isinstance(answers[2], errors.AddressRateLimited)


async def test_memory_guard_refuses_joins_past_the_address_budget() -> None:
    guard = MemoryGuard(LIMITS)
    await guard.check_join("10.0.0.1")
    with pytest.raises(errors.JoinRateLimited):
        await guard.check_join("10.0.0.1")


async def test_memory_guard_caps_sockets_and_frees_closed_ones() -> None:
    guard = MemoryGuard(LIMITS)
    await guard.open_socket("10.0.0.1")
    with pytest.raises(errors.TooManySockets):
        await guard.open_socket("10.0.0.1")
    await guard.close_socket("10.0.0.1")
    await guard.open_socket("10.0.0.1")
    assert guard.sockets("10.0.0.1") == 1


def test_memory_bus_deployments_keep_limits_in_memory() -> None:
    assert isinstance(create_guard(LIMITS, BusSettings(backend="memory")), MemoryGuard)


def test_redis_bus_deployments_share_limits_in_redis() -> None:
    assert isinstance(create_guard(LIMITS, BusSettings(backend="redis")), RedisGuard)
