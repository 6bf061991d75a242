"""The WebSocket endpoint: check the Origin and the address's socket cap, then serve."""

from __future__ import annotations

import asyncio
import contextlib
import re
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.api.deps import get_hub, get_service, get_settings_dep
from app.config import SecuritySettings
from app.matches import errors
from app.realtime import protocol
from app.realtime.connection import Connection

SOCKET_PATH = re.compile(r"^/ws/matches/([^/]+)$")
POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013


def origin_allowed(origin: str | None, host: str | None, security: SecuritySettings) -> bool:
    """Browsers always send Origin: refuse other sites' pages (cross-site WebSocket hijack).

    Our own page (same host, as forwarded by the proxy) and listed origins are welcome.
    """
    if origin is None:
        return security.allow_missing_origin
    if "*" in security.allowed_origins or origin in security.allowed_origins:
        return True
    return host is not None and urlsplit(origin).netloc == host


def client_address(websocket: WebSocket) -> str:
    """The peer's IP (the real client's when uvicorn trusts the proxy's X-Forwarded-For)."""
    return websocket.client.host if websocket.client else "unknown"


class MatchSockets:
    """Pure ASGI middleware that serves ``/ws/matches/{match_id}`` itself.

    Why not a route: whatever wraps the endpoint lives as long as the socket, and a worker
    holds thousands of sockets. FastAPI's dependency injection, its exception and body-limit
    wrappers and the router's frames cost ~5 KB per socket (docs/benchmarks.md); other
    paths go on to the app as usual.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = SOCKET_PATH.match(scope.get("path", "")) if scope["type"] == "websocket" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        scope["path_params"] = {"match_id": found.group(1)}
        await match_socket(WebSocket(scope, receive, send))


async def match_socket(websocket: WebSocket) -> None:
    match_id: str = websocket.path_params["match_id"]
    service = get_service(websocket)
    hub = get_hub(websocket)
    settings = get_settings_dep(websocket)
    headers = websocket.headers
    if not origin_allowed(headers.get("origin"), headers.get("host"), settings.security):
        await websocket.close(code=POLICY_VIOLATION)
        return
    address = client_address(websocket)
    await websocket.accept()
    connection = Connection(websocket, match_id, service, hub, settings.limits, address)
    with hub.serving(connection.outbox):  # from the accept on, a shutdown closes it with 1012
        try:
            await hub.guard.open_socket(address)
        except errors.TooManySockets as exc:  # say why, so a client does not retry in a loop
            with contextlib.suppress(Exception):
                await websocket.send_text(protocol.encode(protocol.error_frame(exc, None)))
                await websocket.close(code=TRY_AGAIN_LATER, reason=exc.code)
            return
        try:
            # Its own task: each frame then resumes only the connection's short await chain,
            # not every middleware frame above this endpoint (~15 % of CPU under load).
            await asyncio.create_task(connection.serve())
        finally:
            await hub.guard.close_socket(address)
