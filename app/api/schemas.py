"""Response schemas of the REST API, so that /docs shows what each route returns.

The summary's shape is built once (``realtime.protocol.summary_json``, shared with the
WebSocket welcome frame); ``MatchOut`` declares that same shape for OpenAPI.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class GameOut(BaseModel):
    name: str
    title: str
    seats: list[str]
    default_seats: list[str] = Field(description="The seats a match with default options fills")
    seat_option: dict[str, Any] | None = Field(
        default=None,
        description='{"key", "min", "max"}: the option that lists the seats in play, if the '
        "creator may choose them (the Dune battle: factions, 2 to 6)",
    )
    bots: list[str] = Field(description="Levels of a computer opponent; empty if the game has none")
    rules_version: str
    options: dict[str, Any] = Field(description="The default options")


class SeatGrantOut(BaseModel):
    match_id: str
    seat: str
    secret: str = Field(description="Shown once; present it only in the WebSocket hello frame")
    ws: str = Field(description="The WebSocket path of the match")


class SeatOut(BaseModel):
    seat: str
    taken: bool
    name: str | None
    connected: bool


class MatchOut(BaseModel):
    id: str
    game: str
    status: str = Field(description="lobby | active | finished | abandoned")
    version: int
    seats: list[SeatOut]
    spectators: int
    outcome: dict[str, Any] | None
    created_at: str


class LobbyOut(BaseModel):
    open: list[MatchOut]
    live: list[MatchOut]
    finished: list[MatchOut]


class LogEntryOut(BaseModel):
    seq: int
    seat: str
    action: dict[str, Any] | None = Field(description="null while the match is live")
    events: list[dict[str, Any]]


class LogOut(BaseModel):
    match_id: str
    status: str
    redacted: bool
    entries: list[LogEntryOut]
