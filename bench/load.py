"""WebSocket load client: scripted Invaders matches plus spectators against a running server.

Why: turn-based games send little traffic, so the cost sits in the action path (guards,
rules, commit, rendering, fan-out) and in how it grows with matches and spectators. This
client measures that path end to end, from the outside, exactly as players see it.

It creates ``matches`` matches over REST (two seats each), opens both seats' sockets and
``spectators`` spectator sockets per match, then every match plays real Invaders actions
(drawn from the acting seat's ``view.legal_actions``) at ``rate`` actions/s. It records:

* per action: client send → ``ack``, and send → ``state`` frame at every other viewer
  (the opponent, each spectator, and the last of them: "all");
* a correctness gate: every viewer receives every version exactly once, in order
  (after a reconnect, the catch-up frame may jump forward, then order resumes);
* accepted actions/s, deliveries/s, wire bytes per delivery (the client's own read bytes
  from /proc), server CPU-seconds and RSS per worker (from /proc/<pid>), and the
  server-side stage histograms scraped from each worker's ``/metrics``.

It is bounded: loopback only, at most ``MAX_SOCKETS`` sockets, ``MAX_SECONDS`` of play, and
every wait has a timeout; it stops by itself. It asserts nothing about speed.

    python bench/load.py --url http://127.0.0.1:8000 --matches 20 --spectators 5 \\
        --rate 1 --seconds 20 --pid 12345
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load_result import Gate, Result, render_text
from bench.load_sockets import MatchRun, Viewer
from bench.server_probe import (
    Probe,
    gc_summary,
    percentiles,
    process_rss_mb,
    raise_file_limit,
    stage_summary,
)

MAX_SOCKETS = 5_000
MAX_SECONDS = 180.0
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
CLASSES = ("ack", "opponent", "spectator", "all")


# -- configuration and results ---------------------------------------------------------


@dataclass
class LoadConfig:
    """One run; ``rate`` 0 means closed loop (each match acts as soon as it may)."""

    url: str
    matches: int = 10
    spectators: int = 2
    rate: float = 1.0
    seconds: float = 20.0
    warmup: float = 3.0
    game: str = "invaders"
    seed: int = 1
    compression: str | None = "deflate"  # what browsers offer; None offers no permessage-deflate
    app_compression: bool = True  # hello asks for frames compressed per audience, like browsers
    connect_concurrency: int = 32
    pids: list[int] = field(default_factory=list)  # server processes for /proc figures
    metrics_urls: list[str] = field(default_factory=list)  # each worker's /metrics
    replace_finished: bool = True  # a finished match is replaced by a fresh one
    drain_seconds: float = 15.0
    storm_at: float | None = None  # seconds into play: close every socket and reconnect
    disrupt_at: float | None = None  # seconds into play: call ``disrupt`` (e.g. kill -9)
    label: str = ""

    def check(self) -> None:
        host = urlsplit(self.url).hostname or ""
        if host not in LOOPBACK:
            raise SystemExit(f"load runs against loopback only, not {host!r}")
        sockets = self.matches * (2 + self.spectators)
        if sockets > MAX_SOCKETS:
            raise SystemExit(f"{sockets} sockets exceed the bound of {MAX_SOCKETS}")
        if self.seconds > MAX_SECONDS:
            raise SystemExit(f"{self.seconds} s of play exceed the bound of {MAX_SECONDS} s")


KEEPALIVE_SECONDS = 15.0  # static/js/socket.js pings after 15 s without a frame
PING = '{"type":"ping"}'


# -- the run -------------------------------------------------------------------------


class Run:
    def __init__(self, config: LoadConfig) -> None:
        self.config = config
        self.gate = Gate()
        self.errors: Counter[str] = Counter()
        self.samples: dict[str, list[float]] = {c: [] for c in CLASSES}
        self.matches: list[MatchRun] = []
        self.retired: list[MatchRun] = []
        self.live = False  # from the first socket to the teardown: reconnect what drops
        self.playing = False
        self.draining = False
        self.measuring = False
        self.actions = 0  # acknowledged inside the window (sampled)
        self.accepted = 0
        self.deliveries = 0
        self.delivered_bytes = 0
        self.reconnects: list[float] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._http: httpx.AsyncClient | None = None
        self._connect_gate = asyncio.Semaphore(config.connect_concurrency)
        parts = urlsplit(config.url)
        self._ws_base = f"ws://{parts.netloc}"

    def ws_url(self, match_id: str) -> str:
        return f"{self._ws_base}/ws/matches/{match_id}"

    def sample(self, cls: str, ms: float) -> None:
        if self.measuring:
            self.samples[cls].append(ms)

    def spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def open_match(self, match: MatchRun) -> None:
        assert self._http is not None
        await match.create(self._http)
        for viewer in match.viewers:
            async with self._connect_gate:
                try:
                    await viewer.open()
                except Exception:  # a refused or timed-out hello: keep trying, bounded
                    self.errors["connect_failed"] += 1
                    self.spawn(viewer.reconnect())

    async def replace(self, match: MatchRun) -> None:
        """A finished match's slot gets a fresh match (throughput runs outlast games)."""
        for viewer in match.viewers:
            await viewer.close()
        self.check_final(match)
        retired = MatchRun(self, match.index)
        retired.viewers, retired.version = match.viewers, match.version
        self.retired.append(retired)
        await self.open_match(match)

    def check_final(self, match: MatchRun) -> None:
        if match.viewers and max(v.version for v in match.viewers) < match.version:
            self.gate.lost_acks += 1
            self.gate.note(f"{match.match_id} acked v{match.version}, nobody saw it")
        for viewer in match.viewers:
            if viewer.version < match.version:
                self.gate.missing_at_end += 1
                self.gate.note(f"{viewer.kind} of {match.match_id} ended at v{viewer.version}")

    async def execute(self, disrupt: Callable[[], Awaitable[None]] | None = None) -> Result:
        config = self.config
        config.check()
        raise_file_limit()
        limits = httpx.Limits(max_connections=config.connect_concurrency)
        async with httpx.AsyncClient(base_url=config.url, timeout=30, limits=limits) as http:
            self._http = http
            self.matches = [MatchRun(self, i) for i in range(config.matches)]
            self.live = True
            self.spawn(self.keep_alive())
            started = time.perf_counter()
            rss_idle = [process_rss_mb(pid) for pid in config.pids]
            half = len(self.matches) // 2
            await asyncio.gather(*(self.open_match(m) for m in self.matches[:half]))
            rss_half = [process_rss_mb(pid) for pid in config.pids]
            await asyncio.gather(*(self.open_match(m) for m in self.matches[half:]))
            setup_seconds = time.perf_counter() - started
            rss_connected = [process_rss_mb(pid) for pid in config.pids]
            self.playing = True
            drivers = [asyncio.create_task(m.drive()) for m in self.matches]
            play_started = time.perf_counter()
            extras = []
            if config.storm_at is not None:
                extras.append(asyncio.create_task(self.storm(play_started + config.storm_at)))
            if config.disrupt_at is not None and disrupt is not None:
                extras.append(
                    asyncio.create_task(self.call_at(play_started + config.disrupt_at, disrupt))
                )
            await asyncio.sleep(config.warmup)
            before = Probe.take(config, opening=True)
            self.measuring = True
            await asyncio.sleep(max(0.0, config.seconds - config.warmup))
            self.measuring = False
            after = Probe.take(config, opening=False)
            self.playing = False
            self.draining = True
            await asyncio.wait(drivers, timeout=20)
            for task in extras:
                task.cancel()
            await self.drain()
            self.draining = False
            for match in self.matches:
                self.check_final(match)
            self.live = False
            for match in [*self.matches, *self.retired]:
                for viewer in match.viewers:
                    await viewer.close()
            for task in list(self._tasks):
                task.cancel()
        result = self.summarise(before, after)
        result.notes.append(f"setup (create + connect) took {setup_seconds:.1f} s")
        sockets = config.matches * (2 + config.spectators)
        if rss_idle and sockets:
            grown = sum(rss_connected) - sum(rss_idle)
            result.rss_kb_per_socket = round(1024 * grown / sockets, 1)
            later = (len(self.matches) - half) * (2 + config.spectators)
            if half and later:  # the second half only: no warm-up, no first-use imports
                marginal = sum(rss_connected) - sum(rss_half)
                result.rss_kb_per_socket_marginal = round(1024 * marginal / later, 1)
        return result

    async def keep_alive(self) -> None:
        """Every socket pings now and then, as the browser client does when it has sent
        nothing for a while: the server closes sockets that stay silent for a minute, and
        a large setup or a spectator outlasts that."""
        while self.live:
            await asyncio.sleep(KEEPALIVE_SECONDS)
            for match in self.matches:
                for viewer in match.viewers:
                    if viewer.ws is not None and viewer.connected.is_set():
                        with contextlib.suppress(Exception):
                            await viewer.ws.send(PING)

    async def call_at(self, when: float, disrupt: Callable[[], Awaitable[None]]) -> None:
        await asyncio.sleep(max(0.0, when - time.perf_counter()))
        await disrupt()

    async def storm(self, when: float) -> None:
        """Close every socket at once; each reconnects with its last version."""
        await asyncio.sleep(max(0.0, when - time.perf_counter()))
        viewers = [v for m in self.matches for v in m.viewers]
        for viewer in viewers:
            viewer.closing = True
        await asyncio.gather(*(v.close() for v in viewers), return_exceptions=True)
        await asyncio.gather(*(self._reopen(v) for v in viewers), return_exceptions=True)

    async def _reopen(self, viewer: Viewer) -> None:
        viewer.lost_at = time.perf_counter()
        await viewer.reconnect()

    async def drain(self) -> None:
        """Wait (bounded) until every viewer has its match's last acknowledged version."""
        deadline = time.perf_counter() + self.config.drain_seconds
        while time.perf_counter() < deadline:
            behind = [v for m in self.matches for v in m.viewers if v.version < m.version]
            if not behind:
                return
            await asyncio.sleep(0.1)

    def summarise(self, before: Probe, after: Probe) -> Result:
        config = self.config
        window = after.wall - before.wall
        cpu = after.cpu - before.cpu if after.cpu is not None and before.cpu is not None else None
        text_bytes = self.delivered_bytes / self.deliveries if self.deliveries else 0.0
        wire = None
        if self.deliveries:
            wire = (after.read_bytes - before.read_bytes) / self.deliveries
        latency = {c: percentiles(s) for c, s in self.samples.items()}
        stages = stage_summary(before.metrics, after.metrics)
        sockets = config.matches * (2 + config.spectators)
        return Result(
            label=config.label,
            config={k: v for k, v in asdict(config).items() if k not in ("pids",)},
            window_seconds=round(window, 2),
            actions=self.actions,
            actions_per_second=round(self.actions / window, 1),
            deliveries=self.deliveries,
            deliveries_per_second=round(self.deliveries / window, 1),
            latency_ms=latency,
            errors=dict(self.errors),
            gate={**asdict(self.gate), "passed": self.gate.passed},
            server_cpu_seconds=round(cpu, 2) if cpu is not None else None,
            server_cpu_share=round(cpu / window, 2) if cpu is not None else None,
            server_wait_share=round((after.wait - before.wait) / window, 2)
            if after.wait is not None and before.wait is not None
            else None,
            deliveries_per_cpu_second=round(self.deliveries / cpu, 1) if cpu else None,
            rss_mb=after.rss_mb,
            bytes_per_delivery_text=round(text_bytes),
            bytes_per_delivery_wire=round(wire) if wire is not None else None,
            client_cpu_share=round((after.client_cpu - before.client_cpu) / window, 2),
            stages_ms=stages,
            gc=gc_summary(before.metrics, after.metrics),
            reconnect_ms=percentiles(self.reconnects),
            sockets=sockets,
            matches_played=len(self.matches) + len(self.retired),
        )


async def run_load(
    config: LoadConfig, disrupt: Callable[[], Awaitable[None]] | None = None
) -> Result:
    """Run one load configuration to completion (bounded) and summarise it."""
    return await Run(config).execute(disrupt)


def main(argv: list[str] | None = None) -> None:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--scenario"] or (argv and argv[0].startswith("--scenario=")):
        # A whole scenario (servers started here): python bench/load.py --scenario S1 ...
        from bench import scenarios

        name = argv[1] if argv[0] == "--scenario" else argv[0].split("=", 1)[1]
        rest = argv[2:] if argv[0] == "--scenario" else argv[1:]
        scenarios.main([name, *rest])
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--rate", type=float, default=1.0, help="actions/s per match; 0: max")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    parser.add_argument(
        "--no-app-compression", action="store_true", help="hello without compress (older servers)"
    )
    parser.add_argument("--pid", type=int, action="append", default=[])
    parser.add_argument("--metrics", action="append", default=[], help="a worker's /metrics")
    parser.add_argument("--json", type=Path, help="write the result here")
    args = parser.parse_args(argv)
    config = LoadConfig(
        url=args.url,
        matches=args.matches,
        spectators=args.spectators,
        rate=args.rate,
        seconds=args.seconds,
        warmup=args.warmup,
        compression=None if args.no_compression else "deflate",
        app_compression=not args.no_app_compression,
        pids=args.pid,
        metrics_urls=args.metrics,
    )
    result = asyncio.run(run_load(config))
    print(render_text(result))
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=2))


if __name__ == "__main__":
    main()
