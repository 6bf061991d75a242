"""Limits: frame size, per-socket and per-IP rates, sockets per IP, open matches per creator.

Each refusal has its own code, and the socket stays usable wherever it can.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from app.config import LimitSettings
from app.matches import errors
from app.realtime.throttle import AddressBuckets, AddressGuard, TokenBucket
from tests.realtime.conftest import Table, open_table
from tests.support.client import Client
from tests.support.server import LiveServer

TAKE_1 = {"type": "take", "amount": 1}


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def assert_usable(client: Client) -> None:
    await client.send({"type": "ping"})
    assert await client.expect("pong")


def test_token_bucket_refills_at_its_rate() -> None:
    clock = FakeClock()
    bucket = TokenBucket(rate=2.0, burst=3, clock=clock)
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    clock.now = 0.5
    assert [bucket.take(), bucket.take()] == [True, False]


def test_address_buckets_are_separate_and_forget_full_ones() -> None:
    clock = FakeClock()
    buckets = AddressBuckets(rate=1.0, burst=1, clock=clock)
    assert buckets.take("10.0.0.1") and not buckets.take("10.0.0.1")
    assert buckets.take("10.0.0.2")
    clock.now = 5.0
    buckets._forget_full()
    assert buckets._buckets == {}


def test_address_guard_counts_sockets_per_address() -> None:
    guard = AddressGuard(LimitSettings(max_sockets_per_ip=2))
    guard.open_socket("a")
    guard.open_socket("a")
    guard.open_socket("b")
    with pytest.raises(errors.TooManySockets):
        guard.open_socket("a")
    guard.close_socket("a")
    guard.open_socket("a")
    assert (guard.sockets("a"), guard.sockets("b")) == (2, 1)


async def test_oversized_frame_is_refused_and_socket_stays(table: Table) -> None:
    client = await Client.open(table.url, table.north)
    await client.send({"type": "act", "id": "x", "version": 0, "action": {"p": "é" * 3000}})
    assert (await client.expect("error"))["code"] == "frame_too_large"
    await assert_usable(client)


async def test_actions_from_one_address_share_a_budget(serve: Callable[..., LiveServer]) -> None:
    server = serve(ip_rate_per_second=0.01, ip_rate_burst=2)
    table = await open_table(server)
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    assert (await north.act(0, TAKE_1))["type"] == "ack"
    await south.expect("state")
    assert (await south.act(1, TAKE_1))["type"] == "ack"  # another socket, same address
    await north.expect("state")
    refused = await north.act(2, TAKE_1, "third")
    assert (refused["code"], refused["id"]) == ("address_rate_limited", "third")
    await assert_usable(north)


async def test_hello_flood_on_one_socket_is_join_rate_limited(
    serve: Callable[..., LiveServer],
) -> None:
    table = await open_table(serve(socket_join_burst=3, join_rate_per_second=0.01))
    guesser = await Client.connect(table.url)
    codes = []
    for attempt in range(4):
        await guesser.send({"type": "hello", "secret": f"guess-{attempt}", "version": None})
        codes.append((await guesser.expect("error"))["code"])
    assert codes == ["not_authorized"] * 3 + ["join_rate_limited"]
    await assert_usable(guesser)


async def test_joins_from_one_address_are_join_rate_limited(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(join_rate_burst=3, join_rate_per_second=0.01)
    async with httpx.AsyncClient(base_url=server.http) as http:
        made = await http.post("/api/matches", json={"game": "countdown"})
        joined = await http.post(f"/api/matches/{made.json()['match_id']}/seats", json={})
        third = await http.post("/api/matches", json={"game": "countdown"})
        refused = await http.post("/api/matches", json={"game": "countdown"})
    assert [r.status_code for r in (made, joined, third)] == [201, 201, 201]
    assert (refused.status_code, refused.json()["code"]) == (429, "join_rate_limited")
    client = await Client.connect(server.ws(made.json()["match_id"]))
    await client.send({"type": "hello", "secret": None, "version": None})
    assert (await client.expect("error"))["code"] == "join_rate_limited"


async def test_sockets_per_address_are_capped(serve: Callable[..., LiveServer]) -> None:
    table = await open_table(serve(max_sockets_per_ip=2))
    first = await Client.open(table.url)
    second = await Client.open(table.url)
    third = await Client.connect(table.url)
    refusal = await third.expect("error")
    assert refusal["code"] == "too_many_sockets"
    with pytest.raises(ConnectionClosed) as closed:
        await third.expect("never", timeout=3)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    await first.close()
    await second.quiet(0.2)
    again = await Client.open(table.url)  # a freed slot can be used again
    await assert_usable(again)


async def test_open_matches_per_creator_are_capped(serve: Callable[..., LiveServer]) -> None:
    server = serve(max_open_matches_per_creator=2)
    async with httpx.AsyncClient(base_url=server.http) as http:
        first = await http.post("/api/matches", json={"game": "countdown", "options": {"start": 1}})
        await http.post("/api/matches", json={"game": "countdown"})
        refused = await http.post("/api/matches", json={"game": "countdown"})
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_matches")
        grant = first.json()
        joined = await http.post(f"/api/matches/{grant['match_id']}/seats", json={})
    north_secret = grant["secret"] if grant["seat"] == "north" else joined.json()["secret"]
    north = await Client.open(server.ws(grant["match_id"]), north_secret)
    assert (await north.act(0, TAKE_1))["type"] == "ack"  # the first match is now finished
    async with httpx.AsyncClient(base_url=server.http) as http:
        again = await http.post("/api/matches", json={"game": "countdown"})
    assert again.status_code == 201


async def test_addresses_behind_a_trusted_proxy_get_their_own_budgets(
    serve: Callable[..., LiveServer],
) -> None:
    """The test server trusts X-Forwarded-For from 127.0.0.1, as uvicorn behind our proxy."""
    server = serve(join_rate_burst=1, join_rate_per_second=0.01)
    async with httpx.AsyncClient(base_url=server.http) as http:

        async def create(client_ip: str) -> httpx.Response:
            return await http.post(
                "/api/matches",
                json={"game": "countdown"},
                headers={"X-Forwarded-For": client_ip},
            )

        first, second = await create("203.0.113.1"), await create("203.0.113.2")
        again = await create("203.0.113.1")
    assert (first.status_code, second.status_code) == (201, 201)
    assert again.json()["code"] == "join_rate_limited"
