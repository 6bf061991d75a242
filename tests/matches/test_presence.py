"""app/matches/presence.py: a seat's flag follows its lease, and changes are announced."""

from __future__ import annotations

from datetime import timedelta

from app.db.models import utcnow
from app.matches.presence import PresenceLeases
from app.matches.records import SeatGrant
from app.matches.service import MatchService
from tests.support.recorders import Notifications

LEASE = timedelta(seconds=3)


async def started(service: MatchService) -> SeatGrant:
    north = await service.create_match("countdown", {}, "north", None)
    await service.join_match(north.match_id, None, None)
    return north


async def connected(service: MatchService, match_id: str) -> dict[str, bool]:
    return {s.seat: s.connected for s in (await service.summary(match_id)).seats}


async def test_a_lapsed_lease_clears_the_flag_and_is_announced(service: MatchService) -> None:
    north = await started(service)
    await service.set_connected(north.match_id, "north", True)
    told = Notifications()
    leases = PresenceLeases(service.sessions, told, LEASE)
    await leases.reap(utcnow() + LEASE * 2)
    assert (await connected(service, north.match_id))["north"] is False
    assert told == [(north.match_id, 0)]


async def test_a_fresh_connection_is_not_reaped_before_its_first_renewal(
    service: MatchService,
) -> None:
    north = await started(service)
    await service.set_connected(north.match_id, "north", True)
    told = Notifications()
    await PresenceLeases(service.sessions, told, LEASE).reap(utcnow())
    assert (await connected(service, north.match_id))["north"] is True and told == []


async def test_a_renewed_seat_survives_the_reaper(service: MatchService) -> None:
    north = await started(service)
    await service.set_connected(north.match_id, "north", True)
    leases = PresenceLeases(service.sessions, Notifications(), LEASE)
    later = utcnow() + LEASE * 2
    await leases.renew([(north.match_id, "north")], later)
    await leases.reap(later)
    assert (await connected(service, north.match_id))["north"] is True


async def test_renewal_restores_a_flag_reaped_by_mistake(service: MatchService) -> None:
    """A worker that was only slow gets its seat back at its next renewal, announced."""
    north = await started(service)
    await service.set_connected(north.match_id, "north", True)
    told = Notifications()
    leases = PresenceLeases(service.sessions, told, LEASE)
    await leases.reap(utcnow() + LEASE * 2)
    await leases.renew([(north.match_id, "north")], utcnow() + LEASE * 2)
    assert (await connected(service, north.match_id))["north"] is True
    assert told == [(north.match_id, 0), (north.match_id, 0)]


async def test_seats_nobody_holds_stay_as_they_are(service: MatchService) -> None:
    north = await started(service)
    told = Notifications()
    await PresenceLeases(service.sessions, told, LEASE).reap(utcnow() + LEASE * 2)
    assert await connected(service, north.match_id) == {"north": False, "south": False}
    assert told == []
