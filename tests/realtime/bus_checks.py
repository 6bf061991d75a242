"""Checks every remote bus backend must pass (Redis and PostgreSQL run the same ones)."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable, Iterator

from app.config import BusSettings
from app.db.migrate import upgrade_head
from app.realtime.pubsub import RESYNC, RemoteBus
from tests.realtime.conftest import open_table
from tests.support.client import Client
from tests.support.server import LiveServer
from tests.support.services import postgres_database
from tests.support.settings import make_settings

Heard = list[tuple[str, int]]


def listen(bus: RemoteBus) -> Heard:
    heard: Heard = []
    bus.subscribe(lambda match_id, version: heard.append((match_id, version)))
    return heard


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Poll ``condition`` until true; fail the test after ``timeout`` seconds."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def connected(bus: RemoteBus, timeout: float = 5.0) -> None:
    """Until ``bus`` answers a ping: ``start`` connects in the background, and a message
    published before that is kept and resent as the newest version per match only."""
    async with asyncio.timeout(timeout):
        while True:
            try:
                await bus.ping()
                return
            except Exception:
                await asyncio.sleep(0.01)


def new_match_id() -> str:
    return str(uuid.uuid4())


async def check_only_watched_matches_arrive(make: Callable[[], RemoteBus]) -> None:
    """A worker hears the matches it watches, once each, and never its own echo twice."""
    sender, receiver = make(), make()
    sent_heard, heard = listen(sender), listen(receiver)
    watched, other = new_match_id(), new_match_id()
    try:
        await sender.start()
        await receiver.start()
        receiver.watch(watched)
        await until(lambda: (watched, RESYNC) in heard)  # subscribed: resync once
        await connected(sender)  # else the three sends coalesce into one resend
        await sender.publish(other, 1)
        await sender.publish(watched, 1)
        await sender.publish(watched, 2)
        await until(lambda: (watched, 2) in heard)
        await asyncio.sleep(0.1)
        assert heard == [(watched, RESYNC), (watched, 1), (watched, 2)]
        assert sent_heard == [(other, 1), (watched, 1), (watched, 2)]  # local, no echo
    finally:
        await sender.close()
        await receiver.close()


async def check_reconnects_and_resyncs(
    make: Callable[[], RemoteBus], cut: Callable[[RemoteBus], Awaitable[None]]
) -> None:
    """After its connection is cut, the bus reconnects, resyncs, and delivers again."""
    sender, receiver = make(), make()
    heard = listen(receiver)
    match_id = new_match_id()
    try:
        await sender.start()
        await receiver.start()
        receiver.watch(match_id)
        await until(lambda: heard == [(match_id, RESYNC)])
        await cut(receiver)
        await until(lambda: heard.count((match_id, RESYNC)) == 2)
        await receiver.ping()
        await sender.publish(match_id, 5)
        await until(lambda: (match_id, 5) in heard)
    finally:
        await sender.close()
        await receiver.close()


@contextlib.contextmanager
def two_live_workers(bus: BusSettings) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two workers on one fresh PostgreSQL database, sharing ``bus``."""
    with postgres_database() as url:
        upgrade_head(url)
        workers = [LiveServer(make_settings(url, bus=bus)).start() for _ in range(2)]
        try:
            yield workers[0], workers[1]
        finally:
            for worker in workers:
                worker.stop()


async def check_sockets_on_two_workers_see_every_version(
    workers: tuple[LiveServer, LiveServer], amounts: list[int]
) -> None:
    """Seats on different workers take turns; every socket sees every version, in order."""
    first, second = workers
    table = await open_table(first, start=sum(amounts))
    north = await Client.open(first.ws(table.match_id), table.north)
    south = await Client.open(second.ws(table.match_id), table.south)
    spectator = await Client.open(second.ws(table.match_id))
    for version, amount in enumerate(amounts):
        mover = (north, south)[version % 2]
        assert (await mover.act(version, {"type": "take", "amount": amount}))["type"] == "ack"
        for client in (north, south, spectator):
            assert (await client.expect("state"))["version"] == version + 1
    for client in (north, south, spectator):
        versions = [f["version"] for f in client.frames if f["type"] == "state"]
        assert versions == list(range(len(amounts) + 1))
