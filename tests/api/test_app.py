"""The composition root and settings: health, OpenAPI, static files, origins, secret policy."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.typing import Origin

from app.config import ServerSettings, Settings
from tests.support.server import LiveServer
from tests.support.settings import make_settings


async def test_healthz_and_openapi_are_served(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.get("/healthz")).json() == {"status": "ok"}
        assert (await http.get("/readyz")).json() == {"status": "ready"}
        assert "/api/matches" in (await http.get("/openapi.json")).json()["paths"]
        assert (await http.get("/docs")).status_code == 200


async def test_static_folder_is_served_at_root(sqlite_url: str, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<h1>Skirmish</h1>")
    settings = make_settings(sqlite_url).model_copy(
        update={"server": ServerSettings(static_dir=tmp_path)}
    )
    server = LiveServer(settings).start()
    try:
        async with httpx.AsyncClient(base_url=server.http) as http:
            assert "Skirmish" in (await http.get("/")).text
    finally:
        server.stop()


async def test_foreign_origin_websocket_is_refused(server: LiveServer) -> None:
    with pytest.raises(InvalidStatus) as refused:
        await connect(server.ws("any"), origin=Origin("https://evil.example"))
    assert refused.value.response.status_code == 403


async def test_own_page_origin_websocket_is_accepted(server: LiveServer) -> None:
    own = Origin(server.http)
    async with connect(server.ws("any"), origin=own) as ws:
        await ws.send('{"type": "ping"}')
        assert await ws.recv() == '{"type":"pong"}'


def test_placeholder_pepper_is_refused_outside_development() -> None:
    with pytest.raises(ValidationError, match="SEAT_SECRET_PEPPER"):
        Settings(environment="production")
    assert Settings(environment="development").environment == "development"


def test_settings_read_nested_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKIRMISH_LIMITS__MAX_FRAME_BYTES", "2048")
    monkeypatch.setenv("SKIRMISH_DATABASE__URL", "sqlite+aiosqlite:///./var/x.db")
    settings = Settings()
    assert settings.limits.max_frame_bytes == 2048
    assert settings.database.url.endswith("x.db")
