"""Turn timers and abandonment, held by the server and kept in the database.

A match created with a clock (``turn_seconds``, ``max_misses``, ``grace_seconds``,
``on_abandon``) gets a ``match_clocks`` row. Every worker runs a ``ClockKeeper`` that
wakes every ``clock_tick_seconds`` and, for each active match with a clock:

- **Deadline.** The decision owed at version v is due ``turn_seconds`` after the server
  committed v (``matches.updated_at``, written by the server, never a client's time).
  When it passes, each seat that still owes a decision either plays the default action
  (below) or, at its ``max_misses``-th miss, forfeits.
- **Abandonment.** A seat with no socket for longer than ``grace_seconds`` forfeits, or,
  with ``on_abandon: "bot"``, is handed to the bot claimer (``BotClaimer``).

Nothing here lives only in memory: deadlines, absences and misses (counted from the
action log) are read from the database each tick, so a restarted worker resumes every
timer, and several workers may tick at once without harm: a default action carries the
deterministic client id ``clock:<version>:<seat>`` (one commit, the rest get its ack) and
a forfeit is a guarded UPDATE of an active match at a given version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import defer

from app.db.models import Action, Match, MatchClock, MatchStatus, Seat, utcnow
from app.db.session import SessionFactory
from app.games.base import JSON, Game, Outcome
from app.matches import errors
from app.matches.presence import PresenceLeases
from app.matches.summaries import game_named
from app.matches.writes import write_transaction

CLOCK_ID_PREFIX = "clock:"
"""Client ids the clock uses for default actions; clients may not send ids like these."""

BOT_SEAT_NAME_PREFIX = "bot:"
"""Bot seats (app/matches/bots.py) have no socket: they are never absent."""

DEFAULT_ACTION_TYPES = ("pass", "end_turn", "end_phase", "end_main", "done", "skip")

Notify = Callable[[str, int], Awaitable[None]]
BotClaimer = Callable[[str, str], Awaitable[bool]]
"""``(match_id, seat) -> claimed?``: hand an abandoned seat to a bot (app/matches/bots.py)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClockOptions:
    """What a creator chose; every field is optional and ``None`` disables that rule."""

    turn_seconds: float | None = None
    max_misses: int | None = None
    grace_seconds: float | None = None
    on_abandon: Literal["forfeit", "bot"] = "forfeit"

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> ClockOptions:
        """Validate a creator's clock options; ``bad_clock`` names the first wrong one."""
        allowed = {"turn_seconds", "max_misses", "grace_seconds", "on_abandon"}
        unknown = set(raw) - allowed
        if unknown:
            raise errors.IllegalMove("bad_clock", f"Unknown clock option {sorted(unknown)[0]}.")
        turn, grace = raw.get("turn_seconds"), raw.get("grace_seconds")
        misses, on_abandon = raw.get("max_misses"), raw.get("on_abandon", "forfeit")
        for name, value in (("turn_seconds", turn), ("grace_seconds", grace)):
            if value is not None and (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not 1 <= value <= 86_400
            ):
                raise errors.IllegalMove("bad_clock", f"{name} must be 1 to 86400 seconds.")
        if misses is not None and (
            isinstance(misses, bool) or not isinstance(misses, int) or not 1 <= misses <= 100
        ):
            raise errors.IllegalMove("bad_clock", "max_misses must be an integer from 1 to 100.")
        if on_abandon not in ("forfeit", "bot"):
            raise errors.IllegalMove("bad_clock", 'on_abandon must be "forfeit" or "bot".')
        return cls(turn, misses, grace, on_abandon)

    @property
    def enabled(self) -> bool:
        """Whether any rule applies (``max_misses`` alone needs a turn timer to count)."""
        return self.turn_seconds is not None or self.grace_seconds is not None

    def row(self, match_id: str) -> MatchClock:
        return MatchClock(
            match_id=match_id,
            turn_seconds=self.turn_seconds,
            max_misses=self.max_misses,
            grace_seconds=self.grace_seconds,
            on_abandon=self.on_abandon,
            absent_since={},
            bot_seats=[],
        )


def default_action(game: Game, state: Any, seat: str) -> JSON | None:
    """What a seat that let its time run out plays: documented in docs/reliability.md.

    A game may define ``timeout_action(state, seat)``; otherwise the first legal action
    whose type is a pass or an end of phase; otherwise the first legal action at all.
    """
    chooser = getattr(game, "timeout_action", None)
    if chooser is not None:
        chosen: JSON | None = chooser(state, seat)
        return chosen
    legal = game.legal_actions(state, seat)
    for action in legal:
        if action.get("type") in DEFAULT_ACTION_TYPES:
            return action
    return legal[0] if legal else None


def as_utc(moment: datetime) -> datetime:
    """SQLite gives naive datetimes back; every stored time is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class ClockKeeper:
    """The per-worker loop that enforces deadlines and abandonment (see the module doc)."""

    def __init__(
        self,
        sessions: SessionFactory,
        act: Callable[..., Awaitable[Any]],
        notify: Notify,
        tick_seconds: float,
        bot_claimer: BotClaimer | None = None,
        held: Callable[[], list[tuple[str, str]]] | None = None,
    ) -> None:
        self._sessions = sessions
        self._act = act  # MatchService.act: a default action takes the ordinary hot path
        self._notify = notify
        self._tick = tick_seconds
        self.bot_claimer = bot_claimer
        self._held = held  # Hub.held_seats: the seats whose presence lease this worker renews
        self._lease = timedelta(seconds=max(3 * tick_seconds, 2.0))
        self._leases = PresenceLeases(sessions, notify, self._lease)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def _run(self) -> None:
        with contextlib.suppress(Exception):
            await self.fresh_grace()
        while True:
            try:
                await self.tick()
            except Exception:  # the database may be away; try again next tick
                log.warning("clock tick failed", exc_info=True)
            await asyncio.sleep(self._tick)

    async def fresh_grace(self, now: datetime | None = None) -> None:
        """On start after the whole service was down, absent seats get a whole grace
        again: nobody could reconnect to a server that was down, so downtime must not
        count as abandonment. Deadlines, on the other hand, stand: they are absolute
        times kept in the database.

        If another worker renewed a presence lease within the last lease, the service
        stayed up (a rolling restart, a crashed worker): absent players could reconnect
        all along, so their absences keep counting from when they began.
        """
        now = now or utcnow()
        async with write_transaction(self._sessions) as session:
            if self._held is not None and await self._leases.renewed_since(
                session, now - self._lease
            ):
                return
            await session.execute(update(MatchClock).values(absent_since={}))

    async def tick(self, now: datetime | None = None) -> None:
        """One pass over every active match with a clock."""
        now = now or utcnow()
        if self._held is not None:
            await self._leases.renew(self._held(), now)
            await self._leases.reap(now)
        async with self._sessions() as session:
            query = (
                select(MatchClock.match_id)
                .join(Match, Match.id == MatchClock.match_id)
                .where(Match.status == MatchStatus.ACTIVE)
            )
            match_ids = list((await session.execute(query)).scalars())
        for match_id in match_ids:
            try:
                await self._check(match_id, now)
            except errors.MatchError as exc:  # another worker or a player moved first
                log.debug("clock of %s: %s", match_id, exc.code)

    def _present(self, seat: Seat, now: datetime) -> bool:
        """With leases, a seat is present while a worker renews it: a worker killed with
        its sockets stops renewing, whatever the ``connected`` flag it left behind says."""
        if self._held is None:
            return seat.connected
        return seat.seen_at is not None and now - as_utc(seat.seen_at) <= self._lease

    async def _check(self, match_id: str, now: datetime) -> None:
        async with self._sessions() as session, session.begin():
            clock = await session.get(MatchClock, match_id)
            match = await session.get(Match, match_id, options=[defer(Match.snapshot)])
            if clock is None or match is None or match.status != MatchStatus.ACTIVE:
                return
            query = select(Seat).where(Seat.match_id == match_id)
            seats = list((await session.execute(query)).scalars())
            present = {s.seat for s in seats if self._present(s, now)}
            absent = self._update_absences(clock, seats, present, now)
            due = self._update_deadline(clock, match, now)
            misses = await self._misses(session, match_id) if due else {}
            version, seat_count = match.version, len(game_named(match.game).SEATS)
        if absent and len(absent) == seat_count:  # nobody is left: nobody wins
            await self.forfeit(match_id, None, version, "abandoned")
            return
        for seat in absent:
            if await self._abandon(match_id, seat, clock.on_abandon, version):
                return
        if due:
            await self._expire(match_id, version, clock.max_misses, misses)

    @staticmethod
    def _update_absences(
        clock: MatchClock, seats: list[Seat], present: set[str], now: datetime
    ) -> list[str]:
        """Record when each seat went missing; return the seats absent beyond the grace."""
        since = dict(clock.absent_since or {})
        bots = set(clock.bot_seats or []) | {
            s.seat for s in seats if (s.display_name or "").startswith(BOT_SEAT_NAME_PREFIX)
        }
        for seat in seats:
            if seat.seat in present or seat.seat in bots:
                since.pop(seat.seat, None)
            else:
                since.setdefault(seat.seat, now.isoformat())
        if since != clock.absent_since:
            clock.absent_since = since
        if clock.grace_seconds is None:
            return []
        limit = timedelta(seconds=clock.grace_seconds)
        return sorted(s for s, t in since.items() if now - datetime.fromisoformat(t) >= limit)

    @staticmethod
    def _update_deadline(clock: MatchClock, match: Match, now: datetime) -> bool:
        """Keep the deadline of the current version; True when it has passed."""
        if clock.turn_seconds is None:
            return False
        if clock.deadline_version != match.version or clock.deadline is None:
            clock.deadline_version = match.version
            clock.deadline = as_utc(match.updated_at) + timedelta(seconds=clock.turn_seconds)
        return now >= as_utc(clock.deadline)

    @staticmethod
    async def _misses(session: AsyncSession, match_id: str) -> dict[str, int]:
        """Timeouts per seat so far, counted from the log (so restarts and races agree)."""
        query = (
            select(Action.seat, func.count())
            .where(Action.match_id == match_id)
            .where(Action.client_action_id.startswith(CLOCK_ID_PREFIX))
            .group_by(Action.seat)
        )
        return {seat: int(n) for seat, n in (await session.execute(query)).all()}

    async def _expire(
        self, match_id: str, version: int, max_misses: int | None, misses: dict[str, int]
    ) -> None:
        """Each seat owing a decision at ``version`` plays its default or forfeits."""
        game, state, current = await self._position(match_id)
        for seat in sorted(game.active_seats(state)):
            if current != version:
                game, state, current = await self._position(match_id)
                if seat not in game.active_seats(state):
                    continue
            missed = misses.get(seat, 0) + 1
            action = default_action(game, state, seat)
            if action is None or (max_misses is not None and missed >= max_misses):
                await self.forfeit(match_id, seat, current, "timeout", game)
                return
            client_id = f"{CLOCK_ID_PREFIX}{current}:{seat}"
            await self._act(match_id, seat, client_id, current, action)
            log.info("clock played %s for %s in %s (miss %d)", action, seat, match_id, missed)

    async def _position(self, match_id: str) -> tuple[Game, Any, int]:
        async with self._sessions() as session:
            row = (
                await session.execute(
                    select(Match.game, Match.version, Match.snapshot).where(Match.id == match_id)
                )
            ).one()
        game = game_named(row.game)
        return game, game.from_json(row.snapshot), int(row.version)

    async def _abandon(self, match_id: str, seat: str, on_abandon: str, version: int) -> bool:
        """Hand the seat to a bot, or forfeit it; True when the match ended."""
        if on_abandon == "bot" and self.bot_claimer is not None:
            if await self.bot_claimer(match_id, seat):
                await self._mark_bot(match_id, seat)
                return False
        elif on_abandon == "bot":
            log.warning("no bot claimer configured; %s forfeits %s", seat, match_id)
        return await self.forfeit(match_id, seat, version, "abandoned")

    async def _mark_bot(self, match_id: str, seat: str) -> None:
        async with write_transaction(self._sessions) as session:
            clock = await session.get(MatchClock, match_id)
            if clock is not None and seat not in clock.bot_seats:
                clock.bot_seats = [*clock.bot_seats, seat]
                clock.absent_since = {k: v for k, v in clock.absent_since.items() if k != seat}

    async def forfeit(
        self, match_id: str, seat: str | None, version: int, reason: str, game: Game | None = None
    ) -> bool:
        """End an active match at ``version``: the other seat wins (a draw if not one).

        ``seat=None`` means every seat left: the match is ``abandoned``, without a winner.
        Guarded like an action: only if the match is still active at that version, so a
        player's action committed meanwhile wins and the clock looks again next tick.
        """
        async with write_transaction(self._sessions) as session:
            name = await session.scalar(select(Match.game).where(Match.id == match_id))
            game = game or game_named(str(name))
            others = [s for s in game.SEATS if s != seat]
            winner = others[0] if seat is not None and len(others) == 1 else None
            who = seat if seat is not None else "every seat"
            outcome = Outcome(winner, reason, f"{who} forfeited ({reason})")
            status = MatchStatus.FINISHED if seat is not None else MatchStatus.ABANDONED
            result = await session.execute(
                update(Match)
                .where(
                    Match.id == match_id,
                    Match.version == version,
                    Match.status == MatchStatus.ACTIVE,
                )
                .values(status=status, outcome=outcome.to_json(), updated_at=utcnow())
            )
            ended = bool(getattr(result, "rowcount", 0))
        if ended:
            log.info("%s forfeited %s (%s)", seat, match_id, reason)
            await self._notify(match_id, version)
        return ended


@dataclass(frozen=True)
class ClockStatus:
    """A match's clock as clients may see it: the rules and the current deadline."""

    options: ClockOptions
    version: int
    deadline: datetime | None
    absent_since: dict[str, str]


async def clock_of(sessions: SessionFactory, match_id: str) -> ClockStatus | None:
    """The clock of a match (None if it has none), for clients that show a countdown."""
    async with sessions() as session:
        match = await session.get(Match, match_id, options=[defer(Match.snapshot)])
        if match is None:
            raise errors.MatchNotFound()
        clock = await session.get(MatchClock, match_id)
    if clock is None:
        return None
    options = ClockOptions(
        clock.turn_seconds,
        clock.max_misses,
        clock.grace_seconds,
        clock.on_abandon,  # type: ignore[arg-type]
    )
    deadline = None
    if clock.turn_seconds is not None and match.status == MatchStatus.ACTIVE:
        deadline = as_utc(match.updated_at) + timedelta(seconds=clock.turn_seconds)
    return ClockStatus(options, match.version, deadline, dict(clock.absent_since or {}))
