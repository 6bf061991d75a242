"""A socket's bounded send queue: fan-out never waits for a slow client.

A client that falls ``limit`` frames behind is disconnected (close code 1013); it
reconnects with its last version and catches up from the action log.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

TRY_AGAIN_LATER = 1013


class TextSocket(Protocol):
    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Outbox:
    def __init__(self, socket: TextSocket, limit: int) -> None:
        self._socket = socket
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(limit)
        self._task: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self.overflowed = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._drain())

    def push(self, text: str) -> None:
        """Queue a frame; on overflow drop the socket rather than block the whole match."""
        if self.overflowed:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            if self._task is not None:
                self._task.cancel()
            self._closer = asyncio.create_task(self._close(TRY_AGAIN_LATER))

    async def stop(self) -> None:
        """Send what is queued (briefly), then stop the sender."""
        if self._task is None or self._task.done():
            return
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        try:
            await asyncio.wait_for(self._task, timeout=1.0)
        except (TimeoutError, asyncio.CancelledError, Exception):
            self._task.cancel()

    async def _drain(self) -> None:
        while (text := await self._queue.get()) is not None:
            try:
                await self._socket.send_text(text)
            except Exception:  # the peer is gone; the receive loop will notice
                return

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self._socket.close(code=code, reason="client too slow")
