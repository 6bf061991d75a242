"""app/api/ws.py: a socket is the hub's from its accept, so a shutdown always reaches it."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.realtime.conftest import open_table
from tests.support.server import LiveServer

SERVICE_RESTART = 1012


async def test_a_socket_that_arrives_after_the_close_gets_the_close_code(
    server: LiveServer,
) -> None:
    table = await open_table(server)
    server.app.state.hub.closing = (SERVICE_RESTART, "server restart")
    async with connect(table.url) as ws:
        with pytest.raises(ConnectionClosed) as closed:  # closed at once: no welcome
            await ws.send(json.dumps({"type": "hello", "secret": table.north, "version": None}))
            await asyncio.wait_for(ws.recv(), 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == SERVICE_RESTART


async def test_close_sockets_reaches_a_socket_still_in_its_address_check(
    server: LiveServer,
) -> None:
    table = await open_table(server)
    hub = server.app.state.hub
    checking, release = threading.Event(), threading.Event()
    check = hub.guard.open_socket

    async def slow_check(address: str) -> None:  # on the server's loop
        checking.set()
        while not release.is_set():
            await asyncio.sleep(0.01)
        await check(address)

    hub.guard.open_socket = slow_check
    async with connect(table.url) as ws:
        assert await asyncio.to_thread(checking.wait, 5)
        assert len(hub.open_sockets) == 1  # counted from its accept, before the check ends
        closing = asyncio.run_coroutine_threadsafe(
            hub.close_sockets(SERVICE_RESTART, "server restart", 2.0), server.loop
        )
        release.set()
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 5)
        await asyncio.wrap_future(closing)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == SERVICE_RESTART
    assert not hub.open_sockets
