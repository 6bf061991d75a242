"""REST: games, lobby, create, join, match summary, public log."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field, field_validator

from app.api.deps import HubDep, ServiceDep, SettingsDep
from app.api.schemas import GameOut, LobbyOut, LogOut, MatchOut, SeatGrantOut
from app.matches import clocks, errors
from app.matches.bots import BOT_NAME_PREFIX
from app.matches.records import SeatGrant
from app.matches.summaries import list_games
from app.realtime.protocol import summary_json

router = APIRouter(prefix="/api", tags=["matches"])

NO_STORE = {"Cache-Control": "no-store"}


class ClockIn(BaseModel):
    """Turn timer and abandonment rules (docs/reliability.md); omit a field to disable it."""

    turn_seconds: float | None = Field(default=None, ge=1, le=86_400)
    max_misses: int | None = Field(default=None, ge=1, le=100, description="then forfeit")
    grace_seconds: float | None = Field(default=None, ge=1, le=86_400)
    on_abandon: Literal["forfeit", "bot"] = "forfeit"


class CreateMatch(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seat: str | None = Field(default=None, max_length=40, description="None: a random seat")
    name: str | None = Field(default=None, max_length=40)
    clock: ClockIn | None = None
    bot: str | None = Field(
        default=None,
        max_length=20,
        description='A bot level ("random", "heuristic", "strong") '
        "that takes every other seat: a match versus the computer",
    )

    @field_validator("name")
    @classmethod
    def _not_a_bot_name(cls, value: str | None) -> str | None:
        return human_name(value)


class JoinMatch(BaseModel):
    seat: str | None = Field(default=None, max_length=40, description="None: the first free")
    name: str | None = Field(default=None, max_length=40)

    @field_validator("name")
    @classmethod
    def _not_a_bot_name(cls, value: str | None) -> str | None:
        return human_name(value)


def human_name(value: str | None) -> str | None:
    """Display names starting with "bot:" mark bot seats (app/matches/bots.py)."""
    if value is not None and value.startswith(BOT_NAME_PREFIX):
        raise ValueError(f"a player's name may not start with {BOT_NAME_PREFIX!r}")
    return value


def grant_out(grant: SeatGrant, response: Response) -> SeatGrantOut:
    """The seat secret appears here once; the client keeps it (never in a URL)."""
    response.headers.update(NO_STORE)
    ws = f"/ws/matches/{grant.match_id}"
    return SeatGrantOut(match_id=grant.match_id, seat=grant.seat, secret=grant.secret, ws=ws)


@router.get("/games")
async def games() -> list[GameOut]:
    return [GameOut.model_validate(g) for g in list_games()]


def address_of(request: Request) -> str:
    """The client's IP (the real one when uvicorn trusts the proxy's X-Forwarded-For)."""
    return request.client.host if request.client else "unknown"


@router.post("/matches", status_code=201)
async def create_match(
    body: CreateMatch,
    request: Request,
    service: ServiceDep,
    hub: HubDep,
    settings: SettingsDep,
    response: Response,
) -> SeatGrantOut:
    address = address_of(request)
    await hub.guard.check_join(address)
    clock = body.clock.model_dump(exclude_none=True) if body.clock else None
    grant = await service.create_match(
        body.game,
        body.options,
        body.seat,
        body.name,
        clock=clock,
        creator=address,
        max_open=settings.limits.max_open_matches_per_creator,
        bot=body.bot,
    )
    return grant_out(grant, response)


@router.get("/matches")
async def lobby(service: ServiceDep, hub: HubDep) -> LobbyOut:
    groups = await service.lobby()
    shaped = {
        group: [summary_json(m, hub.spectators(m.id)) for m in matches]
        for group, matches in groups.items()
    }
    return LobbyOut.model_validate(shaped)


@router.get("/matches/{match_id}")
async def match_summary(match_id: str, service: ServiceDep, hub: HubDep) -> MatchOut:
    summary = await service.summary(match_id)
    return MatchOut.model_validate(summary_json(summary, hub.spectators(match_id)))


@router.post("/matches/{match_id}/seats", status_code=201)
async def join_match(
    match_id: str,
    body: JoinMatch,
    request: Request,
    service: ServiceDep,
    hub: HubDep,
    response: Response,
) -> SeatGrantOut:
    await hub.guard.check_join(address_of(request))
    return grant_out(await service.join_match(match_id, body.seat, body.name), response)


class ClockOut(BaseModel):
    turn_seconds: float | None
    max_misses: int | None
    grace_seconds: float | None
    on_abandon: str
    version: int = Field(description="The version whose decision the deadline is for")
    deadline: str | None = Field(description="ISO time, server clock; null without a turn timer")


@router.get("/matches/{match_id}/clock")
async def match_clock(match_id: str, service: ServiceDep) -> ClockOut:
    """The match's turn timer and when the decision now owed is due (404 without a clock)."""
    found = await clocks.clock_of(service.sessions, match_id)
    if found is None:
        raise errors.MatchNotFound("This match has no clock.")
    return ClockOut(
        **asdict(found.options),
        version=found.version,
        deadline=found.deadline.isoformat() if found.deadline else None,
    )


@router.get("/matches/{match_id}/log")
async def match_log(match_id: str, service: ServiceDep) -> LogOut:
    log = await service.match_log(match_id)
    return LogOut.model_validate(log, from_attributes=True)
