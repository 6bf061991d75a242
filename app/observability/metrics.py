"""Prometheus metrics of one worker process, and the hooks the hot path calls.

Each ``skirmish serve`` process (one container, one worker) exposes its own numbers at
``/metrics``; Prometheus adds them up. Hooks are cheap (a clock read, a dict access) and
never raise into the hot path.

Action stages are timed from the moment the worker received the act frame (the
request-context middleware notes when each WebSocket message arrives): validated (the
service starts on the parsed frame), rules applied, committed, then the first and the
last socket of this worker the new version was queued to. Contextvars carry the times
from the middleware to the service to the hub without threading them through signatures.
"""

from __future__ import annotations

import functools
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

P = ParamSpec("P")
R = TypeVar("R")

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

CONNECTIONS = Gauge("skirmish_connections", "WebSockets in a match room on this worker")
MATCHES = Gauge("skirmish_matches_open", "Matches with at least one socket on this worker")
ACTIONS = Counter(
    "skirmish_actions_total",
    "Act frames answered: committed, duplicate (original ack), stale, rejected, error",
    ["result"],
)
ACTION_SECONDS = Histogram(
    "skirmish_action_seconds",
    "From a received act frame to its answer (commit and publish included)",
    buckets=LATENCY_BUCKETS,
)
STAGE_SECONDS = Histogram(
    "skirmish_action_stage_seconds",
    "From a received act frame to each stage: validated, applied, committed, first_send, last_send",
    ["stage"],
    buckets=LATENCY_BUCKETS,
)
BUS_MESSAGES = Counter(
    "skirmish_bus_messages_total",
    "Bus messages by direction: published, received, publish_failed, republished",
    ["direction"],
)
BUS_LAG = Histogram(
    "skirmish_bus_lag_seconds",
    "From publish on one worker to receipt on another (wall clocks)",
    buckets=LATENCY_BUCKETS,
)
BUS_GAPS = Counter(
    "skirmish_bus_gaps_total", "Bus messages that skipped versions (read from the database)"
)
BUS_RECONNECTS = Counter("skirmish_bus_reconnects_total", "Bus connections lost and retried")
BUS_CONNECTED = Gauge("skirmish_bus_connected", "1 while this worker's bus subscription is up")


def exposition() -> tuple[bytes, str]:
    """The text Prometheus scrapes, and its content type."""
    return generate_latest(), CONTENT_TYPE_LATEST


@dataclass
class FrameClock:
    """When the current WebSocket's latest message arrived (one per socket, mutable:
    the socket's receive may run in a child task, whose context changes are not ours)."""

    received_at: float | None = None


frame_clock: ContextVar[FrameClock | None] = ContextVar("skirmish_frame_clock", default=None)
FRAME_CLOCK_TRUST_SECONDS = 5.0  # older than this, the clock is not about this frame


@dataclass
class _Trace:
    started: float
    committed: bool = False


_trace: ContextVar[_Trace | None] = ContextVar("skirmish_action_trace", default=None)
_FANOUT_KEEP = 4096
_committed_at: OrderedDict[tuple[str, int], float] = OrderedDict()
"""Start time of each version committed here, until this worker's hub sends it."""


def timed_action(act: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Decorate ``MatchService.act``: count its result, time it, open a stage trace."""

    @functools.wraps(act)
    async def timed(*args: P.args, **kwargs: P.kwargs) -> R:
        now = time.perf_counter()
        clock = frame_clock.get()
        received = clock.received_at if clock is not None else None
        if received is None or not 0 <= now - received < FRAME_CLOCK_TRUST_SECONDS:
            received = now  # a bot or a clock acting, not a socket
        STAGE_SECONDS.labels("validated").observe(now - received)
        trace = _Trace(received)
        token = _trace.set(trace)
        result = "error"
        try:
            answer = await act(*args, **kwargs)
            result = "committed" if trace.committed else "duplicate"
            return answer
        except Exception as exc:
            code = getattr(exc, "code", None)
            result = "error" if code is None else "stale" if code == "stale_version" else "rejected"
            raise
        finally:
            _trace.reset(token)
            ACTIONS.labels(result).inc()
            ACTION_SECONDS.observe(time.perf_counter() - trace.started)

    return timed


def stage(name: str, match_id: str | None = None, version: int | None = None) -> None:
    """Mark a stage of the current action; "committed" also remembers it for the fan-out."""
    trace = _trace.get()
    if trace is None:
        return
    now = time.perf_counter()
    STAGE_SECONDS.labels(name).observe(now - trace.started)
    if name == "committed":
        trace.committed = True
        if match_id is not None and version is not None:
            _committed_at[(match_id, version)] = trace.started
            while len(_committed_at) > _FANOUT_KEEP:
                _committed_at.popitem(last=False)


class FanoutTimer:
    """Times one version's fan-out on this worker, if the action was committed here."""

    __slots__ = ("_sent", "_started")

    def __init__(self, match_id: str, version: int) -> None:
        self._started = _committed_at.pop((match_id, version), None)
        self._sent = 0

    def sent(self) -> None:
        """One socket got the frame queued; the first one is the "first_send" stage."""
        self._sent += 1
        if self._sent == 1 and self._started is not None:
            STAGE_SECONDS.labels("first_send").observe(time.perf_counter() - self._started)

    def done(self) -> None:
        if self._sent and self._started is not None:
            STAGE_SECONDS.labels("last_send").observe(time.perf_counter() - self._started)


def observe_bus_message(published_at: float) -> None:
    """A message from another worker arrived; its lag is wall clock to wall clock."""
    BUS_MESSAGES.labels("received").inc()
    BUS_LAG.observe(max(0.0, time.time() - published_at))
