"""Write transactions that survive a busy SQLite: retried whole, never shown as a 500.

SQLite has one writer at a time, and a connection that finds the write lock taken sleeps
in SQLite's busy handler (1, 2, 5, 10, 15, 20, 25 ms ...) however soon the lock is free:
that was the tail of the commit stage (p95 8 ms, p99 ~24 ms at 100 actions/s,
docs/benchmarks.md). So this worker's write transactions on SQLite take turns on an
asyncio lock first, and the next one starts the moment the last one committed. The busy
timeout stays as the fallback for writers in other processes.

Under load SQLite can refuse a write with "database is locked": a WAL snapshot that went
stale (the busy timeout does not apply to it), or a writer that waited out the busy
timeout behind another on a starved machine. Nothing was written then. The step write is
guarded (it lands only if the version is still the one read), and the other writes are
whole transactions run again from the start, so a retry is always safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import SessionFactory

SQLITE_LOCK_RETRIES = 5
T = TypeVar("T")
log = logging.getLogger(__name__)


_WRITERS: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, weakref.WeakKeyDictionary[SessionFactory, asyncio.Lock]
] = weakref.WeakKeyDictionary()


def writer_lock(sessions: SessionFactory) -> asyncio.Lock | None:
    """The turn-taking lock of this event loop's writers to a SQLite database, else None."""
    bind = getattr(sessions, "kw", {}).get("bind")
    if bind is None or bind.dialect.name != "sqlite":
        return None
    locks = _WRITERS.setdefault(asyncio.get_running_loop(), weakref.WeakKeyDictionary())
    lock = locks.get(sessions)
    if lock is None:
        lock = locks[sessions] = asyncio.Lock()
    return lock


@contextlib.asynccontextmanager
async def write_transaction(sessions: SessionFactory) -> AsyncIterator[AsyncSession]:
    """A session inside one write transaction, after this worker's earlier SQLite writes."""
    turn = writer_lock(sessions) or contextlib.nullcontext()
    async with turn, sessions() as session, session.begin():
        yield session


def is_sqlite_lock(exc: OperationalError) -> bool:
    return "database is locked" in str(exc.orig) or "database is busy" in str(exc.orig)


async def write_retrying(
    sessions: SessionFactory, write: Callable[[AsyncSession], Awaitable[T]]
) -> T:
    """Run ``write`` in one transaction of a fresh session, again if SQLite was locked."""
    for attempt in range(SQLITE_LOCK_RETRIES + 1):
        try:
            async with write_transaction(sessions) as session:
                return await write(session)
        except OperationalError as exc:
            if not is_sqlite_lock(exc) or attempt == SQLITE_LOCK_RETRIES:
                raise
            log.warning("SQLite was locked; writing again (attempt %d)", attempt + 2)
            await asyncio.sleep(0.005 * (attempt + 1))
    raise AssertionError("unreachable: the loop returns or raises")
