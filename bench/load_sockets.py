"""The load client's sockets: one viewer per WebSocket and one driver per match.

Split from bench/load.py, which configures a run and summarises it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.realtime.compression import DEFLATE_RAW, inflate_raw

if TYPE_CHECKING:
    from bench.load import Run

try:  # the client shares the machine with the server: parse cheaply where it can
    import orjson

    loads: Callable[[str | bytes], Any] = orjson.loads
except ImportError:  # pragma: no cover - orjson is optional for the client
    loads = json.loads

STATE_PREFIX = '{"type":"state","version":'


def as_text(data: str | bytes) -> str:
    """A frame's JSON text; binary frames are raw DEFLATE (docs/protocol.md §3.4)."""
    return data if isinstance(data, str) else inflate_raw(data)


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
        if self.run.config.app_compression:
            hello["compress"] = DEFLATE_RAW
        await ws.send(json.dumps(hello))
        async with asyncio.timeout(30):
            while True:
                text = as_text(await ws.recv())
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
            async for data in ws:
                self.receive(as_text(data))
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
        self.done_parts: dict[int, set[str]] = {}  # version -> {"acked", "delivered"} so far
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
            self.actor.pop(version, None)
            self.run.sample("all", (now - sent) * 1000)
            self.forget_when_done(version, "delivered")
        else:
            self.waiting[version] = left

    def forget_when_done(self, version: int, part: str) -> None:
        """Drop the send time once both the ack and every delivery of ``version`` came:
        either may arrive first (docs/protocol.md §3.2)."""
        parts = self.done_parts.setdefault(version, set())
        parts.add(part)
        if parts >= {"acked", "delivered"}:
            self.done_parts.pop(version, None)
            self.sent.pop(version, None)

    def acked(self, client_id: str, version: int, now: float) -> None:
        if client_id != self.pending_id or self.ack is None or self.ack.done():
            return
        self.version = max(self.version, version)
        sent = self.sent.get(version)
        if sent is not None and self.run.measuring:
            self.run.sample("ack", (now - sent) * 1000)
            self.run.actions += 1
        if sent is not None:
            self.forget_when_done(version, "acked")
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
