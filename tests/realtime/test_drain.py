"""app/realtime/drain.py: in-flight actions settle before the worker closes its sockets."""

from __future__ import annotations

import asyncio
import signal

import pytest

from app.realtime.drain import Drain, install_on_sigterm


async def test_settle_waits_for_the_action_in_flight() -> None:
    drain = Drain()
    finished: list[str] = []

    async def action() -> None:
        with drain.action():
            await asyncio.sleep(0.05)
            finished.append("ack queued")

    task = asyncio.create_task(action())
    await asyncio.sleep(0)
    assert await drain.settle(2.0, lambda: True)
    assert finished == ["ack queued"] and drain.draining
    await task


async def test_settle_waits_for_queued_frames_to_leave() -> None:
    drain = Drain()
    queue = ["ack"]
    asyncio.get_running_loop().call_later(0.05, queue.clear)
    assert await drain.settle(2.0, lambda: not queue)
    assert queue == []


async def test_settle_gives_up_on_an_action_that_never_ends() -> None:
    drain = Drain()
    with drain.action():
        assert not await drain.settle(0.05, lambda: True)


async def test_settle_gives_up_on_a_peer_that_never_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    from app.realtime import drain as module

    monkeypatch.setattr(module, "FLUSH_SECONDS", 0.05)
    assert not await Drain().settle(5.0, lambda: False)


async def test_nothing_is_installed_without_a_host_handler() -> None:
    """Under pytest SIGTERM has its default handler: the hook leaves it alone."""
    before = signal.getsignal(signal.SIGTERM)
    restore = install_on_sigterm(lambda: None)
    assert signal.getsignal(signal.SIGTERM) is before
    restore()


async def test_sigterm_settles_first_then_calls_the_host_handler() -> None:
    calls: list[str] = []
    host_called = asyncio.Event()

    def host(_sig: int, _frame: object) -> None:
        calls.append("host")
        host_called.set()

    async def settle() -> None:
        calls.append("settle")

    previous = signal.signal(signal.SIGTERM, host)
    try:
        restore = install_on_sigterm(settle)
        signal.raise_signal(signal.SIGTERM)
        await asyncio.wait_for(host_called.wait(), 2.0)
        restore()
        assert calls == ["settle", "host"]
        assert signal.getsignal(signal.SIGTERM) is host
    finally:
        signal.signal(signal.SIGTERM, previous)
