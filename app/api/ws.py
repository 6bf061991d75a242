"""The WebSocket endpoint: check the Origin, accept, hand the socket to a Connection."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket

from app.api.deps import HubDep, ServiceDep, SettingsDep
from app.config import SecuritySettings
from app.realtime.connection import Connection

router = APIRouter()

POLICY_VIOLATION = 1008


def origin_allowed(origin: str | None, host: str | None, security: SecuritySettings) -> bool:
    """Browsers always send Origin: refuse other sites' pages (cross-site WebSocket hijack).

    Our own page (same host, as forwarded by the proxy) and listed origins are welcome.
    """
    if origin is None:
        return security.allow_missing_origin
    if "*" in security.allowed_origins or origin in security.allowed_origins:
        return True
    return host is not None and urlsplit(origin).netloc == host


@router.websocket("/ws/matches/{match_id}")
async def match_socket(
    websocket: WebSocket,
    match_id: str,
    service: ServiceDep,
    hub: HubDep,
    settings: SettingsDep,
) -> None:
    headers = websocket.headers
    if not origin_allowed(headers.get("origin"), headers.get("host"), settings.security):
        await websocket.close(code=POLICY_VIOLATION)
        return
    await websocket.accept()
    await Connection(websocket, match_id, service, hub, settings.limits).serve()
