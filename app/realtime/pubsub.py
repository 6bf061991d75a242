"""The bus that tells every worker "match M is now at version v" — nothing more.

Workers re-read the truth from the database; a message only says where to look, so it
stays tiny (version, publish time, publisher id) whatever the game. Backends:

* ``MemoryBus``: in-process, for the single-worker embedded shape;
* ``RedisBus`` (redis_bus.py): Redis pub/sub;
* ``PostgresBus`` (pg_bus.py): PostgreSQL LISTEN/NOTIFY on the match database.

A worker ``watch``es only the matches it holds sockets of (one channel per match). The
two remote backends share ``RemoteBus``: a supervisor task that (re)connects, keeps the
subscriptions equal to the watched set, and after every (re)subscription tells the
listener ``RESYNC`` for that match, because messages sent while it was not subscribed
are gone; the hub then reads what it missed from the database. Versions skipped between
two messages are counted as gaps and filled the same way (the hub always reads every
step after the last one it sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Protocol

from app.config import BusSettings
from app.observability import metrics

Listener = Callable[[str, int], None]
"""Called with (match id, version); must not block (it schedules work, it does none)."""

RESYNC = -1
SEND_TIMEOUT = 1.0  # seconds a publish may take before it is queued for resending
"""The version passed to listeners when messages may have been lost: read the database."""

log = logging.getLogger(__name__)


class Bus(Protocol):
    async def start(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> None:
        """Raise unless the bus can carry messages now (readiness)."""
        ...

    def subscribe(self, listener: Listener) -> None: ...

    def watch(self, match_id: str) -> None:
        """This worker now holds sockets of ``match_id``: deliver its messages here."""
        ...

    def unwatch(self, match_id: str) -> None: ...

    async def publish(self, match_id: str, version: int) -> None:
        """Announce a committed version; call only after the commit. Never raises."""
        ...


class MemoryBus:
    """In-process fan-out: publishing calls every listener of this worker directly."""

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self._watched: set[str] = set()

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self._listeners.clear()

    async def ping(self) -> None:
        return None

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def watch(self, match_id: str) -> None:
        self._watched.add(match_id)
        metrics.MATCHES.set(len(self._watched))

    def unwatch(self, match_id: str) -> None:
        self._watched.discard(match_id)
        metrics.MATCHES.set(len(self._watched))

    async def publish(self, match_id: str, version: int) -> None:
        metrics.BUS_MESSAGES.labels("published").inc()
        for listener in list(self._listeners):
            listener(match_id, version)


def encode_message(version: int, origin: str) -> str:
    """``"<version> <unix time> <publisher>"``: the lag and echo checks need the last two."""
    return f"{version} {time.time():.6f} {origin}"


def decode_message(text: str) -> tuple[int, float, str]:
    version, published_at, origin = text.split(" ", 2)
    return int(version), float(published_at), origin


class RemoteBus(ABC):
    """What Redis and PostgreSQL backends share: watching, delivery, reconnection.

    ``publish`` delivers to this worker's listeners at once (no round trip for sockets
    held here) and sends the message for the others; a worker drops its own echoes. A
    message that could not be sent is kept (the newest per match) and sent again once
    the connection is back, so other workers learn of it even if their own connection
    never dropped.
    """

    def __init__(self, settings: BusSettings) -> None:
        self.prefix = settings.channel
        self._retry = settings.retry_seconds
        self._keepalive = settings.keepalive_seconds
        self._origin = uuid.uuid4().hex[:12]
        self._listeners: list[Listener] = []
        self._watched: set[str] = set()
        self._last: dict[str, int] = {}
        self._unsent: dict[str, int] = {}
        self._changed = asyncio.Event()
        self._connected = False
        self._outage_logged = False
        self._task: asyncio.Task[None] | None = None

    # -- the Bus interface -------------------------------------------------------------

    async def start(self) -> None:
        """Connect in the background: a worker starts (not ready) while the bus is down."""
        self._task = asyncio.create_task(self._supervise(), name=f"bus-{type(self).__name__}")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._dispose()
        self._listeners.clear()
        self._set_connected(False)

    async def ping(self) -> None:
        if not self._connected:
            raise ConnectionError("the bus is not connected")
        await asyncio.wait_for(self._ping(), timeout=2.0)

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def watch(self, match_id: str) -> None:
        self._watched.add(match_id)
        metrics.MATCHES.set(len(self._watched))
        self._changed.set()

    def unwatch(self, match_id: str) -> None:
        self._watched.discard(match_id)
        self._last.pop(match_id, None)
        metrics.MATCHES.set(len(self._watched))
        self._changed.set()

    async def publish(self, match_id: str, version: int) -> None:
        self._deliver(match_id, version)
        try:
            if not self._connected:  # fail fast: the ack must not wait for a dead bus
                raise ConnectionError("the bus is not connected")
            text = encode_message(version, self._origin)
            await asyncio.wait_for(self._send(self.channel(match_id), text), SEND_TIMEOUT)
        except Exception as exc:
            metrics.BUS_MESSAGES.labels("publish_failed").inc()
            self._warn_once("bus publish failed (%s); resending after reconnecting", exc)
            self._unsent[match_id] = max(version, self._unsent.get(match_id, version))
            self._changed.set()
        else:
            metrics.BUS_MESSAGES.labels("published").inc()

    def channel(self, match_id: str) -> str:
        return f"{self.prefix}:{match_id}"

    # -- for the backends --------------------------------------------------------------

    def _received(self, channel: str, text: str) -> None:
        """A message on ``channel`` from any worker (the backends' read loops call this)."""
        match_id = channel.removeprefix(f"{self.prefix}:")
        try:
            version, published_at, origin = decode_message(text)
        except ValueError:
            log.warning("malformed bus message on %s", channel)
            return
        if origin == self._origin:
            return  # delivered locally when published
        metrics.observe_bus_message(published_at)
        self._deliver(match_id, version)

    def _resync(self, match_id: str) -> None:
        """Subscribed (again) to ``match_id``: whatever was sent before is lost to us."""
        if match_id in self._watched:
            self._call(match_id, RESYNC)

    # -- internals ---------------------------------------------------------------------

    def _deliver(self, match_id: str, version: int) -> None:
        last = self._last.get(match_id)
        if last is not None and version > last + 1:
            metrics.BUS_GAPS.inc()
            log.info("bus gap: versions %d..%d not announced", last + 1, version - 1)
        if match_id in self._watched and (last is None or version > last):
            self._last[match_id] = version
        self._call(match_id, version)

    def _call(self, match_id: str, version: int) -> None:
        for listener in list(self._listeners):
            try:
                listener(match_id, version)
            except Exception:
                log.exception("bus listener failed")

    async def _supervise(self) -> None:
        """Connect, follow the watched set, reconnect after any failure, forever."""
        first = True
        while True:
            if not first:
                metrics.BUS_RECONNECTS.inc()
                await asyncio.sleep(self._retry)
            first = False
            try:
                await self._session()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._warn_once("bus connection lost (%s); reconnecting", exc)
            finally:
                self._set_connected(False)
                with contextlib.suppress(Exception):
                    await self._disconnect()

    async def _follow(self, subscribed: set[str]) -> None:
        """Bring ``subscribed`` to the watched set, and resend what failed to send."""
        self._changed.clear()
        wanted = set(self._watched)
        if added := wanted - subscribed:
            await self._subscribe(sorted(added))
            subscribed |= added
        if removed := subscribed - wanted:
            await self._unsubscribe(sorted(removed))
            subscribed -= removed
        while self._unsent:
            match_id, version = self._unsent.popitem()
            try:
                await self._send(self.channel(match_id), encode_message(version, self._origin))
            except Exception:
                self._unsent.setdefault(match_id, version)
                raise
            metrics.BUS_MESSAGES.labels("republished").inc()

    def _warn_once(self, message: str, exc: BaseException) -> None:
        """Warn once per outage (retries run every ``retry_seconds``); the rest is debug."""
        level = logging.DEBUG if self._outage_logged else logging.WARNING
        self._outage_logged = True
        log.log(level, message, f"{type(exc).__name__}: {exc}")

    def _set_connected(self, connected: bool) -> None:
        if connected and not self._connected and self._outage_logged:
            log.warning("bus connection restored")
            self._outage_logged = False
        self._connected = connected
        metrics.BUS_CONNECTED.set(1 if connected else 0)

    @abstractmethod
    async def _session(self) -> None:
        """Connect, then follow the watched set and read messages until the link fails."""

    @abstractmethod
    async def _subscribe(self, match_ids: list[str]) -> None: ...

    @abstractmethod
    async def _unsubscribe(self, match_ids: list[str]) -> None: ...

    @abstractmethod
    async def _send(self, channel: str, text: str) -> None: ...

    @abstractmethod
    async def _ping(self) -> None: ...

    @abstractmethod
    async def _disconnect(self) -> None:
        """Drop the subscription connection (after a failure, or on close)."""

    @abstractmethod
    async def _dispose(self) -> None:
        """Release everything (close)."""


def create_bus(settings: BusSettings, database_url: str) -> Bus:
    """The configured backend; PostgreSQL's uses the match database itself."""
    if settings.backend == "redis":
        from app.realtime.redis_bus import RedisBus

        return RedisBus(settings)
    if settings.backend == "postgresql":
        from app.realtime.pg_bus import PostgresBus

        return PostgresBus(settings, database_url)
    return MemoryBus()
