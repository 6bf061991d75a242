"""The turn timer is pushed: a clock frame after the state frames of every version."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import httpx

from tests.realtime.conftest import open_table
from tests.support.client import Client
from tests.support.server import LiveServer

TURN = 30


async def clocked_table(server: LiveServer, start: int = 10) -> dict[str, str]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        body = {
            "game": "countdown",
            "options": {"start": start},
            "seat": "north",
            "clock": {"turn_seconds": TURN},
        }
        made = (await http.post("/api/matches", json=body)).json()
        joined = (await http.post(f"/api/matches/{made['match_id']}/seats", json={})).json()
    return {"match": made["match_id"], "north": made["secret"], "south": joined["secret"]}


def seconds_left(frame: dict[str, Any]) -> float:
    deadline = datetime.fromisoformat(frame["deadline"])
    return (deadline - datetime.fromisoformat(frame["server_time"])).total_seconds()


async def test_hello_is_followed_by_the_clock(server: LiveServer) -> None:
    grants = await clocked_table(server)
    watcher = await Client.open(server.ws(grants["match"]))
    clock = await watcher.expect("clock")
    assert (clock["version"], clock["turn_seconds"]) == (0, TURN)
    assert 0 < seconds_left(clock) <= TURN
    assert [f["type"] for f in watcher.frames][:3] == ["welcome", "state", "clock"]


async def test_each_version_brings_a_fresh_deadline(server: LiveServer) -> None:
    grants = await clocked_table(server)
    url = server.ws(grants["match"])
    north, watcher = await Client.open(url, grants["north"]), await Client.open(url)
    first = await watcher.expect("clock")
    assert (await north.expect("clock"))["version"] == 0
    assert (await north.act(0, {"type": "take", "amount": 1}))["type"] == "ack"
    await watcher.expect("state")
    after = await watcher.expect("clock")
    assert after["version"] == 1
    moved = datetime.fromisoformat(after["deadline"]) - datetime.fromisoformat(first["deadline"])
    assert moved >= timedelta(0)
    assert (await north.expect("clock"))["version"] == 1


async def test_the_last_version_stops_the_clock(server: LiveServer) -> None:
    grants = await clocked_table(server, start=1)
    north = await Client.open(server.ws(grants["match"]), grants["north"])
    await north.expect("clock")
    assert (await north.act(0, {"type": "take", "amount": 1}))["type"] == "ack"
    last = await north.expect("clock")
    assert (last["version"], last["deadline"]) == (1, None)


async def test_a_match_without_a_clock_sends_none(server: LiveServer) -> None:
    table = await open_table(server)
    north = await Client.open(table.url, table.north)
    assert (await north.act(0, {"type": "take", "amount": 1}))["type"] == "ack"
    frames = await north.quiet(0.5)
    assert not [f for f in [*north.frames, *frames] if f["type"] == "clock"]
