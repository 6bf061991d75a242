"""Graceful shutdown: on SIGTERM a worker stops accepting, lets in-flight actions finish,
closes its sockets with 1012 ("service restart": reconnect), and its clients carry on
with another worker, losing nothing."""

from __future__ import annotations

import asyncio
import signal
import time
import uuid
from collections.abc import Callable, Iterator

import pytest

from app.db.migrate import upgrade_head
from tests.reliability import driver
from tests.reliability.processes import Worker
from tests.support.services import port_open, postgres_database, require_service

SERVICE_RESTART = 1012
MATCHES = 8
START = 40


@pytest.fixture
def shared_postgres() -> Iterator[str]:
    with postgres_database() as url:
        upgrade_head(url)
        yield url


async def refused_within(port: int, seconds: float) -> bool:
    """The worker stops listening at the start of its drain (app/realtime/drain.py)."""
    deadline = time.monotonic() + seconds
    while port_open(port):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def test_sigterm_drains_to_another_worker(
    shared_postgres: str, figures: Callable[..., None]
) -> None:
    require_service("redis")
    bus = {"SKIRMISH_BUS__BACKEND": "redis", "SKIRMISH_BUS__CHANNEL": f"sd{uuid.uuid4().hex[:8]}"}
    leaving, staying = Worker(shared_postgres, bus).start(), Worker(shared_postgres, bus).start()
    alive = [leaving, staying]
    try:
        runs = await driver.create_matches(
            staying.http, MATCHES, START, lambda: [f"ws://127.0.0.1:{w.port}" for w in alive]
        )
        started = time.monotonic()
        tasks = await driver.play_all(runs, started + 60)
        while sum(r.seats[0].version or 0 for r in runs) < MATCHES * START // 4:
            await asyncio.sleep(0.05)
        moved = {  # each client on the leaving worker, and how many sessions it had ended
            id(c): (c, len(c.endings))
            for r in runs
            for c in [*r.seats, r.spectator]
            if c.ws is not None and c.ws.remote_address[1] == leaving.port
        }
        on_leaving = len(moved)
        alive.remove(leaving)
        asked = time.monotonic()
        leaving.signal(signal.SIGTERM)
        refused_new = await refused_within(leaving.port, 5.0)
        refused_after = time.monotonic() - asked
        code = await asyncio.to_thread(leaving.wait, 20)
        exited = time.monotonic() - asked
        await asyncio.gather(*tasks)
        result = await driver.verdict(shared_postgres, runs)
    finally:
        leaving.kill()
        staying.kill()
    codes = [c for r in runs for cl in [*r.seats, r.spectator] for c in cl.close_codes]
    acks_lost = sum(seat.acks_lost for r in runs for seat in r.seats)
    figures(
        sockets_on_leaving_worker=on_leaving,
        close_codes=sorted(set(map(str, codes))),
        exit_code=code,
        sigterm_to_refusal_s=round(refused_after, 3),
        sigterm_to_exit_s=round(exited, 3),
        lost=result.lost,
        acks_lost_at_close=acks_lost,
        duplicates=result.duplicates,
        out_of_sync=result.out_of_sync,
    )
    # uvicorn re-raises the captured SIGTERM once its graceful shutdown is over.
    assert code in (0, -signal.SIGTERM) and refused_new
    # Every moved socket was closed with 1012, unless its match ended first (the drain lets
    # the actions in flight finish, and a last move ends the client's session by itself).
    ends = [c.endings[before] if len(c.endings) > before else None for c, before in moved.values()]
    assert on_leaving > 0 and set(codes) == {SERVICE_RESTART}
    assert all(end in (SERVICE_RESTART, "finished") for end in ends), ends
    outcome = (result.lost, result.duplicates, result.out_of_sync, result.unfinished)
    assert outcome == (0, 0, 0, 0), result.stragglers
    assert acks_lost == 0, "an action committed before the close must be acknowledged on it"
    assert result.committed == result.acknowledged == MATCHES * START
