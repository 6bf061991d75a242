"""``skirmish serve`` (migrate, then run uvicorn) and ``skirmish migrate``."""

from __future__ import annotations

import argparse

import uvicorn

from app.config import Settings, get_settings
from app.db.migrate import upgrade_head


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
        help="trust X-Forwarded-* from SKIRMISH_SERVER__FORWARDED_ALLOW_IPS",
    )
    commands.add_parser("migrate", help="apply the database migrations and exit")
    return parser.parse_args(argv)


def serve(settings: Settings, args: argparse.Namespace) -> None:
    """Migrate once here, before any worker starts, so workers never race on the schema."""
    if args.workers > 1 and settings.bus.backend == "memory":
        raise SystemExit("--workers > 1 needs SKIRMISH_BUS__BACKEND=redis (memory is per process)")
    if settings.database.migrate_on_start:
        upgrade_head(settings.database.url)
    limits = settings.limits
    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        ws_max_size=limits.max_frame_bytes * 16,
        ws_ping_interval=limits.heartbeat_seconds,
        ws_ping_timeout=limits.heartbeat_seconds,
        proxy_headers=args.proxy_headers,
        forwarded_allow_ips=settings.server.forwarded_allow_ips,
    )


def main(argv: list[str] | None = None) -> None:
    settings = get_settings()
    args = parse_args(argv, settings)
    if args.command == "migrate":
        upgrade_head(settings.database.url)
        return
    serve(settings, args)


if __name__ == "__main__":
    main()
