"""Request context for every HTTP request and WebSocket: a request id and the match id.

The proxy sends ``X-Request-Id`` (nginx: ``$request_id``); a request without one gets a
fresh id. The id is echoed in the response headers (HTTP and WebSocket handshake), so a
user's report can be matched to the log lines of the worker that served it. The
middleware also notes when each WebSocket message arrives: the first stage of an
action's timings (metrics.py).
"""

from __future__ import annotations

import re
import time
import uuid
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.observability import metrics
from app.observability.logging import match_id, request_id
from app.realtime.wire import SERVER_SEND

HEADER = b"x-request-id"
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
_MATCH_PATH = re.compile(r"^/(?:ws|api)/matches/([0-9A-Za-z-]{1,64})(?:/|$)")


class RequestContext:
    """Pure ASGI middleware (it must wrap WebSockets too, which BaseHTTPMiddleware cannot)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":  # the server's own send, for direct writes
            scope[SERVER_SEND] = send
        rid = incoming_id(scope) or uuid.uuid4().hex
        found = _MATCH_PATH.match(scope.get("path", ""))
        tokens = (request_id.set(rid), match_id.set(found.group(1) if found else None))
        clock = metrics.FrameClock()
        clock_token = metrics.frame_clock.set(clock)

        async def receive_timed() -> Message:
            message = await receive()
            if message["type"] == "websocket.receive":
                clock.received_at = time.perf_counter()
            return message

        async def send_with_id(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                headers: list[Any] = list(message.get("headers") or [])
                headers.append((HEADER, rid.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive_timed, send_with_id)
        finally:
            request_id.reset(tokens[0])
            match_id.reset(tokens[1])
            metrics.frame_clock.reset(clock_token)


def incoming_id(scope: Scope) -> str | None:
    """The proxy's request id, if it is a short token (it ends up in logs and headers)."""
    for name, value in scope.get("headers", []):
        if name == HEADER:
            text = value.decode("latin-1")
            return text if _SAFE_ID.match(text) else None
    return None
