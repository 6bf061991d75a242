"""A load driver for fault tests: many matches, each seat a resilient WebSocket client.

Each seat plays ``take 1`` whenever it is its turn and behaves as a careful client
should (docs/protocol.md): it keeps its last version, reconnects with it after any
drop (rotating over the workers it knows), and resends its one unacknowledged action
with the same id. The driver then checks the invariants of issue 6 against the
database: acknowledged actions lost = 0, duplicates = 0, every client in sync.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from sqlalchemy import select
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.db.models import Action, Match
from app.db.session import create_engine, create_session_factory

TAKE_1 = {"type": "take", "amount": 1}
Urls = Callable[[], Sequence[str]]
"""The base ws:// URLs of the workers alive now; a client picks among them."""


@dataclass
class Pending:
    id: str
    version: int
    sent_at: float


@dataclass
class SeatClient:
    """One seat's client. ``acked`` maps each acknowledged id to its version."""

    match_id: str
    seat: str
    secret: str | None
    urls: Urls
    version: int | None = None
    view: dict[str, Any] = field(default_factory=dict)
    status: str = "active"
    pending: Pending | None = None
    acked: dict[str, int] = field(default_factory=dict)
    ack_times: list[float] = field(default_factory=list)  # monotonic time of each ack
    connects: list[float] = field(default_factory=list)  # monotonic time of each welcome
    drops: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    ws: ClientConnection | None = None
    synced: bool = False  # a state frame arrived since the last welcome
    close_codes: list[int | None] = field(default_factory=list)  # how each socket ended
    endings: list[int | str | None] = field(default_factory=list)
    """Each session's end in order: the close code received, "finished" (match over), or
    the name of the error that ended it without a close frame."""
    acted_at: int = -1  # the version of the newest action this seat created
    resent: str | None = None  # the id resent right after the last hello
    catch_up: int | None = None  # the version of the first state frame after that hello
    acks_lost: int = 0  # actions committed on a socket that closed before their ack came
    trail: deque[str] = field(default_factory=lambda: deque(maxlen=12))
    """The last frames and session ends, to say how a straggler got out of sync."""

    @property
    def done(self) -> bool:
        return self.status not in ("active", "lobby") and self.pending is None and self.synced

    async def run(self, stop_at: float) -> None:
        while not self.done and time.monotonic() < stop_at:
            base = random.choice(list(self.urls()) or [""])
            try:
                async with connect(
                    f"{base}/ws/matches/{self.match_id}",
                    open_timeout=3,
                    ping_interval=None,
                    max_size=2**22,
                ) as ws:
                    self.ws = ws
                    await self._session(ws, stop_at)
                    if self.done:
                        self.endings.append("finished")
            except ConnectionClosed as closed:
                self.close_codes.append(closed.rcvd.code if closed.rcvd else None)
                self.endings.append(self.close_codes[-1])
                self.trail.append(f"closed:{self.close_codes[-1]}")
                self.drops += 1
                await asyncio.sleep(random.uniform(0.05, 0.3))
            except Exception as exc:
                self.endings.append(type(exc).__name__)  # ended without a close code
                self.drops += 1
                await asyncio.sleep(random.uniform(0.05, 0.3))
            finally:
                self.ws = None

    async def _session(self, ws: ClientConnection, stop_at: float) -> None:
        hello = {"type": "hello", "secret": self.secret, "version": self.version}
        await ws.send(json.dumps(hello))
        self.resent, self.catch_up = None, None
        if self.pending is not None:  # resend the unacknowledged action, same id
            self.resent = self.pending.id
            await self._send(ws, self.pending)
        while not self.done and time.monotonic() < stop_at:
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=2.0)
            except TimeoutError:
                if self.pending is not None:  # no answer: resend (an ack may be lost)
                    await self._send(ws, self.pending)
                continue
            await self._on_frame(ws, json.loads(text))

    async def _on_frame(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        match = frame.get("match", {})
        detail = frame.get("version", frame.get("status", frame.get("code", match.get("status"))))
        self.trail.append(f"{kind}:{detail}")
        if kind == "welcome":
            self.connects.append(time.monotonic())
            self.status, self.synced = frame["match"]["status"], False
        elif kind == "state":
            self.version, self.view, self.synced = frame["version"], frame["view"], True
            self.catch_up = frame["version"] if self.catch_up is None else self.catch_up
        elif kind == "presence":
            self.status = frame["status"]
        elif kind == "ack":
            if frame["id"] == self.resent and frame["version"] <= (self.catch_up or -1):
                self.acks_lost += 1  # committed before the drop: the catch-up already had it
            if self.pending is not None and frame["id"] == self.pending.id:
                self.pending = None
            self.acked[frame["id"]] = frame["version"]
            self.ack_times.append(time.monotonic())
        elif kind == "error":
            await self._on_error(ws, frame)
        if self.pending is None and self.status == "active" and self._my_turn():
            self.acted_at = int(self.version or 0)
            self.pending = Pending(str(uuid.uuid4()), self.acted_at, time.monotonic())
            await self._send(ws, self.pending)

    async def _on_error(self, ws: ClientConnection, frame: dict[str, Any]) -> None:
        code = frame["code"]
        self.errors[code] = self.errors.get(code, 0) + 1
        if self.pending is None or frame.get("id") != self.pending.id:
            return
        if code in ("stale_version", "not_your_decision", "match_finished"):
            self.pending = None  # never committed: the guard ran before any write
        else:  # internal_error (a database away), rate limits: same id again, a bit later
            await asyncio.sleep(0.2)
            await self._send(ws, self.pending)

    def _my_turn(self) -> bool:
        """The view offers a move, and it is newer than the last one this seat acted on."""
        fresh = self.synced and (self.version or 0) > self.acted_at
        return fresh and bool(self.view.get("legal_actions")) and self.view.get("winner") is None

    async def _send(self, ws: ClientConnection, pending: Pending) -> None:
        frame = {"type": "act", "id": pending.id, "version": pending.version, "action": TAKE_1}
        await ws.send(json.dumps(frame))


@dataclass
class MatchRun:
    match_id: str
    seats: list[SeatClient]
    spectator: SeatClient


async def create_matches(http_base: str, count: int, start: int, urls: Urls) -> list[MatchRun]:
    runs = []
    async with httpx.AsyncClient(base_url=http_base, timeout=10) as http:
        for _ in range(count):
            body = {"game": "countdown", "options": {"start": start}, "seat": "north"}
            made = (await http.post("/api/matches", json=body)).json()
            joined = (await http.post(f"/api/matches/{made['match_id']}/seats", json={})).json()
            match_id = made["match_id"]
            seats = [
                SeatClient(match_id, "north", made["secret"], urls),
                SeatClient(match_id, "south", joined["secret"], urls),
            ]
            runs.append(MatchRun(match_id, seats, SeatClient(match_id, "-", None, urls)))
    return runs


async def play_all(runs: list[MatchRun], stop_at: float) -> list[asyncio.Task[None]]:
    tasks = []
    for run in runs:
        for client in [*run.seats, run.spectator]:
            tasks.append(asyncio.create_task(client.run(stop_at)))
    return tasks


async def drop_all(runs: list[MatchRun]) -> None:
    """Every socket closes at once (a network blip): the clients come straight back."""
    for run in runs:
        for client in [*run.seats, run.spectator]:
            if client.ws is not None:
                with contextlib.suppress(Exception):
                    client.ws.transport.abort()


def progressed_since(runs: list[MatchRun], moment: float) -> float | None:
    """When every unfinished match had an ack again after ``moment`` (None: not yet)."""
    latest = moment
    for run in runs:
        times = [t for c in run.seats for t in c.ack_times if t > moment]
        if not times:
            if all(c.done for c in run.seats):
                continue
            return None
        latest = max(latest, min(times))
    return latest


@dataclass
class Verdict:
    acknowledged: int
    committed: int
    lost: int
    duplicates: int
    out_of_sync: int
    unfinished: int
    reconnects: int
    errors: dict[str, int]
    stragglers: list[str] = field(default_factory=list)  # who ended out of sync, and how


async def verdict(database_url: str, runs: list[MatchRun]) -> Verdict:
    """Compare what clients were told with what the database holds."""
    engine = create_engine(database_url)
    try:
        async with create_session_factory(engine)() as session:
            ids = [r.match_id for r in runs]
            rows = (await session.execute(select(Action).where(Action.match_id.in_(ids)))).scalars()
            log: dict[str, dict[str, int]] = {i: {} for i in ids}
            duplicates = 0
            for row in rows:
                if row.client_action_id in log[row.match_id]:
                    duplicates += 1
                log[row.match_id][row.client_action_id] = row.seq
            matches = (await session.execute(select(Match).where(Match.id.in_(ids)))).scalars()
            final = {m.id: (m.version, m.status) for m in matches}
    finally:
        await engine.dispose()
    lost = acknowledged = out_of_sync = unfinished = reconnects = 0
    errors: dict[str, int] = {}
    stragglers: list[str] = []
    for run in runs:
        acked: dict[str, int] = {}
        for client in run.seats:
            acked |= client.acked
        acknowledged += len(acked)
        lost += sum(1 for i, v in acked.items() if log[run.match_id].get(i) != v)
        duplicates += len(set(log[run.match_id]) - set(acked))  # effects nobody asked for twice
        seqs = sorted(log[run.match_id].values())
        duplicates += len(seqs) - len(set(seqs))
        version, status = final[run.match_id]
        unfinished += status != "finished"
        for client in [*run.seats, run.spectator]:
            if client.version != version:
                out_of_sync += 1
                stragglers.append(_straggler(client, version, status))
            reconnects += max(0, len(client.connects) - 1)
            for code, n in client.errors.items():
                errors[code] = errors.get(code, 0) + n
    committed = sum(len(entries) for entries in log.values())
    return Verdict(
        acknowledged,
        committed,
        lost,
        duplicates,
        out_of_sync,
        unfinished,
        reconnects,
        errors,
        stragglers,
    )


def _straggler(client: SeatClient, version: int, status: str) -> str:
    return (
        f"{client.match_id[:8]}/{client.seat}: v{client.version} {client.status}"
        f" synced={client.synced} connects={len(client.connects)} drops={client.drops}"
        f" (database v{version} {status}); last frames: {' '.join(client.trail)}"
    )
