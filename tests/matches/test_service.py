"""The match service against SQLite and PostgreSQL: lobby, hot path, guards, recovery."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from sqlalchemy import select

from app.db.models import Seat
from app.db.session import create_engine, create_session_factory
from app.matches import errors
from app.matches.records import SeatGrant
from app.matches.service import MatchService
from tests.support.recorders import Notifications
from tests.support.settings import TEST_PEPPER


def cid() -> str:
    return str(uuid.uuid4())


async def started(service: MatchService, start: int = 10) -> tuple[SeatGrant, SeatGrant]:
    north = await service.create_match("countdown", {"start": start}, "north", "Ann")
    south = await service.join_match(north.match_id, None, "Bob")
    return north, south


async def test_create_then_join_starts_match(service: MatchService) -> None:
    north = await service.create_match("countdown", {}, "north", "Ann")
    assert (await service.summary(north.match_id)).status == "lobby"
    south = await service.join_match(north.match_id, None, "Bob")
    summary = await service.summary(north.match_id)
    assert (south.seat, summary.status, summary.version) == ("south", "active", 0)
    assert [s.name for s in summary.seats] == ["Ann", "Bob"]


async def test_create_with_random_seat_picks_a_game_seat(service: MatchService) -> None:
    grant = await service.create_match("countdown", {}, None, None)
    assert grant.seat in ("north", "south")


async def test_create_unknown_game_is_refused(service: MatchService) -> None:
    with pytest.raises(errors.UnknownGame):
        await service.create_match("chess", {}, None, None)


async def test_create_bad_options_passes_engine_code(service: MatchService) -> None:
    with pytest.raises(errors.IllegalMove) as caught:
        await service.create_match("countdown", {"start": 0}, None, None)
    assert caught.value.code == "bad_options"


async def test_join_taken_seat_is_refused(service: MatchService) -> None:
    north = await service.create_match("countdown", {}, "north", None)
    with pytest.raises(errors.SeatTaken):
        await service.join_match(north.match_id, "north", None)


async def test_secret_is_stored_only_as_hash(service: MatchService, database_url: str) -> None:
    north = await service.create_match("countdown", {}, "north", None)
    engine = create_engine(database_url)
    async with create_session_factory(engine)() as session:
        hashes = (await session.execute(select(Seat.secret_hash))).scalars().all()
    await engine.dispose()
    assert north.secret not in hashes and any(hashes)
    assert await service.authenticate(north.match_id, north.secret) == "north"


async def test_authenticate_wrong_secret_is_refused(service: MatchService) -> None:
    north = await service.create_match("countdown", {}, "north", None)
    with pytest.raises(errors.NotAuthorized):
        await service.authenticate(north.match_id, "not-the-secret")
    assert await service.authenticate(north.match_id, None) is None


async def test_act_commits_and_notifies_after(
    service: MatchService, notifications: Notifications
) -> None:
    north, _ = await started(service)
    ack = await service.act(north.match_id, "north", "a1", 0, {"type": "take", "amount": 2})
    assert ack.version == 1
    assert notifications[-1] == (north.match_id, 1)
    position = await service.position(north.match_id)
    assert (position.version, position.state.counter) == (1, 8)


async def test_act_resend_returns_original_ack(service: MatchService) -> None:
    north, _ = await started(service)
    first = await service.act(north.match_id, "north", "a1", 0, {"type": "take", "amount": 1})
    again = await service.act(north.match_id, "north", "a1", 0, {"type": "take", "amount": 1})
    assert first == again
    assert (await service.position(north.match_id)).state.counter == 9


@pytest.mark.parametrize(
    ("seat", "version", "action", "error"),
    [
        (None, 0, {"type": "take", "amount": 1}, errors.NotAuthorized),
        ("north", 3, {"type": "take", "amount": 1}, errors.StaleVersion),
        ("south", 0, {"type": "take", "amount": 1}, errors.NotYourDecision),
        ("north", 0, {"type": "take", "amount": 5}, errors.IllegalMove),
    ],
)
async def test_act_guard_refuses_without_effect(
    service: MatchService, seat: str | None, version: int, action: dict, error: type
) -> None:
    north, _ = await started(service)
    with pytest.raises(error):
        await service.act(north.match_id, seat, cid(), version, action)
    assert (await service.position(north.match_id)).version == 0


async def test_act_in_lobby_is_not_active(service: MatchService) -> None:
    north = await service.create_match("countdown", {}, "north", None)
    with pytest.raises(errors.MatchNotActive):
        await service.act(north.match_id, "north", cid(), 0, {"type": "take", "amount": 1})


async def test_act_rate_limited_has_no_effect(service: MatchService) -> None:
    north, _ = await started(service)
    with pytest.raises(errors.RateLimited):
        await service.act(north.match_id, "north", cid(), 0, {"type": "take", "amount": 1}, True)
    assert (await service.position(north.match_id)).version == 0


async def test_act_last_token_finishes_with_outcome(service: MatchService) -> None:
    north, _ = await started(service, start=2)
    await service.act(north.match_id, "north", cid(), 0, {"type": "take", "amount": 2})
    summary = await service.summary(north.match_id)
    assert summary.status == "finished"
    assert summary.outcome == {"winner": "north", "reason": "last_token", "detail": ""}
    with pytest.raises(errors.MatchFinished):
        await service.act(north.match_id, "south", cid(), 1, {"type": "take", "amount": 1})


async def test_concurrent_acts_on_one_version_apply_once(
    service: MatchService, database_url: str, notifications: Notifications
) -> None:
    """Six racers on three workers (own caches, own pools) on version 0: exactly one wins."""
    north, _ = await started(service)
    engines = [create_engine(database_url) for _ in range(2)]
    rivals = [MatchService(create_session_factory(e), TEST_PEPPER, notifications) for e in engines]
    racers = [service, *rivals] * 2
    results = await asyncio.gather(
        *(
            racer.act(north.match_id, "north", f"race-{n}", 0, {"type": "take", "amount": 1})
            for n, racer in enumerate(racers)
        ),
        return_exceptions=True,
    )
    for engine in engines:
        await engine.dispose()
    assert sorted(type(r).__name__ for r in results) == ["Ack"] + ["StaleVersion"] * 5
    assert (await service.position(north.match_id)).version == 1


async def test_fresh_service_resumes_from_snapshot(
    service: MatchService, database_url: str, notifications: Notifications
) -> None:
    north, _ = await started(service)
    await service.act(north.match_id, "north", cid(), 0, {"type": "take", "amount": 3})
    engine = create_engine(database_url)
    restarted = MatchService(create_session_factory(engine), TEST_PEPPER, notifications)
    ack = await restarted.act(north.match_id, "south", cid(), 1, {"type": "take", "amount": 3})
    position = await restarted.position(north.match_id)
    await engine.dispose()
    assert (ack.version, position.state.counter) == (2, 4)


async def test_progress_replays_each_step_in_order(service: MatchService) -> None:
    north, _ = await started(service)
    known = await service.position(north.match_id)
    await service.act(north.match_id, "north", cid(), 0, {"type": "take", "amount": 1})
    await service.act(north.match_id, "south", cid(), 1, {"type": "take", "amount": 2})
    progress = await service.progress(known)
    assert [(s.version, s.state.counter) for s in progress.steps] == [(1, 9), (2, 7)]
    assert [e.type for e in progress.steps[0].events] == ["took", "drew"]


async def test_log_is_redacted_while_live_and_full_after(service: MatchService) -> None:
    north, _ = await started(service, start=2)
    await service.act(north.match_id, "north", cid(), 0, {"type": "take", "amount": 1})
    live = await service.match_log(north.match_id)
    assert live.redacted and "SENTINEL" not in repr(live.entries)
    await service.act(north.match_id, "south", cid(), 1, {"type": "take", "amount": 1})
    done = await service.match_log(north.match_id)
    assert not done.redacted and "SENTINEL" in repr(done.entries)


async def test_lobby_groups_by_status(service: MatchService) -> None:
    open_match = await service.create_match("countdown", {}, None, None)
    live, _ = await started(service)
    lobby = await service.lobby()
    assert [m.id for m in lobby["open"]] == [open_match.match_id]
    assert [m.id for m in lobby["live"]] == [live.match_id]
    assert lobby["finished"] == []


async def test_resend_of_the_final_action_still_gets_its_ack(service: MatchService) -> None:
    north, _ = await started(service, start=1)
    first = await service.act(north.match_id, "north", "end", 0, {"type": "take", "amount": 1})
    again = await service.act(north.match_id, "north", "end", 0, {"type": "take", "amount": 1})
    assert first == again


async def test_client_id_of_another_seat_is_refused(service: MatchService) -> None:
    north, _ = await started(service)
    await service.act(north.match_id, "north", "shared", 0, {"type": "take", "amount": 1})
    with pytest.raises(errors.ActionIdReused):
        await service.act(north.match_id, "south", "shared", 1, {"type": "take", "amount": 1})


async def test_act_retries_a_transient_sqlite_lock(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "database is locked" before the busy timeout helps is retried, never an internal error."""
    from sqlalchemy.exc import OperationalError

    from app.matches import service as service_module

    real_save = service_module.store.save_step
    refusals = [2]

    async def locked_twice(*args: object, **kwargs: object) -> bool:
        if refusals[0]:
            refusals[0] -= 1
            raise OperationalError("UPDATE matches", {}, Exception("database is locked"))
        return await real_save(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service_module.store, "save_step", locked_twice)
    north, _ = await started(service)
    ack = await service.act(north.match_id, "north", "a1", 0, {"type": "take", "amount": 2})
    assert ack.version == 1 and refusals == [0]
    assert (await service.position(north.match_id)).state.counter == 8


async def test_act_does_not_retry_other_database_errors(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    from app.matches import service as service_module

    async def broken(*args: object, **kwargs: object) -> bool:
        raise OperationalError("UPDATE matches", {}, Exception("disk I/O error"))

    monkeypatch.setattr(service_module.store, "save_step", broken)
    north, _ = await started(service)
    with pytest.raises(OperationalError):
        await service.act(north.match_id, "north", "a1", 0, {"type": "take", "amount": 2})
    assert (await service.position(north.match_id)).version == 0


async def test_create_retries_a_transient_sqlite_lock(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A writer that waited out SQLite's busy timeout is run again whole, never a 500."""
    from sqlalchemy.exc import OperationalError

    from app.matches import service as service_module

    real_claim = service_module.store.claim_seat
    refusals = [1]

    async def locked_once(*args: object, **kwargs: object) -> bool:
        if refusals[0]:
            refusals[0] -= 1
            raise OperationalError("UPDATE seats", {}, Exception("database is locked"))
        return await real_claim(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(service_module.store, "claim_seat", locked_once)
    north, _ = await started(service)
    summary = await service.summary(north.match_id)
    assert refusals == [0] and summary.status == "active"
    assert [s.taken for s in summary.seats] == [True, True]
