"""Rate limits: a token bucket per socket, and per client IP across every socket and request.

One client must not be able to starve the others, whether it opens one socket and floods
it, or opens many sockets (or REST calls) from one address. The proxy must pass the client
address (``--proxy-headers``), or every client looks like the proxy and shares one budget.

Where the per-IP state lives depends on the deployment (``create_guard``):

- one worker (the memory bus, the embedded default): this worker's memory, ``AddressGuard``
  behind the async ``Guard`` interface (``MemoryGuard``);
- several workers with a Redis bus: Redis, so the budget is the cluster's and not N times
  it (``app/realtime/redis_limits.py``, built on ``shared_limits.py``, which falls back to
  this module's in-memory limits while Redis is unreachable);
- several workers with the PostgreSQL bus: that database, the same way
  (``app/realtime/pg_limits.py``, with the same fallback).

The ``Guard`` interface is async because the shared ones ask Redis or PostgreSQL; the
in-memory classes stay synchronous, so the socket's own bucket costs no await.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Protocol

from app.config import BusSettings, LimitSettings
from app.matches import errors

Clock = Callable[[], float]
MAX_TRACKED_ADDRESSES = 10_000


class TokenBucket:
    """``rate`` takes a second on average, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._tokens = float(burst)
        self._clock = clock
        self._stamp = clock()

    def take(self) -> bool:
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def full(self) -> bool:
        """True when the bucket has refilled: forgetting it then loses nothing."""
        elapsed = self._clock() - self._stamp
        return self._tokens + elapsed * self._rate >= self._burst


class AddressBuckets:
    """One token bucket per client address, forgetting full ones when there are many."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self._rate, self._burst, self._clock = rate, burst, clock
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= MAX_TRACKED_ADDRESSES:
                self._forget_full()
            bucket = self._buckets[address] = TokenBucket(self._rate, self._burst, self._clock)
        return bucket.take()

    def _forget_full(self) -> None:
        for address in [a for a, b in self._buckets.items() if b.full()]:
            del self._buckets[address]


class AddressGuard:
    """Per-IP limits of this worker: actions, joins, open sockets.

    Each check raises the refusal's own error, so every client learns exactly which
    limit it hit (docs/protocol.md).
    """

    def __init__(self, limits: LimitSettings, clock: Clock = time.monotonic) -> None:
        self._limits = limits
        self._actions = AddressBuckets(limits.ip_rate_per_second, limits.ip_rate_burst, clock)
        self._joins = AddressBuckets(limits.join_rate_per_second, limits.join_rate_burst, clock)
        self._sockets: Counter[str] = Counter()

    def check_action(self, address: str) -> errors.MatchError | None:
        """The refusal for one more action from ``address`` now, or None (a token is taken)."""
        return None if self._actions.take(address) else errors.AddressRateLimited()

    def check_join(self, address: str) -> None:
        """Raise ``join_rate_limited`` when ``address`` joins (hello, claim, create) too fast."""
        if not self._joins.take(address):
            raise errors.JoinRateLimited()

    def open_socket(self, address: str) -> None:
        """Count a socket of ``address``; raise ``too_many_sockets`` past the cap."""
        if self._sockets[address] >= self._limits.max_sockets_per_ip:
            raise errors.TooManySockets()
        self._sockets[address] += 1

    def close_socket(self, address: str) -> None:
        self._sockets[address] -= 1
        if self._sockets[address] <= 0:
            del self._sockets[address]

    def sockets(self, address: str) -> int:
        return self._sockets[address]


class Guard(Protocol):
    """Per-IP limits as the hub, the WebSocket endpoint and the REST joins use them.

    The refusals are the same whatever the backend: ``check_action`` returns
    ``address_rate_limited`` (the service decides where it ranks among the other guards,
    DESIGN.md §7); the others raise ``join_rate_limited`` or ``too_many_sockets``.
    """

    async def check_action(self, address: str) -> errors.MatchError | None: ...

    async def check_join(self, address: str) -> None: ...

    async def open_socket(self, address: str) -> None: ...

    async def close_socket(self, address: str) -> None: ...

    async def start(self) -> None:
        """Begin any background work (the lifespan calls it once)."""

    async def close(self) -> None:
        """Stop it and let go of what this worker holds."""


class MemoryGuard:
    """This worker's ``AddressGuard`` behind the async ``Guard`` interface: one worker."""

    def __init__(self, limits: LimitSettings, clock: Clock = time.monotonic) -> None:
        self.local = AddressGuard(limits, clock)

    async def check_action(self, address: str) -> errors.MatchError | None:
        return self.local.check_action(address)

    async def check_join(self, address: str) -> None:
        self.local.check_join(address)

    async def open_socket(self, address: str) -> None:
        self.local.open_socket(address)

    async def close_socket(self, address: str) -> None:
        self.local.close_socket(address)

    def sockets(self, address: str) -> int:
        return self.local.sockets(address)

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None


def create_guard(
    limits: LimitSettings, bus: BusSettings, database_url: str | None = None, pepper: str = ""
) -> Guard:
    """Limits shared where the workers already share a bus, else this worker's.

    A Redis bus shares them in that Redis, the PostgreSQL bus in the database at
    ``database_url`` (the bus's own; without it they stay this worker's). ``pepper`` keys
    the addresses' hashes there (shared_limits.py).
    """
    if bus.backend == "redis":
        from app.realtime.redis_limits import RedisGuard

        return RedisGuard(limits, bus.url, f"{bus.channel}:limits", pepper=pepper)
    if bus.backend == "postgresql" and database_url is not None:
        from app.realtime.pg_limits import PostgresGuard

        return PostgresGuard(limits, database_url, f"{bus.channel}:limits", pepper=pepper)
    return MemoryGuard(limits)
