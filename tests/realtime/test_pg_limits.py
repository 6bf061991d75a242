"""Per-IP limits shared through PostgreSQL: two guards stand for two workers of one deployment.

The guards share one freshly migrated database, each test on its own key prefix; the
outage tests use a private cluster they can stop and start again.
"""

from __future__ import annotations

import asyncio
import functools
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import asyncpg
import pytest

from app.config import BusSettings, LimitSettings
from app.db.migrate import upgrade_head
from app.realtime.pg_bus import asyncpg_dsn
from app.realtime.pg_limits import PostgresGuard
from app.realtime.throttle import MemoryGuard, create_guard
from tests.realtime import guard_checks as checks
from tests.realtime.guard_checks import ADDRESS, actions_taken, can_open, until
from tests.reliability.processes import PostgresCluster, postgres_bin
from tests.support.services import postgres_database, require_service

pytestmark = pytest.mark.postgres

NOBODY_LISTENS = "postgresql+asyncpg://postgres@127.0.0.1:9/test"
LIMITS = LimitSettings(
    ip_rate_per_second=0.001,  # no refill within a test
    ip_rate_burst=3,
    join_rate_per_second=0.001,
    join_rate_burst=2,
    max_sockets_per_ip=3,
)

MakeGuard = Callable[..., Awaitable[PostgresGuard]]


@pytest.fixture(scope="module")
def shared_database() -> Iterator[str]:
    """One migrated database for the module; each test keeps to its own prefix."""
    with postgres_database() as url:
        upgrade_head(url)
        yield url


@pytest.fixture
def private_cluster() -> Iterator[PostgresCluster]:
    try:
        postgres_bin("pg_ctl")
    except FileNotFoundError:
        require_service("postgresql", False, "the PostgreSQL binaries (pg_ctl) are missing")
    cluster = PostgresCluster().init()
    cluster.start()
    upgrade_head(cluster.url)
    yield cluster
    cluster.remove()


@pytest.fixture
async def make_guard() -> AsyncIterator[MakeGuard]:
    """Guards (workers) on one fresh prefix; ``start`` runs the lease renewal."""
    prefix = f"t{uuid.uuid4().hex[:12]}:limits"
    guards: list[PostgresGuard] = []

    async def make(url: str, start: bool = True, **options: Any) -> PostgresGuard:
        guard = PostgresGuard(LIMITS, url, prefix, **options)
        guards.append(guard)
        if start:
            await guard.start()
        return guard

    yield make
    for guard in guards:
        await guard.close()


def on(url: str, make_guard: MakeGuard) -> checks.MakeGuard:
    """The shared checks' guard factory: workers on the database at ``url``."""
    return functools.partial(make_guard, url)


async def query(url: str, sql: str, *args: object) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(asyncpg_dsn(url))
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


def test_the_postgresql_bus_shares_the_limits_in_its_database() -> None:
    guard = create_guard(LIMITS, BusSettings(backend="postgresql"), NOBODY_LISTENS)
    assert isinstance(guard, PostgresGuard)


def test_without_a_database_url_the_postgresql_bus_keeps_local_limits() -> None:
    assert isinstance(create_guard(LIMITS, BusSettings(backend="postgresql")), MemoryGuard)


async def test_two_workers_share_one_action_budget(
    shared_database: str, make_guard: MakeGuard
) -> None:
    guards = await checks.check_two_workers_share_one_action_budget(on(shared_database, make_guard))
    assert all(guard.shared for guard in guards)


async def test_two_workers_share_one_join_budget(
    shared_database: str, make_guard: MakeGuard
) -> None:
    await checks.check_two_workers_share_one_join_budget(on(shared_database, make_guard))


async def test_each_address_has_its_own_budget(shared_database: str, make_guard: MakeGuard) -> None:
    await checks.check_each_address_has_its_own_budget(on(shared_database, make_guard))


async def test_concurrent_checks_never_spend_one_token_twice(
    shared_database: str, make_guard: MakeGuard
) -> None:
    guards = [await make_guard(shared_database) for _ in range(3)]
    answers = await asyncio.gather(*(g.check_action(ADDRESS) for g in guards * 4))
    assert sum(answer is None for answer in answers) == LIMITS.ip_rate_burst


async def test_a_bucket_refills_by_the_databases_clock(
    shared_database: str, make_guard: MakeGuard
) -> None:
    north = await make_guard(shared_database)
    assert await actions_taken(north, 4) == [True, True, True, False]
    key = f"{north._prefix}:action:{north.tag(ADDRESS)}"
    # As if the last take were 1000 s ago by the database's clock: 0.001/s gives 1 token.
    await query(
        shared_database,
        "UPDATE limit_buckets SET stamp = stamp - interval '1000 seconds' WHERE key = $1",
        key,
    )
    assert await actions_taken(north, 2) == [True, False]


async def test_idle_buckets_are_pruned(shared_database: str, make_guard: MakeGuard) -> None:
    north = await make_guard(shared_database, start=False, prune_seconds=0.0)
    await north.check_action(ADDRESS)
    key = f"{north._prefix}:action:{north.tag(ADDRESS)}"
    await query(
        shared_database,
        "UPDATE limit_buckets SET expires_at = statement_timestamp() - interval '1 second'"
        " WHERE key = $1",
        key,
    )
    await north._renew_lease()  # the lease task prunes
    assert await query(shared_database, "SELECT 1 FROM limit_buckets WHERE key = $1", key) == []


async def test_two_workers_share_one_socket_cap(
    shared_database: str, make_guard: MakeGuard
) -> None:
    await checks.check_two_workers_share_one_socket_cap(on(shared_database, make_guard))


async def test_concurrent_opens_never_pass_the_cap(
    shared_database: str, make_guard: MakeGuard
) -> None:
    guards = [await make_guard(shared_database) for _ in range(8)]
    for round_ in range(3):  # a race: several rounds on fresh addresses
        address = f"198.51.100.{round_}"
        opened = await asyncio.gather(*(can_open(g, address) for g in guards))
        assert sum(opened) == LIMITS.max_sockets_per_ip


async def test_a_closed_socket_frees_its_place_on_every_worker(
    shared_database: str, make_guard: MakeGuard
) -> None:
    await checks.check_a_closed_socket_frees_its_place_on_every_worker(
        on(shared_database, make_guard)
    )


async def test_a_killed_workers_sockets_stop_counting_after_its_lease(
    shared_database: str, make_guard: MakeGuard
) -> None:
    await checks.check_a_killed_workers_sockets_stop_counting_after_its_lease(
        on(shared_database, make_guard)
    )


async def test_a_live_workers_sockets_outlive_its_lease(
    shared_database: str, make_guard: MakeGuard
) -> None:
    await checks.check_a_live_workers_sockets_outlive_its_lease(on(shared_database, make_guard))


async def test_a_renewal_restores_counts_the_database_lost(
    shared_database: str, make_guard: MakeGuard
) -> None:
    north = await make_guard(shared_database, start=False)
    south = await make_guard(shared_database)
    for _ in range(3):
        await north.open_socket(ADDRESS)
    await query(shared_database, "DELETE FROM limit_workers WHERE worker = $1", north.worker)
    assert await can_open(south)  # the lost counts no longer hold south back...
    await south.close_socket(ADDRESS)
    await north._renew_lease()
    assert not await can_open(south)  # ...until north's renewal writes them again


async def test_a_worker_that_shuts_down_withdraws_its_sockets(
    shared_database: str, make_guard: MakeGuard
) -> None:
    await checks.check_a_worker_that_shuts_down_withdraws_its_sockets(
        on(shared_database, make_guard)
    )


async def test_unreachable_database_falls_back_to_local_action_limits(
    make_guard: MakeGuard,
) -> None:
    await checks.check_unreachable_store_keeps_local_action_limits(on(NOBODY_LISTENS, make_guard))


async def test_unreachable_database_falls_back_to_local_join_limits(
    make_guard: MakeGuard,
) -> None:
    await checks.check_unreachable_store_keeps_local_join_limits(on(NOBODY_LISTENS, make_guard))


async def test_unreachable_database_falls_back_to_local_socket_cap(
    make_guard: MakeGuard,
) -> None:
    await checks.check_unreachable_store_keeps_a_local_socket_cap(on(NOBODY_LISTENS, make_guard))


async def test_a_database_that_does_not_answer_is_waited_for_at_most_the_timeout(
    shared_database: str, make_guard: MakeGuard
) -> None:
    guard = await make_guard(shared_database, start=False, timeout_seconds=0.3)
    conn = await asyncpg.connect(asyncpg_dsn(shared_database))
    try:
        async with conn.transaction():  # holds the row lock a check needs
            await guard.check_action(ADDRESS)
            await conn.execute(
                "SELECT 1 FROM limit_buckets WHERE key = $1 FOR UPDATE",
                f"{guard._prefix}:action:{guard.tag(ADDRESS)}",
            )
            loop = asyncio.get_running_loop()
            started = loop.time()
            assert await guard.check_action(ADDRESS) is None  # answered by local limits
            assert loop.time() - started < 1.0
            assert not guard.shared
    finally:
        await conn.close()


async def test_fallback_is_counted_and_warned_about_once(
    make_guard: MakeGuard, caplog: pytest.LogCaptureFixture
) -> None:
    warning = await checks.check_fallback_is_counted_and_warned_about_once(
        on(NOBODY_LISTENS, make_guard), caplog
    )
    assert warning.startswith("PostgreSQL unreachable")


async def test_limits_are_shared_again_when_the_database_returns(
    private_cluster: PostgresCluster, make_guard: MakeGuard
) -> None:
    north = await make_guard(private_cluster.url, retry_seconds=0.1)
    south = await make_guard(private_cluster.url, retry_seconds=0.1)
    await until(lambda: north.shared and north._written and south._written)
    await asyncio.to_thread(private_cluster.stop)
    await north.check_action(ADDRESS)
    assert not north.shared
    await asyncio.to_thread(private_cluster.start)
    await until(lambda: north.shared)
    await until(lambda: south.shared)  # it may not have noticed the outage at all
    assert await actions_taken(north, 3) == [True, True, True]
    assert await actions_taken(south, 1) == [False]


async def test_sockets_opened_during_an_outage_count_when_the_database_returns(
    private_cluster: PostgresCluster, make_guard: MakeGuard
) -> None:
    north = await make_guard(private_cluster.url, retry_seconds=0.1)
    south = await make_guard(private_cluster.url, retry_seconds=0.1)
    await asyncio.to_thread(private_cluster.stop)
    for _ in range(3):
        await north.open_socket(ADDRESS)  # counted by north alone, the database is down
    assert not north.shared
    await asyncio.to_thread(private_cluster.start)
    await until(lambda: north.shared)
    await until(lambda: south.shared)  # it may not have noticed the outage at all
    assert not await can_open(south)


async def test_two_live_workers_on_a_postgresql_bus_cap_an_address_together(
    shared_database: str,
) -> None:
    await checks.check_two_live_workers_cap_an_address_together(shared_database, "postgresql")


async def test_the_database_never_holds_an_address(
    shared_database: str, make_guard: MakeGuard
) -> None:
    guard = await make_guard(shared_database, pepper="pepper")
    await guard.check_action(ADDRESS)
    await guard.check_join(ADDRESS)
    assert await can_open(guard)
    rows = await query(
        shared_database,
        "SELECT key AS text FROM limit_buckets WHERE key LIKE $1"
        " UNION ALL SELECT address FROM limit_sockets WHERE address LIKE $1",
        f"{guard._prefix}%",
    )
    texts = [r["text"] for r in rows]
    assert len(texts) == 3 and all(guard.tag(ADDRESS) in t for t in texts)
    assert not any(ADDRESS in t for t in texts)
