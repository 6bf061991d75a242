"""The schema comes only from Alembic, and the migrations match the models exactly."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from app.db.models import Base
from app.db.session import create_engine


def schema_diff(connection: Connection) -> list:
    return compare_metadata(MigrationContext.configure(connection), Base.metadata)


async def test_upgrade_head_matches_the_models(database_url: str) -> None:
    engine = create_engine(database_url)
    async with engine.connect() as connection:
        diff = await connection.run_sync(schema_diff)
        tables = await connection.run_sync(lambda c: set(inspect(c).get_table_names()))
    await engine.dispose()
    assert diff == []
    assert {"matches", "seats", "actions", "alembic_version"} <= tables


async def test_sqlite_connections_use_wal_and_foreign_keys(sqlite_url: str) -> None:
    engine = create_engine(sqlite_url)
    async with engine.connect() as connection:
        journal = (await connection.exec_driver_sql("PRAGMA journal_mode")).scalar()
        foreign = (await connection.exec_driver_sql("PRAGMA foreign_keys")).scalar()
    await engine.dispose()
    assert (journal, foreign) == ("wal", 1)
