"""Workers started together may all migrate: on PostgreSQL they take turns (advisory lock)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import inspect
from sqlalchemy.ext.asyncio import create_async_engine

from app.cli import migrate
from tests.support.services import postgres_database, run_blocking

pytestmark = pytest.mark.postgres


async def table_names(url: str) -> set[str]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return set(await conn.run_sync(lambda sync: inspect(sync).get_table_names()))
    finally:
        await engine.dispose()


def test_concurrent_migrations_on_postgres_take_turns() -> None:
    with postgres_database() as url:
        with ThreadPoolExecutor(3) as pool:
            for done in [pool.submit(migrate, url) for _ in range(3)]:
                done.result(timeout=60)  # none failed on a half-created schema
        tables = run_blocking(lambda: table_names(url))
    assert {"matches", "seats", "actions", "alembic_version"} <= tables
