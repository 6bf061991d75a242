"""SQLAlchemy reads and writes for matches; the optimistic-concurrency write lives here."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Update, bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from app.db.models import Action, Match, MatchClock, MatchStatus, Seat, utcnow


async def add_match(
    session: AsyncSession, match: Match, seats: Sequence[str], clock: MatchClock | None
) -> None:
    """A new match with its free seats (and its clock row, if it has a turn timer)."""
    session.add(match)
    if clock is not None:
        session.add(clock)
    for seat in seats:
        session.add(Seat(match_id=match.id, seat=seat, connected=False))
    await session.flush()


async def get_match(session: AsyncSession, match_id: str) -> Match | None:
    """The match row without its snapshot, which is read only on a cache miss."""
    query = select(Match).where(Match.id == match_id).options(defer(Match.snapshot))
    return (await session.execute(query)).scalar_one_or_none()


async def get_snapshot(session: AsyncSession, match_id: str) -> tuple[int, Any]:
    """The latest snapshot and the version it belongs to (read together, so they agree)."""
    query = select(Match.version, Match.snapshot).where(Match.id == match_id)
    version, snapshot = (await session.execute(query)).one()
    return int(version), snapshot


async def get_seats(session: AsyncSession, match_id: str) -> Sequence[Seat]:
    query = select(Seat).where(Seat.match_id == match_id).order_by(Seat.id)
    return (await session.execute(query)).scalars().all()


async def claim_seat(
    session: AsyncSession, match_id: str, seat: str, secret_hash: str, name: str | None
) -> bool:
    """Claim a free seat; False if someone claimed it first (the WHERE makes races safe)."""
    result = await session.execute(
        update(Seat)
        .where(Seat.match_id == match_id, Seat.seat == seat, Seat.secret_hash.is_(None))
        .values(secret_hash=secret_hash, display_name=name, claimed_at=utcnow())
    )
    return bool(getattr(result, "rowcount", 0))


async def start_if_full(session: AsyncSession, match_id: str) -> bool:
    """Move a lobby match to active once no seat is free; True if this call did it."""
    free = await session.scalar(
        select(func.count())
        .select_from(Seat)
        .where(Seat.match_id == match_id, Seat.secret_hash.is_(None))
    )
    if free:
        return False
    result = await session.execute(
        update(Match)
        .where(Match.id == match_id, Match.status == MatchStatus.LOBBY)
        .values(status=MatchStatus.ACTIVE, updated_at=utcnow())
    )
    return bool(getattr(result, "rowcount", 0))


async def find_action(session: AsyncSession, match_id: str, client_id: str) -> Action | None:
    query = select(Action).where(Action.match_id == match_id, Action.client_action_id == client_id)
    return (await session.execute(query)).scalar_one_or_none()


async def actions_between(
    session: AsyncSession, match_id: str, after: int, upto: int | None = None
) -> Sequence[Action]:
    """Actions with ``after < seq <= upto``, in order."""
    query = select(Action).where(Action.match_id == match_id, Action.seq > after)
    if upto is not None:
        query = query.where(Action.seq <= upto)
    return (await session.execute(query.order_by(Action.seq))).scalars().all()


async def save_step(
    session: AsyncSession,
    read_version: int,
    action: Action,
    snapshot: dict[str, Any],
    outcome: dict[str, Any] | None,
) -> bool:
    """Write one step only if the match is still at ``read_version``; False if it moved on.

    The caller owns the transaction: the action row and the new snapshot land together
    or not at all. The guarded UPDATE comes first, so a loser writes nothing. Both
    statements are built once and run on the session's connection: this is the hot path,
    and building expressions and going through the ORM cost more than the SQL itself.
    """
    params: dict[str, Any] = {
        "match_id": action.match_id,
        "read_version": read_version,
        "new_version": action.seq,
        "snapshot": snapshot,
        "updated_at": utcnow(),
    }
    connection = await session.connection()
    if outcome is None:
        result = await connection.execute(_ADVANCE, params)
    else:
        result = await connection.execute(_FINISH, params | {"outcome": outcome})
    if not getattr(result, "rowcount", 0):
        return False
    await connection.execute(_INSERT_ACTION, row_of(action))
    return True


def _guarded_update(**extra: Any) -> Update:
    """UPDATE matches at one version of an active match (a clock's forfeit at it wins)."""
    return (
        update(Match)
        .where(
            Match.id == bindparam("match_id"),
            Match.version == bindparam("read_version"),
            Match.status == MatchStatus.ACTIVE,
        )
        .values(
            version=bindparam("new_version"),
            snapshot=bindparam("snapshot", type_=Match.snapshot.type),
            updated_at=bindparam("updated_at"),
            **extra,
        )
    )


_ADVANCE = _guarded_update()
_FINISH = _guarded_update(
    status=MatchStatus.FINISHED, outcome=bindparam("outcome", type_=Match.outcome.type)
)
_INSERT_ACTION = insert(Action)


def row_of(action: Action) -> dict[str, Any]:
    return {
        "match_id": action.match_id,
        "seq": action.seq,
        "seat": action.seat,
        "client_action_id": action.client_action_id,
        "payload": action.payload,
        "events": action.events,
        "created_at": utcnow(),
    }


async def set_connected(session: AsyncSession, match_id: str, seat: str, connected: bool) -> None:
    """A seat's first socket arrived (its lease starts now) or its last one left."""
    values: dict[str, Any] = {"connected": connected}
    if connected:
        values["seen_at"] = utcnow()  # app/matches/presence.py: not reaped before renewal
    await session.execute(
        update(Seat).where(Seat.match_id == match_id, Seat.seat == seat).values(**values)
    )


async def ping(session: AsyncSession) -> None:
    await session.execute(select(1))


async def reset_presence(session: AsyncSession) -> None:
    """After a restart of the only worker, no socket is connected any more."""
    await session.execute(update(Seat).where(Seat.connected.is_(True)).values(connected=False))


async def list_matches(
    session: AsyncSession, statuses: Sequence[str], limit: int, before: datetime | None = None
) -> Sequence[Match]:
    query = select(Match).options(defer(Match.snapshot)).where(Match.status.in_(statuses))
    if before is not None:
        query = query.where(Match.created_at < before)
    query = query.order_by(Match.created_at.desc()).limit(limit)
    return (await session.execute(query)).scalars().all()


async def seats_of(session: AsyncSession, match_ids: Sequence[str]) -> dict[str, list[Seat]]:
    rows = (await session.execute(select(Seat).where(Seat.match_id.in_(match_ids)))).scalars()
    out: dict[str, list[Seat]] = {match_id: [] for match_id in match_ids}
    for seat in rows:
        out[seat.match_id].append(seat)
    return out


async def count_open_by_creator(session: AsyncSession, creator: str) -> int:
    """Matches of this creator still in the lobby or in play."""
    query = (
        select(func.count())
        .select_from(Match)
        .where(Match.creator == creator, Match.status.in_([MatchStatus.LOBBY, MatchStatus.ACTIVE]))
    )
    return int(await session.scalar(query) or 0)
