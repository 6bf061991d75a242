"""Plain values the match service hands to the API and the realtime hub (no ORM objects)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.games.base import JSON, Event, Game, Seat


@dataclass(frozen=True)
class SeatGrant:
    """A claimed seat and its secret: the only moment the secret exists in clear."""

    match_id: str
    seat: Seat
    secret: str


@dataclass(frozen=True)
class Ack:
    """An accepted action: the client's id and the version it produced."""

    id: str
    version: int


@dataclass(frozen=True)
class SeatInfo:
    seat: Seat
    taken: bool
    name: str | None
    connected: bool


@dataclass(frozen=True)
class MatchSummary:
    """What anyone may know about a match."""

    id: str
    game: str
    status: str
    version: int
    seats: tuple[SeatInfo, ...]
    outcome: JSON | None
    created_at: datetime


@dataclass(frozen=True)
class Position:
    """A match's state at one version, ready to render or to play on."""

    match_id: str
    game: Game
    version: int
    status: str
    state: Any


@dataclass(frozen=True)
class Step:
    """The move from ``version - 1`` to ``version``: the new state and the full events."""

    version: int
    state: Any
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Progress:
    """What happened after a known version: the steps in order and the status now."""

    status: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class LogEntry:
    seq: int
    seat: Seat
    action: JSON | None
    events: list[JSON]


@dataclass(frozen=True)
class MatchLog:
    match_id: str
    status: str
    redacted: bool
    entries: list[LogEntry] = field(default_factory=list)
