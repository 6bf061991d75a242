"""Frame schemas of the WebSocket protocol (docs/protocol.md) and the error codes.

Client frames are parsed strictly (unknown fields are a ``bad_frame``); server frames
are built by the small functions below so their shape is written down once.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from app import jsontext
from app.games.base import JSON, Viewer
from app.matches import errors
from app.matches.clocks import CLOCK_ID_PREFIX, ClockStatus
from app.matches.records import MatchSummary

ERROR_CODES: tuple[str, ...] = (
    "bad_frame",
    "frame_too_large",
    "match_not_found",
    "not_authorized",
    "match_not_active",
    "match_finished",
    "stale_version",
    "action_id_reused",
    "not_your_decision",
    "rate_limited",
    "address_rate_limited",
    "join_rate_limited",
    "too_many_sockets",
    "internal_error",
)
"""Codes the WebSocket can send; an engine's ``IllegalAction`` code is passed through too."""


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Frame):
    type: Literal["hello"]
    secret: str | None = Field(default=None, max_length=128)
    version: int | None = Field(default=None, ge=0)
    compress: Literal["deflate-raw"] | None = None
    """Large frames as binary raw DEFLATE, compressed once per audience (compression.py)."""


class Act(_Frame):
    type: Literal["act"]
    id: str = Field(min_length=1, max_length=64)
    version: int = Field(ge=0)
    action: dict[str, Any]

    @field_validator("id")
    @classmethod
    def _not_a_clock_id(cls, value: str) -> str:
        """The turn clock's default actions use these ids; a client must not pre-empt them."""
        if value.startswith(CLOCK_ID_PREFIX):
            raise ValueError(f"ids starting with {CLOCK_ID_PREFIX!r} are reserved")
        return value


class Ping(_Frame):
    type: Literal["ping"]


ClientFrame = Annotated[Hello | Act | Ping, Field(discriminator="type")]
_client_frame: TypeAdapter[Hello | Act | Ping] = TypeAdapter(ClientFrame)


def parse_frame(text: str, max_bytes: int) -> Hello | Act | Ping:
    """Size first (cheap), then JSON, then the schema; each failure has its own code."""
    if len(text) > max_bytes or len(text.encode()) > max_bytes:
        raise errors.FrameTooLarge(f"Frames may be at most {max_bytes} bytes.")
    try:
        return _client_frame.validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "frame"
        raise errors.BadFrame(f"Bad frame at {where}: {first.get('msg', 'invalid')}.") from None


def frame_id(text: str) -> str | None:
    """The client id of an act frame that failed validation, if one can be read at all."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) and len(value) <= 64 else None


def encode(frame: JSON) -> str:
    return jsontext.dumps(frame)


def summary_json(summary: MatchSummary, spectators: int) -> JSON:
    """The public face of a match, shared by REST and the welcome frame."""
    return {
        "id": summary.id,
        "game": summary.game,
        "status": summary.status,
        "version": summary.version,
        "seats": [
            {"seat": s.seat, "taken": s.taken, "name": s.name, "connected": s.connected}
            for s in summary.seats
        ],
        "spectators": spectators,
        "outcome": summary.outcome,
        "created_at": summary.created_at.isoformat(),
    }


def welcome_frame(seat: Viewer, match: JSON) -> JSON:
    return {"type": "welcome", "seat": seat, "match": match}


def state_frame(version: int, view: JSON, events: list[JSON]) -> JSON:
    return {"type": "state", "version": version, "view": view, "events": events}


def clock_frame(clock: ClockStatus, now: datetime) -> JSON:
    """The turn timer (docs/protocol.md §3.2): shown by clients, decided by the server.

    ``server_time`` lets a client correct for its own clock's skew when it counts down.
    """
    return {
        "type": "clock",
        "version": clock.version,
        **asdict(clock.options),
        "deadline": clock.deadline.isoformat() if clock.deadline else None,
        "server_time": now.isoformat(),
    }


def ack_frame(client_id: str, version: int) -> JSON:
    return {"type": "ack", "id": client_id, "version": version}


def error_frame(error: errors.MatchError, client_id: str | None) -> JSON:
    return {"type": "error", "code": error.code, "message": error.message, "id": client_id}


def presence_frame(match: JSON) -> JSON:
    return {
        "type": "presence",
        "status": match["status"],
        "seats": match["seats"],
        "spectators": match["spectators"],
        "outcome": match["outcome"],
    }


PONG = encode({"type": "pong"})
