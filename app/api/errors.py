"""Domain errors mapped once to problem-style JSON with a stable ``code`` (RFC 9457 shape)."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from app.matches import errors

HTTP_STATUS: dict[type[errors.MatchError], int] = {
    errors.BadFrame: 422,
    errors.FrameTooLarge: 413,
    errors.MatchNotFound: 404,
    errors.UnknownGame: 404,
    errors.NotAuthorized: 403,
    errors.SeatTaken: 409,
    errors.UnknownSeat: 422,
    errors.MatchNotActive: 409,
    errors.MatchFinished: 409,
    errors.StaleVersion: 409,
    errors.ActionIdReused: 409,
    errors.NotYourDecision: 409,
    errors.IllegalMove: 422,
    errors.RateLimited: 429,
    errors.AddressRateLimited: 429,
    errors.JoinRateLimited: 429,
    errors.TooManySockets: 429,
    errors.TooManyMatches: 429,
    errors.InternalError: 500,
}


def problem(status: int, code: str, detail: str) -> JSONResponse:
    body = {"type": "about:blank", "status": status, "code": code, "detail": detail}
    return JSONResponse(body, status_code=status, media_type="application/problem+json")


async def on_match_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, errors.MatchError)
    return problem(HTTP_STATUS.get(type(exc), 400), exc.code, exc.message)


async def on_validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0] if exc.errors() else {}
    where = ".".join(str(p) for p in first.get("loc", ()))
    return problem(422, "bad_request", f"Invalid request at {where}: {first.get('msg', '')}.")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(errors.MatchError, on_match_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
