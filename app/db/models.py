"""The schema as typed mappings; Alembic migrations under migrations/ are what create it."""

from __future__ import annotations

import enum
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, ForeignKey, MetaData, String, UniqueConstraint
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
