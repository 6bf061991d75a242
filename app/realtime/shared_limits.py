"""Per-IP limits shared by every worker through Redis (``SKIRMISH_BUS__BACKEND=redis``).

``SharedGuard`` is what every shared backend has in common: this worker's socket counts
(the truth), the lease task, the bounded calls and the fallback to local limits. Redis
(here) and PostgreSQL (``app/realtime/pg_limits.py``) supply only the calls themselves.

Why: ``AddressGuard`` counts in one worker's memory, so behind N workers an address got N
times its budget. Here every worker asks the Redis it already uses for the bus, so an
address has one budget across the cluster, with the same refusals and error codes.

**Token buckets** (actions, joins). One hash per limit and address,
``<prefix>:bucket:<action|join>:<address>``, holds the tokens left and when they were
counted. A Lua script refills by the time elapsed, takes a token if there is one and writes
back, atomically: two workers can never spend the same token. Time is Redis's own clock
(``TIME``), so the workers' clocks never need to agree. The key expires once the bucket
would have refilled (burst / rate, plus a second); a missing key *is* a full bucket, so an
idle address costs nothing and forgetting it loses nothing.

**Open sockets.** One shared counter per address would leak: a worker killed with -9 never
decrements it. So each worker owns a hash ``<prefix>:sockets:<worker id>`` (address -> its
sockets on that worker) that lives for a *lease* (``LEASE_SECONDS``), and the registry
``<prefix>:workers`` (a sorted set: worker id -> end of its lease, in Redis time). A
background task renews both every third of a lease. Opening a socket is one script: drop
the workers whose lease ended, sum the address's field over the hashes of the others, and
count the socket in this worker's hash only when the sum is under the cap. A killed
worker's hash expires with its lease, so its sockets stop counting at most one lease after
it died; a live worker's never expire.

This worker's own counts (the sockets it holds) are the truth. Each renewal rewrites its
whole hash from them, so whatever Redis missed heals within a third of a lease: a Redis
restart or flush, writes that failed while Redis was unreachable, a lease that lapsed
because the worker stalled. Opens, closes and renewals of one worker take turns (a lock),
so a renewal never races a count it should include.

**Redis unreachable.** Every call is bounded by ``CALL_TIMEOUT_SECONDS``. When one fails,
the guard answers from this worker's in-memory limits (an ``AddressGuard``: the old
per-worker budget, weaker but never an outage or an unthrottled server), warns at most once
a minute, and counts each such answer in ``skirmish_limits_fallback_total``. Until Redis
answers again no call waits for it: the renewal task probes it every ``RETRY_SECONDS`` and
switches back on the first answer, after rewriting this worker's sockets. Sockets are
counted locally all along, so that rewrite is exact.

Scripts run by EVALSHA (redis-py's ``register_script`` loads them again after a Redis
restart). The socket script reads the other workers' hashes by names it builds itself:
fine on one Redis (with replicas), not on Redis Cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis.asyncio as redis
from prometheus_client import Counter as MetricCounter
from prometheus_client import Gauge
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from app.config import LimitSettings
from app.matches import errors
from app.realtime.throttle import AddressGuard

T = TypeVar("T")
log = logging.getLogger(__name__)

LEASE_SECONDS = 6.0
"""How long a worker's socket counts outlive its last renewal (its death, after kill -9)."""
CALL_TIMEOUT_SECONDS = 0.5
"""The longest an action, join or socket waits for the shared store before local limits answer."""
RETRY_SECONDS = 1.0
"""How often an unreachable store is probed."""
WARN_EVERY_SECONDS = 60.0
"""At most one warning per interval while the store stays unreachable."""

FALLBACKS = MetricCounter(
    "skirmish_limits_fallback_total",
    "Per-IP checks answered by this worker's memory because the shared store was unreachable",
    ["check"],
)
SHARED = Gauge(
    "skirmish_limits_shared", "1 while the per-IP limits are counted in Redis or PostgreSQL"
)

TAKE_TOKEN = """
local rate, burst, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local kept = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens, stamp = tonumber(kept[1]), tonumber(kept[2])
if tokens == nil or stamp == nil then tokens, stamp = burst, now end
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local taken = 0
if tokens >= 1 then tokens, taken = tokens - 1, 1 end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens),
           'stamp', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], ttl)
return taken
"""

OPEN_SOCKET = """
local worker, address, cap, lease = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local total = tonumber(redis.call('HGET', KEYS[2], address)) or 0
for _, other in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if other ~= worker then
    total = total + (tonumber(redis.call('HGET', ARGV[5] .. other, address)) or 0)
  end
end
if total >= cap then return 0 end
redis.call('HINCRBY', KEYS[2], address, 1)
redis.call('PEXPIRE', KEYS[2], lease)
redis.call('ZADD', KEYS[1], now + lease, worker)
redis.call('PEXPIRE', KEYS[1], lease)
return 1
"""

CLOSE_SOCKET = """
local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return left
"""

RENEW_LEASE = """
local worker, lease = ARGV[1], tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('DEL', KEYS[2])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[2], lease)
redis.call('ZADD', KEYS[1], now + lease, worker)
redis.call('PEXPIRE', KEYS[1], lease)
return 1
"""


def refill_ms(rate: float, burst: int) -> int:
    """How long an untouched bucket takes to be full again: its key's TTL."""
    seconds = burst / rate if rate > 0 else 86_400.0
    return math.ceil(min(seconds, 86_400.0) * 1000) + 1000


class SharedGuard:
    """A ``Guard`` whose per-IP budget is the whole cluster's, kept in a shared store.

    Subclasses say how to talk to the store (``_take_token``, ``_open_shared``,
    ``_close_shared``, ``_renew_shared``, ``_withdraw_shared``, ``_dispose``) and which
    exceptions mean "unreachable" (``failures``). Everything else is here: this worker's
    socket counts, the order of opens, closes and renewals, the lease task, the bound on
    every call and the fallback to this worker's ``AddressGuard``.
    """

    store = "the shared store"
    """Named in the warnings."""
    failures: tuple[type[BaseException], ...] = (OSError, TimeoutError)

    def __init__(
        self,
        limits: LimitSettings,
        *,
        lease_seconds: float = LEASE_SECONDS,
        timeout_seconds: float = CALL_TIMEOUT_SECONDS,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        self._limits = limits
        self._lease_ms = max(1, round(lease_seconds * 1000))
        self._timeout = timeout_seconds
        self._retry = retry_seconds
        self.worker = uuid.uuid4().hex[:16]
        self.local = AddressGuard(limits)  # answers while the store is unreachable
        self._sockets: Counter[str] = Counter()  # this worker's open sockets: the truth
        self._turns = asyncio.Lock()  # opens, closes and renewals of this worker
        self._snapshots = 0  # renewals that read this worker's counts, so far
        self._written = 0  # the latest of them that reached the store
        self._up = True
        self._warned_at = -math.inf
        self._task: asyncio.Task[None] | None = None
        SHARED.set(1)

    # What a store provides.

    async def _take_token(self, kind: str, address: str, rate: float, burst: int) -> bool:
        """Take a token of ``address``'s ``kind`` bucket if there is one, atomically."""
        raise NotImplementedError

    async def _open_shared(self, address: str, cap: int) -> bool:
        """Count a socket on this worker if the live workers hold fewer than ``cap``."""
        raise NotImplementedError

    async def _close_shared(self, address: str) -> bool:
        """Uncount a socket of this worker (True once done)."""
        raise NotImplementedError

    async def _renew_shared(self, counts: dict[str, int]) -> bool:
        """Extend this worker's lease and make its stored counts exactly ``counts``."""
        raise NotImplementedError

    async def _withdraw_shared(self) -> bool:
        """Remove this worker's lease and counts."""
        raise NotImplementedError

    async def _dispose(self) -> None:
        """Let go of the connections."""

    async def _bounded(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call``, abandoned (TimeoutError) after the call timeout."""
        async with asyncio.timeout(self._timeout):
            return await call()

    # The ``Guard`` interface.

    @property
    def shared(self) -> bool:
        """True while the limits are counted in the store, False while they fall back."""
        return self._up

    async def check_action(self, address: str) -> errors.MatchError | None:
        """The refusal for one more action from ``address`` now, or None (a token is taken)."""
        taken = await self._take(
            "action", address, self._limits.ip_rate_per_second, self._limits.ip_rate_burst
        )
        if taken is None:
            FALLBACKS.labels("action").inc()
            return self.local.check_action(address)
        return None if taken else errors.AddressRateLimited()

    async def check_join(self, address: str) -> None:
        """Raise ``join_rate_limited`` when ``address`` joins (hello, claim, create) too fast."""
        taken = await self._take(
            "join", address, self._limits.join_rate_per_second, self._limits.join_rate_burst
        )
        if taken is None:
            FALLBACKS.labels("join").inc()
            self.local.check_join(address)
        elif not taken:
            raise errors.JoinRateLimited()

    async def open_socket(self, address: str) -> None:
        """Count a socket of ``address``; raise ``too_many_sockets`` past the cluster's cap."""
        cap = self._limits.max_sockets_per_ip
        async with self._turns:
            allowed = await self._shared(lambda: self._open_shared(address, cap))
            if allowed is None:
                FALLBACKS.labels("socket").inc()
                allowed = self._sockets[address] < cap  # this worker's share only
            if not allowed:
                raise errors.TooManySockets()
            self._sockets[address] += 1

    async def close_socket(self, address: str) -> None:
        """Forget a socket of ``address``: locally at once, in the store as soon as it answers."""
        self._sockets[address] -= 1  # before any await: even a cancelled close is counted
        if self._sockets[address] <= 0:
            del self._sockets[address]
        seen = self._snapshots
        async with self._turns:
            if self._written <= seen:  # else a renewal that read the lower count wrote it
                await self._shared(lambda: self._close_shared(address))

    def sockets(self, address: str) -> int:
        """The sockets of ``address`` on this worker."""
        return self._sockets[address]

    async def start(self) -> None:
        """Register this worker and keep its lease (and its sockets) alive."""
        if self._task is None:
            self._task = asyncio.create_task(self._keep_lease(), name="limits-lease")

    async def close(self) -> None:
        """Stop renewing and withdraw this worker's sockets, so they stop counting at once."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._up:
            await self._shared(self._withdraw_shared)
        with contextlib.suppress(Exception):
            await self._dispose()

    # The machinery.

    async def _take(self, kind: str, address: str, rate: float, burst: int) -> bool | None:
        return await self._shared(lambda: self._take_token(kind, address, rate, burst))

    async def _keep_lease(self) -> None:
        """Renew every third of a lease; probe every ``RETRY_SECONDS`` while the store is away."""
        while True:
            try:
                await self._renew_lease()
            except Exception:  # never let the lease die with a bug: log and try again
                log.exception("renewing the per-IP limits lease failed")
            await asyncio.sleep(self._lease_ms / 3000 if self._up else self._retry)

    async def _renew_lease(self) -> None:
        async with self._turns:
            counts = dict(self._sockets)
            self._snapshots += 1
            snapshot = self._snapshots
            done = await self._shared(lambda: self._renew_shared(counts), probe=True)
            if done is not None:
                self._written = snapshot
                self._recovered()

    async def _shared(self, call: Callable[[], Awaitable[T]], probe: bool = False) -> T | None:
        """The answer of ``call`` from the store, or None when it is (known to be) away."""
        if not (self._up or probe):
            return None
        try:
            return await self._bounded(call)
        except self.failures as exc:
            self._went_away(exc)
            return None

    def _went_away(self, exc: BaseException) -> None:
        self._up = False
        SHARED.set(0)
        now = time.monotonic()
        if now - self._warned_at >= WARN_EVERY_SECONDS:
            self._warned_at = now
            log.warning(
                "%s unreachable (%s: %s): per-IP limits are counted by this worker alone "
                "until it answers",
                self.store,
                type(exc).__name__,
                exc,
            )

    def _recovered(self) -> None:
        if not self._up:
            log.info("%s answers again: per-IP limits are shared by the cluster again", self.store)
        self._up = True
        SHARED.set(1)


class RedisGuard(SharedGuard):
    """The shared ``Guard`` of a deployment with a Redis bus: one budget in that Redis."""

    store = "Redis"
    failures = (RedisError, OSError, TimeoutError)

    def __init__(
        self,
        limits: LimitSettings,
        url: str,
        prefix: str,
        *,
        lease_seconds: float = LEASE_SECONDS,
        timeout_seconds: float = CALL_TIMEOUT_SECONDS,
        retry_seconds: float = RETRY_SECONDS,
    ) -> None:
        super().__init__(
            limits,
            lease_seconds=lease_seconds,
            timeout_seconds=timeout_seconds,
            retry_seconds=retry_seconds,
        )
        self._prefix = prefix
        self._client: Any = redis.from_url(
            url,
            client_name=f"skirmish-limits-{self.worker}",
            socket_connect_timeout=timeout_seconds,
            socket_timeout=timeout_seconds,
            retry=Retry(NoBackoff(), 1),  # one quick retry (a pooled socket gone stale)
        )
        self._take_script = self._client.register_script(TAKE_TOKEN)
        self._open = self._client.register_script(OPEN_SOCKET)
        self._close = self._client.register_script(CLOSE_SOCKET)
        self._renew = self._client.register_script(RENEW_LEASE)
        self._workers_key = f"{prefix}:workers"
        self._own_key = f"{prefix}:sockets:{self.worker}"

    async def _take_token(self, kind: str, address: str, rate: float, burst: int) -> bool:
        key = f"{self._prefix}:bucket:{kind}:{address}"
        taken = await self._take_script(keys=[key], args=[rate, burst, refill_ms(rate, burst)])
        return bool(taken)

    async def _open_shared(self, address: str, cap: int) -> bool:
        allowed = await self._open(
            keys=[self._workers_key, self._own_key],
            args=[self.worker, address, cap, self._lease_ms, f"{self._prefix}:sockets:"],
        )
        return bool(allowed)

    async def _close_shared(self, address: str) -> bool:
        await self._close(keys=[self._own_key], args=[address])
        return True

    async def _renew_shared(self, counts: dict[str, int]) -> bool:
        flat = [str(x) for pair in counts.items() for x in pair]
        args: list[str | int] = [self.worker, self._lease_ms, *flat]
        await self._renew(keys=[self._workers_key, self._own_key], args=args)
        return True

    async def _withdraw_shared(self) -> bool:
        async with self._client.pipeline(transaction=True) as pipe:
            await pipe.delete(self._own_key).zrem(self._workers_key, self.worker).execute()
        return True

    async def _dispose(self) -> None:
        await self._client.aclose()
