"""Alembic environment: async engine, URL from Settings or from the caller, models' metadata."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from alembic import context
from sqlalchemy.engine import Connection

from app.config import get_settings
from app.db.models import Base
from app.db.session import create_engine

config = context.config
target_metadata = Base.metadata


def database_url() -> str:
    return config.attributes.get("database_url") or get_settings().database.url


def run_offline() -> None:
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _migrate(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_async() -> None:
    engine = create_engine(database_url())
    try:
        async with engine.connect() as connection:
            await connection.run_sync(_migrate)
            await connection.commit()
    finally:
        await engine.dispose()


def run_online() -> None:
    """Run in a fresh loop; from inside a running loop (tests, app) use a helper thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(run_async())
        return
    errors: list[BaseException] = []

    def target() -> Any:
        try:
            asyncio.run(run_async())
        except BaseException as exc:  # re-raised in the caller's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


if context.is_offline_mode():
    run_offline()
else:
    run_online()
