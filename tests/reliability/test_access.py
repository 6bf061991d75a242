"""Access: seat secrets, re-claiming a seat, spectators, Origin allow-list, CORS.

Each item of issue 6's "Access" list is proved here against a live server.
"""

from __future__ import annotations

import logging
import math
import sqlite3
from collections.abc import Callable

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from app.matches.seat_keys import hash_secret, issue_secret
from tests.realtime.conftest import Table, open_table
from tests.support import countdown
from tests.support.client import Client
from tests.support.server import LiveServer
from tests.support.settings import TEST_PEPPER

TAKE_1 = {"type": "take", "amount": 1}


def sqlite_path(url: str) -> str:
    return url.removeprefix("sqlite+aiosqlite:///")


def test_seat_secrets_carry_at_least_128_random_bits() -> None:
    secrets = {issue_secret() for _ in range(2000)}
    assert len(secrets) == 2000
    alphabet = set("".join(secrets))
    bits = min(len(s) for s in secrets) * math.log2(len(alphabet))
    assert bits >= 128, bits  # 32 chars of base64url = 192 bits


async def test_secret_is_shown_once_and_stored_only_hashed(table: Table, sqlite_url: str) -> None:
    with sqlite3.connect(sqlite_path(sqlite_url)) as db:
        rows = db.execute("SELECT seat, secret_hash FROM seats ORDER BY seat").fetchall()
        dump = "\n".join(db.iterdump())
    assert dict(rows) == {
        "north": hash_secret(TEST_PEPPER, table.north),
        "south": hash_secret(TEST_PEPPER, table.south),
    }
    assert table.north not in dump and table.south not in dump
    async with httpx.AsyncClient(base_url=table.server.http) as http:
        pages = [
            await http.get("/api/matches"),
            await http.get(f"/api/matches/{table.match_id}"),
            await http.get(f"/api/matches/{table.match_id}/log"),
        ]
        again = await http.post(f"/api/matches/{table.match_id}/seats", json={"seat": "north"})
    assert all(table.north not in p.text and table.south not in p.text for p in pages)
    assert again.status_code == 409 and again.json()["code"] == "seat_taken"


async def test_grant_is_not_cached_and_secret_never_in_a_url(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        made = await http.post("/api/matches", json={"game": "countdown"})
    assert made.headers["cache-control"] == "no-store"
    grant = made.json()
    assert grant["secret"] not in grant["ws"]
    assert grant["ws"] == f"/ws/matches/{grant['match_id']}"


async def test_secret_never_reaches_the_logs(
    server: LiveServer, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A whole game at DEBUG, a wrong secret and a server fault with its traceback."""
    caplog.set_level(logging.DEBUG)
    table = await open_table(server, start=2)
    guesser = await Client.connect(table.url)
    await guesser.send({"type": "hello", "secret": table.north + "x", "version": None})
    assert (await guesser.expect("error"))["code"] == "not_authorized"
    north = await Client.open(table.url, table.north)
    south = await Client.open(table.url, table.south)

    def broken(*_args: object) -> None:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(countdown, "apply", broken)
    assert (await north.act(0, TAKE_1, "boom"))["code"] == "internal_error"
    monkeypatch.undo()
    assert (await north.act(0, TAKE_1))["type"] == "ack"
    await south.expect("state")
    assert (await south.act(1, TAKE_1))["type"] == "ack"
    assert "frame failed" in caplog.text  # the fault was logged, traceback included
    assert table.north not in caplog.text and table.south not in caplog.text


async def test_seat_is_reclaimed_only_with_its_secret(table: Table) -> None:
    first = await Client.open(table.url, table.north)
    await first.close()
    thief = await Client.connect(table.url)
    wrong = table.north[:-1] + ("B" if table.north.endswith("A") else "A")  # never the secret
    await thief.send({"type": "hello", "secret": wrong, "version": None})
    assert (await thief.expect("error"))["code"] == "not_authorized"
    await thief.send({"type": "hello", "secret": table.south, "version": None})
    assert (await thief.expect("welcome"))["seat"] == "south"  # a secret opens its own seat
    back = await Client.open(table.url, table.north)
    assert back.frames[0]["seat"] == "north"
    assert (await back.act(0, TAKE_1))["type"] == "ack"


async def test_spectators_can_never_act(table: Table) -> None:
    north = await Client.open(table.url, table.north)
    spectator = await Client.open(table.url)
    state = next(f for f in spectator.frames if f["type"] == "state")
    assert state["view"]["legal_actions"] == []
    for version in (0, 1):
        for action in (TAKE_1, {"type": "take", "amount": 2}):
            refused = await spectator.act(version, action)
            assert refused["code"] == "not_authorized"
    assert (await north.act(0, TAKE_1))["version"] == 1  # nothing the spectator sent counted


async def test_foreign_origin_is_refused_and_own_origin_accepted(table: Table) -> None:
    with pytest.raises(InvalidStatus) as refused:
        await connect(table.url, origin="https://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    own = f"http://127.0.0.1:{table.server.port}"
    async with connect(table.url, origin=own) as ws:  # type: ignore[arg-type]
        await ws.send('{"type":"ping"}')
        assert await ws.recv() == '{"type":"pong"}'


async def test_listed_origin_is_accepted(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    table = await open_table(server)
    async with connect(table.url, origin="http://localhost:8000") as ws:  # type: ignore[arg-type]
        await ws.send('{"type":"ping"}')
        assert await ws.recv() == '{"type":"pong"}'


async def test_cors_grants_no_foreign_origin_by_default(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        simple = await http.get("/api/matches", headers={"Origin": "https://evil.example"})
        preflight = await http.options(
            "/api/matches",
            headers={
                "Origin": "https://evil.example",
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type",
            },
        )
    assert "access-control-allow-origin" not in simple.headers
    assert "access-control-allow-origin" not in preflight.headers
    assert preflight.status_code >= 400
