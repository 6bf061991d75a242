"""app/db/checkpoint.py: SQLite checkpoints run beside the commits, never inside one."""

from __future__ import annotations

from sqlalchemy import text

from app.db import checkpoint
from app.db.migrate import upgrade_head
from app.db.session import create_engine


async def test_commits_never_checkpoint_on_their_own(sqlite_url: str) -> None:
    upgrade_head(sqlite_url)
    engine = create_engine(sqlite_url)
    async with engine.connect() as connection:
        pages = (await connection.execute(text("PRAGMA wal_autocheckpoint"))).scalar_one()
    await engine.dispose()
    assert pages == 0


async def test_a_checkpoint_copies_every_committed_frame(sqlite_url: str) -> None:
    upgrade_head(sqlite_url)
    engine = create_engine(sqlite_url)
    async with engine.begin() as connection:
        await connection.execute(text("CREATE TABLE filler (x TEXT)"))
        for _ in range(50):
            await connection.execute(text("INSERT INTO filler VALUES (:x)"), {"x": "y" * 2000})
    busy, frames, copied = await checkpoint.checkpoint_once(engine)
    await engine.dispose()
    assert (busy, copied) == (0, frames) and frames > 0


async def test_only_sqlite_gets_the_loop(database_url: str) -> None:
    engine = create_engine(database_url)
    task = checkpoint.start(engine)
    try:
        assert (task is not None) == database_url.startswith("sqlite")
    finally:
        await checkpoint.stop(task)
        await engine.dispose()
