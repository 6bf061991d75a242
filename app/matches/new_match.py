"""A new match, decided before anything is written: options, seats, bots, seed, first state."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.db.models import Match, MatchClock, MatchStatus
from app.games.base import JSON, Game, IllegalAction, seats_in_play
from app.matches import errors
from app.matches.bots import check_bot
from app.matches.clocks import ClockOptions
from app.matches.summaries import game_named


@dataclass(frozen=True)
class NewMatch:
    id: str
    game: Game
    options: JSON
    playing: tuple[str, ...]
    chosen: str
    bot_seats: dict[str, str]
    """Seat → bot level: every seat but the creator's, in a match versus the computer."""
    clock: ClockOptions | None
    seed: int
    state: Any

    def row(self, creator_key: str | None) -> Match:
        return Match(
            id=self.id,
            game=self.game.NAME,
            rules_version=self.game.RULES_VERSION,
            seed=self.seed,
            options=self.options,
            status=MatchStatus.LOBBY,
            version=0,
            snapshot=self.game.to_json(self.state),
            creator=creator_key,
        )

    def clock_row(self) -> MatchClock | None:
        return self.clock.row(self.id) if self.clock is not None and self.clock.enabled else None


def plan_match(
    game_name: str,
    options: Mapping[str, Any],
    seat: str | None,
    clock: Mapping[str, Any] | None,
    bot: str | None,
) -> NewMatch:
    """Validate everything a create request names, then set the game up from a fresh seed.

    Each refusal is the request's own error (unknown game, bad options or clock, unknown
    seat or bot level), raised before any write.
    """
    game = game_named(game_name)
    clock_options = ClockOptions.parse(clock) if clock else None
    try:
        full_options = game.validate_options(options)
    except IllegalAction as exc:
        raise errors.IllegalMove(exc.code, exc.message) from None
    playing = tuple(seats_in_play(game, full_options))
    chosen = seat if seat is not None else secrets.choice(playing)
    if chosen not in playing:
        raise errors.UnknownSeat()
    if bot is not None:
        check_bot(game.NAME, bot)
    bot_seats = {s: bot for s in playing if s != chosen} if bot is not None else {}
    seed = secrets.randbits(52)
    state = game.setup(seed, full_options)
    return NewMatch(
        str(uuid.uuid4()),
        game,
        full_options,
        playing,
        chosen,
        bot_seats,
        clock_options,
        seed,
        state,
    )
