"""Write transactions that survive a busy SQLite: retried whole, never shown as a 500.

Under load SQLite can refuse a write with "database is locked": a WAL snapshot that went
stale (the busy timeout does not apply to it), or a writer that waited out the busy
timeout behind another on a starved machine. Nothing was written then. The step write is
guarded (it lands only if the version is still the one read), and the other writes are
whole transactions run again from the start, so a retry is always safe.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.session import SessionFactory

SQLITE_LOCK_RETRIES = 5
T = TypeVar("T")
log = logging.getLogger(__name__)


def is_sqlite_lock(exc: OperationalError) -> bool:
    return "database is locked" in str(exc.orig) or "database is busy" in str(exc.orig)


async def write_retrying(
    sessions: SessionFactory, write: Callable[[AsyncSession], Awaitable[T]]
) -> T:
    """Run ``write`` in one transaction of a fresh session, again if SQLite was locked."""
    for attempt in range(SQLITE_LOCK_RETRIES + 1):
        try:
            async with sessions() as session, session.begin():
                return await write(session)
        except OperationalError as exc:
            if not is_sqlite_lock(exc) or attempt == SQLITE_LOCK_RETRIES:
                raise
            log.warning("SQLite was locked; writing again (attempt %d)", attempt + 2)
            await asyncio.sleep(0.005 * (attempt + 1))
    raise AssertionError("unreachable: the loop returns or raises")
