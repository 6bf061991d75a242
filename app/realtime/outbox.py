"""A socket's bounded send queue: fan-out never waits for a slow client.

A client that falls ``limit`` frames behind is dropped: its queue is discarded, its
connection leaves the room (``on_drop`` is called) and the server tries to say 1013 ("try
again later"). It reconnects with its last version and catches up from the action log.
Closing never waits for the peer for more than ``CLOSE_WAIT_SECONDS``: a reader that
does not read cannot hold a task of ours either.

With a ``DirectWriter`` (wire.py), a frame pushed while nothing is queued or being sent is
written to the transport at once, without a hop through the send task; anything else (a
backlog, a paused transport, a closing socket) takes the queue, so order and backpressure
are those of the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Protocol

from app.realtime.compression import Encoded
from app.realtime.wire import DirectWriter, frame_bytes

TRY_AGAIN_LATER = 1013
CLOSE_WAIT_SECONDS = 1.0


class TextSocket(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def send_bytes(self, data: bytes) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Outbox:
    """Frames for one socket, in order. The sender task exists only while frames wait:
    a worker holds thousands of idle sockets, and each task and queue is memory
    (docs/benchmarks.md)."""

    def __init__(self, socket: TextSocket, limit: int, direct: DirectWriter | None = None) -> None:
        self._socket = socket
        self._direct = direct
        self._limit = limit
        self._queue: list[str | bytes] = []  # at most ``limit``; smaller than a deque
        self._task: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self._stopped = False
        self.overflowed = False
        self.on_drop: Callable[[], None] | None = None
        """Called once when the socket is dropped (the receive loop stops waiting)."""
        self._sending = False

    @property
    def idle(self) -> bool:
        """Nothing queued and nothing being written: what was pushed has left (drain.py)."""
        return not self._queue and not self._sending

    def start(self) -> None:
        """Accept frames (the sender starts with the first frame that has to wait)."""
        self._stopped = False

    def push(self, frame: str | bytes) -> None:
        """Send a frame (bytes: a compressed one, sent as a binary message); on overflow
        drop the socket rather than block the whole match."""
        if self._direct is not None and self.idle and not self.overflowed:  # noqa: SIM102
            if self._direct.write(frame_bytes(frame)):
                return
        self._enqueue(frame)

    def push_encoded(self, frame: Encoded, compress: bool) -> None:
        """Send one audience's frame; written directly, its wire bytes are built once for
        every socket of the audience."""
        if self._direct is not None and self.idle and not self.overflowed:  # noqa: SIM102
            if self._direct.write(frame.wire(compress)):
                return
        self._enqueue(frame.for_socket(compress))

    def _enqueue(self, frame: str | bytes) -> None:
        if self.overflowed or self._stopped:
            return
        if len(self._queue) >= self._limit:
            self.overflowed = True
            self._queue.clear()
            if self.on_drop is not None:
                self.on_drop()
            if self._task is not None:
                self._task.cancel()
            self._closer = asyncio.create_task(self.close(TRY_AGAIN_LATER, "client too slow"))
            return
        self._queue.append(frame)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())

    async def stop(self) -> None:
        """Send what is queued (briefly), then accept nothing more."""
        self._stopped = True
        if self._task is None or self._task.done():
            return
        try:
            await asyncio.wait_for(asyncio.shield(self._task), timeout=1.0)
        except (TimeoutError, asyncio.CancelledError, Exception):
            self._task.cancel()

    async def close(self, code: int, reason: str) -> None:
        """Close with ``code``, unless the peer's buffers are full: then give up quickly."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._socket.close(code=code, reason=reason), CLOSE_WAIT_SECONDS)

    async def _drain(self) -> None:
        """Send the backlog in order; end when it is empty (the next backlog starts anew)."""
        while self._queue:
            frame = self._queue.pop(0)
            self._sending = True
            try:
                if isinstance(frame, bytes):
                    await self._socket.send_bytes(frame)
                else:
                    await self._socket.send_text(frame)
            except Exception:  # the peer is gone; the receive loop will notice
                self._queue.clear()
                return
            finally:
                self._sending = False
