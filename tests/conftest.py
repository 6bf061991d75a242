"""Shared fixtures: the test game, fresh migrated databases, settings, a live server.

``require_service`` (tests/support/services.py) is the policy for real services:
skipped with a reason naming the service locally, a failure under CI=true.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.db.migrate import upgrade_head
from app.db.session import create_engine, create_session_factory
from app.games import registry
from app.matches.service import MatchService
from tests.support import countdown
from tests.support.recorders import Notifications
from tests.support.server import LiveServer
from tests.support.services import postgres_database, require_service
from tests.support.settings import TEST_PEPPER, make_settings

__all__ = ["require_service"]


@pytest.fixture(scope="session", autouse=True)
def countdown_registered() -> Iterator[None]:
    """Register the test game; tolerate a shipped game that does not import yet."""
    with contextlib.suppress(Exception):  # a shipped engine still being written
        registry.all_games()
    registry.register(countdown)
    yield
    registry.unregister(countdown.NAME)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'skirmish.db'}"
    upgrade_head(url)
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A freshly migrated database of each kind; PostgreSQL ones are dropped after."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'skirmish.db'}"
        upgrade_head(url)
        yield url
        return
    with postgres_database() as url:
        upgrade_head(url)
        yield url


@pytest.fixture
def notifications() -> Notifications:
    return Notifications()


@pytest.fixture
async def service(database_url: str, notifications: Notifications) -> AsyncIterator[MatchService]:
    engine = create_engine(database_url)
    yield MatchService(create_session_factory(engine), TEST_PEPPER, notifications)
    await engine.dispose()


@pytest.fixture
def serve(sqlite_url: str) -> Iterator[Callable[..., LiveServer]]:
    """Start a live server on a fresh SQLite database; keyword arguments override limits."""
    servers: list[LiveServer] = []

    def start(**limits: Any) -> LiveServer:
        server = LiveServer(make_settings(sqlite_url, **limits)).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def server(serve: Callable[..., LiveServer]) -> LiveServer:
    return serve()
