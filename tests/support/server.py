"""A real uvicorn serving the app on a free loopback port, in a thread of the test process."""

from __future__ import annotations

import asyncio
import threading
import time

import uvicorn

from app.cli import websocket_options
from app.config import Settings
from app.main import create_app
from tests.support.services import free_port


class LiveServer:
    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            **websocket_options(settings),
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}"

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The server thread's event loop (to run a coroutine on the app's side)."""
        return self._server.servers[0].get_loop()

    def start(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Graceful stop; forced if it outlasts 10 s, so no app (and its process-wide
        GC policy, app/gc_freeze.py) outlives the test that started it."""
        self._server.should_exit = True
        self._thread.join(timeout=10)
        if self._thread.is_alive():
            self._server.force_exit = True
            self._thread.join(timeout=10)
