"""Turn timers and abandonment: server-held deadlines, defaults, forfeits, restarts."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from app.db.models import utcnow
from app.db.session import create_engine, create_session_factory
from app.games import registry
from app.matches import errors
from app.matches.clocks import ClockKeeper, ClockOptions, default_action
from app.matches.service import MatchService
from tests.support.client import Client
from tests.support.recorders import Notifications
from tests.support.server import LiveServer
from tests.support.settings import TEST_PEPPER, make_settings

TICK = 0.2


async def create(server: LiveServer, clock: dict[str, Any], start: int = 10) -> dict[str, str]:
    """A started countdown match with a clock; north moves first."""
    async with httpx.AsyncClient(base_url=server.http) as http:
        body = {"game": "countdown", "options": {"start": start}, "seat": "north", "clock": clock}
        made = await http.post("/api/matches", json=body)
        assert made.status_code == 201, made.text
        joined = await http.post(f"/api/matches/{made.json()['match_id']}/seats", json={})
    return {
        "match": made.json()["match_id"],
        "north": made.json()["secret"],
        "south": joined.json()["secret"],
    }


async def summary(server: LiveServer, match_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return dict((await http.get(f"/api/matches/{match_id}")).json())


@pytest.fixture
async def service(sqlite_url: str) -> AsyncIterator[MatchService]:
    engine = create_engine(sqlite_url)
    yield MatchService(create_session_factory(engine), TEST_PEPPER, Notifications())
    await engine.dispose()


def test_clock_options_are_validated() -> None:
    assert ClockOptions.parse({"turn_seconds": 30, "max_misses": 2}).max_misses == 2
    for bad in ({"turn_seconds": 0}, {"max_misses": True}, {"on_abandon": "ai"}, {"x": 1}):
        with pytest.raises(errors.IllegalMove) as refused:
            ClockOptions.parse(bad)
        assert refused.value.code == "bad_clock"


def test_default_action_prefers_a_pass_then_the_first_legal() -> None:
    game = registry.get("countdown")
    state = game.setup(1, {"start": 5})
    assert default_action(game, state, "north") == {"type": "take", "amount": 1}
    assert default_action(game, state, "south") is None


async def test_expired_turn_plays_the_default(
    serve: Callable[..., LiveServer], figures: Callable[..., None]
) -> None:
    server = serve(clock_tick_seconds=TICK)
    grants = await create(server, {"turn_seconds": 1})
    started = time.monotonic()
    spectator = await Client.open(server.ws(grants["match"]))
    state = await spectator.expect("state", timeout=5)
    late = time.monotonic() - started - 1.0
    assert state["version"] == 1 and state["view"]["counter"] == 9
    assert state["events"][0] == {"type": "took", "seat": "north", "amount": 1, "counter": 9}
    second = await spectator.expect("state", timeout=5)  # south's turn runs out too
    assert second["version"] == 2
    figures(timeout_applied_late_s=round(late, 3), tick_s=TICK)


async def test_too_many_misses_forfeit(serve: Callable[..., LiveServer]) -> None:
    server = serve(clock_tick_seconds=TICK)
    grants = await create(server, {"turn_seconds": 1, "max_misses": 2})
    south = await Client.open(server.ws(grants["match"]), grants["south"])
    north = await Client.open(server.ws(grants["match"]), grants["north"])
    assert (await south.expect("state", timeout=5))["version"] == 1  # north's first miss
    assert (await south.act(1, {"type": "take", "amount": 1}))["type"] == "ack"
    ended = await north.expect("presence", timeout=6)
    while ended["status"] != "finished":
        ended = await north.expect("presence", timeout=6)
    assert ended["outcome"]["winner"] == "south"
    assert ended["outcome"]["reason"] == "timeout"
    assert (await north.act(2, {"type": "take", "amount": 1}))["code"] == "match_finished"
    assert (await summary(server, grants["match"]))["version"] == 2


async def test_abandoned_seat_forfeits_after_the_grace(serve: Callable[..., LiveServer]) -> None:
    server = serve(clock_tick_seconds=TICK)
    grants = await create(server, {"grace_seconds": 1})
    north = await Client.open(server.ws(grants["match"]), grants["north"])
    south = await Client.open(server.ws(grants["match"]), grants["south"])
    assert (await north.act(0, {"type": "take", "amount": 1}))["type"] == "ack"
    await south.close()
    left = time.monotonic()
    deadline = left + 6
    while (found := await summary(server, grants["match"]))["status"] == "active":
        assert time.monotonic() < deadline
        await asyncio.sleep(TICK)
    assert time.monotonic() - left >= 1.0
    assert found["outcome"]["winner"] == "north" and found["outcome"]["reason"] == "abandoned"


async def test_reconnecting_within_the_grace_keeps_the_seat(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(clock_tick_seconds=TICK)
    grants = await create(server, {"grace_seconds": 1.5})
    await Client.open(server.ws(grants["match"]), grants["north"])
    south = await Client.open(server.ws(grants["match"]), grants["south"])
    await south.close()
    await asyncio.sleep(0.7)
    await Client.open(server.ws(grants["match"]), grants["south"])
    await asyncio.sleep(1.5)
    assert (await summary(server, grants["match"]))["status"] == "active"


async def test_timers_survive_a_restart(sqlite_url: str, figures: Callable[..., None]) -> None:
    first = LiveServer(make_settings(sqlite_url, clock_tick_seconds=TICK)).start()
    grants = await create(first, {"turn_seconds": 2})
    first.stop()  # the deadline passes while no server runs
    await asyncio.sleep(2.2)
    second = LiveServer(make_settings(sqlite_url, clock_tick_seconds=TICK)).start()
    restarted = time.monotonic()
    try:
        spectator = await Client.open(second.ws(grants["match"]))
        state = spectator.frames[1]
        if state["version"] == 0:
            state = await spectator.expect("state", timeout=5)
        assert state["version"] == 1 and state["view"]["counter"] == 9
        figures(restart_to_default_applied_s=round(time.monotonic() - restarted, 3))
    finally:
        second.stop()


async def test_bot_claims_an_abandoned_seat_when_asked(service: MatchService) -> None:
    grant = await service.create_match(
        "countdown", {}, "north", None, clock={"grace_seconds": 5, "on_abandon": "bot"}
    )
    await service.join_match(grant.match_id, None, None)
    claimed: list[tuple[str, str]] = []

    async def claim(match_id: str, seat: str) -> bool:
        claimed.append((match_id, seat))
        return True

    keeper = ClockKeeper(service.sessions, service.act, Notifications(), 1.0, claim)
    await service.set_connected(grant.match_id, "north", True)
    now = utcnow()
    await keeper.tick(now)
    await keeper.tick(now + timedelta(seconds=6))
    assert claimed == [(grant.match_id, "south")]
    await keeper.tick(now + timedelta(seconds=20))
    assert claimed == [(grant.match_id, "south")]  # a bot seat is no longer absent
    assert (await service.summary(grant.match_id)).status == "active"


async def test_without_a_bot_claimer_bot_abandonment_forfeits(service: MatchService) -> None:
    grant = await service.create_match(
        "countdown", {}, "north", None, clock={"grace_seconds": 5, "on_abandon": "bot"}
    )
    await service.join_match(grant.match_id, None, None)
    keeper = ClockKeeper(service.sessions, service.act, Notifications(), 1.0)
    await service.set_connected(grant.match_id, "south", True)
    now = utcnow()
    await keeper.tick(now)
    await keeper.tick(now + timedelta(seconds=6))
    found = await service.summary(grant.match_id)
    assert found.status == "finished" and found.outcome is not None
    assert found.outcome["winner"] == "south"


async def test_a_move_and_a_forfeit_at_one_version_never_both_land(
    service: MatchService,
) -> None:
    grant = await service.create_match("countdown", {}, "north", None, clock={"turn_seconds": 5})
    await service.join_match(grant.match_id, None, None)
    keeper = ClockKeeper(service.sessions, service.act, Notifications(), 1.0)
    await service.act(grant.match_id, "north", "m1", 0, {"type": "take", "amount": 1})
    assert not await keeper.forfeit(grant.match_id, "south", 0, "timeout")  # too late
    assert await keeper.forfeit(grant.match_id, "south", 1, "timeout")
    with pytest.raises(errors.MatchFinished):
        await service.act(grant.match_id, "south", "m2", 1, {"type": "take", "amount": 1})
    assert (await service.summary(grant.match_id)).version == 1


async def test_clients_may_not_use_clock_ids(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    grants = await create(server, {})
    north = await Client.open(server.ws(grants["match"]), grants["north"])
    refused = await north.act(0, {"type": "take", "amount": 1}, "clock:0:south")
    assert refused["code"] == "bad_frame"


async def test_when_every_seat_is_gone_the_match_is_abandoned(service: MatchService) -> None:
    grant = await service.create_match("countdown", {}, "north", None, clock={"grace_seconds": 5})
    await service.join_match(grant.match_id, None, None)
    keeper = ClockKeeper(service.sessions, service.act, Notifications(), 1.0)
    now = utcnow()
    await keeper.tick(now)
    await keeper.tick(now + timedelta(seconds=6))
    found = await service.summary(grant.match_id)
    assert found.status == "abandoned" and found.outcome is not None
    assert (found.outcome["winner"], found.outcome["reason"]) == (None, "abandoned")


def test_clocks_and_bots_agree_on_bot_seat_names() -> None:
    from app.matches import bots, clocks

    assert clocks.BOT_SEAT_NAME_PREFIX == bots.BOT_NAME_PREFIX


async def test_a_bot_seat_is_never_absent(service: MatchService) -> None:
    grant = await service.create_match("countdown", {}, "north", None, clock={"grace_seconds": 5})
    await service.join_match(grant.match_id, "south", "bot:heuristic")
    await service.set_connected(grant.match_id, "north", True)
    keeper = ClockKeeper(service.sessions, service.act, Notifications(), 1.0)
    now = utcnow()
    await keeper.tick(now)
    await keeper.tick(now + timedelta(seconds=60))
    assert (await service.summary(grant.match_id)).status == "active"


async def test_clients_can_read_the_deadline(serve: Callable[..., LiveServer]) -> None:
    server = serve()
    grants = await create(server, {"turn_seconds": 30, "max_misses": 2})
    plain = await create(server, {})
    async with httpx.AsyncClient(base_url=server.http) as http:
        clock = (await http.get(f"/api/matches/{grants['match']}/clock")).json()
        none = await http.get(f"/api/matches/{plain['match']}/clock")
        missing = await http.get("/api/matches/no-such-match/clock")
    assert (clock["turn_seconds"], clock["max_misses"], clock["version"]) == (30, 2, 0)
    due = datetime.fromisoformat(clock["deadline"]) - utcnow()
    assert timedelta(seconds=25) < due <= timedelta(seconds=30)
    assert none.status_code == missing.status_code == 404


async def test_a_restart_while_the_service_stays_up_keeps_the_absences(
    service: MatchService,
) -> None:
    grant = await service.create_match("countdown", {}, "north", None, clock={"grace_seconds": 5})
    await service.join_match(grant.match_id, None, None)
    holding_north = [(grant.match_id, "north")]
    staying = ClockKeeper(
        service.sessions, service.act, Notifications(), 1.0, held=lambda: holding_north
    )
    now = utcnow()
    await staying.tick(now)  # south is absent from now on; north's lease is renewed
    restarted = ClockKeeper(service.sessions, service.act, Notifications(), 1.0, held=lambda: [])
    await restarted.fresh_grace(now + timedelta(seconds=1))  # a rolling restart
    await staying.tick(now + timedelta(seconds=6))
    found = await service.summary(grant.match_id)
    assert found.status == "finished" and found.outcome is not None
    assert (found.outcome["winner"], found.outcome["reason"]) == ("north", "abandoned")


async def test_a_restart_after_the_whole_service_was_down_gives_a_fresh_grace(
    service: MatchService,
) -> None:
    grant = await service.create_match("countdown", {}, "north", None, clock={"grace_seconds": 5})
    await service.join_match(grant.match_id, None, None)
    holding_north = [(grant.match_id, "north")]
    before = ClockKeeper(
        service.sessions, service.act, Notifications(), 1.0, held=lambda: holding_north
    )
    now = utcnow()
    await before.tick(now)  # south is absent from now on
    after = ClockKeeper(
        service.sessions, service.act, Notifications(), 1.0, held=lambda: holding_north
    )
    back = now + timedelta(seconds=60)  # the only worker was down for a minute
    await after.fresh_grace(back)
    await after.tick(back)
    await after.tick(back + timedelta(seconds=4))
    assert (await service.summary(grant.match_id)).status == "active"
    await after.tick(back + timedelta(seconds=6))
    assert (await service.summary(grant.match_id)).status == "finished"
