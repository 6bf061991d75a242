"""Per-IP limits shared by every worker: what the shared stores have in common.

Why: ``AddressGuard`` counts in one worker's memory, so behind N workers an address got N
times its budget. With a Redis bus (``app/realtime/redis_limits.py``) or a PostgreSQL bus
(``app/realtime/pg_limits.py``) every worker asks the store it already uses, so an address
has one budget across the cluster, with the same refusals and error codes.

``SharedGuard`` is everything but the store's own calls. **Token buckets** (actions,
joins) live in the store, refilled by the store's clock, taken atomically. **Open
sockets**: each worker counts its own under a *lease* (``LEASE_SECONDS``) that a
background task renews every third of a lease, rewriting the worker's counts from its own
(the truth): a killed worker's sockets stop counting at most one lease after it died, and
whatever the store missed heals within a third of a lease. Opens, closes and renewals of
one worker take turns (a lock), so a renewal never races a count it should include.

**Store unreachable.** Every call is bounded by ``CALL_TIMEOUT_SECONDS``. When one fails,
the guard answers from this worker's in-memory limits (an ``AddressGuard``: the old
per-worker budget, weaker but never an outage or an unthrottled server), warns at most once
a minute, and counts each such answer in ``skirmish_limits_fallback_total``. Until the
store answers again no call waits for it: the renewal task probes it every
``RETRY_SECONDS`` and switches back on the first answer, after rewriting this worker's
sockets. Sockets are counted locally all along, so that rewrite is exact.

**Addresses** are keyed by ``tag``: an HMAC of the address under the seat-secret pepper.
The stores are shared and outlive a request; they have no use for the addresses themselves.
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
from typing import TypeVar

from prometheus_client import Counter as MetricCounter
from prometheus_client import Gauge

from app.config import LimitSettings
from app.matches import errors
from app.matches.seat_keys import hash_secret
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
        pepper: str = "",
    ) -> None:
        self._limits = limits
        self._pepper = pepper
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
        address = self.tag(address)
        taken = await self._take(
            "action", address, self._limits.ip_rate_per_second, self._limits.ip_rate_burst
        )
        if taken is None:
            FALLBACKS.labels("action").inc()
            return self.local.check_action(address)
        return None if taken else errors.AddressRateLimited()

    async def check_join(self, address: str) -> None:
        """Raise ``join_rate_limited`` when ``address`` joins (hello, claim, create) too fast."""
        address = self.tag(address)
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
        address = self.tag(address)
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
        address = self.tag(address)
        self._sockets[address] -= 1  # before any await: even a cancelled close is counted
        if self._sockets[address] <= 0:
            del self._sockets[address]
        seen = self._snapshots
        async with self._turns:
            if self._written <= seen:  # else a renewal that read the lower count wrote it
                await self._shared(lambda: self._close_shared(address))

    def sockets(self, address: str) -> int:
        """The sockets of ``address`` on this worker."""
        return self._sockets[self.tag(address)]

    def tag(self, address: str) -> str:
        """What stands for ``address`` in the store and in memory: a keyed hash, so the
        shared store (a Redis, the database) never holds the clients' IP addresses."""
        return hash_secret(self._pepper, address)[:32]

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
