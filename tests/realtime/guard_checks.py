"""Helpers shared by the tests of the shared per-IP limits (Redis and PostgreSQL guards)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from app.matches import errors
from app.realtime.shared_limits import SharedGuard
from tests.support.client import Client

ADDRESS = "203.0.113.7"


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    """Poll ``condition`` (sync or async) until it is true; fail after ``timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        result = condition()
        if asyncio.iscoroutine(result):
            result = await result
        if result:
            return
        assert loop.time() < deadline, "condition never held"
        await asyncio.sleep(0.05)


async def can_open(guard: SharedGuard, address: str = ADDRESS) -> bool:
    try:
        await guard.open_socket(address)
    except errors.TooManySockets:
        return False
    return True


async def actions_taken(guard: SharedGuard, count: int, address: str = ADDRESS) -> list[bool]:
    return [await guard.check_action(address) is None for _ in range(count)]


async def connected(url: str) -> Client:
    """A socket the worker has counted (it answers only after counting it)."""
    client = await Client.connect(url)
    await client.send({"type": "ping"})
    await client.expect("pong")
    return client
