"""Fan-out: one rendering per audience and version; slow sockets are dropped, not waited for."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest

from app.config import LimitSettings
from app.matches.records import MatchSummary, Position, Progress, Step
from app.realtime.hub import PRESENCE_COALESCE_SECONDS, Hub
from app.realtime.outbox import TRY_AGAIN_LATER, Outbox
from app.realtime.pubsub import MemoryBus
from tests.realtime.conftest import Table, open_table
from tests.support import countdown
from tests.support.client import Client
from tests.support.server import LiveServer
from tests.support.settings import make_settings


async def test_each_audience_is_rendered_once_per_version(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    clients = [
        await Client.open(table.url, table.north),
        await Client.open(table.url, table.north),
        await Client.open(table.url, table.south),
        await Client.open(table.url),
        await Client.open(table.url),
    ]
    for client in clients:
        await client.quiet(0.1)
    calls: Counter[str | None] = Counter()
    real_view = countdown.view

    def counting_view(state: Any, viewer: str | None) -> dict[str, Any]:
        calls[viewer] += 1
        return real_view(state, viewer)

    monkeypatch.setattr(countdown, "view", counting_view)
    await clients[0].act(0, {"type": "take", "amount": 1})
    for client in clients:
        assert (await client.expect("state"))["version"] == 1
    assert calls == Counter({"north": 1, "south": 1, None: 1})


async def test_a_crowd_joining_at_one_version_is_rendered_once(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The catch-up frame (no events) is kept per audience and version (S2, S3)."""
    first = await Client.open(table.url)
    calls: Counter[str | None] = Counter()
    real_view = countdown.view

    def counting_view(state: Any, viewer: str | None) -> dict[str, Any]:
        calls[viewer] += 1
        return real_view(state, viewer)

    monkeypatch.setattr(countdown, "view", counting_view)
    crowd = [await Client.open(table.url) for _ in range(6)]
    frames = [c.frames[1] for c in crowd]
    assert calls[None] == 0 and all(f == first.frames[1] for f in frames)


class StuckSocket:
    """A peer that never reads: every send blocks."""

    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def send_text(self, data: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = code


async def test_outbox_overflow_closes_the_slow_socket() -> None:
    socket = StuckSocket()
    outbox = Outbox(socket, limit=2)
    outbox.start()
    for n in range(4):
        outbox.push(f"frame {n}")
    await asyncio.sleep(0.05)
    assert outbox.overflowed and socket.closed_with == TRY_AGAIN_LATER
    await outbox.stop()


async def test_memory_bus_calls_every_listener() -> None:
    bus = MemoryBus()
    heard: list[tuple[str, int]] = []
    bus.subscribe(lambda match_id, version: heard.append((match_id, version)))
    await bus.publish("m", 3)
    assert heard == [("m", 3)]


async def test_a_lost_notification_is_caught_up_within_a_heartbeat(sqlite_url: str) -> None:
    """Two workers with no shared bus: the other worker's versions still arrive, in order."""
    settings = make_settings(sqlite_url, heartbeat_seconds=0.3)
    first, second = LiveServer(settings).start(), LiveServer(settings).start()
    try:
        table = await open_table(first)
        north = await Client.open(first.ws(table.match_id), table.north)
        watcher = await Client.open(second.ws(table.match_id))
        assert (await north.act(0, {"type": "take", "amount": 1}))["type"] == "ack"
        assert (await watcher.expect("state", timeout=3))["version"] == 1
    finally:
        first.stop()
        second.stop()


async def test_a_status_never_reaches_a_socket_before_the_state_of_its_version(
    sqlite_url: str,
) -> None:
    """A join that reads the match summary newer than the room's state first sends the
    missing versions: a welcome (or presence) saying "finished" is never followed by the
    state of an earlier version (kill -9 test, 2026-11-30)."""
    settings = make_settings(sqlite_url, heartbeat_seconds=30)
    first, second = LiveServer(settings).start(), LiveServer(settings).start()
    try:
        table = await open_table(first, start=1)
        north = await Client.open(first.ws(table.match_id), table.north)
        early = await Client.open(second.ws(table.match_id), table.south)  # a room at v0
        assert (await north.act(0, {"type": "take", "amount": 1}))["type"] == "ack"
        await asyncio.sleep(PRESENCE_COALESCE_SECONDS + 0.1)  # no summary reuse
        late = await Client.open(second.ws(table.match_id))  # no bus: the room is behind
        welcome, state = late.frames[0], late.frames[1]
        assert (welcome["match"]["status"], state["version"]) == ("finished", 1)
        while (await early.expect("presence"))["status"] != "finished":
            pass
        told = [f.get("version", f.get("status")) for f in early.frames]
        assert told.index(1) < told.index("finished"), told
    finally:
        first.stop()
        second.stop()


class ClosingSocket:
    def __init__(self) -> None:
        self.closed_with: tuple[int, str | None] | None = None

    async def send_text(self, data: str) -> None:
        return None

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.closed_with = (code, reason)


async def test_close_sockets_sends_every_open_socket_the_code_and_waits_at_most_the_timeout() -> (
    None
):
    hub = Hub(service=None, limits=LimitSettings())  # type: ignore[arg-type]
    sockets = [ClosingSocket(), ClosingSocket()]  # say, one in a room, one before its hello
    hub.open_sockets.update(Outbox(s, 4) for s in sockets)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await hub.close_sockets(1012, "server restart", timeout=0.1)
    assert [s.closed_with for s in sockets] == [(1012, "server restart")] * 2
    assert 0.1 <= loop.time() - started < 1.0  # nobody left: it gave up after the timeout


class RecordingSocket:
    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    async def send_text(self, data: str) -> None:
        self.frames.append(json.loads(data))

    async def send_bytes(self, data: bytes) -> None:
        raise AssertionError("nothing is compressed here")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


class OutrunService:
    """A busy match whose commits outrun every catch-up round: the database's summary is
    always one version (the final one) beyond the steps the hub has been given."""

    def __init__(self) -> None:
        self.state = countdown.setup(1, {"start": 40})

    async def position(self, match_id: str) -> Position:
        return Position(match_id, countdown, 39, "active", self.state)  # type: ignore[arg-type]

    async def clock(self, match_id: str) -> None:
        return None

    async def summary(self, match_id: str) -> MatchSummary:
        now = datetime.now(UTC)
        return MatchSummary(match_id, "countdown", "finished", 40, (), {"winner": "north"}, now)

    async def progress(self, known: Position, told: int = 0) -> Progress:
        return Progress("active", ())

    async def set_connected(self, match_id: str, seat: str, connected: bool) -> None:
        return None


async def test_a_welcome_never_reports_a_status_ahead_of_its_state_frame() -> None:
    """Said "finished" with the state of version 39, a client believes the game ended a
    move early (seen under load in the fault tests)."""
    hub = Hub(service=OutrunService(), limits=LimitSettings())  # type: ignore[arg-type]
    socket = RecordingSocket()
    outbox = Outbox(socket, 16)
    await hub.join("m1", None, outbox, since=None)
    while len(socket.frames) < 2:
        await asyncio.sleep(0.01)
    welcome, state = socket.frames[:2]
    await hub.close()
    assert (welcome["type"], state["type"], state["version"]) == ("welcome", "state", 39)
    assert (welcome["match"]["status"], welcome["match"]["version"]) == ("active", 39)
    assert welcome["match"]["outcome"] is None


class BusyService(OutrunService):
    """A match in which every wake of the pump finds a new version to send."""

    def __init__(self) -> None:
        super().__init__()
        self.version = 0

    async def position(self, match_id: str) -> Position:
        return Position(match_id, countdown, 0, "active", self.state)  # type: ignore[arg-type]

    async def summary(self, match_id: str) -> MatchSummary:
        now = datetime.now(UTC)
        return MatchSummary(match_id, "countdown", "active", self.version, (), None, now)

    async def progress(self, known: Position, told: int = 0) -> Progress:
        self.version = known.version + 1
        return Progress("active", (Step(self.version, self.state, ()),))


async def test_a_spectator_joining_a_busy_match_is_announced_without_waiting_for_a_lull() -> None:
    """Every wake carries a new version; the coalesced spectator count still goes out
    (CI, 2026-12-04: a dropped spectator went unannounced for 400 moves)."""
    hub = Hub(service=BusyService(), limits=LimitSettings())  # type: ignore[arg-type]
    player = RecordingSocket()
    await hub.join("m1", "north", Outbox(player, 1000), since=None)
    await hub.join("m1", None, Outbox(RecordingSocket(), 1000), since=None)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PRESENCE_COALESCE_SECONDS + 1.0
    counts: list[int] = []
    while loop.time() < deadline and 1 not in counts:
        hub.on_version("m1", 0)  # a move was made (the service says which)
        await asyncio.sleep(0.02)
        counts = [f["spectators"] for f in player.frames if f["type"] == "presence"]
    await hub.close()
    assert 1 in counts, counts
