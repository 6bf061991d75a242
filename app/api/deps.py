"""Dependencies declared once, as ``Annotated`` aliases; the objects live on ``app.state``."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from app.config import Settings
from app.matches.service import MatchService
from app.realtime.hub import Hub
from app.realtime.pubsub import Bus


def get_settings_dep(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


def get_service(connection: HTTPConnection) -> MatchService:
    service: MatchService = connection.app.state.service
    return service


def get_hub(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


def get_bus(connection: HTTPConnection) -> Bus:
    bus: Bus = connection.app.state.bus
    return bus


SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
ServiceDep = Annotated[MatchService, Depends(get_service)]
HubDep = Annotated[Hub, Depends(get_hub)]
BusDep = Annotated[Bus, Depends(get_bus)]
