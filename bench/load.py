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
import os
import random
import resource
import statistics
import sys
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

try:  # the client shares the machine with the server: parse cheaply where it can
    import orjson

    loads: Callable[[str | bytes], Any] = orjson.loads
except ImportError:  # pragma: no cover - orjson is optional for the client
    loads = json.loads

MAX_SOCKETS = 5_000
MAX_SECONDS = 180.0
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
STATE_PREFIX = '{"type":"state","version":'
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
    compression: str | None = "deflate"  # what browsers negotiate; None turns it off
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


@dataclass
class Gate:
    """The correctness gate: counts of violations; all zero means it passed."""

    duplicates: int = 0
    gaps: int = 0
    missing_at_end: int = 0  # viewers that never reached their match's last version
    lost_acks: int = 0  # acknowledged versions beyond what the viewers finally saw
    dropped_by_server: int = 0  # closes we did not cause (1013, a dead worker)
    examples: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not (self.duplicates or self.gaps or self.missing_at_end or self.lost_acks)

    def note(self, text: str) -> None:
        if len(self.examples) < 10:
            self.examples.append(text)


@dataclass
class Result:
    label: str
    config: dict[str, Any]
    window_seconds: float
    actions: int
    actions_per_second: float
    deliveries: int
    deliveries_per_second: float
    latency_ms: dict[str, dict[str, float]]
    errors: dict[str, int]
    gate: dict[str, Any]
    server_cpu_seconds: float | None
    server_cpu_share: float | None  # CPU-seconds per wall second (1.0 = one core)
    server_wait_share: float | None  # seconds runnable but not running, per wall second
    deliveries_per_cpu_second: float | None
    rss_mb: list[float]
    bytes_per_delivery_text: float
    bytes_per_delivery_wire: float | None
    client_cpu_share: float
    stages_ms: dict[str, dict[str, float]]
    reconnect_ms: dict[str, float]
    sockets: int
    matches_played: int
    notes: list[str] = field(default_factory=list)


# -- one socket ----------------------------------------------------------------------


class Viewer:
    """One socket: a seat (plays when its view offers actions) or a spectator."""

    def __init__(self, run: Run, match: MatchRun, seat: str | None, secret: str | None) -> None:
        self.run, self.match, self.seat, self.secret = run, match, seat, secret
        self.ws: ClientConnection | None = None
        self.version = -1  # last state version received
        self.legal: list[dict[str, Any]] = []
        self.connected = asyncio.Event()
        self.closing = False  # we are closing it on purpose
        self.lost_at: float | None = None
        self.task: asyncio.Task[None] | None = None
        self.text_bytes = 0
        self.allow_repeat = False  # after stale_version the server re-sends the view

    @property
    def kind(self) -> str:
        return "spectator" if self.seat is None else "seat"

    async def open(self) -> None:
        """Connect, say hello with the last version seen, wait for the state frame."""
        url = self.run.ws_url(self.match.match_id)
        ws = await connect(
            url,
            compression=self.run.config.compression,
            max_size=None,
            open_timeout=20,
            ping_interval=None,  # the server pings; the library answers
            close_timeout=2,
            create_connection=CountingConnection,
        )
        hello = {"type": "hello", "secret": self.secret, "version": self.version_or_none()}
        await ws.send(json.dumps(hello))
        async with asyncio.timeout(30):
            while True:
                text = await ws.recv()
                assert isinstance(text, str)
                if text.startswith(STATE_PREFIX):
                    self.catch_up(text)
                    break
                frame = loads(text)
                if frame.get("type") == "error":
                    raise RuntimeError(f"hello refused: {frame}")
        self.ws = ws
        self.connected.set()
        self.task = asyncio.create_task(self.read(ws))

    def version_or_none(self) -> int | None:
        return self.version if self.version >= 0 else None

    def catch_up(self, text: str) -> None:
        """The state frame after hello: any version at or after the last one seen."""
        version = state_version(text)
        if version < self.version:
            self.run.gate.gaps += 1
            self.run.gate.note(f"catch-up went back: {self.version} -> {version}")
        self.version = version
        if self.seat is not None:
            self.legal = loads(text)["view"].get("legal_actions", [])
        self.match.saw(self, version, catch_up=True)

    async def read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                self.receive(text if isinstance(text, str) else text.decode())
        except ConnectionClosed:
            pass
        finally:
            self.connected.clear()
            self.match.socket_lost(self)
            if not self.closing and self.run.live:
                self.run.gate.dropped_by_server += 1
                self.run.spawn(self.reconnect())

    def receive(self, text: str) -> None:
        now = time.perf_counter()
        if text.startswith(STATE_PREFIX):
            version = state_version(text)
            self.text_bytes += len(text)
            if version == self.version and self.allow_repeat:
                self.allow_repeat = False
                if self.seat is not None:
                    self.legal = loads(text)["view"].get("legal_actions", [])
                self.match.wake.set()
                return
            if version <= self.version:
                self.run.gate.duplicates += 1
                self.run.gate.note(f"{self.kind} got v{version} again after v{self.version}")
                return
            if version != self.version + 1:
                self.run.gate.gaps += 1
                self.run.gate.note(f"{self.kind} jumped v{self.version} -> v{version}")
            self.version = version
            if self.seat is not None:
                self.legal = loads(text)["view"].get("legal_actions", [])
            self.run.deliveries += self.run.measuring
            self.run.delivered_bytes += len(text) if self.run.measuring else 0
            self.match.delivered(self, version, now)
            return
        frame = loads(text)
        kind = frame.get("type")
        if kind == "ack":
            self.match.acked(frame["id"], frame["version"], now)
        elif kind == "error":
            self.run.errors[str(frame.get("code"))] += 1
            self.allow_repeat = frame.get("code") == "stale_version"
            self.match.refused(frame.get("id"), str(frame.get("code")))
        elif kind == "presence" and frame.get("status") == "finished":
            self.match.finished = True
            self.match.wake.set()

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.task, 5)

    async def reconnect(self) -> None:
        """Come back with the last version seen (a storm, a dead worker, a 1013)."""
        lost = self.lost_at or time.perf_counter()
        delay = 0.05
        while self.run.live:
            try:
                self.closing = False
                await self.open()
            except Exception:
                await asyncio.sleep(delay + random.random() * delay)
                delay = min(1.0, delay * 2)
                continue
            self.run.reconnects.append((time.perf_counter() - lost) * 1000)
            self.match.wake.set()
            return


class CountingConnection(ClientConnection):
    """Counts the raw bytes each socket receives: the wire size, after deflate.

    (/proc/self/io does not help: asyncio reads sockets with recv, which rchar omits.)
    """

    received = 0  # class-wide: one total for the whole client

    def data_received(self, data: bytes) -> None:
        CountingConnection.received += len(data)
        super().data_received(data)


def state_version(text: str) -> int:
    """The version of a state frame from its fixed prefix: spectators never parse views."""
    end = text.index(",", len(STATE_PREFIX))
    return int(text[len(STATE_PREFIX) : end])


# -- one match -----------------------------------------------------------------------


class MatchRun:
    """A match slot: two seats and spectators, and a driver that paces the actions."""

    def __init__(self, run: Run, index: int) -> None:
        self.run, self.index = run, index
        self.match_id = ""
        self.viewers: list[Viewer] = []
        self.players: list[Viewer] = []
        self.version = 0  # last acknowledged version
        self.finished = False
        self.wake = asyncio.Event()
        self.sent: dict[int, float] = {}  # version an action will produce -> send time
        self.waiting: dict[int, int] = {}  # version -> viewers still to deliver it
        self.actor: dict[int, Viewer] = {}
        self.ack: asyncio.Future[int] | None = None
        self.pending_id: str | None = None
        self.rng = random.Random(run.config.seed * 100_003 + index)

    async def create(self, http: httpx.AsyncClient) -> None:
        config = self.run.config
        body = {"game": config.game, "name": f"load-{self.index}"}
        first = (await http.post("/api/matches", json=body)).raise_for_status().json()
        self.match_id = first["match_id"]
        join = {"name": f"load-{self.index}b"}
        second = (await http.post(f"/api/matches/{self.match_id}/seats", json=join)).json()
        self.players = [
            Viewer(self.run, self, first["seat"], first["secret"]),
            Viewer(self.run, self, second["seat"], second["secret"]),
        ]
        spectators = [Viewer(self.run, self, None, None) for _ in range(config.spectators)]
        self.viewers = [*self.players, *spectators]
        self.version = 0
        self.finished = False

    def saw(self, viewer: Viewer, version: int, catch_up: bool) -> None:
        self.wake.set()

    def delivered(self, viewer: Viewer, version: int, now: float) -> None:
        self.wake.set()
        sent = self.sent.get(version)
        if sent is None:
            return
        actor = self.actor.get(version)
        if viewer is actor:
            return
        cls = "spectator" if viewer.seat is None else "opponent"
        self.run.sample(cls, (now - sent) * 1000)
        left = self.waiting.get(version, 0) - 1
        if left <= 0:
            self.waiting.pop(version, None)
            self.sent.pop(version, None)
            self.actor.pop(version, None)
            self.run.sample("all", (now - sent) * 1000)
        else:
            self.waiting[version] = left

    def acked(self, client_id: str, version: int, now: float) -> None:
        if client_id != self.pending_id or self.ack is None or self.ack.done():
            return
        self.version = max(self.version, version)
        sent = self.sent.get(version)
        if sent is not None and self.run.measuring:
            self.run.sample("ack", (now - sent) * 1000)
            self.run.actions += 1
        self.ack.set_result(version)

    def refused(self, client_id: str | None, code: str) -> None:
        ack = self.ack
        if client_id is not None and client_id == self.pending_id and ack and not ack.done():
            ack.set_exception(RuntimeError(code))

    def socket_lost(self, viewer: Viewer) -> None:
        viewer.lost_at = time.perf_counter()
        if viewer in self.players and self.ack is not None and not self.ack.done():
            self.ack.set_exception(ConnectionError("socket closed with an action in flight"))
        self.wake.set()

    def next_actor(self) -> Viewer | None:
        """The seat whose view at the current version offers actions, if it has it."""
        for player in self.players:
            if player.connected.is_set() and player.version == self.version and player.legal:
                return player
        return None

    async def drive(self) -> None:
        """Play at the configured pace; one action in flight; stop at the deadline."""
        config = self.run.config
        interval = 1.0 / config.rate if config.rate > 0 else 0.0
        next_at = time.perf_counter() + self.rng.random() * interval
        while self.run.playing:
            if interval:
                await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                next_at = max(next_at + interval, time.perf_counter() - interval)
            actor = await self.wait_for_actor()
            if actor is None:
                if self.finished and config.replace_finished and self.run.playing:
                    await self.run.replace(self)
                    continue
                return
            await self.act(actor)

    async def wait_for_actor(self) -> Viewer | None:
        deadline = time.perf_counter() + 30
        while self.run.playing and time.perf_counter() < deadline:
            # a resend after a reconnect may have been committed without our seeing its ack
            self.version = max(self.version, *(p.version for p in self.players))
            actor = self.next_actor()
            if actor is not None:
                return actor
            if self.finished and all(p.version >= self.version for p in self.players):
                return None
            self.wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), 1.0)
        return None

    async def act(self, actor: Viewer) -> None:
        """Send one action; resend the same id after a reconnect until it is answered."""
        action = self.rng.choice(actor.legal)
        client_id = uuid.uuid4().hex
        seen = self.version
        produced = seen + 1
        frame = json.dumps({"type": "act", "id": client_id, "version": seen, "action": action})
        self.pending_id = client_id
        resent = False
        for _attempt in range(20):
            if not self.run.playing and not self.run.draining:
                return
            if not actor.connected.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(actor.connected.wait(), 10)
                continue
            self.ack = asyncio.get_running_loop().create_future()
            sent_at = time.perf_counter()
            if self.run.measuring and not resent:
                self.sent[produced] = sent_at
                self.waiting[produced] = len(self.viewers) - 1
                self.actor[produced] = actor
            else:
                self.sent.pop(produced, None)
            try:
                assert actor.ws is not None
                await actor.ws.send(frame)
                await asyncio.wait_for(self.ack, 15)
                self.run.accepted += 1
                return
            except (ConnectionError, ConnectionClosed):
                resent = True  # the same id again: the original ack, never a second effect
                continue
            except TimeoutError:
                self.run.errors["ack_timeout"] += 1
                return
            except RuntimeError as exc:  # an error frame: count it, let the view move on
                self.sent.pop(produced, None)
                if str(exc) == "stale_version":
                    await asyncio.sleep(0.05)
                return


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
            started = time.perf_counter()
            await asyncio.gather(*(self.open_match(m) for m in self.matches))
            setup_seconds = time.perf_counter() - started
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
        return result

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
            reconnect_ms=percentiles(self.reconnects),
            sockets=sockets,
            matches_played=len(self.matches) + len(self.retired),
        )


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


def stage_summary(
    before: dict[str, dict[float, float]], after: dict[str, dict[float, float]]
) -> dict[str, dict[str, float]]:
    """Per stage inside the window: count, mean, and p50/p95 interpolated in the buckets."""
    out: dict[str, dict[str, float]] = {}
    for stage, series in after.items():
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


async def run_load(
    config: LoadConfig, disrupt: Callable[[], Awaitable[None]] | None = None
) -> Result:
    """Run one load configuration to completion (bounded) and summarise it."""
    return await Run(config).execute(disrupt)


def render_text(result: Result) -> str:
    """A short human summary of one run (the scenario runner writes the tables)."""
    lines = [
        f"== {result.label or 'load'}: {result.sockets} sockets, window {result.window_seconds} s"
    ]
    lines.append(
        f"actions/s {result.actions_per_second}  deliveries/s {result.deliveries_per_second}"
        f"  server CPU {result.server_cpu_share} (waiting for a core "
        f"{result.server_wait_share})  deliveries/CPU-s "
        f"{result.deliveries_per_cpu_second}  client CPU {result.client_cpu_share}"
    )
    for cls, figures in result.latency_ms.items():
        lines.append(f"  {cls:<10} {figures}")
    for stage, figures in result.stages_ms.items():
        lines.append(f"  stage {stage:<11} {figures}")
    lines.append(
        f"  bytes/delivery text {result.bytes_per_delivery_text} wire "
        f"{result.bytes_per_delivery_wire}  RSS MB {result.rss_mb}"
    )
    lines.append(f"  gate passed={result.gate['passed']} {result.gate}  errors {result.errors}")
    if result.reconnect_ms.get("n"):
        lines.append(f"  reconnects {result.reconnect_ms}")
    lines.extend(f"  note: {n}" for n in result.notes)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--rate", type=float, default=1.0, help="actions/s per match; 0: max")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--no-compression", action="store_true")
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
        pids=args.pid,
        metrics_urls=args.metrics,
    )
    result = asyncio.run(run_load(config))
    print(render_text(result))
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=2))


if __name__ == "__main__":
    main()
