"""Liveness, readiness and metrics, for the proxy, compose, orchestrators and Prometheus."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse, Response

from app.api.deps import BusDep, ServiceDep, SettingsDep
from app.observability import metrics

router = APIRouter(tags=["ops"])

READY_TIMEOUT_SECONDS = 2.0


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is alive (nothing else is checked)."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(service: ServiceDep, bus: BusDep) -> JSONResponse:
    """The database and the bus answer in time; route traffic here only then."""
    for name, check in (("database", service.ping_database), ("bus", bus.ping)):
        try:
            await asyncio.wait_for(check(), READY_TIMEOUT_SECONDS)
        except Exception as exc:
            detail = f"{name}: {type(exc).__name__}"
            return JSONResponse({"status": "unavailable", "detail": detail}, status_code=503)
    return JSONResponse({"status": "ready"})


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(settings: SettingsDep) -> Response:
    """This worker's Prometheus metrics; the proxy does not expose this path."""
    if not settings.observability.metrics:
        raise HTTPException(status_code=404)
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)
