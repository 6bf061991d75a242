"""app/cli.py: the single-worker server hands its listeners to the drain."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn

from app.cli import DrainingServer
from app.realtime import drain
from tests.support.services import free_port, port_open


async def hello(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"hi"})


@pytest.fixture
def served() -> Iterator[tuple[DrainingServer, int]]:
    port = free_port()
    server = DrainingServer(uvicorn.Config(hello, host="127.0.0.1", port=port, lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.01)
    yield server, port
    server.should_exit = True
    thread.join(timeout=10)


def get(conn: socket.socket) -> bytes:
    conn.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    return conn.recv(4096)


def test_stop_listening_refuses_new_connections_and_keeps_open_ones(
    served: tuple[DrainingServer, int],
) -> None:
    server, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=5) as kept:
        assert get(kept).startswith(b"HTTP/1.1 200")
        loop = server.servers[0].get_loop()
        loop.call_soon_threadsafe(drain.stop_listening)
        deadline = time.monotonic() + 5
        while port_open(port) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not port_open(port) and not server.should_exit
        assert get(kept).startswith(b"HTTP/1.1 200")  # the open connection is still served
