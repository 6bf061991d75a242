"""Full garbage collections that scan only what is new: their survivors are frozen.

Why: a worker holding a thousand sockets keeps ~400,000 long-lived objects (tasks,
coroutines, buffers), and CPython's full (generation 2) collection scans every one of
them. On the 2-core bench machine that was a 100–300 ms pause every few seconds while
sockets connected: the whole p99 tail of S1 (docs/benchmarks.md). Right after a full
collection every tracked object is alive, so ``gc.freeze()`` then loses nothing; later
full collections scan only objects made since. A cycle that dies among frozen objects
waits for the next thaw: every ``thaw_seconds`` everything is unfrozen, and the next full
collection (one ordinary pause) reclaims it and freezes the survivors again.

The pauses are counted here, not in a Prometheus metric: the callback can run while the
interrupted thread holds a metric's lock, and taking that lock again would deadlock.
The counts are exported by a collector at scrape time instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import REGISTRY, Collector


@dataclass
class Pauses:
    """Per generation: collections seen, their total and longest wall time (seconds)."""

    count: list[int] = field(default_factory=lambda: [0, 0, 0])
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])
    longest: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0])


class FreezePolicy:
    """The process-wide policy: installed once however many apps run in the process."""

    def __init__(self) -> None:
        self.pauses = Pauses()
        self.thaws = 0
        self._users = 0
        self._freezers = 0
        self._started = 0.0

    @property
    def installed(self) -> bool:
        return self._users > 0

    def install(self, freeze: bool = True) -> None:
        """Count pauses; with ``freeze``, also freeze what survives a full collection."""
        self._users += 1
        self._freezers += freeze
        if self._users == 1:
            gc.callbacks.append(self._on_gc)

    def uninstall(self, freeze: bool = True) -> None:
        self._users = max(0, self._users - 1)
        self._freezers = max(0, self._freezers - freeze)
        if self._freezers == 0:
            gc.unfreeze()
        if self._users == 0 and self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def thaw(self) -> None:
        """Unfreeze all: the next full collection scans (and reclaims) everything once."""
        gc.unfreeze()
        self.thaws += 1

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        generation = info["generation"]
        took = time.perf_counter() - self._started
        self.pauses.count[generation] += 1
        self.pauses.seconds[generation] += took
        self.pauses.longest[generation] = max(self.pauses.longest[generation], took)
        if generation == 2 and self._freezers:
            gc.freeze()  # every tracked object just survived a full collection


POLICY = FreezePolicy()


class PauseCollector(Collector):
    """``skirmish_gc_*`` at scrape time, from the counts the callback keeps."""

    def collect(self) -> Iterator[Any]:
        pauses = POLICY.pauses
        total = CounterMetricFamily(
            "skirmish_gc_pause_seconds", "Wall time in garbage collections", labels=["generation"]
        )
        longest = GaugeMetricFamily(
            "skirmish_gc_pause_longest_seconds", "Longest collection", labels=["generation"]
        )
        for generation in range(3):
            total.add_metric([str(generation)], pauses.seconds[generation])
            longest.add_metric([str(generation)], pauses.longest[generation])
        yield total
        yield longest
        # Not gc.get_freeze_count(): it walks every frozen object, in the event loop.
        yield CounterMetricFamily(
            "skirmish_gc_thaws", "Times the frozen objects were unfrozen", value=POLICY.thaws
        )


with contextlib.suppress(ValueError):  # registered once per process
    REGISTRY.register(PauseCollector())


async def thaw_periodically(seconds: float) -> None:
    """The lifespan's task: bounds how long a dead cycle among frozen objects is kept."""
    while True:
        await asyncio.sleep(seconds)
        POLICY.thaw()


@dataclass
class Running:
    freeze: bool
    thaws: asyncio.Task[None] | None


def start(freeze: bool, thaw_seconds: float) -> Running:
    """Pauses are always counted (the bench reports them); freezing is the setting."""
    POLICY.install(freeze)
    thaws = asyncio.create_task(thaw_periodically(thaw_seconds)) if freeze else None
    return Running(freeze, thaws)


async def stop(running: Running) -> None:
    if running.thaws is not None:
        running.thaws.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running.thaws
    POLICY.uninstall(running.freeze)
