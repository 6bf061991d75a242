"""Settings for tests: their own database, a test pepper, and chosen limits."""

from __future__ import annotations

from typing import Any

from pydantic import SecretStr

from app.config import BusSettings, DatabaseSettings, SecuritySettings, Settings

TEST_PEPPER = "test-pepper-not-secret"


def make_settings(url: str, bus: BusSettings | None = None, **limits: Any) -> Settings:
    settings = Settings(
        environment="test",
        database=DatabaseSettings(url=url, migrate_on_start=False),
        security=SecuritySettings(seat_secret_pepper=SecretStr(TEST_PEPPER)),
        bus=bus or BusSettings(),
    )
    return settings.model_copy(
        update={"limits": settings.limits.model_copy(update=limits)}, deep=True
    )
