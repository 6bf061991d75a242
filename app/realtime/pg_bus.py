"""PostgreSQL LISTEN/NOTIFY backend of the bus, on the match database (asyncpg).

One dedicated connection LISTENs on one channel per watched match (``<prefix>:<match
id>``; BusSettings caps the prefix to fit PostgreSQL's 63 bytes); publishing goes through
a small pool, because an asyncpg connection runs one command at a time. Payloads are the tiny bus
message (PostgreSQL caps them at 8000 bytes; we never send state). When the listening
connection terminates, or fails its keepalive query, the supervisor reconnects and every
match is resynced once its LISTEN is back.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import asyncpg

from app.config import BusSettings
from app.realtime.pubsub import RemoteBus


def asyncpg_dsn(database_url: str) -> str:
    """``postgresql+asyncpg://…`` (SQLAlchemy) → ``postgresql://…`` (asyncpg)."""
    scheme, sep, rest = database_url.partition("://")
    if not sep or not scheme.startswith("postgresql"):
        raise ValueError("the postgresql bus needs a PostgreSQL SKIRMISH_DATABASE__URL")
    return f"postgresql://{rest}"


class PostgresBus(RemoteBus):
    def __init__(self, settings: BusSettings, database_url: str) -> None:
        super().__init__(settings)
        self._dsn = asyncpg_dsn(database_url)
        self._conn: Any = None
        self._pool: Any = None
        self._lost = asyncio.Event()

    async def _session(self) -> None:
        self._lost = lost = asyncio.Event()  # per connection: an old one's end comes late
        self._conn = await asyncpg.connect(self._dsn, timeout=5)
        self._conn.add_termination_listener(lambda _conn: lost.set())
        subscribed: set[str] = set()
        self._set_connected(True)
        await self._follow(subscribed)  # (re)subscribe everything watched
        while True:
            if self._changed.is_set() or self._unsent:
                await self._follow(subscribed)
            if self._lost.is_set():
                raise ConnectionError("the LISTEN connection was terminated")
            if not await self._wait_for_change(self._keepalive):
                await asyncio.wait_for(self._conn.execute("SELECT 1"), self._keepalive)

    def listener_pid(self) -> int | None:
        """The server process of the LISTEN connection (pg_stat_activity), if connected."""
        return None if self._conn is None else int(self._conn.get_server_pid())

    async def _wait_for_change(self, timeout: float) -> bool:
        """Until the watched set changes (True), the connection dies, or ``timeout``."""
        changed = asyncio.ensure_future(self._changed.wait())
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            done, _ = await asyncio.wait(
                {changed, lost}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            changed.cancel()
            lost.cancel()
        return bool(done)

    def _notified(self, _conn: Any, _pid: int, channel: str, payload: str) -> None:
        self._received(channel, payload)

    async def _subscribe(self, match_ids: list[str]) -> None:
        for match_id in match_ids:
            await self._conn.add_listener(self.channel(match_id), self._notified)
            self._resync(match_id)  # LISTEN has returned: later NOTIFYs reach us

    async def _unsubscribe(self, match_ids: list[str]) -> None:
        for match_id in match_ids:
            await self._conn.remove_listener(self.channel(match_id), self._notified)

    async def _send(self, channel: str, text: str) -> None:
        await (await self._publisher()).execute("SELECT pg_notify($1, $2)", channel, text)

    async def _ping(self) -> None:
        await (await self._publisher()).execute("SELECT 1")

    async def _publisher(self) -> Any:
        """The publishing pool, made on first use (it connects lazily: min_size 0)."""
        if self._pool is None:
            pool = await asyncpg.create_pool(
                self._dsn, min_size=0, max_size=4, timeout=5, command_timeout=5
            )
            if self._pool is None:
                self._pool = pool
            else:  # another caller made one meanwhile
                await pool.close()
        return self._pool

    async def _disconnect(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), 2)
            if not conn.is_closed():
                conn.terminate()

    async def _dispose(self) -> None:
        await self._disconnect()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pool.close(), 2)
            pool.terminate()
