"""JSON log lines carry the request and match ids; the middleware sets and echoes them."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx

from app.config import ObservabilitySettings
from app.observability.logging import (
    JsonFormatter,
    log_config,
    match_context,
    match_id,
    request_id,
)
from app.observability.middleware import RequestContext

MATCH = "6f1c2b7e-0000-4000-8000-000000000001"


def record(message: str, **extra: Any) -> logging.LogRecord:
    entry = logging.LogRecord("app.test", logging.WARNING, __file__, 1, message, (), None)
    entry.__dict__.update(extra)
    return entry


def test_json_line_has_the_context_ids_and_extras() -> None:
    tokens = request_id.set("req-1"), match_id.set(MATCH)
    try:
        line = json.loads(JsonFormatter().format(record("hello", seat="north")))
    finally:
        request_id.reset(tokens[0])
        match_id.reset(tokens[1])
    assert line["message"] == "hello" and line["level"] == "warning"
    assert (line["request_id"], line["match_id"], line["seat"]) == ("req-1", MATCH, "north")


def test_json_line_without_context_has_no_ids() -> None:
    line = json.loads(JsonFormatter().format(record("quiet")))
    assert "request_id" not in line and "match_id" not in line


def test_log_config_routes_uvicorn_through_our_formatter() -> None:
    config = log_config(ObservabilitySettings(log_format="json", access_log=False))
    assert config["formatters"]["skirmish"]["()"] is JsonFormatter
    assert config["loggers"]["uvicorn.access"]["level"] == "WARNING"


async def seen_ids(headers: dict[str, str], path: str) -> tuple[dict[str, Any], httpx.Response]:
    seen: dict[str, Any] = {}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.update(request_id=request_id.get(), match_id=match_id.get())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    transport = httpx.ASGITransport(app=RequestContext(app))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        response = await http.get(path, headers=headers)
    return seen, response


async def test_middleware_uses_the_proxy_request_id_and_echoes_it() -> None:
    seen, response = await seen_ids({"X-Request-Id": "abc123"}, f"/api/matches/{MATCH}/log")
    assert seen == {"request_id": "abc123", "match_id": MATCH}
    assert response.headers["x-request-id"] == "abc123"


async def test_middleware_replaces_a_missing_or_unsafe_request_id() -> None:
    seen, response = await seen_ids({"X-Request-Id": "bad id\twith junk"}, "/api/games")
    assert seen["match_id"] is None
    assert len(seen["request_id"]) == 32 and response.headers["x-request-id"] == seen["request_id"]


def test_match_context_keeps_the_match_and_drops_the_request() -> None:
    token = request_id.set("first-socket")
    try:
        context = match_context(MATCH)
    finally:
        request_id.reset(token)
    assert context.run(lambda: (request_id.get(), match_id.get())) == (None, MATCH)
