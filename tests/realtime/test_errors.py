"""Every WebSocket error code, in guard order; a refused frame changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.realtime.conftest import Table, open_table
from tests.support import countdown
from tests.support.client import Client
from tests.support.server import LiveServer

TAKE_1 = {"type": "take", "amount": 1}


async def assert_usable(client: Client) -> None:
    await client.send({"type": "ping"})
    assert await client.expect("pong")


async def version_of(table: Table) -> int:
    async with httpx.AsyncClient(base_url=table.server.http) as http:
        return int((await http.get(f"/api/matches/{table.match_id}")).json()["version"])


async def test_not_json_is_bad_frame(table: Table) -> None:
    client = await Client.open(table.url, table.north)
    await client.send("{not json")
    error = await client.expect("error")
    assert (error["code"], error["id"]) == ("bad_frame", None)
    await assert_usable(client)


async def test_act_missing_fields_is_bad_frame_with_its_id(table: Table) -> None:
    client = await Client.open(table.url, table.north)
    await client.send({"type": "act", "id": "a1", "action": TAKE_1})
    error = await client.expect("error")
    assert (error["code"], error["id"]) == ("bad_frame", "a1")
    assert await version_of(table) == 0


async def test_act_before_hello_is_bad_frame(table: Table) -> None:
    client = await Client.connect(table.url)
    await client.send({"type": "act", "id": "a1", "version": 0, "action": TAKE_1})
    assert (await client.expect("error"))["code"] == "bad_frame"


async def test_oversized_frame_is_frame_too_large(table: Table) -> None:
    client = await Client.open(table.url, table.north)
    action = {**TAKE_1, "padding": "x" * 5000}
    await client.send({"type": "act", "id": "big", "version": 0, "action": action})
    error = await client.expect("error")
    assert (error["code"], error["id"]) == ("frame_too_large", None)
    await assert_usable(client)
    assert await version_of(table) == 0


async def test_unknown_match_is_match_not_found(table: Table) -> None:
    client = await Client.connect(table.server.ws("no-such-match"))
    await client.send({"type": "hello", "secret": None, "version": None})
    assert (await client.expect("error"))["code"] == "match_not_found"


async def test_wrong_secret_is_not_authorized(table: Table) -> None:
    client = await Client.connect(table.url)
    await client.send({"type": "hello", "secret": "guess", "version": None})
    assert (await client.expect("error"))["code"] == "not_authorized"
    await client.send({"type": "hello", "secret": table.north, "version": None})
    assert (await client.expect("welcome"))["seat"] == "north"


async def test_spectator_act_is_not_authorized(table: Table) -> None:
    spectator = await Client.open(table.url)
    error = await spectator.act(0, TAKE_1, "s1")
    assert (error["code"], error["id"]) == ("not_authorized", "s1")
    assert await version_of(table) == 0


async def test_act_in_lobby_is_match_not_active(server: LiveServer) -> None:
    table = await open_table(server, join=False)
    client = await Client.open(table.url, table.north)
    assert (await client.act(0, TAKE_1))["code"] == "match_not_active"


async def test_act_after_the_end_is_match_finished(server: LiveServer) -> None:
    table = await open_table(server, start=1)
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    assert (await north.act(0, TAKE_1))["type"] == "ack"
    await south.expect("state")
    assert (await south.act(1, TAKE_1))["code"] == "match_finished"


async def test_stale_version_is_answered_with_a_fresh_state(table: Table) -> None:
    client = await Client.open(table.url, table.north)
    assert (await client.act(7, TAKE_1))["code"] == "stale_version"
    fresh = await client.expect("state")
    assert (fresh["version"], fresh["events"]) == (0, [])
    assert await version_of(table) == 0


async def test_resend_returns_the_original_ack_without_second_effect(table: Table) -> None:
    north = await Client.open(table.url, table.north)
    first = await north.act(0, TAKE_1, "same-id")
    await north.expect("state")
    again = await north.act(0, TAKE_1, "same-id")
    assert first == again == {"type": "ack", "id": "same-id", "version": 1}
    later = await north.quiet()
    assert not [f for f in later if f["type"] == "state"]
    assert await version_of(table) == 1


async def test_other_seats_turn_is_not_your_decision(table: Table) -> None:
    south = await Client.open(table.url, table.south)
    assert (await south.act(0, TAKE_1))["code"] == "not_your_decision"


async def test_engine_refusal_passes_its_code_through(table: Table) -> None:
    north = await Client.open(table.url, table.north)
    assert (await north.act(0, {"type": "take", "amount": 4}))["code"] == "illegal_take"
    await assert_usable(north)


async def test_too_many_actions_are_rate_limited(serve: Callable[..., LiveServer]) -> None:
    server = serve(rate_burst=1, rate_per_second=0.01)
    table = await open_table(server)
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)
    assert (await north.act(0, TAKE_1))["type"] == "ack"
    await south.expect("state")
    assert (await south.act(1, TAKE_1))["type"] == "ack"
    await north.expect("state")
    assert (await north.act(2, TAKE_1))["code"] == "rate_limited"
    assert await version_of(table) == 2


async def test_second_hello_is_bad_frame(table: Table) -> None:
    client = await Client.open(table.url, table.north)
    await client.send({"type": "hello", "secret": None, "version": None})
    assert (await client.expect("error"))["code"] == "bad_frame"


async def test_server_fault_is_internal_error_and_socket_survives(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object) -> None:
        raise RuntimeError("engine bug")

    north = await Client.open(table.url, table.north)
    monkeypatch.setattr(countdown, "apply", broken)
    error = await north.act(0, TAKE_1, "x1")
    assert (error["code"], error["id"]) == ("internal_error", "x1")
    monkeypatch.undo()
    assert (await north.act(0, TAKE_1, "x1"))["type"] == "ack"


async def test_idle_socket_is_closed(serve: Callable[..., LiveServer]) -> None:
    table = await open_table(serve(idle_timeout_seconds=0.3))
    client = await Client.open(table.url, table.north)
    with pytest.raises(ConnectionClosed) as closed:
        await client.expect("never", timeout=3)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
