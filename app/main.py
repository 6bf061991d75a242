"""The composition root: settings, database, service, bus, hub, routers, static files."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.staticfiles import StaticFiles

from app import gc_freeze
from app.api import health, matches, ws
from app.api.errors import install_error_handlers
from app.config import Settings, get_settings
from app.db import checkpoint
from app.db.session import create_engine, create_session_factory
from app.matches.bots import BotRunner, BotSettings
from app.matches.clocks import ClockKeeper
from app.matches.service import MatchService
from app.observability.middleware import RequestContext
from app.realtime.drain import (
    CLOSE_SECONDS,
    SERVICE_RESTART,
    install_on_sigterm,
    stop_listening,
)
from app.realtime.hub import Hub
from app.realtime.pubsub import create_bus
from app.realtime.throttle import create_guard


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    engine = create_engine(settings.database.url, settings.database.echo)
    bus = create_bus(settings.bus, settings.database.url)
    pepper = settings.security.seat_secret_pepper.get_secret_value()
    service = MatchService(create_session_factory(engine), pepper, bus.publish)
    # shared by the workers in the bus's Redis or PostgreSQL (app/realtime/shared_limits.py)
    guard = create_guard(settings.limits, settings.bus, settings.database.url, pepper)
    hub = Hub(service, settings.limits, bus, guard=guard)
    bus.subscribe(service.observe)
    bus.subscribe(hub.on_version)
    bots = BotRunner(service, BotSettings(**settings.bots.model_dump()))
    bots.install(bus)  # bot seats act through service.act, like a human
    await bus.start()
    await guard.start()  # the shared guard's lease on this worker's socket counts
    if settings.bus.backend == "memory":  # the only worker: nobody is connected yet
        await service.reset_presence()
    await bots.resume()  # bot matches interrupted by a restart carry on
    app.state.service, app.state.hub, app.state.bus, app.state.bots = service, hub, bus, bots
    tick = settings.limits.clock_tick_seconds
    app.state.clocks = ClockKeeper(
        service.sessions,
        service.act,
        bus.publish,
        tick,
        bot_claimer=bots.claim_abandoned,
        held=hub.held_seats,
    )
    app.state.clocks.start()  # turn deadlines and abandonment (app/matches/clocks.py)
    checkpoints = checkpoint.start(engine)  # SQLite only: WAL checkpoints off the hot path
    gc_thaws = gc_freeze.start(settings.server.gc_freeze, settings.server.gc_thaw_seconds)
    grace = settings.limits.shutdown_grace_seconds

    async def drain_then_close() -> None:  # before uvicorn's own shutdown (drain.py)
        stop_listening()
        await hub.drain.settle(grace, hub.flushed)
        await hub.close_sockets(SERVICE_RESTART, "server restart", CLOSE_SECONDS)

    restore_sigterm = install_on_sigterm(drain_then_close)
    yield
    restore_sigterm()
    await app.state.clocks.stop()
    await checkpoint.stop(checkpoints)
    await gc_freeze.stop(gc_thaws)
    await bots.close()
    await hub.close()
    await guard.close()
    await bus.close()
    await engine.dispose()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    app = FastAPI(title="Skirmish", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    install_error_handlers(app)
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.security.allowed_origins,
        allow_methods=["GET", "POST"],
        allow_headers=["Content-Type"],
        expose_headers=["X-Request-Id"],
    )
    app.add_middleware(ws.MatchSockets)  # the match sockets, without a route's wrappers
    app.add_middleware(RequestContext)  # outermost: every log line of a request has its ids
    for module in (health, matches):
        app.include_router(module.router)
    if settings.server.static_dir.is_dir():
        app.mount("/", StaticFiles(directory=settings.server.static_dir, html=True), name="static")
    return app
