"""Sockets per match and per-audience rendering.

Each version is rendered once per audience present (each seat, spectators), encoded
once, and queued to every socket of that audience, in version order. A room's pump
is woken by the bus ("match M at version v") and reads the new steps from the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

from app.config import LimitSettings
from app.db.models import MatchStatus
from app.games.base import Game, Viewer
from app.matches.records import MatchSummary, Position, Step
from app.matches.service import MatchService
from app.observability import metrics
from app.observability.logging import match_context
from app.realtime import protocol
from app.realtime.compression import Encoded
from app.realtime.drain import Drain
from app.realtime.outbox import Outbox
from app.realtime.pubsub import Bus, MemoryBus
from app.realtime.throttle import Guard, MemoryGuard

log = logging.getLogger(__name__)

PRESENCE_COALESCE_SECONDS = 0.5
"""Spectator-count changes within this interval share one presence frame."""


@dataclass(eq=False)
class Member:
    """One socket in a room: who it is and where its frames go."""

    match_id: str
    viewer: Viewer
    outbox: Outbox
    compress: bool = False
    """The socket asked for large frames compressed (compression.py)."""

    def send(self, frame: Encoded) -> None:
        self.outbox.push_encoded(frame, self.compress)


@dataclass(eq=False)
class Room:
    """The sockets of one match on this worker and the last version they were sent."""

    match_id: str
    members: list[Member] = field(default_factory=list)
    position: Position | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pump: asyncio.Task[None] | None = None
    presence: str = ""
    presence_due: asyncio.TimerHandle | None = None
    presence_changed: bool = False
    """Who is here changed since the last presence frame: the next wake sends one, even
    if it also carries new versions (else a busy match hides it until a heartbeat)."""
    told: int = 0
    """The highest version the bus announced for this match."""
    clocked: bool = False
    """The match has a turn timer: each new version is followed by a clock frame."""
    clock_sent: tuple[int, str | None] | None = None
    fresh: dict[Viewer, tuple[int, Encoded]] = field(default_factory=dict)
    """Per audience, the catch-up frame of a version without events: a crowd that
    (re)connects at the current version costs one render, not one per socket."""
    summary: tuple[float, MatchSummary] | None = None
    """The last summary read, and when (loop time): reused by joins for a moment."""

    def wake_for_presence(self) -> None:
        self.presence_due = None
        self.presence_changed = True
        self.wake.set()

    def spectators(self) -> int:
        return sum(1 for m in self.members if m.viewer is None)

    def seat_sockets(self) -> Counter[str]:
        return Counter(m.viewer for m in self.members if m.viewer is not None)


class Hub:
    def __init__(
        self,
        service: MatchService,
        limits: LimitSettings,
        bus: Bus | None = None,
        *,
        guard: Guard | None = None,
    ) -> None:
        self._service = service
        self._limits = limits
        self._rooms: dict[str, Room] = {}
        self._bus = bus or MemoryBus()  # told which matches have sockets here
        self.guard = guard or MemoryGuard(limits)  # per-IP limits: sockets and REST joins
        self.drain = Drain()  # actions in flight, settled before shutdown (drain.py)
        self.open_sockets: set[Outbox] = set()
        self.closing: tuple[int, str] | None = None
        """Set by ``close_sockets``: a socket that arrives later is closed the same way."""
        """Every socket being served here, in a room or not yet (connection.py)."""

    def on_version(self, match_id: str, version: int) -> None:
        """Bus listener: wake the room's pump; it reads what changed from the service."""
        room = self._rooms.get(match_id)
        if room is not None:
            room.told = max(room.told, version)
            room.wake.set()

    @contextlib.contextmanager
    def serving(self, outbox: Outbox) -> Iterator[None]:
        """Count a socket as open from its accept to its end, including the awaits before
        its connection serves (the per-address check): ``close_sockets`` must reach it."""
        self.open_sockets.add(outbox)
        try:
            yield
        finally:
            self.open_sockets.discard(outbox)

    def flushed(self) -> bool:
        """Every socket's send queue is empty (for the drain before shutdown)."""
        return all(
            m.outbox.idle or m.outbox.overflowed for r in self._rooms.values() for m in r.members
        )

    def has_room(self, match_id: str) -> bool:
        """Some socket of this match is here: the match exists."""
        return match_id in self._rooms

    def spectators(self, match_id: str) -> int:
        room = self._rooms.get(match_id)
        return room.spectators() if room else 0

    def held_seats(self) -> list[tuple[str, str]]:
        """(match id, seat) of every seat with a socket on this worker: the presence lease
        the clock keeper renews, so a seat whose worker died is seen gone (clocks.py)."""
        return [(r.match_id, seat) for r in self._rooms.values() for seat in r.seat_sockets()]

    async def join(
        self,
        match_id: str,
        viewer: Viewer,
        outbox: Outbox,
        since: int | None,
        compress: bool = False,
    ) -> Member:
        """Welcome the socket, send it what it missed since ``since``, then live updates."""
        member = Member(match_id, viewer, outbox, compress)
        while True:
            room = self._rooms.setdefault(match_id, Room(match_id))
            try:
                async with room.lock:
                    if self._rooms.get(match_id) is not room:
                        continue  # emptied and dropped while we waited: take a fresh room
                    await self._admit(room, member, since)
                    break
            finally:
                self._drop_if_empty(room)
        metrics.CONNECTIONS.inc()
        await self._mark_connected(room, viewer, True)
        return member

    async def _admit(self, room: Room, member: Member, since: int | None) -> None:
        if room.position is None:
            room.position = await self._service.position(room.match_id)
            room.clocked = await self._service.clock(room.match_id) is not None
            room.pump = asyncio.create_task(self._pump(room), context=match_context(room.match_id))
            self._bus.watch(room.match_id)
        summary = await self._summary(room)
        spectators = room.spectators() + (member.viewer is None)
        match = protocol.summary_json(summary, spectators)
        member.outbox.push(protocol.encode(protocol.welcome_frame(member.viewer, match)))
        await self._catch_up(room, member, since)
        room.members.append(member)
        if room.clocked:
            await self._send_clock(room, [member])

    def _drop_if_empty(self, room: Room) -> None:
        if room.members or self._rooms.get(room.match_id) is not room:
            return
        del self._rooms[room.match_id]
        if room.pump is not None:
            room.pump.cancel()
            self._bus.unwatch(room.match_id)

    async def leave(self, member: Member) -> None:
        room = self._rooms.get(member.match_id)
        if room is None or member not in room.members:
            return
        room.members.remove(member)
        metrics.CONNECTIONS.dec()
        self._drop_if_empty(room)
        await self._mark_connected(room, member.viewer, False)

    async def resync(self, member: Member) -> None:
        """A fresh full view for one socket (after ``stale_version``)."""
        room = self._rooms.get(member.match_id)
        if room is None or room.position is None:
            return
        async with room.lock:
            await self._catch_up(room, member, room.position.version)

    async def close_sockets(self, code: int, reason: str, timeout: float) -> None:
        """Close every open socket with ``code`` and wait (at most ``timeout``) for them to
        end. Closing from here is a closing handshake: the peer's reply is read before the
        connection ends. Closed by the server's shutdown instead, a socket that still had
        unread frames from its client was reset, and the client never saw the code
        (docs/reliability.md §6). Sockets that have not said hello yet are included."""
        self.closing = (code, reason)
        await asyncio.gather(*(o.close(code, reason) for o in list(self.open_sockets)))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.open_sockets and loop.time() < deadline:
            await asyncio.sleep(0.02)

    async def close(self) -> None:
        for room in list(self._rooms.values()):
            if room.pump is not None:
                room.pump.cancel()
        self._rooms.clear()

    async def _catch_up(self, room: Room, member: Member, since: int | None) -> None:
        """Events after ``since`` from the log, or a bare full view when the gap is too big."""
        position = room.position
        assert position is not None
        gap = position.version - since if since is not None else -1
        if 0 < gap <= self._limits.resend_max_versions and since is not None:
            events = await self._service.missed_events(position.match_id, since, position.version)
            step = Step(position.version, position.state, tuple(events))
            member.send(Encoded(render(position.game, step, member.viewer)))
            return
        cached = room.fresh.get(member.viewer)
        if cached is None or cached[0] != position.version:
            step = Step(position.version, position.state, ())
            cached = (position.version, Encoded(render(position.game, step, member.viewer)))
            room.fresh[member.viewer] = cached
        member.send(cached[1])

    async def _summary(self, room: Room) -> MatchSummary:
        """The match summary for a welcome frame: a recent read of the room's version is
        reused (a crowd joining within ``PRESENCE_COALESCE_SECONDS`` shares one)."""
        assert room.position is not None
        now = asyncio.get_running_loop().time()
        if room.summary is not None:
            read_at, summary = room.summary
            recent = now - read_at < PRESENCE_COALESCE_SECONDS
            if recent and summary.version == room.position.version:
                return summary
        return await self._fresh_summary(room)

    async def _fresh_summary(self, room: Room) -> MatchSummary:
        """The summary read now, after the state frames up to its version were queued.

        A status never runs ahead of the state frames: a socket told "finished" before it
        got the final state would believe the game ended one move early.
        """
        assert room.position is not None
        summary = await self._service.summary(room.match_id)
        for _ in range(3):  # each round only catches up with commits made meanwhile
            if summary.version <= room.position.version:
                break
            room.told = max(room.told, summary.version)
            await self._steps(room)
            room.wake.set()  # the pump then tells the room's sockets the new status
            summary = await self._service.summary(room.match_id)
        summary = as_of(summary, room.position.version)
        room.summary = (asyncio.get_running_loop().time(), summary)
        return summary

    async def _mark_connected(self, room: Room, viewer: Viewer, connected: bool) -> None:
        """Seat presence lives in the DB (a flag per seat); spectators are counted here.

        A seat's change is announced at once. A spectator count is announced at most once
        per ``PRESENCE_COALESCE_SECONDS``: otherwise a crowd of n joining (or reconnecting)
        costs n presence frames to each of n sockets (bench/scenarios.py S2, S3).
        """
        if viewer is None:
            if room.presence_due is None:
                loop = asyncio.get_running_loop()
                room.presence_due = loop.call_later(
                    PRESENCE_COALESCE_SECONDS, room.wake_for_presence
                )
            return
        first_or_last = 1 if connected else 0
        if room.seat_sockets()[viewer] == first_or_last:
            with contextlib.suppress(Exception):
                await self._service.set_connected(room.match_id, viewer, connected)
        room.presence_changed = True
        room.wake.set()

    async def _pump(self, room: Room) -> None:
        """Advance on each notification, and every heartbeat anyway: a lost bus message
        (a Redis reconnect) then delays a version by one heartbeat instead of losing it."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.wake.wait(), self._limits.heartbeat_seconds)
            room.wake.clear()
            try:
                async with room.lock:
                    await self._advance(room)
            except Exception:  # keep the room alive and retry: the DB may be back soon
                log.warning("room %s could not advance", room.match_id, exc_info=True)
                await asyncio.sleep(0.5)
                room.wake.set()

    async def _advance(self, room: Room) -> None:
        assert room.position is not None
        status, moved = room.position.status, await self._steps(room)
        if not moved or room.position.status != status or room.presence_changed:
            room.presence_changed = False
            await self._refresh_presence(room)
        if room.clocked:
            await self._send_clock(room, room.members, only_if_changed=True)

    async def _steps(self, room: Room) -> bool:
        """Send every version after the room's, up to at least ``told``; False if none."""
        assert room.position is not None
        progress = await self._service.progress(room.position, room.told)
        for step in progress.steps:
            self._broadcast(room, step)
            room.position = replace(room.position, version=step.version, state=step.state)
        room.position = replace(room.position, status=progress.status)
        return bool(progress.steps)

    async def _send_clock(
        self, room: Room, members: list[Member], only_if_changed: bool = False
    ) -> None:
        """The turn timer after the state frames: its deadline moves with each version."""
        clock = await self._service.clock(room.match_id)
        if clock is None:
            return
        key = (clock.version, clock.deadline.isoformat() if clock.deadline else None)
        if only_if_changed and key == room.clock_sent:
            return
        room.clock_sent = key
        text = protocol.encode(protocol.clock_frame(clock, datetime.now(UTC)))
        for member in members:
            member.outbox.push(text)

    def _broadcast(self, room: Room, step: Step) -> None:
        """Render (and compress) each audience present once, and queue it to its sockets."""
        assert room.position is not None
        rendered: dict[Viewer, Encoded] = {}
        timer = metrics.FanoutTimer(room.match_id, step.version)
        for member in room.members:
            if member.viewer not in rendered:
                rendered[member.viewer] = Encoded(render(room.position.game, step, member.viewer))
            member.send(rendered[member.viewer])
            timer.sent()
        timer.done()

    async def _refresh_presence(self, room: Room) -> None:
        summary = await self._fresh_summary(room)
        frame = protocol.presence_frame(protocol.summary_json(summary, room.spectators()))
        text = protocol.encode(frame)
        if text != room.presence:
            room.presence = text
            for member in room.members:
                member.outbox.push(text)


def as_of(summary: MatchSummary, version: int) -> MatchSummary:
    """``summary`` as it stood at ``version``, the last state frame sent.

    Under load the commits of a busy match can outrun the catch-up rounds above; the
    summary then describes a version the sockets have not been sent yet. A version with a
    successor was being played, so it is reported active, with no outcome: the pump sends
    the newer versions and then the new status.
    """
    if summary.version <= version:
        return summary
    return replace(summary, version=version, status=MatchStatus.ACTIVE, outcome=None)


def render(game: Game, step: Step, viewer: Viewer) -> str:
    """The state frame of ``step`` as ``viewer`` may see it: their view, redacted events."""
    shown = [r for e in step.events if (r := game.redact(e, viewer)) is not None]
    view = game.view(step.state, viewer)
    return protocol.encode(protocol.state_frame(step.version, view, shown))
