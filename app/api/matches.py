"""REST: games, lobby, create, join, match summary, public log."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel, Field

from app.api.deps import HubDep, ServiceDep
from app.api.schemas import GameOut, LobbyOut, LogOut, MatchOut, SeatGrantOut
from app.matches.records import SeatGrant
from app.matches.summaries import list_games
from app.realtime.protocol import summary_json

router = APIRouter(prefix="/api", tags=["matches"])

NO_STORE = {"Cache-Control": "no-store"}


class CreateMatch(BaseModel):
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seat: str | None = Field(default=None, max_length=40, description="None: a random seat")
    name: str | None = Field(default=None, max_length=40)


class JoinMatch(BaseModel):
    seat: str | None = Field(default=None, max_length=40, description="None: the first free")
    name: str | None = Field(default=None, max_length=40)


def grant_out(grant: SeatGrant, response: Response) -> SeatGrantOut:
    """The seat secret appears here once; the client keeps it (never in a URL)."""
    response.headers.update(NO_STORE)
    ws = f"/ws/matches/{grant.match_id}"
    return SeatGrantOut(match_id=grant.match_id, seat=grant.seat, secret=grant.secret, ws=ws)


@router.get("/games")
async def games() -> list[GameOut]:
    return [GameOut.model_validate(g) for g in list_games()]


@router.post("/matches", status_code=201)
async def create_match(body: CreateMatch, service: ServiceDep, response: Response) -> SeatGrantOut:
    grant = await service.create_match(body.game, body.options, body.seat, body.name)
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
    match_id: str, body: JoinMatch, service: ServiceDep, response: Response
) -> SeatGrantOut:
    return grant_out(await service.join_match(match_id, body.seat, body.name), response)


@router.get("/matches/{match_id}/log")
async def match_log(match_id: str, service: ServiceDep) -> LogOut:
    log = await service.match_log(match_id)
    return LogOut.model_validate(log, from_attributes=True)
