"""Seat presence that outlives no worker: leases renewed by the worker holding the socket.

A seat's ``connected`` flag is written when its first socket arrives and its last one
leaves. A worker killed with -9 never writes the "left", so the flag alone would show a
player at the table forever. Each worker therefore renews ``seen_at`` for every seat it
holds a socket of, every clock tick; a flag whose lease ran out is cleared by whichever
worker ticks next, and the match is announced so every room sends fresh presence. A
worker that was only slow (and was reaped by mistake) sets the flag again at its next
renewal, and that is announced too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, and_, or_, select, tuple_, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Match, Seat
from app.db.session import SessionFactory
from app.matches.writes import write_transaction

Notify = Callable[[str, int], Awaitable[None]]
Held = Callable[[], list[tuple[str, str]]]


class PresenceLeases:
    def __init__(self, sessions: SessionFactory, notify: Notify, lease: timedelta) -> None:
        self._sessions = sessions
        self._notify = notify
        self.lease = lease

    async def renew(self, held: list[tuple[str, str]], now: datetime) -> None:
        """Say "still here" for the seats this worker holds; restore a flag cleared wrongly."""
        if not held:
            return
        mine = tuple_(Seat.match_id, Seat.seat).in_(held)
        async with write_transaction(self._sessions) as session:
            restored = await self._versions(session, and_(mine, Seat.connected.is_(False)))
            await session.execute(update(Seat).where(mine).values(seen_at=now, connected=True))
        await self._announce(restored)

    async def reap(self, now: datetime) -> None:
        """Clear the flags whose lease ran out (their worker died) and announce it."""
        expired = and_(
            Seat.connected.is_(True),
            or_(Seat.seen_at.is_(None), Seat.seen_at < now - self.lease),
        )
        async with write_transaction(self._sessions) as session:
            stale = await self._versions(session, expired)
            if stale:
                await session.execute(update(Seat).where(expired).values(connected=False))
        await self._announce(stale)

    async def renewed_since(self, session: AsyncSession, moment: datetime) -> bool:
        """True when some worker renewed a seat's lease at ``moment`` or later."""
        query = select(Seat.id).where(Seat.seen_at >= moment).limit(1)
        return (await session.execute(query)).first() is not None

    @staticmethod
    async def _versions(session: AsyncSession, condition: ColumnElement[bool]) -> dict[str, int]:
        query = (
            select(Seat.match_id, Match.version)
            .join(Match, Match.id == Seat.match_id)
            .where(condition)
            .distinct()
        )
        return {match_id: int(version) for match_id, version in await session.execute(query)}

    async def _announce(self, versions: dict[str, int]) -> None:
        for match_id, version in versions.items():
            await self._notify(match_id, version)
