"""The service's hot path (app/matches/recent.py): what this worker committed is not read
back, and every answer stays what the full read path would give."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sqlalchemy import update

from app.db.models import Match, MatchStatus
from app.db.session import SessionFactory, create_engine, create_session_factory
from app.matches import errors
from app.matches.records import SeatGrant
from app.matches.service import MatchService
from tests.support.recorders import Notifications
from tests.support.settings import TEST_PEPPER

TAKE_ONE = {"type": "take", "amount": 1}


class CountingSessions:
    """A session factory that counts the sessions opened: each is a database round trip."""

    def __init__(self, factory: SessionFactory) -> None:
        self._factory = factory
        self.opened = 0

    def __call__(self):  # type: ignore[no-untyped-def]
        self.opened += 1
        return self._factory()


@pytest.fixture
async def counted(database_url: str) -> AsyncIterator[tuple[MatchService, CountingSessions]]:
    engine = create_engine(database_url)
    sessions = CountingSessions(create_session_factory(engine))
    yield MatchService(sessions, TEST_PEPPER, Notifications()), sessions  # type: ignore[arg-type]
    await engine.dispose()


@pytest.fixture
async def other_worker(database_url: str) -> AsyncIterator[MatchService]:
    """A second worker on the same database, with its own memory and pool."""
    engine = create_engine(database_url)
    yield MatchService(create_session_factory(engine), TEST_PEPPER, Notifications())
    await engine.dispose()


async def started(service: MatchService) -> SeatGrant:
    north = await service.create_match("countdown", {"start": 10}, "north", None)
    await service.join_match(north.match_id, None, None)
    return north


async def test_act_on_the_version_this_worker_wrote_only_writes(
    counted: tuple[MatchService, CountingSessions],
) -> None:
    service, sessions = counted
    north = await started(service)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    before = sessions.opened
    ack = await service.act(north.match_id, "south", "a2", 1, TAKE_ONE)
    assert (ack.version, sessions.opened - before) == (2, 1)


async def test_step_written_here_reaches_the_room_without_a_read(
    counted: tuple[MatchService, CountingSessions],
) -> None:
    service, sessions = counted
    north = await started(service)
    known = await service.position(north.match_id)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    before = sessions.opened
    progress = await service.progress(known, told=1)
    assert [(s.version, s.state.counter) for s in progress.steps] == [(1, 9)]
    assert (progress.status, sessions.opened - before) == ("active", 0)


async def test_heartbeat_progress_still_reads_the_database(
    counted: tuple[MatchService, CountingSessions],
) -> None:
    """Without a new version from the bus, only the database can tell of a forfeit."""
    service, sessions = counted
    north = await started(service)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    known = await service.position(north.match_id)
    before = sessions.opened
    await service.progress(known, told=known.version)
    assert sessions.opened - before == 1


async def test_step_that_ends_the_match_is_handed_on_as_finished(
    counted: tuple[MatchService, CountingSessions],
) -> None:
    service, _ = counted
    north = await service.create_match("countdown", {"start": 1}, "north", None)
    await service.join_match(north.match_id, None, None)
    known = await service.position(north.match_id)
    await service.act(north.match_id, "north", "end", 0, TAKE_ONE)
    assert (await service.progress(known, told=1)).status == "finished"


@pytest.mark.parametrize(
    ("seat", "action", "error"),
    [
        (None, TAKE_ONE, errors.NotAuthorized),
        ("north", TAKE_ONE, errors.NotYourDecision),
        ("south", {"type": "take", "amount": 5}, errors.IllegalMove),
    ],
)
async def test_guards_on_the_hot_path_refuse_without_effect(
    service: MatchService, seat: str | None, action: dict, error: type
) -> None:
    north = await started(service)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    with pytest.raises(error):
        await service.act(north.match_id, seat, "a2", 1, action)
    position = await service.position(north.match_id)
    assert (position.version, position.state.counter) == (1, 9)


async def test_rate_limit_on_the_hot_path_has_no_effect(service: MatchService) -> None:
    north = await started(service)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    with pytest.raises(errors.RateLimited):
        await service.act(north.match_id, "south", "a2", 1, TAKE_ONE, True)
    assert (await service.position(north.match_id)).version == 1


async def test_version_another_worker_wrote_makes_ours_stale(
    service: MatchService, other_worker: MatchService
) -> None:
    north = await started(service)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    await other_worker.act(north.match_id, "south", "b1", 1, TAKE_ONE)
    with pytest.raises(errors.StaleVersion) as caught:
        await service.act(north.match_id, "north", "a2", 1, TAKE_ONE)
    assert caught.value.current == 2
    ack = await service.act(north.match_id, "north", "a3", 2, TAKE_ONE)
    assert ack.version == 3


async def test_resend_of_an_action_another_worker_wrote_gets_its_ack(
    service: MatchService, other_worker: MatchService
) -> None:
    """The lost-ack case across workers: the resend must not apply twice."""
    north = await started(service)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    first = await other_worker.act(north.match_id, "south", "lost", 1, TAKE_ONE)
    again = await service.act(north.match_id, "south", "lost", 1, TAKE_ONE)
    assert again == first
    position = await service.position(north.match_id)
    assert (position.version, position.state.counter) == (2, 8)


async def test_client_id_reused_by_the_other_seat_is_refused_on_the_hot_path(
    service: MatchService,
) -> None:
    north = await started(service)
    await service.act(north.match_id, "north", "shared", 0, TAKE_ONE)
    with pytest.raises(errors.ActionIdReused):
        await service.act(north.match_id, "south", "shared", 1, TAKE_ONE)
    assert (await service.position(north.match_id)).version == 1


async def test_forfeit_at_the_known_version_answers_finished(
    service: MatchService, database_url: str
) -> None:
    north = await started(service)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    engine = create_engine(database_url)
    async with create_session_factory(engine)() as session, session.begin():
        await session.execute(
            update(Match).where(Match.id == north.match_id).values(status=MatchStatus.FINISHED)
        )
    await engine.dispose()
    with pytest.raises(errors.MatchFinished):
        await service.act(north.match_id, "south", "a2", 1, TAKE_ONE)
    assert (await service.position(north.match_id)).version == 1


async def test_bus_news_of_a_later_version_drops_our_hint(
    service: MatchService, other_worker: MatchService
) -> None:
    north = await started(service)
    await service.act(north.match_id, "north", "a1", 0, TAKE_ONE)
    known = await service.position(north.match_id)
    await other_worker.act(north.match_id, "south", "b1", 1, TAKE_ONE)
    service.observe(north.match_id, 2)
    progress = await service.progress(known, told=2)
    assert [s.version for s in progress.steps] == [2]
