"""A whole game over the wire: two seats and a spectator, every version once and in order."""

from __future__ import annotations

import re

import httpx

from tests.realtime.conftest import Table
from tests.support.client import Client

TAKE = {"type": "take"}
MOVES = [("north", 3), ("south", 3), ("north", 1), ("south", 3)]  # 10 -> 0, south wins


async def test_play_to_the_end_with_two_seats_and_a_spectator(table: Table) -> None:
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    spectator = await Client.open(table.url)
    seats = {"north": north, "south": south}
    for version, (seat, amount) in enumerate(MOVES):
        ack = await seats[seat].act(version, {**TAKE, "amount": amount})
        assert ack == {"type": "ack", "id": ack["id"], "version": version + 1}
        for client in (north, south, spectator):
            state = await client.expect("state")
            assert state["version"] == version + 1
    while (await spectator.expect("presence"))["status"] != "finished":
        pass
    for client in (north, south, spectator):
        assert [f["version"] for f in client.frames if f["type"] == "state"] == [0, 1, 2, 3, 4]
    assert south.frames[-1]["type"] in ("state", "presence")
    async with httpx.AsyncClient(base_url=table.server.http) as http:
        summary = (await http.get(f"/api/matches/{table.match_id}")).json()
    assert summary["status"] == "finished" and summary["outcome"]["winner"] == "south"


async def test_secrets_never_reach_the_other_seat_or_spectators(table: Table) -> None:
    """Sentinel hands of each seat appear only in that seat's frames, errors included."""
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    spectator = await Client.open(table.url)
    await south.act(0, {**TAKE, "amount": 1})  # not_your_decision
    await spectator.act(0, {**TAKE, "amount": 1})  # not_authorized
    for version, (seat, amount) in enumerate(MOVES):
        client = north if seat == "north" else south
        await client.act(version + 5, {**TAKE, "amount": amount})  # stale_version + resync
        await client.act(version, {**TAKE, "amount": 9})  # engine's illegal_take
        await client.act(version, {**TAKE, "amount": amount})
        for c in (north, south, spectator):
            await c.expect("state")
    await spectator.quiet(0.2)
    own = {name: sentinels(c) for name, c in (("north", north), ("south", south))}
    assert own["north"] and own["south"]
    assert not own["north"] & sentinels(south)
    assert not own["south"] & sentinels(north)
    assert not sentinels(spectator)


def sentinels(client: Client) -> set[str]:
    return set(re.findall(r"SENTINEL-[0-9a-f]+", "".join(client.raw)))


async def test_presence_tells_who_is_connected(table: Table) -> None:
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    while [s["connected"] for s in (await north.expect("presence"))["seats"]] != [True, True]:
        pass
    await south.close()
    while [s["connected"] for s in (await north.expect("presence"))["seats"]] != [True, False]:
        pass
