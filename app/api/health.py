"""Liveness and readiness, for the proxy, compose and orchestrators."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.deps import BusDep, ServiceDep

router = APIRouter(tags=["ops"])


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is alive (nothing else is checked)."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(service: ServiceDep, bus: BusDep) -> JSONResponse:
    """The database and the bus answer; route traffic here only then."""
    try:
        await service.ping_database()
        await bus.ping()
    except Exception as exc:
        detail = f"{type(exc).__name__}: not ready"
        return JSONResponse({"status": "unavailable", "detail": detail}, status_code=503)
    return JSONResponse({"status": "ready"})
