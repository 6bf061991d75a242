"""The bot seat runner: acts through MatchService.act, resumes after a restart, never blocks."""

from __future__ import annotations

import asyncio
import pickle
import random
import time
import uuid
from collections.abc import AsyncIterator, Callable

import pytest

from app.db.models import MatchStatus
from app.db.session import create_engine, create_session_factory
from app.matches import bots as bot_seats
from app.matches import errors
from app.matches.bots import BotRunner, BotSettings, bot_level, bot_seat_name
from app.matches.service import MatchService
from tests.support.settings import TEST_PEPPER

FAST = BotSettings(0.0, 0.0, budget_seconds=0.05, budget_iterations=10)


class LocalBus:
    """The in-process bus contract the runner needs: publish calls every listener."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[str, int], None]] = []

    def subscribe(self, listener: Callable[[str, int], None]) -> None:
        self.listeners.append(listener)

    async def publish(self, match_id: str, version: int) -> None:
        for listener in self.listeners:
            listener(match_id, version)


@pytest.fixture
async def world(sqlite_url: str) -> AsyncIterator[tuple[MatchService, LocalBus]]:
    engine = create_engine(sqlite_url)
    bus = LocalBus()
    yield MatchService(create_session_factory(engine), TEST_PEPPER, bus.publish), bus
    await engine.dispose()


async def wait_for_version(service: MatchService, match_id: str, seconds: float = 20.0) -> None:
    """Until the match has moved past version 0 (the bot owes the first decision)."""
    deadline = time.monotonic() + seconds
    while (await service.summary(match_id)).version == 0:
        assert time.monotonic() < deadline, "the bot did not move"
        await asyncio.sleep(0.01)


async def play_human_until(service: MatchService, match_id: str, seat: str, moves: int) -> int:
    """The human side: random legal actions through act(); returns the moves it made."""
    rng = random.Random(5)
    made = 0
    deadline = time.monotonic() + 60
    while made < moves and time.monotonic() < deadline:
        pos = await service.position(match_id)
        if pos.status != MatchStatus.ACTIVE:
            break
        legal = pos.game.legal_actions(pos.state, seat)
        if not legal:
            await asyncio.sleep(0.005)
            continue
        try:
            await service.act(match_id, seat, str(uuid.uuid4()), pos.version, rng.choice(legal))
            made += 1
        except errors.StaleVersion:
            continue
    return made


def test_knowledge_crosses_a_process_boundary() -> None:
    """A process pool executor pickles the seat's Knowledge (never the State)."""
    from app.games import invaders
    from app.games.invaders.bots import Budget, observe

    k = observe(invaders.setup(3, {}), "mankind")
    copy = pickle.loads(pickle.dumps(k))
    assert copy == k
    assert bot_seats.decide(copy, "heuristic", 1, Budget(4, 1.0)) in invaders.legal_actions(
        invaders.setup(3, {}), "mankind"
    )


def test_bot_seat_names_round_trip() -> None:
    assert bot_level(bot_seat_name("strong")) == "strong"
    assert bot_level("Alice") is None and bot_level(None) is None


async def test_create_with_bot_fills_the_other_seat_and_starts(
    world: tuple[MatchService, LocalBus],
) -> None:
    service, _ = world
    grant = await service.create_match("invaders", {}, "mankind", "me", bot="random")
    summary = await service.summary(grant.match_id)
    assert summary.status == MatchStatus.ACTIVE
    names = {s.seat: s.name for s in summary.seats}
    assert names == {"mankind": "me", "invader": "bot:random"}


async def test_unknown_level_is_bad_options(world: tuple[MatchService, LocalBus]) -> None:
    service, _ = world
    with pytest.raises(errors.IllegalMove) as caught:
        await service.create_match("invaders", {}, "mankind", None, bot="genius")
    assert caught.value.code == "bad_options"


async def test_bot_answers_the_human_through_act(world: tuple[MatchService, LocalBus]) -> None:
    service, bus = world
    runner = BotRunner(service, FAST)
    runner.install(bus)
    grant = await service.create_match("invaders", {}, "invader", None, bot="heuristic")
    # Mankind (the bot) owes the first decision: it must move without any human action.
    await wait_for_version(service, grant.match_id)
    made = await play_human_until(service, grant.match_id, "invader", 30)
    assert made == 30
    log = await service.match_log(grant.match_id)
    assert {e.seat for e in log.entries} == {"mankind", "invader"}
    await runner.close()


async def test_a_restarted_runner_resumes_its_bot_matches(
    world: tuple[MatchService, LocalBus],
) -> None:
    service, bus = world
    grant = await service.create_match("invaders", {}, "invader", None, bot="heuristic")
    runner = BotRunner(service, FAST)  # a new worker: it never saw the creation
    runner.install(bus)
    assert runner.playing() == []
    await runner.resume()
    assert runner.playing() == [grant.match_id]
    await wait_for_version(service, grant.match_id)
    await runner.close()


async def test_thinking_does_not_block_the_event_loop(
    world: tuple[MatchService, LocalBus], monkeypatch: pytest.MonkeyPatch
) -> None:
    service, bus = world
    real = bot_seats.decide

    def slow(*args: object) -> dict:  # type: ignore[type-arg]
        time.sleep(0.3)  # a long search, off the loop
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(bot_seats, "decide", slow)
    runner = BotRunner(service, FAST)
    runner.install(bus)
    await service.create_match("invaders", {}, "invader", None, bot="random")
    ticks = 0
    started = time.monotonic()
    while time.monotonic() - started < 0.25:
        await asyncio.sleep(0.01)
        ticks += 1
    assert ticks >= 10  # the loop kept running while the bot was thinking
    await runner.close()


async def test_abandoned_seat_is_claimed_for_a_bot(world: tuple[MatchService, LocalBus]) -> None:
    service, bus = world
    grant = await service.create_match("invaders", {}, "invader", None)
    await service.join_match(grant.match_id, "mankind", None)
    runner = BotRunner(service, FAST)
    runner.install(bus)
    assert await runner.claim_abandoned(grant.match_id, "mankind")
    await wait_for_version(service, grant.match_id)
    await runner.close()
