"""The answers of DESIGN §7 that depend only on a stored row: replays and playability."""

from __future__ import annotations

from app.db.models import Action, Match, MatchStatus
from app.matches import errors
from app.matches.records import Ack


def original_ack(original: Action, seat: str) -> Ack:
    """The ack of an action already recorded under this client id, if it is this seat's."""
    if original.seat != seat:
        raise errors.ActionIdReused()
    return Ack(original.client_action_id, original.seq)


def check_playable(match: Match, seen_version: int) -> None:
    """In play, at the version the client saw: else the first reason it is not."""
    if match.status == MatchStatus.LOBBY:
        raise errors.MatchNotActive()
    if match.status != MatchStatus.ACTIVE:
        raise errors.MatchFinished()
    if seen_version != match.version:
        raise errors.StaleVersion(match.version)
