"""Real services for tests (DESIGN §8): skip locally when missing, fail under CI=true."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
import uuid
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

POSTGRES_ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"
SERVICE_PORTS = {"postgresql": 5432, "redis": 6379}


def require_service(name: str, available: bool | None = None, how: str = "") -> None:
    """Skip (locally) or fail (CI=true) unless service ``name`` is usable.

    ``available`` defaults to "something listens on the service's loopback port".
    """
    if available is None:
        available = port_open(SERVICE_PORTS[name])
    if available:
        return
    reason = f"{name} is not available on 127.0.0.1{': ' + how if how else ''}"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: a missing service is a failure, not a skip)")
    pytest.skip(reason)


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex((host, port)) == 0


def run_blocking(make: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    """Run a coroutine to completion in its own thread and loop (safe inside a test loop)."""
    result: list[Any] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(make()))
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return result[0]


@contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one test, dropped afterwards; yields its URL."""
    import asyncpg

    require_service("postgresql")
    name = f"skirmish_test_{uuid.uuid4().hex[:12]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(POSTGRES_ADMIN_DSN)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    run_blocking(lambda: admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        run_blocking(lambda: admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
