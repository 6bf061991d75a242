"""Graceful shutdown that delivers the acks of actions in flight.

uvicorn's own shutdown closes every WebSocket with 1012 first and lets the handlers
finish afterwards, so an action committed in that window lost its ack: the client had
to resend it elsewhere to learn it had landed. On SIGTERM we therefore stop listening
(a proxy sends new connections elsewhere) and drain before uvicorn starts: sockets stop
taking new actions (a frame that arrives now is left unanswered and is resent after the
reconnect, as any unacknowledged action is), the actions in flight finish, their acks
leave the send queues, the hub closes every socket with 1012 (a closing handshake, so
each client gets the code), and only then is uvicorn's handler called, which stops the
worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Iterable, Iterator
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)
FLUSH_POLL_SECONDS = 0.01
FLUSH_SECONDS = 1.0
"""At most this long for queued frames to leave: a peer that does not read cannot hold
the shutdown (its unacknowledged action is resent after its reconnect anyway)."""


class Drain:
    """Counts the actions in flight on this worker and says when there are none."""

    def __init__(self) -> None:
        self.draining = False
        self._inflight = 0
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.contextmanager
    def action(self) -> Iterator[None]:
        """Wrap one action from its frame to its queued ack."""
        self._inflight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._inflight -= 1
            if self._inflight == 0:
                self._idle.set()

    async def settle(self, timeout: float, flushed: Callable[[], bool]) -> bool:
        """Stop new actions, wait for those in flight and for ``flushed``; False on timeout."""
        self.draining = True
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + min(timeout, FLUSH_SECONDS)
        while not flushed() and loop.time() < deadline:
            await asyncio.sleep(FLUSH_POLL_SECONDS)
        return flushed()


_listeners: list[asyncio.AbstractServer] = []
"""This process's listening servers, when ``skirmish serve`` runs one worker (app/cli.py)."""


def listening(servers: Iterable[asyncio.AbstractServer]) -> None:
    """Register the servers that ``stop_listening`` closes."""
    _listeners.extend(servers)


def stop_listening() -> None:
    """Refuse new connections from now on; the open ones are left as they are.

    Closing the listener first, not at uvicorn's exit, makes a reverse proxy pick
    another worker for every connection that arrives during the drain.
    """
    while _listeners:
        _listeners.pop().close()


SERVICE_RESTART = 1012
"""The close code that tells a client to reconnect (to another worker)."""
CLOSE_SECONDS = 1.0
"""How long the hub waits for the peers' replies to its close frames."""


SignalHandler = Callable[[int, FrameType | None], Any]


def install_on_sigterm(settle: Callable[[], Any]) -> Callable[[], None]:
    """Run ``settle()`` (a coroutine function) on SIGTERM, then the handler it replaced.

    Only when the current handler is a callable, i.e. uvicorn's: under a test client or
    another host nothing changes. Returns a function that puts the old handler back.
    """
    try:
        previous = signal.getsignal(signal.SIGTERM)
    except ValueError:  # pragma: no cover - not the main thread
        return lambda: None
    if not callable(previous):
        return lambda: None
    handler: SignalHandler = previous
    loop = asyncio.get_running_loop()

    async def settle_then_exit(sig: int, frame: FrameType | None) -> None:
        try:
            await settle()
        except Exception:  # never keep a worker alive that was told to stop
            log.warning("drain before shutdown failed", exc_info=True)
        handler(sig, frame)

    def on_sigterm(sig: int, frame: FrameType | None) -> None:
        signal.signal(signal.SIGTERM, handler)  # a second SIGTERM stops at once
        loop.call_soon_threadsafe(loop.create_task, settle_then_exit(sig, frame))

    try:
        signal.signal(signal.SIGTERM, on_sigterm)
    except ValueError:  # not the main thread (e.g. a test client's portal)
        return lambda: None

    def restore() -> None:
        with contextlib.suppress(ValueError):
            if signal.getsignal(signal.SIGTERM) is on_sigterm:
                signal.signal(signal.SIGTERM, handler)

    return restore
