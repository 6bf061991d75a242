"""How matches look from outside: summaries, the public log, the game catalogue."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC

from app.db.models import Action, Match, MatchStatus, Seat
from app.games import registry
from app.games.base import JSON, Event, Game, seat_option, seats_in_play
from app.matches import errors
from app.matches.bots import BOT_GAMES
from app.matches.records import LogEntry, MatchSummary, SeatInfo

LOBBY_GROUPS: dict[str, tuple[str, ...]] = {
    "open": (MatchStatus.LOBBY,),
    "live": (MatchStatus.ACTIVE,),
    "finished": (MatchStatus.FINISHED, MatchStatus.ABANDONED),
}


def game_named(name: str) -> Game:
    try:
        return registry.get(name)
    except KeyError:
        raise errors.UnknownGame() from None


def summarize(match: Match, seats: Sequence[Seat]) -> MatchSummary:
    infos = tuple(
        SeatInfo(s.seat, s.secret_hash is not None, s.display_name, s.connected) for s in seats
    )
    created = match.created_at
    if created.tzinfo is None:  # SQLite keeps no zone; every stored time is UTC
        created = created.replace(tzinfo=UTC)
    return MatchSummary(
        match.id, match.game, match.status, match.version, infos, match.outcome, created
    )


def log_entry(game: Game, action: Action, full: bool) -> LogEntry:
    events = [Event.from_json(e) for e in action.events]
    if full:
        return LogEntry(action.seq, action.seat, action.payload, [e.to_json() for e in events])
    shown = [r for e in events if (r := game.redact(e, None)) is not None]
    return LogEntry(action.seq, action.seat, None, shown)


def list_games() -> list[JSON]:
    """Every registered game with its seats and default options."""
    return [
        {
            "name": g.NAME,
            "title": g.TITLE,
            "seats": list(g.SEATS),
            "default_seats": list(seats_in_play(g, g.default_options())),
            "seat_option": seat_option(g),
            "bots": list(BOT_GAMES.get(g.NAME, ())),  # levels of a computer opponent
            "rules_version": g.RULES_VERSION,
            "options": g.default_options(),
        }
        for g in registry.all_games()
    ]
