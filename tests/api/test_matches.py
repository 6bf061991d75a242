"""REST: games, create, join, lobby, summary, log, and problem-JSON errors with codes."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.support.client import Client
from tests.support.server import LiveServer


@pytest.fixture
async def http(server: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.http) as client:
        yield client


async def create(http: httpx.AsyncClient, **body: object) -> dict:
    response = await http.post("/api/matches", json={"game": "countdown", **body})
    assert response.status_code == 201, response.text
    assert response.headers["cache-control"] == "no-store"
    return response.json()


async def test_games_lists_the_registered_games(http: httpx.AsyncClient) -> None:
    games = {g["name"]: g for g in (await http.get("/api/games")).json()}
    assert games["countdown"]["seats"] == ["north", "south"]
    assert games["countdown"]["options"] == {"start": 10}


async def test_create_returns_seat_secret_once(http: httpx.AsyncClient) -> None:
    grant = await create(http, seat="south", name="Ann")
    assert grant["seat"] == "south" and len(grant["secret"]) >= 22
    summary = (await http.get(f"/api/matches/{grant['match_id']}")).json()
    assert grant["secret"] not in str(summary)
    assert summary["status"] == "lobby"
    south = {"seat": "south", "taken": True, "name": "Ann", "connected": False}
    assert summary["seats"][1] == south


async def test_join_fills_the_match_and_starts_it(http: httpx.AsyncClient) -> None:
    grant = await create(http, seat="north")
    joined = await http.post(f"/api/matches/{grant['match_id']}/seats", json={"name": "Bob"})
    assert joined.status_code == 201 and joined.json()["seat"] == "south"
    lobby = (await http.get("/api/matches")).json()
    assert [m["id"] for m in lobby["live"]] == [grant["match_id"]] and lobby["open"] == []


async def test_summary_counts_connected_seats_and_spectators(
    http: httpx.AsyncClient, server: LiveServer
) -> None:
    grant = await create(http, seat="north")
    await Client.open(server.ws(grant["match_id"]), grant["secret"])
    spectator = await Client.open(server.ws(grant["match_id"]))
    await spectator.quiet(0.1)
    summary = (await http.get(f"/api/matches/{grant['match_id']}")).json()
    assert summary["spectators"] == 1
    assert [s["connected"] for s in summary["seats"]] == [True, False]


async def test_log_hides_secrets_while_live_and_shows_all_after(
    http: httpx.AsyncClient, server: LiveServer
) -> None:
    grant = await create(http, seat="north", options={"start": 2})
    south = (await http.post(f"/api/matches/{grant['match_id']}/seats", json={})).json()
    north_ws = await Client.open(server.ws(grant["match_id"]), grant["secret"])
    south_ws = await Client.open(server.ws(grant["match_id"]), south["secret"])
    await north_ws.act(0, {"type": "take", "amount": 1})
    live = (await http.get(f"/api/matches/{grant['match_id']}/log")).json()
    assert live["redacted"] and "SENTINEL" not in str(live)
    assert live["entries"][0]["action"] is None
    await south_ws.expect("state")
    await south_ws.act(1, {"type": "take", "amount": 1})
    done = (await http.get(f"/api/matches/{grant['match_id']}/log")).json()
    assert not done["redacted"] and "SENTINEL" in str(done)
    assert [e["seq"] for e in done["entries"]] == [1, 2]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("get", "/api/matches/nope", None, 404, "match_not_found"),
        ("get", "/api/matches/nope/log", None, 404, "match_not_found"),
        ("post", "/api/matches/nope/seats", {}, 404, "match_not_found"),
        ("post", "/api/matches", {"game": "chess"}, 404, "unknown_game"),
        ("post", "/api/matches", {"game": "countdown", "seat": "east"}, 422, "unknown_seat"),
        (
            "post",
            "/api/matches",
            {"game": "countdown", "options": {"start": 0}},
            422,
            "bad_options",
        ),
        ("post", "/api/matches", {"options": {}}, 422, "bad_request"),
    ],
)
async def test_errors_are_problem_json_with_code(
    http: httpx.AsyncClient, method: str, path: str, body: dict | None, status: int, code: str
) -> None:
    response = await http.request(method, path, json=body)
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["code"] == code


async def test_join_taken_seat_is_seat_taken(http: httpx.AsyncClient) -> None:
    grant = await create(http, seat="north")
    response = await http.post(f"/api/matches/{grant['match_id']}/seats", json={"seat": "north"})
    assert (response.status_code, response.json()["code"]) == (409, "seat_taken")
