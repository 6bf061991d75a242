"""``skirmish serve`` (migrate, then run uvicorn) and ``skirmish migrate``."""

from __future__ import annotations

import argparse
import asyncio
import socket
from typing import Any

import asyncpg
import uvicorn

from app.config import Settings, get_settings
from app.db.migrate import upgrade_head
from app.observability.logging import configure_logging, log_config
from app.realtime import drain
from app.realtime.pg_bus import asyncpg_dsn

APP = "app.main:create_app"
STARTUP_FAILURE = 3  # uvicorn's exit status when the app did not start
MIGRATION_LOCK = 0x5C1B_0001  # pg_advisory_lock key: one migrator at a time


def parse_args(argv: list[str] | None, settings: Settings) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="skirmish", description="Skirmish match server")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="apply migrations, then serve HTTP + WebSocket")
    serve.add_argument("--host", default=settings.server.host)
    serve.add_argument("--port", type=int, default=settings.server.port)
    serve.add_argument("--workers", type=int, default=settings.server.workers)
    serve.add_argument(
        "--proxy-headers",
        action="store_true",
        default=settings.server.proxy_headers,
        help="trust X-Forwarded-* from --forwarded-allow-ips",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=settings.server.forwarded_allow_ips,
        help="comma-separated proxy addresses or networks whose X-Forwarded-* are trusted",
    )
    commands.add_parser("migrate", help="apply the database migrations and exit")
    return parser.parse_args(argv)


def serve(settings: Settings, args: argparse.Namespace) -> None:
    """Migrate once here, before any worker starts, so workers never race on the schema."""
    if args.workers > 1 and settings.bus.backend == "memory":
        raise SystemExit(
            "--workers > 1 needs SKIRMISH_BUS__BACKEND=redis or postgresql "
            "(the memory bus reaches only its own process)"
        )
    if settings.database.migrate_on_start:
        migrate(settings.database.url)
    limits = settings.limits
    options: dict[str, Any] = {
        "factory": True,
        "host": args.host,
        "port": args.port,
        "workers": args.workers,
        **websocket_options(settings),
        "proxy_headers": args.proxy_headers,
        "forwarded_allow_ips": args.forwarded_allow_ips,
        "log_config": log_config(settings.observability),
        "access_log": settings.observability.access_log,
        # A peer that never reads must not hold a SIGTERM open (docs/reliability.md).
        "timeout_graceful_shutdown": limits.shutdown_grace_seconds,
    }
    if args.workers > 1:  # uvicorn's supervisor: its children stop listening at exit
        uvicorn.run(APP, **options)
        return
    server = DrainingServer(uvicorn.Config(APP, **options))
    server.run()
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)


class DrainingServer(uvicorn.Server):
    """uvicorn's server, with its listeners handed to the drain, which closes them as
    soon as SIGTERM arrives: a proxy then sends new connections to another worker while
    this one finishes (app/realtime/drain.py)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        drain.listening(getattr(self, "servers", []))


def websocket_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's WebSocket settings, shared by ``serve`` and the tests' live server, so
    the tests exercise the stack that production runs."""
    limits = settings.limits
    return {
        "ws": settings.server.ws_protocol,
        "ws_max_size": limits.max_frame_bytes * 16,
        "ws_ping_interval": limits.heartbeat_seconds,
        "ws_ping_timeout": limits.heartbeat_seconds,
        "ws_per_message_deflate": settings.server.ws_per_message_deflate,
    }


def migrate(url: str) -> None:
    """Apply the migrations; on PostgreSQL under an advisory lock.

    Several containers running ``skirmish serve`` against one database then take turns:
    the first upgrades, the others find the schema at head. (SQLite is one machine's file,
    written by one process at a time anyway.)
    """
    if not url.startswith("postgresql"):
        upgrade_head(url)
        return
    asyncio.run(_migrate_locked(url))


async def _migrate_locked(url: str) -> None:
    conn = await asyncpg.connect(asyncpg_dsn(url), timeout=10)
    try:
        await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
        await asyncio.to_thread(upgrade_head, url)  # Alembic runs its own loop there
    finally:
        await conn.close()  # ends the session, which releases the lock


def main(argv: list[str] | None = None) -> None:
    settings = get_settings()
    args = parse_args(argv, settings)
    configure_logging(settings.observability)  # migrations log like the server will
    if args.command == "migrate":
        migrate(settings.database.url)
        return
    serve(settings, args)


if __name__ == "__main__":
    main()
