"""A crowd of spectators costs each socket a few presence frames, not one per arrival.

Without coalescing, n spectators joining send n presence frames to each of n sockets;
at 1,000 spectators that overflowed send queues and took ~50 s (docs/benchmarks.md, S2).
"""

from __future__ import annotations

from collections.abc import Callable

from tests.realtime.conftest import open_table
from tests.support.client import Client
from tests.support.server import LiveServer

CROWD = 12


async def test_a_crowd_joining_shares_presence_frames(serve: Callable[..., LiveServer]) -> None:
    server = serve(join_rate_burst=100, join_rate_per_second=100)
    table = await open_table(server)
    north = await Client.open(table.url, table.north)
    await north.quiet(0.2)
    north.frames.clear()
    crowd = [await Client.open(table.url) for _ in range(CROWD)]  # one after the other
    await north.quiet(1.5)  # longer than the coalescing interval
    presence = [f for f in north.frames if f["type"] == "presence"]
    assert presence and presence[-1]["spectators"] == CROWD
    assert len(presence) < CROWD / 2, [p["spectators"] for p in presence]
    seat_changes_still_immediate = await Client.open(table.url, table.south)
    frame = await north.expect("presence", timeout=0.4)
    while [s["connected"] for s in frame["seats"]] != [True, True]:
        frame = await north.expect("presence", timeout=0.4)
    for client in [*crowd, seat_changes_still_immediate, north]:
        await client.close()
