"""Per-IP limits shared by every worker through Redis (``SKIRMISH_BUS__BACKEND=redis``).

``SharedGuard`` (``app/realtime/shared_limits.py``) does the lease task, this worker's
socket counts and the fallback to local limits; this module supplies the Redis calls.

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

Scripts run by EVALSHA (redis-py's ``register_script`` loads them again after a Redis
restart). The socket script reads the other workers' hashes by names it builds itself:
fine on one Redis (with replicas), not on Redis Cluster.
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from app.config import LimitSettings
from app.realtime.shared_limits import (
    CALL_TIMEOUT_SECONDS,
    LEASE_SECONDS,
    RETRY_SECONDS,
    SharedGuard,
    refill_ms,
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
        pepper: str = "",
    ) -> None:
        super().__init__(
            limits,
            lease_seconds=lease_seconds,
            timeout_seconds=timeout_seconds,
            retry_seconds=retry_seconds,
            pepper=pepper,
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
