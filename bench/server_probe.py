"""What the load client reads about the server: CPU, RSS and wait time from /proc,
stage histograms from ``/metrics``, and the percentile arithmetic for the report."""

from __future__ import annotations

import contextlib
import os
import resource
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from prometheus_client.parser import text_string_to_metric_families

from bench.load_sockets import CountingConnection

if TYPE_CHECKING:
    from bench.load import LoadConfig


# -- probes: /proc and /metrics ------------------------------------------------------


@dataclass
class Probe:
    wall: float
    cpu: float | None
    wait: float | None
    rss_mb: list[float]
    client_cpu: float
    read_bytes: int
    metrics: dict[str, dict[float, float]]

    @classmethod
    def take(cls, config: LoadConfig, opening: bool) -> Probe:
        """Read the scrape outside the window, so its bytes are not counted as deliveries."""
        metrics = scrape(config.metrics_urls) if opening else {}
        cpus = [process_cpu(pid) for pid in config.pids]
        cpu = sum(c for c in cpus if c is not None) if config.pids else None
        waits = [process_wait(pid) for pid in config.pids]
        wait = sum(w for w in waits if w is not None) if config.pids else None
        times = os.times()
        probe = cls(
            wall=time.perf_counter(),
            cpu=cpu,
            wait=wait,
            rss_mb=[process_rss_mb(pid) for pid in config.pids],
            client_cpu=times.user + times.system,
            read_bytes=own_read_bytes(),
            metrics=metrics,
        )
        if not opening:
            probe.metrics = scrape(config.metrics_urls)
        return probe


def process_cpu(pid: int) -> float | None:
    """utime + stime of ``pid`` in seconds (/proc/<pid>/stat fields 14 and 15)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def process_wait(pid: int) -> float | None:
    """Seconds the threads of ``pid`` were runnable but waiting for a CPU (schedstat).

    The machine is shared: this says how much of a latency is queueing for a core.
    """
    total = 0
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                total += int((task / "schedstat").read_text().split()[1])
    except OSError:
        return None
    return total / 1e9


def process_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def own_read_bytes() -> int:
    """Bytes every socket of this client has received so far (frames as sent, compressed)."""
    return CountingConnection.received


def scrape(urls: list[str]) -> dict[str, dict[float, float]]:
    """Cumulative buckets per stage (summed over workers), plus "_sum"/"_count" entries."""
    out: dict[str, dict[float, float]] = {}
    for url in urls:
        try:
            text = httpx.get(url, timeout=5).text
        except httpx.HTTPError:
            continue
        for family in text_string_to_metric_families(text):
            if family.name in GC_FAMILIES:
                for sample in family.samples:
                    if sample.name.endswith("_total"):
                        series = out.setdefault(GC_FAMILIES[family.name], {})
                        generation = float(sample.labels["generation"])
                        series[generation] = series.get(generation, 0.0) + sample.value
                continue
            if family.name not in ("skirmish_action_stage_seconds", "skirmish_action_seconds"):
                continue
            for sample in family.samples:
                stage = sample.labels.get("stage", "act")
                series = out.setdefault(stage, {})
                if sample.name.endswith("_bucket"):
                    bound = float(sample.labels["le"])
                    series[bound] = series.get(bound, 0.0) + sample.value
                elif sample.name.endswith("_sum"):
                    series[-1.0] = series.get(-1.0, 0.0) + sample.value
                elif sample.name.endswith("_count"):
                    series[-2.0] = series.get(-2.0, 0.0) + sample.value
    return out


GC_FAMILIES = {"skirmish_gc_pause_seconds": "gc_pause", "python_gc_collections": "gc_count"}
"""Garbage collection per generation (app/gc_freeze.py; prometheus_client's own counts)."""


def gc_summary(
    before: dict[str, dict[float, float]], after: dict[str, dict[float, float]]
) -> dict[str, float]:
    """Collections and their wall time inside the window: full (gen 2) and younger."""
    diff = {
        name: {g: v - before.get(name, {}).get(g, 0.0) for g, v in after.get(name, {}).items()}
        for name in ("gc_pause", "gc_count")
    }
    pause, count = diff["gc_pause"], diff["gc_count"]
    if any(v < 0 for d in (pause, count) for v in d.values()):
        return {}  # a worker restarted inside the window: its counters began again
    return {
        "full_collections": count.get(2.0, 0.0),
        "full_pause_ms": round(pause.get(2.0, 0.0) * 1000, 1),
        "young_collections": count.get(0.0, 0.0) + count.get(1.0, 0.0),
        "young_pause_ms": round((pause.get(0.0, 0.0) + pause.get(1.0, 0.0)) * 1000, 1),
    }


def stage_summary(
    before: dict[str, dict[float, float]], after: dict[str, dict[float, float]]
) -> dict[str, dict[str, float]]:
    """Per stage inside the window: count, mean, and p50/p95/p99 interpolated in the
    buckets."""
    out: dict[str, dict[str, float]] = {}
    for stage, series in after.items():
        if stage in GC_FAMILIES.values():
            continue
        old = before.get(stage, {})
        diff = {k: v - old.get(k, 0.0) for k, v in series.items()}
        count = diff.pop(-2.0, 0.0)
        total = diff.pop(-1.0, 0.0)
        if count <= 0:
            continue
        buckets = sorted(diff.items())
        out[stage] = {
            "count": count,
            "mean": round(total / count * 1000, 2),
            "p50": round(bucket_quantile(buckets, 0.5) * 1000, 1),
            "p95": round(bucket_quantile(buckets, 0.95) * 1000, 1),
            "p99": round(bucket_quantile(buckets, 0.99) * 1000, 1),
        }
    return out


def bucket_quantile(buckets: list[tuple[float, float]], q: float) -> float:
    """Prometheus' histogram_quantile: linear inside the bucket that holds the rank."""
    total = buckets[-1][1]
    rank = q * total
    lower, below = 0.0, 0.0
    for bound, cumulative in buckets:
        if cumulative >= rank:
            if bound == float("inf"):
                return lower
            width = cumulative - below
            return lower + (bound - lower) * ((rank - below) / width if width else 0.0)
        lower, below = bound, cumulative
    return lower


def percentiles(samples: list[float]) -> dict[str, float]:
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {
        "n": len(ordered),
        "p50": round(statistics.median(ordered), 1),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ordered[-1], 1),
    }


def raise_file_limit() -> None:
    """Thousands of sockets: lift the soft descriptor limit to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
