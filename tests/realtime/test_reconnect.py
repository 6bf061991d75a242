"""Reconnecting with a version gets exactly the events missed, or a fresh view."""

from __future__ import annotations

from collections.abc import Callable

from tests.realtime.conftest import Table, open_table
from tests.support.client import Client
from tests.support.server import LiveServer


async def play(table: Table, north: Client, south: Client, moves: list[int], start: int) -> None:
    for offset, amount in enumerate(moves):
        version = start + offset
        mover, other = (north, south) if version % 2 == 0 else (south, north)
        assert (await mover.act(version, {"type": "take", "amount": amount}))["type"] == "ack"
        await mover.expect("state")
        await other.expect("state")


async def test_reconnect_with_old_version_gets_exactly_missed_events(table: Table) -> None:
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    watcher = await Client.open(table.url)
    leaver = await Client.open(table.url)
    await play(table, north, south, [1], 0)
    assert (await leaver.expect("state"))["version"] == 1
    await leaver.close()
    await play(table, north, south, [2, 1], 1)
    states = [await watcher.expect("state") for _ in range(3)]
    assert [s["version"] for s in states] == [1, 2, 3]
    missed = states[1]["events"] + states[2]["events"]
    back = await Client.connect(table.url)
    await back.send({"type": "hello", "secret": None, "version": 1})
    await back.expect("welcome")
    state = await back.expect("state")
    assert state["version"] == 3
    assert state["events"] == missed
    assert [e["type"] for e in state["events"]] == ["took", "drew", "took", "drew"]


async def test_reconnect_seat_sees_its_own_private_events(table: Table) -> None:
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    await play(table, north, south, [1, 1], 0)
    again = await Client.connect(table.url)
    await again.send({"type": "hello", "secret": table.north, "version": 1})
    await again.expect("welcome")
    events = (await again.expect("state"))["events"]
    assert [e["type"] for e in events] == ["took", "drew"]
    assert "hand" not in events[1]  # south's draw, redacted for north


async def test_reconnect_beyond_resend_window_gets_fresh_view(
    serve: Callable[..., LiveServer],
) -> None:
    table = await open_table(serve(resend_max_versions=1))
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    await play(table, north, south, [1, 1, 1], 0)
    again = await Client.connect(table.url)
    await again.send({"type": "hello", "secret": table.south, "version": 0})
    await again.expect("welcome")
    state = await again.expect("state")
    assert (state["version"], state["events"]) == (3, [])
    assert state["view"]["counter"] == 7
