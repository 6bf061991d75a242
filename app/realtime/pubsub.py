"""The bus that tells every worker "match M is now at version v" — nothing more.

Workers re-read the truth from the database; the message only says where to look.
``MemoryBus`` serves a single worker; ``RedisBus`` (redis_bus.py) serves several. A
PostgreSQL LISTEN/NOTIFY backend would implement the same four methods.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from app.config import BusSettings

Listener = Callable[[str, int], None]
"""Called with (match id, version); must not block (it schedules work, it does none)."""


class Bus(Protocol):
    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> None:
        """Raise unless the bus can carry messages now (readiness)."""
        ...

    def subscribe(self, listener: Listener) -> None: ...

    async def publish(self, match_id: str, version: int) -> None:
        """Announce a committed version; call only after the commit."""
        ...


class MemoryBus:
    """In-process fan-out: publishing calls every listener of this worker directly."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self._listeners.clear()

    async def ping(self) -> None:
        return None

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def publish(self, match_id: str, version: int) -> None:
        for listener in list(self._listeners):
            listener(match_id, version)


def create_bus(settings: BusSettings) -> Bus:
    if settings.backend == "redis":
        from app.realtime.redis_bus import RedisBus

        return RedisBus(settings.url, settings.channel)
    return MemoryBus()
