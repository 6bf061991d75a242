"""Run the Alembic migrations programmatically (start-up, ``skirmish migrate``, tests)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.config import ensure_sqlite_dir

ROOT = Path(__file__).resolve().parents[2]


def alembic_config(url: str) -> Config:
    """The repo's alembic.ini, pointed at ``url`` rather than the settings' default."""
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.attributes["database_url"] = url
    return config


def upgrade_head(url: str) -> None:
    """Bring the schema at ``url`` to the newest migration; blocking, so call it off-loop."""
    ensure_sqlite_dir(url)
    command.upgrade(alembic_config(url), "head")
