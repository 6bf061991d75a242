"""The hosted shape, for real: nginx (the repo's config) → two ``skirmish serve`` processes
→ PostgreSQL + Redis. Players and spectators on both workers see every version of a
whole Invaders game exactly once and in order, and a Redis restart loses nothing."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest

from app.realtime.hub import PRESENCE_COALESCE_SECONDS
from tests.deploy.players import new_table
from tests.deploy.stack import Stack
from tests.observability.scrape import sample
from tests.support.client import Client

pytestmark = [pytest.mark.nginx, pytest.mark.postgres, pytest.mark.redis, pytest.mark.timeout(120)]

A, B = 0, 1  # worker indexes


async def test_full_invaders_game_across_two_workers(stack: Stack) -> None:
    table = await new_table(stack)
    mankind = await table.open("mankind", A)
    invader = await table.open("invader", B)
    for worker in (A, B, A, B):
        await table.open(None, worker)  # spectators on both workers
    last = await table.play({"mankind": mankind, "invader": invader}, 0, random.Random(5), None)
    assert table.over() and last > 20
    await asyncio.sleep(0.3)
    for client in table.clients():
        await client.quiet(0.05)
    table.assert_every_version_once_in_order(last)
    assert table.via_proxy >= 3  # nginx placed one worker's half of the sockets itself
    for client in table.clients():
        await client.close()


async def test_redis_restart_mid_match_loses_nothing(stack: Stack) -> None:
    table = await new_table(stack)
    actors = {"mankind": await table.open("mankind", A), "invader": await table.open("invader", B)}
    await table.open("invader", A)
    await table.open("mankind", B)
    await table.open(None, A)
    await table.open(None, B)
    rng = random.Random(11)
    version = outage_from = await table.play(actors, 0, rng, until=5)
    # A room also re-reads the database when a coalesced presence update falls due
    # (hub.PRESENCE_COALESCE_SECONDS after the joins above); let that pass first, so only
    # the bus could tell worker B of the versions committed during the outage.
    await asyncio.sleep(PRESENCE_COALESCE_SECONDS + 0.3)
    for client in table.clients():
        await client.quiet(0.05)

    stack.redis.stop()  # the bus is gone: worker B hears nothing of what A commits
    on_a = {seat: table.seat_socket(seat, A) for seat in actors}
    for _ in range(6):
        if table.over():
            break
        version = await table.step(on_a, version, rng, table.clients(A))
    await asyncio.gather(*(client.quiet(0.3) for client in table.clients(B)))
    for client in table.clients(B):
        assert not client.unread("state"), "worker B cannot have heard of these versions"

    stack.redis.start()  # same port: both workers reconnect, resync, catch up
    for client in table.clients(B):
        for expected in range(outage_from + 1, version + 1):
            frame = await client.expect("state", timeout=5)
            assert frame["version"] == expected
            table.latest[id(client)] = frame
    version = await table.play(actors, version, rng, until=version + 10)
    table.assert_every_version_once_in_order(version)
    for client in table.clients():
        await client.close()
    scraped = [httpx.get(f"{w.http}/metrics", timeout=5).text for w in stack.workers]
    for text in scraped:  # both committed, heard the other, reconnected
        assert sample(text, 'skirmish_actions_total{result="committed"}') > 0
        assert sample(text, 'skirmish_action_stage_seconds_count{stage="last_send"}') > 0
        assert sample(text, "skirmish_bus_lag_seconds_count") > 0
        assert sample(text, "skirmish_bus_connected") == 1
    assert sum(sample(t, "skirmish_bus_reconnects_total") for t in scraped) >= 2


async def test_proxy_serves_health_hides_metrics_and_logs_carry_ids(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.proxy.http, timeout=5) as http:
        ready = await http.get("/readyz")
        assert ready.json() == {"status": "ready"}
        assert len(ready.headers["x-request-id"]) == 32  # nginx's $request_id, echoed
        assert (await http.get("/metrics")).status_code == 404  # internal only
    table = await new_table(stack)
    spectator = await Client.open(stack.proxy.ws(table.match_id))
    assert spectator.ws.response is not None
    assert len(spectator.ws.response.headers["x-request-id"]) == 32  # on the handshake too
    await spectator.close()
    entries = [json.loads(line) for w in stack.workers for line in w.log_lines() if line]
    assert all({"ts", "level", "logger", "message"} <= e.keys() for e in entries)
    socket_lines = [e for e in entries if e.get("match_id") == table.match_id]
    assert socket_lines and all(e.get("request_id") for e in socket_lines)


def connections(stack: Stack) -> list[float]:
    scraped = [httpx.get(f"{w.http}/metrics", timeout=5).text for w in stack.workers]
    return [sample(text, "skirmish_connections") for text in scraped]


async def test_proxy_sends_every_socket_of_a_match_to_one_worker(stack: Stack) -> None:
    """deploy/nginx/skirmish.conf hashes sockets by match: one worker renders each version."""
    tables = [await new_table(stack) for _ in range(12)]
    placed: list[int] = []
    for table in tables:
        before = connections(stack)
        sockets = [await Client.open(stack.proxy.ws(table.match_id)) for _ in range(3)]
        grown = [now - then for now, then in zip(connections(stack), before, strict=True)]
        for socket in sockets:
            await socket.close()
        assert sorted(grown) == [0, 3], grown
        placed.append(grown.index(3))
        await asyncio.sleep(0.1)
    assert set(placed) == {A, B}, "matches should spread over both workers"
