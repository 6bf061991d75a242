"""A human plays a whole Invaders game against a bot through the real WebSocket path.

The bot seat is created by ``{"bot": "heuristic"}`` at match creation and moves
through ``MatchService.act`` (the runner of app/matches/bots.py), so the human's
socket receives each bot move as an ordinary state frame.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

import tests.support.server as live
from app.config import Settings
from app.main import create_app
from app.matches.bots import BotRunner, BotSettings
from tests.support.client import Client
from tests.support.server import LiveServer

MAX_HUMAN_MOVES = 2000


def create_app_with_bots(settings: Settings | None = None) -> FastAPI:
    """The app as app/main.py builds it, plus the bot runner (until main.py's lifespan wires
    it as ``app.state.bots``; then the app's own runner is used)."""
    app = create_app(settings)
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with inner(app):
            if getattr(app.state, "bots", None) is not None:  # app/main.py wires it already
                yield
                return
            bots = BotRunner(app.state.service, BotSettings(0.0, 0.0, budget_seconds=0.2))
            bots.install(app.state.bus)
            await bots.resume()
            yield
            await bots.close()

    app.router.lifespan_context = lifespan
    return app


@pytest.fixture
def bot_server(
    serve: Callable[..., LiveServer], monkeypatch: pytest.MonkeyPatch
) -> Iterator[LiveServer]:
    monkeypatch.setattr(live, "create_app", create_app_with_bots)
    yield serve(
        rate_per_second=1000.0, rate_burst=1000, ip_rate_per_second=1000.0, ip_rate_burst=1000
    )


async def create(server: LiveServer, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.post("/api/matches", json=body)


async def test_human_plays_a_full_game_against_the_heuristic_bot(bot_server: LiveServer) -> None:
    made = await create(bot_server, {"game": "invaders", "seat": "invader", "bot": "heuristic"})
    assert made.status_code == 201, made.text
    grant = made.json()
    async with httpx.AsyncClient(base_url=bot_server.http) as http:
        summary = (await http.get(f"/api/matches/{grant['match_id']}")).json()
    assert summary["status"] == "active"
    bot_seat = next(s for s in summary["seats"] if s["seat"] == "mankind")
    assert bot_seat["taken"] and bot_seat["name"] == "bot:heuristic"

    human = await Client.open(bot_server.ws(grant["match_id"]), grant["secret"])
    frame = [f for f in human.frames if f["type"] == "state"][-1]
    rng = random.Random(3)
    moves = {"human": 0, "bot": 0}
    last_version = frame["version"]
    while frame["view"]["outcome"] is None and moves["human"] < MAX_HUMAN_MOVES:
        legal = frame["view"]["legal_actions"]
        if legal:
            answer = await human.act(frame["version"], rng.choice(legal))
            assert answer["type"] == "ack", answer
            moves["human"] += 1
        frame = await human.expect("state", timeout=20.0)
        if not legal:  # every version the human did not make was the bot's move
            moves["bot"] += frame["version"] - last_version
        last_version = frame["version"]
        while human.unread("state"):  # jump to the newest view
            frame = await human.expect("state")
            moves["bot"] += frame["version"] - last_version
            last_version = frame["version"]
    await human.close()
    assert frame["view"]["outcome"] is not None, "the game did not finish"
    assert moves["bot"] > 0 and moves["human"] > 0


async def test_unknown_bot_level_is_refused(bot_server: LiveServer) -> None:
    made = await create(bot_server, {"game": "invaders", "seat": "mankind", "bot": "genius"})
    assert made.status_code in (409, 422)
    assert "bad_options" in made.text


async def test_a_player_cannot_take_a_bot_name(bot_server: LiveServer) -> None:
    made = await create(bot_server, {"game": "invaders", "seat": "mankind", "name": "bot:strong"})
    assert made.status_code == 422
