"""One writer per match across workers: two services (two engines, as two workers would
have) race on PostgreSQL at the same version; exactly one commits, the loser re-reads."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from sqlalchemy import func, select

from app.db.migrate import upgrade_head
from app.db.models import Action, Match
from app.db.session import create_engine, create_session_factory
from app.matches import errors, store
from app.matches.records import Ack
from app.matches.service import MatchService
from app.observability import metrics
from tests.support.recorders import Notifications
from tests.support.services import postgres_database
from tests.support.settings import TEST_PEPPER

pytestmark = pytest.mark.postgres

TAKE_ONE = {"type": "take", "amount": 1}


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    with postgres_database() as url:
        upgrade_head(url)
        yield url


@pytest.fixture
async def workers(pg_url: str) -> AsyncIterator[tuple[MatchService, MatchService]]:
    engines = [create_engine(pg_url), create_engine(pg_url)]
    services = [
        MatchService(create_session_factory(e), TEST_PEPPER, Notifications()) for e in engines
    ]
    yield services[0], services[1]
    for engine in engines:
        await engine.dispose()


@pytest.fixture
def lockstep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both writers reach the guarded UPDATE before either runs it: a true race."""
    barrier = asyncio.Barrier(2)
    real = store.save_step

    async def racing(*args: Any, **kwargs: Any) -> bool:
        await asyncio.wait_for(barrier.wait(), 5)
        return await real(*args, **kwargs)

    monkeypatch.setattr(store, "save_step", racing)


async def started_match(service: MatchService) -> str:
    grant = await service.create_match("countdown", {"start": 10}, "north", None)
    await service.join_match(grant.match_id, None, None)
    return grant.match_id


async def stored(service: MatchService, match_id: str) -> tuple[int, int]:
    """(match version, action rows) as the database has them."""
    async with service.sessions() as session:
        version = await session.scalar(select(Match.version).where(Match.id == match_id))
        rows = await session.scalar(
            select(func.count()).select_from(Action).where(Action.match_id == match_id)
        )
    return int(version or 0), int(rows or 0)


def count(result: str) -> float:
    return metrics.ACTIONS.labels(result)._value.get()


@pytest.mark.usefixtures("lockstep")
async def test_same_action_on_two_workers_commits_once_and_acks_both(
    workers: tuple[MatchService, MatchService],
) -> None:
    first, second = workers
    match_id = await started_match(first)
    duplicates = count("duplicate")
    answers = await asyncio.gather(
        first.act(match_id, "north", "resent-id", 0, TAKE_ONE),
        second.act(match_id, "north", "resent-id", 0, TAKE_ONE),
    )
    assert answers == [Ack("resent-id", 1), Ack("resent-id", 1)]
    assert await stored(first, match_id) == (1, 1)
    assert count("duplicate") == duplicates + 1


@pytest.mark.usefixtures("lockstep")
async def test_different_actions_on_two_workers_one_wins_one_is_stale(
    workers: tuple[MatchService, MatchService],
) -> None:
    first, second = workers
    match_id = await started_match(first)
    answers = await asyncio.gather(
        first.act(match_id, "north", "one", 0, TAKE_ONE),
        second.act(match_id, "north", "two", 0, {"type": "take", "amount": 2}),
        return_exceptions=True,
    )
    acks = [a for a in answers if isinstance(a, Ack)]
    stale = [a for a in answers if isinstance(a, errors.StaleVersion)]
    assert len(acks) == 1 and acks[0].version == 1
    assert len(stale) == 1 and stale[0].current == 1
    assert await stored(first, match_id) == (1, 1)
