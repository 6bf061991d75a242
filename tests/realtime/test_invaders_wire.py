"""The shipped game over the wire: a random Invaders game to the end, with a leak check.

Every frame a viewer receives at version v is checked against the engine's own
``secrets(state_v, viewer)``, the states being replayed from the stored seed and log.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from app.games import registry
from tests.support.client import Client
from tests.support.server import LiveServer

MAX_STEPS = 1500


def invaders() -> Any:
    try:
        game = registry.get("invaders")
        game.setup(1, game.default_options())
    except Exception as exc:  # the engine is not playable yet in this checkout
        pytest.skip(f"invaders engine not playable: {exc}")
    return game


async def test_random_invaders_game_plays_to_the_end_without_leaks(
    serve: Callable[..., LiveServer], sqlite_url: str
) -> None:
    game = invaders()
    # A scripted player outpaces any human: lift the per-socket and per-address budgets.
    server = serve(
        rate_per_second=1000.0, rate_burst=1000, ip_rate_per_second=1000.0, ip_rate_burst=1000
    )
    async with httpx.AsyncClient(base_url=server.http) as http:
        made = (
            await http.post("/api/matches", json={"game": "invaders", "seat": "mankind"})
        ).json()
        joined = (await http.post(f"/api/matches/{made['match_id']}/seats", json={})).json()
    url = server.ws(made["match_id"])
    seats = {"mankind": await Client.open(url, made["secret"])}
    seats["invader"] = await Client.open(url, joined["secret"])
    spectator = await Client.open(url)
    packed = await Client.open(url, compress=True)  # the browser's way: compressed frames
    views = {seat: last_state(c)["view"] for seat, c in seats.items()}
    rng = random.Random(7)
    version = 0
    while version < MAX_STEPS:
        actor = next((s for s, v in views.items() if v["legal_actions"]), None)
        if actor is None:
            break
        ack = await seats[actor].act(version, rng.choice(views[actor]["legal_actions"]))
        assert ack["type"] == "ack", ack
        version += 1
        for seat, client in [*seats.items(), (None, spectator), (None, packed)]:
            frame = await client.expect("state")
            assert frame["version"] == version
            if seat is not None:
                views[seat] = frame["view"]
    assert views["mankind"]["outcome"] is not None, "the random game did not finish"
    states = replay(game, sqlite_url, made["match_id"])
    for seat, client in [*seats.items(), (None, spectator), (None, packed)]:
        assert_no_secret(game, states, client, seat)
    assert packed.binary > 0
    assert states_of(packed) == states_of(spectator)


def states_of(client: Client) -> list[dict[str, Any]]:
    return [f for f in client.frames if f["type"] == "state"]


def last_state(client: Client) -> dict[str, Any]:
    return [f for f in client.frames if f["type"] == "state"][-1]


def replay(game: Any, sqlite_url: str, match_id: str) -> list[Any]:
    """Every state of the match, rebuilt from the stored seed and action log."""
    path = sqlite_url.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(path) as db:
        seed, options = db.execute(
            "SELECT seed, options FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        actions = db.execute(
            "SELECT seat, payload FROM actions WHERE match_id = ? ORDER BY seq", (match_id,)
        ).fetchall()
    states = [game.setup(seed, json.loads(options))]
    for seat, payload in actions:
        states.append(game.apply(states[-1], seat, json.loads(payload)).state)
    return states


def assert_no_secret(game: Any, states: list[Any], client: Client, viewer: str | None) -> None:
    """A view may show nothing hidden now; an event nothing hidden both before and after it.

    (An event may name a card that was public before the step, e.g. one recovered from
    the discard pile into a hand: everyone saw where it went.)
    """
    version = 0
    for frame in client.frames:
        version = frame["version"] if frame["type"] == "state" else version
        hidden = game.secrets(states[version], viewer)
        body = {k: v for k, v in frame.items() if k != "events"}
        assert not hidden & quoted(body), f"{viewer} saw a secret in version {version}"
        if frame.get("events"):
            still_hidden = hidden & game.secrets(states[version - 1], viewer)
            leaked = still_hidden & quoted(frame["events"])
            assert not leaked, f"{viewer} got {leaked} in the events of version {version}"


def quoted(data: object) -> set[str]:
    """Every JSON string in ``data``, quotes included (the form ``secrets`` returns)."""
    return set(re.findall(r'"(?:[^"\\]|\\.)*"', json.dumps(data)))
