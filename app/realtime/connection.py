"""One WebSocket from hello to close: frames in, service calls, frames out.

Every refusal is an ``error`` frame and the socket stays usable; only an idle
socket (no frame for ``idle_timeout_seconds``) or a too-slow reader is closed.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from app.config import LimitSettings
from app.matches import errors
from app.matches.service import MatchService
from app.realtime import protocol
from app.realtime.hub import Hub, Member
from app.realtime.outbox import Outbox
from app.realtime.throttle import Guard, TokenBucket
from app.realtime.wire import direct_writer

GOING_AWAY = 1001
log = logging.getLogger(__name__)


class Connection:
    def __init__(
        self,
        websocket: WebSocket,
        match_id: str,
        service: MatchService,
        hub: Hub,
        limits: LimitSettings,
        address: str = "",
    ) -> None:
        self._ws = websocket
        self._match_id = match_id
        self._service = service
        self._hub = hub
        self._limits = limits
        self._address = address
        self._guard: Guard = hub.guard
        self._outbox = Outbox(websocket, limits.send_queue_frames, direct_writer(websocket.scope))
        self._bucket = TokenBucket(limits.rate_per_second, limits.rate_burst)
        self._hellos = TokenBucket(limits.join_rate_per_second, limits.socket_join_burst)
        self._member: Member | None = None
        self._receiving: asyncio.Task[Any] | None = None  # waiting for the next frame
        self._interrupted = False  # _stop_receiving cancelled that wait

    @property
    def outbox(self) -> Outbox:
        return self._outbox

    async def serve(self) -> None:
        """Receive frames until the peer leaves, goes idle or is dropped as too slow;
        always leave the room, so a dropped laggard costs the match nothing more."""
        self._outbox.on_drop = self._stop_receiving
        self._outbox.start()
        if self._hub.closing is not None:  # the worker is stopping: reconnect elsewhere
            await self._outbox.close(*self._hub.closing)
            while await self._receive() is not None:
                pass  # read up to the peer's close reply: a closing handshake, not a reset
            return
        try:
            while (text := await self._receive()) is not None:
                await self._handle(text)
        finally:
            if self._member is not None:
                await self._hub.leave(self._member)
            await self._outbox.stop()

    def _stop_receiving(self) -> None:
        """The outbox dropped this socket: stop waiting for its next frame. A frame being
        handled is not interrupted (an action may be committing); the loop stops after it."""
        if self._receiving is not None:
            self._interrupted = True
            self._receiving.cancel()

    async def _receive(self) -> str | None:
        """The next frame's text; None once the peer left, went idle or was dropped.

        Awaited in the serving task itself, with no helper task per frame or per socket:
        a worker holds thousands of idle sockets, and each task is memory the garbage
        collector walks (app/gc_freeze.py).
        """
        if self._outbox.overflowed:
            return None
        task = asyncio.current_task()
        self._receiving = task
        try:
            async with asyncio.timeout(self._limits.idle_timeout_seconds):
                message = await self._ws.receive()
        except TimeoutError:  # idle: the outbox closes with its own bounded wait
            await self._outbox.close(GOING_AWAY, "idle")
            return None
        except asyncio.CancelledError:
            if self._interrupted and task is not None and task.uncancel() == 0:
                return None  # our own cancel (dropped); anything else stays a cancel
            raise
        except WebSocketDisconnect:
            return None
        finally:
            self._receiving = None
        if message["type"] == "websocket.disconnect":
            return None
        if message.get("text") is not None:
            return str(message["text"])
        data = message.get("bytes") or b""
        return data.decode("utf-8", errors="replace")

    async def _handle(self, text: str) -> None:
        try:
            frame = protocol.parse_frame(text, self._limits.max_frame_bytes)
            if isinstance(frame, protocol.Ping):
                self._outbox.push(protocol.PONG)
            elif isinstance(frame, protocol.Hello):
                await self._hello(frame)
            elif self._hub.drain.draining:
                return  # shutting down: unanswered, so the client resends it elsewhere
            else:
                with self._hub.drain.action():
                    await self._act(frame)
        except errors.MatchError as exc:
            self._refuse(exc, text)
            if isinstance(exc, errors.StaleVersion) and self._member is not None:
                await self._hub.resync(self._member)
        except Exception:
            log.exception("frame failed on match %s", self._match_id)
            self._refuse(errors.InternalError(), text)

    def _refuse(self, error: errors.MatchError, text: str) -> None:
        frame = protocol.error_frame(error, frame_id_of(text, error))
        self._outbox.push(protocol.encode(frame))

    async def _hello(self, frame: protocol.Hello) -> None:
        if self._member is not None:
            raise errors.BadFrame("This socket has already said hello.")
        if not self._hellos.take():  # a socket guessing secrets gets a few tries, then waits
            raise errors.JoinRateLimited("Too many hello frames on this socket; wait a moment.")
        await self._guard.check_join(self._address)
        if frame.secret is None and self._hub.has_room(self._match_id):
            viewer = None  # a spectator of a match this worker already serves: it exists
        else:
            viewer = await self._service.authenticate(self._match_id, frame.secret)
        compress = frame.compress is not None
        self._member = await self._hub.join(
            self._match_id, viewer, self._outbox, frame.version, compress
        )

    async def _act(self, frame: protocol.Act) -> None:
        if self._member is None:
            raise errors.BadFrame("The first frame must be hello.")
        throttled: errors.MatchError | None = errors.RateLimited()
        if self._bucket.take():  # the socket's budget first, then its address's
            throttled = await self._guard.check_action(self._address)
        ack = await self._service.act(
            self._match_id,
            self._member.viewer,
            frame.id,
            frame.version,
            frame.action,
            rate_limited=throttled or False,
        )
        self._outbox.push(protocol.encode(protocol.ack_frame(ack.id, ack.version)))


def frame_id_of(text: str, error: errors.MatchError) -> str | None:
    """The client id to echo in an error: unknown for an oversized frame (never parsed)."""
    if isinstance(error, errors.FrameTooLarge):
        return None
    return protocol.frame_id(text)
