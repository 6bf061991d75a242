"""One exception per guard (DESIGN §7); each carries the stable snake_case code clients see.

The HTTP status for each is mapped once in app/api/errors.py; the WebSocket error frame
uses ``code`` and ``message`` as they are.
"""

from __future__ import annotations


class MatchError(Exception):
    """A refused request; nothing was changed."""

    code = "match_error"
    default_message = "The request was refused."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


class BadFrame(MatchError):
    code = "bad_frame"
    default_message = "The frame is not valid JSON of a known type with the required fields."


class FrameTooLarge(MatchError):
    code = "frame_too_large"
    default_message = "The frame is larger than the server accepts."


class MatchNotFound(MatchError):
    code = "match_not_found"
    default_message = "There is no match with this id."


class UnknownGame(MatchError):
    code = "unknown_game"
    default_message = "There is no game with this name."


class NotAuthorized(MatchError):
    code = "not_authorized"
    default_message = "This connection holds no seat that may do this."


class SeatTaken(MatchError):
    code = "seat_taken"
    default_message = "This seat is already taken, or no seat is free."


class UnknownSeat(MatchError):
    code = "unknown_seat"
    default_message = "This game has no seat with this name."


class MatchNotActive(MatchError):
    code = "match_not_active"
    default_message = "The match has not started: seats are still free."


class MatchFinished(MatchError):
    code = "match_finished"
    default_message = "The match is over."


class StaleVersion(MatchError):
    code = "stale_version"
    default_message = "The match has moved on since the version you saw."

    def __init__(self, current: int, message: str | None = None) -> None:
        super().__init__(message or f"The match is at version {current}; you sent another one.")
        self.current = current


class ActionIdReused(MatchError):
    code = "action_id_reused"
    default_message = "This action id was already used by another seat."


class NotYourDecision(MatchError):
    code = "not_your_decision"
    default_message = "It is not this seat's decision now."


class IllegalMove(MatchError):
    """The engine's ``IllegalAction``, with the engine's own code passed through."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class RateLimited(MatchError):
    code = "rate_limited"
    default_message = "Too many actions; slow down."


class AddressRateLimited(MatchError):
    code = "address_rate_limited"
    default_message = "Too many actions from your address across all its sockets; slow down."


class JoinRateLimited(MatchError):
    code = "join_rate_limited"
    default_message = "Too many joins (hello, seat claims, new matches); wait a moment."


class TooManySockets(MatchError):
    code = "too_many_sockets"
    default_message = "Your address has too many sockets open here; close one first."


class TooManyMatches(MatchError):
    code = "too_many_matches"
    default_message = "You already have the most open matches allowed; finish one first."


class InternalError(MatchError):
    """A server fault, not a refusal; the action was not acknowledged."""

    code = "internal_error"
    default_message = "The server failed to handle this frame; retry with the same id."
