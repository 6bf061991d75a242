"""Helpers and checks shared by the tests of the shared per-IP limits (Redis and PostgreSQL
guards): each backend's test module runs every ``check_*`` on its own store."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable

import pytest
from prometheus_client import REGISTRY

from app.config import BusSettings
from app.matches import errors
from app.realtime.shared_limits import SharedGuard
from tests.support.client import Client
from tests.support.server import LiveServer
from tests.support.settings import make_settings

ADDRESS = "203.0.113.7"


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    """Poll ``condition`` (sync or async) until it is true; fail after ``timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = condition()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        assert loop.time() < deadline, "condition never held"
        await asyncio.sleep(0.05)


async def can_open(guard: SharedGuard, address: str = ADDRESS) -> bool:
    try:
        await guard.open_socket(address)
    except errors.TooManySockets:
        return False
    return True


async def actions_taken(guard: SharedGuard, count: int, address: str = ADDRESS) -> list[bool]:
    return [await guard.check_action(address) is None for _ in range(count)]


async def connected(url: str) -> Client:
    """A socket the worker has counted (it answers only after counting it)."""
    client = await Client.connect(url)
    await client.send({"type": "ping"})
    await client.expect("pong")
    return client


# -- checks every shared guard must pass (Redis and PostgreSQL run the same ones) --------

MakeGuard = Callable[..., Awaitable[SharedGuard]]
"""``make(start=True, **options)``: a guard (a worker) on the backend under test."""


async def check_two_workers_share_one_action_budget(make: MakeGuard) -> list[SharedGuard]:
    north, south = await make(), await make()
    assert await actions_taken(north, 2) == [True, True]
    assert await actions_taken(south, 1) == [True]
    refusal = await south.check_action(ADDRESS)
    assert isinstance(refusal, errors.AddressRateLimited)
    assert await north.check_action(ADDRESS) is not None
    return [north, south]


async def check_two_workers_share_one_join_budget(make: MakeGuard) -> None:
    north, south = await make(), await make()
    await north.check_join(ADDRESS)
    await south.check_join(ADDRESS)
    with pytest.raises(errors.JoinRateLimited):
        await north.check_join(ADDRESS)
    with pytest.raises(errors.JoinRateLimited):
        await south.check_join(ADDRESS)


async def check_each_address_has_its_own_budget(make: MakeGuard) -> None:
    north, south = await make(), await make()
    assert await actions_taken(north, 4) == [True, True, True, False]
    assert await actions_taken(south, 3, "198.51.100.1") == [True, True, True]


async def check_two_workers_share_one_socket_cap(make: MakeGuard) -> None:
    north, south = await make(), await make()
    assert [await can_open(north), await can_open(north), await can_open(south)] == [True] * 3
    assert not await can_open(south)
    assert not await can_open(north)


async def check_a_closed_socket_frees_its_place_on_every_worker(make: MakeGuard) -> None:
    north, south = await make(), await make()
    for guard in (north, north, south):
        await guard.open_socket(ADDRESS)
    await north.close_socket(ADDRESS)
    assert await can_open(south)
    assert (north.sockets(ADDRESS), south.sockets(ADDRESS)) == (1, 2)


async def check_a_killed_workers_sockets_stop_counting_after_its_lease(make: MakeGuard) -> None:
    killed = await make(start=False, lease_seconds=0.5)  # nobody renews its lease: kill -9
    survivor = await make(lease_seconds=0.5)
    for _ in range(3):
        await killed.open_socket(ADDRESS)
    assert not await can_open(survivor)
    await until(lambda: can_open(survivor))


async def check_a_live_workers_sockets_outlive_its_lease(make: MakeGuard) -> None:
    alive, other = await make(lease_seconds=1.0), await make(lease_seconds=1.0)
    for _ in range(3):
        await alive.open_socket(ADDRESS)
    await asyncio.sleep(3.0)  # three leases: only the renewals keep the counts
    assert not await can_open(other)


async def check_a_worker_that_shuts_down_withdraws_its_sockets(make: MakeGuard) -> None:
    leaving, staying = await make(), await make()
    for _ in range(3):
        await leaving.open_socket(ADDRESS)
    await leaving.close()
    assert await can_open(staying)


async def check_unreachable_store_keeps_local_action_limits(make: MakeGuard) -> None:
    guard = await make()
    assert await actions_taken(guard, 4) == [True, True, True, False]
    assert not guard.shared


async def check_unreachable_store_keeps_local_join_limits(make: MakeGuard) -> None:
    guard = await make()
    await guard.check_join(ADDRESS)
    await guard.check_join(ADDRESS)
    with pytest.raises(errors.JoinRateLimited):
        await guard.check_join(ADDRESS)


async def check_unreachable_store_keeps_a_local_socket_cap(make: MakeGuard) -> None:
    guard = await make()
    assert [await can_open(guard) for _ in range(4)] == [True, True, True, False]
    await guard.close_socket(ADDRESS)
    assert await can_open(guard)


async def check_fallback_is_counted_and_warned_about_once(
    make: MakeGuard, caplog: pytest.LogCaptureFixture
) -> str:
    """Against an unreachable store; returns the one warning."""

    def fallbacks() -> float:
        return REGISTRY.get_sample_value("skirmish_limits_fallback_total", {"check": "action"}) or 0

    before = fallbacks()
    with caplog.at_level(logging.WARNING, logger="app.realtime.shared_limits"):
        guard = await make(retry_seconds=0.05)
        await actions_taken(guard, 5)
        await asyncio.sleep(0.5)  # the probes keep failing meanwhile
    assert fallbacks() - before == 5
    warnings = [r.getMessage() for r in caplog.records if "unreachable" in r.getMessage()]
    assert len(warnings) == 1
    return warnings[0]


async def check_two_live_workers_cap_an_address_together(
    database_url: str, bus_backend: str
) -> None:
    bus = BusSettings(backend=bus_backend, channel=f"t{uuid.uuid4().hex[:12]}")
    settings = make_settings(database_url, bus=bus, max_sockets_per_ip=2)
    first, second = LiveServer(settings).start(), LiveServer(settings).start()
    clients: list[Client] = []
    try:
        clients.append(await connected(first.ws("any")))
        clients.append(await connected(second.ws("any")))
        clients.append(await Client.connect(first.ws("any")))  # only its 2nd on `first`
        assert (await clients[-1].expect("error"))["code"] == "too_many_sockets"
    finally:
        for client in clients:
            with contextlib.suppress(Exception):
                await client.close()
        first.stop()
        second.stop()
