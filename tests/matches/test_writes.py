"""Write transactions: on SQLite one worker's writers take turns instead of busy-waiting."""

from __future__ import annotations

import asyncio

from app.db.session import create_engine, create_session_factory
from app.matches.writes import write_transaction, writer_lock


async def test_sqlite_write_transactions_of_one_worker_take_turns(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    sessions = create_session_factory(engine)
    order: list[str] = []

    async def write(name: str, hold: float) -> None:
        async with write_transaction(sessions):
            order.append(f"{name} begins")
            await asyncio.sleep(hold)
            order.append(f"{name} ends")

    try:
        await asyncio.gather(write("first", 0.05), write("second", 0.0))
    finally:
        await engine.dispose()
    assert order == ["first begins", "first ends", "second begins", "second ends"]


async def test_postgresql_writers_do_not_queue_in_the_worker() -> None:
    engine = create_engine("postgresql+asyncpg://nobody@127.0.0.1/none")
    try:
        assert writer_lock(create_session_factory(engine)) is None
    finally:
        await engine.dispose()
