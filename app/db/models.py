"""The schema as typed mappings; Alembic migrations under migrations/ are what create it."""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

JSONDoc = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class MatchStatus(enum.StrEnum):
    """Lobby until every seat is claimed, active while played, then finished or abandoned."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class Match(Base):
    """One match: its setup (game, seed, options), its latest snapshot and version."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(36), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    rules_version: Mapped[str] = mapped_column(String(200))
    seed: Mapped[int] = mapped_column(BigInteger)
    options: Mapped[dict[str, Any]] = mapped_column(JSONDoc)
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(default=0)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSONDoc)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSONDoc, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # HMAC of the creator's address: caps open matches per creator without storing the IP.
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class Seat(Base):
    """A seat of a match; ``secret_hash`` is set once, when someone claims it."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(40))
    display_name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    connected: Mapped[bool] = mapped_column(default=False)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Renewed every clock tick by the worker holding a socket of this seat: a lease that
    # lapses when that worker dies, whatever ``connected`` still says (app/matches/clocks.py).
    seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Action(Base):
    """One accepted action: the log entry that makes version ``seq`` out of ``seq - 1``.

    ``events`` holds the full, unredacted events so that missed events can be resent
    to a reconnecting socket and redacted per viewer at that time.
    """

    __tablename__ = "actions"
    __table_args__ = (
        UniqueConstraint("match_id", "seq"),
        UniqueConstraint("match_id", "client_action_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int]
    seat: Mapped[str] = mapped_column(String(40))
    client_action_id: Mapped[str] = mapped_column(String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONDoc)
    events: Mapped[list[dict[str, Any]]] = mapped_column(JSONDoc)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchClock(Base):
    """A match's turn timer and abandonment rules, and where they stand (DB: survives restarts).

    ``deadline`` is when the decision owed at ``deadline_version`` is due; it is derived
    from the server's commit time of that version, never from a client's clock.
    ``absent_since`` maps a disconnected seat to when the server first saw it gone.
    """

    __tablename__ = "match_clocks"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    max_misses: Mapped[int | None] = mapped_column(nullable=True)
    grace_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    on_abandon: Mapped[str] = mapped_column(String(16), default="forfeit")
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    deadline_version: Mapped[int | None] = mapped_column(nullable=True)
    absent_since: Mapped[dict[str, Any]] = mapped_column(JSONDoc, default=dict)
    bot_seats: Mapped[list[str]] = mapped_column(JSONDoc, default=list)


class LimitBucket(Base):
    """A per-IP token bucket shared by the workers of a PostgreSQL bus (app/realtime/pg_limits.py).

    ``key`` is ``<prefix>:<action|join>:<address>``; ``tokens`` were left at ``stamp``
    (the database's clock). A missing row is a full bucket, so a row is pruned once
    ``expires_at`` (when it would be full again) has passed. The three ``limit_*`` tables
    are UNLOGGED on PostgreSQL (migration 652d408222c8): a crash may empty them, harmlessly.
    """

    __tablename__ = "limit_buckets"

    key: Mapped[str] = mapped_column(Text, primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    stamp: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class LimitWorker(Base):
    """A worker's lease on its socket counts (``LimitSocket``); renewed while it runs."""

    __tablename__ = "limit_workers"

    worker: Mapped[str] = mapped_column(String(64), primary_key=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class LimitSocket(Base):
    """The sockets one worker holds for one address (``<prefix>:<address>``).

    They count while the worker's lease runs; pruning an expired lease deletes them.
    """

    __tablename__ = "limit_sockets"

    worker: Mapped[str] = mapped_column(
        ForeignKey("limit_workers.worker", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(Text, primary_key=True, index=True)
    sockets: Mapped[int]
