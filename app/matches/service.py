"""The match service: create, join, act, resume (DESIGN §2). No HTTP, no sockets here.

Callers pass a ``notify`` callable; it is awaited only after a commit, with
"match M is now at version v", and is how realtime fan-out learns of changes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Action, Match, MatchStatus
from app.db.session import SessionFactory
from app.games.base import Event, Game, IllegalAction, Transition, Viewer
from app.matches import errors, store
from app.matches.bots import bot_seat_name
from app.matches.cache import StateCache
from app.matches.clocks import ClockStatus, clock_of
from app.matches.guards import check_playable, original_ack
from app.matches.new_match import plan_match
from app.matches.recent import Head, RecentSteps
from app.matches.records import (
    Ack,
    MatchLog,
    MatchSummary,
    Position,
    Progress,
    SeatGrant,
    Step,
)
from app.matches.seat_keys import hash_secret, issue_secret, secret_matches
from app.matches.summaries import LOBBY_GROUPS, game_named, log_entry, summarize
from app.matches.writes import write_retrying, write_transaction
from app.observability import metrics

Notify = Callable[[str, int], Awaitable[None]]


class MatchService:
    """Every operation on matches; one instance per worker, shared by all requests."""

    def __init__(self, sessions: SessionFactory, pepper: str, notify: Notify) -> None:
        self._sessions = sessions
        self._pepper = pepper
        self._notify = notify
        self._cache = StateCache()
        self._recent = RecentSteps()
        self.bot_seated: Callable[[str, dict[str, str]], None] | None = None
        """Told of the bot seats of a new match (app/matches/bots.py ``BotRunner.adopt``)."""

    @property
    def sessions(self) -> SessionFactory:
        """The session factory, for the clock keeper (app/matches/clocks.py)."""
        return self._sessions

    # -- lobby -------------------------------------------------------------------

    async def create_match(
        self,
        game_name: str,
        options: Mapping[str, Any],
        seat: str | None,
        name: str | None,
        clock: Mapping[str, Any] | None = None,
        creator: str | None = None,
        max_open: int | None = None,
        bot: str | None = None,
    ) -> SeatGrant:
        """Set the game up from a fresh seed and claim the creator's seat (random if None).

        ``bot`` (a level, e.g. "heuristic") fills every other seat with a bot at once.

        ``creator`` (the client's address, stored only as an HMAC) may have at most
        ``max_open`` matches in the lobby or in play; ``clock`` holds turn-timer options.
        """
        new = plan_match(game_name, options, seat, clock, bot)
        creator_key = self._hash(f"creator:{creator}") if creator is not None else None
        secret = issue_secret()

        async def write(session: AsyncSession) -> None:
            if creator_key is not None and max_open is not None:  # noqa: SIM102
                if await store.count_open_by_creator(session, creator_key) >= max_open:
                    raise errors.TooManyMatches()
            await store.add_match(session, new.row(creator_key), new.playing, new.clock_row())
            await store.claim_seat(session, new.id, new.chosen, self._hash(secret), name)
            for bot_seat, level in new.bot_seats.items():  # a secret nobody keeps
                await store.claim_seat(
                    session, new.id, bot_seat, self._hash(issue_secret()), bot_seat_name(level)
                )
            await store.start_if_full(session, new.id)

        await write_retrying(self._sessions, write)
        self._cache.put(new.id, 0, new.state)
        if new.bot_seats and self.bot_seated is not None:
            self.bot_seated(new.id, new.bot_seats)
        return SeatGrant(new.id, new.chosen, secret)

    async def join_match(self, match_id: str, seat: str | None, name: str | None) -> SeatGrant:
        """Claim ``seat`` (or the first free one); the match starts when none is left free."""
        secret = issue_secret()

        async def write(session: AsyncSession) -> tuple[str, int]:
            match = await self._require(session, match_id)
            if match.status != MatchStatus.LOBBY:
                raise errors.SeatTaken("The match has started; every seat is taken.")
            seats = await store.get_seats(session, match_id)
            free = [s.seat for s in seats if s.secret_hash is None]
            chosen = seat if seat is not None else next(iter(free), None)
            if chosen is None:
                raise errors.SeatTaken()
            if chosen not in {s.seat for s in seats}:
                raise errors.UnknownSeat()
            if not await store.claim_seat(session, match_id, chosen, self._hash(secret), name):
                raise errors.SeatTaken()
            await store.start_if_full(session, match_id)
            return chosen, match.version

        chosen, version = await write_retrying(self._sessions, write)
        await self._notify(match_id, version)
        return SeatGrant(match_id, chosen, secret)

    async def lobby(self, limit: int = 50) -> dict[str, list[MatchSummary]]:
        """Open, live and finished matches, newest first."""
        async with self._sessions() as session:
            out: dict[str, list[MatchSummary]] = {}
            for group, statuses in LOBBY_GROUPS.items():
                matches = await store.list_matches(session, statuses, limit)
                seats = await store.seats_of(session, [m.id for m in matches])
                out[group] = [summarize(m, seats[m.id]) for m in matches]
            return out

    async def summary(self, match_id: str) -> MatchSummary:
        async with self._sessions() as session:
            match = await self._require(session, match_id)
            return summarize(match, await store.get_seats(session, match_id))

    async def match_log(self, match_id: str) -> MatchLog:
        """The public log: spectator-redacted events while live, everything once it ended."""
        async with self._sessions() as session:
            match = await self._require(session, match_id)
            actions = await store.actions_between(session, match_id, 0)
        game = game_named(match.game)
        full = match.status in (MatchStatus.FINISHED, MatchStatus.ABANDONED)
        entries = [log_entry(game, a, full) for a in actions]
        return MatchLog(match_id, match.status, redacted=not full, entries=entries)

    # -- seats and presence ------------------------------------------------------

    async def authenticate(self, match_id: str, secret: str | None) -> Viewer:
        """The seat this secret opens, or ``None`` (spectator) when no secret is given."""
        async with self._sessions() as session:
            await self._require(session, match_id)
            if secret is None:
                return None
            seats = await store.get_seats(session, match_id)
        found = [s.seat for s in seats if secret_matches(self._pepper, secret, s.secret_hash)]
        if not found:
            raise errors.NotAuthorized("This secret opens no seat of this match.")
        return found[0]

    async def set_connected(self, match_id: str, seat: str, connected: bool) -> None:
        async def write(session: AsyncSession) -> int:
            await store.set_connected(session, match_id, seat, connected)
            return (await self._require(session, match_id)).version

        await self._notify(match_id, await write_retrying(self._sessions, write))

    async def clock(self, match_id: str) -> ClockStatus | None:
        """The match's turn timer now, or None when it has none (for the clock frame)."""
        return await clock_of(self._sessions, match_id)

    async def ping_database(self) -> None:
        """Raise unless the database answers (readiness)."""
        async with self._sessions() as session:
            await store.ping(session)

    async def reset_presence(self) -> None:
        async with write_transaction(self._sessions) as session:
            await store.reset_presence(session)

    # -- play --------------------------------------------------------------------

    @metrics.timed_action
    async def act(
        self,
        match_id: str,
        seat: Viewer,
        client_id: str,
        seen_version: int,
        action: Mapping[str, Any],
        rate_limited: bool | errors.MatchError = False,
    ) -> Ack:
        """Apply one intent through the guards of DESIGN §7, commit, then notify.

        A client id already recorded for this seat returns its original ack whatever the
        match looks like now: the resend of an action whose ack was lost necessarily
        carries a stale version, and must still not have a second effect.

        When this worker committed the version the client saw, the reads are skipped
        (``recent.py``): the guarded write and the unique client id still decide. Any
        refusal there is answered by the full path instead, so every answer is exactly
        the one the database gives (a hint can be stale when another worker wrote).
        """
        known = self._known(match_id, seen_version) if seat is not None else None
        if known is not None:
            with contextlib.suppress(errors.MatchError):
                return await self._apply(
                    known, match_id, seat, client_id, seen_version, action, rate_limited
                )
        read = await self._read_for_act(match_id, seat, client_id, seen_version)
        if isinstance(read, Ack):
            return read
        return await self._apply(
            read, match_id, seat, client_id, seen_version, action, rate_limited
        )

    async def _apply(
        self,
        known: tuple[Game, Any],
        match_id: str,
        seat: Viewer,
        client_id: str,
        seen_version: int,
        action: Mapping[str, Any],
        rate_limited: bool | errors.MatchError,
    ) -> Ack:
        game, state = known
        if seat is None or seat not in game.active_seats(state):
            raise errors.NotYourDecision()
        try:
            transition = game.apply(state, seat, action)
        except IllegalAction as exc:
            raise errors.IllegalMove(exc.code, exc.message) from None
        if rate_limited:  # last, so the other answers stay exact; the caller's own code
            if isinstance(rate_limited, errors.MatchError):
                raise rate_limited
            raise errors.RateLimited()
        metrics.stage("applied")
        ack = await self._commit(game, match_id, seen_version, seat, client_id, action, transition)
        await self._notify(match_id, ack.version)
        return ack

    def observe(self, match_id: str, version: int) -> None:
        """Bus listener: a version written elsewhere makes this worker's head a stale hint."""
        self._recent.observe(match_id, version)

    def _known(self, match_id: str, seen_version: int) -> tuple[Game, Any] | None:
        """The state at ``seen_version`` if that is the newest this worker committed."""
        head = self._recent.head(match_id)
        if head is None or head.version != seen_version or head.status != MatchStatus.ACTIVE:
            return None
        state = self._cache.get(match_id, seen_version)
        return (game_named(head.game), state) if state is not None else None

    async def _read_for_act(
        self, match_id: str, seat: Viewer, client_id: str, seen_version: int
    ) -> Ack | tuple[Game, Any]:
        """The guards of DESIGN §7 in their order, read from the database; an Ack if the
        client id was already recorded (the original answer)."""
        async with self._sessions() as session:
            match = await self._require(session, match_id)
            if seat is None:
                raise errors.NotAuthorized("Spectators cannot act.")
            original = await store.find_action(session, match_id, client_id)
            if original is not None:
                return original_ack(original, seat)
            check_playable(match, seen_version)
            game = game_named(match.game)
            version, state = await self._latest(session, game, match)
        if version != seen_version:  # a writer committed since the row was read
            raise errors.StaleVersion(version)
        return game, state

    async def position(self, match_id: str) -> Position:
        """The match now: what a hub renders for a socket that has just arrived."""
        async with self._sessions() as session:
            match = await self._require(session, match_id)
            game = game_named(match.game)
            version, state = await self._latest(session, game, match)
        return Position(match_id, game, version, match.status, state)

    async def progress(self, known: Position, told: int = 0) -> Progress:
        """Every step after ``known``, up to at least version ``told`` (the bus's word).

        Steps this worker committed come from memory; otherwise (or when ``told`` is not
        beyond ``known``: a heartbeat, a presence change, a clock's forfeit) the database
        is read and states are replayed from the cache or the engine.
        """
        held = self._recent.steps_after(known.match_id, known.version, told)
        head = self._recent.head(known.match_id)
        if held is not None and head is not None and told > known.version:
            return Progress(head.status, held)
        async with self._sessions() as session:
            match = await self._require(session, known.match_id)
            actions = await store.actions_between(session, known.match_id, known.version)
        steps: list[Step] = []
        state = known.state
        for row in actions:
            state = (
                self._cache.get(known.match_id, row.seq)
                or known.game.apply(state, row.seat, row.payload).state
            )
            events = tuple(Event.from_json(e) for e in row.events)
            steps.append(Step(row.seq, state, events))
        return Progress(match.status, tuple(steps))

    async def missed_events(self, match_id: str, after: int, upto: int) -> list[Event]:
        """The full events of versions ``after+1 .. upto``, for a socket that reconnects."""
        async with self._sessions() as session:
            actions = await store.actions_between(session, match_id, after, upto)
        return [Event.from_json(e) for row in actions for e in row.events]

    # -- internals ---------------------------------------------------------------

    def _hash(self, secret: str) -> str:
        return hash_secret(self._pepper, secret)

    async def _require(self, session: AsyncSession, match_id: str) -> Match:
        match = await store.get_match(session, match_id)
        if match is None:
            raise errors.MatchNotFound()
        return match

    async def _latest(self, session: AsyncSession, game: Game, match: Match) -> tuple[int, Any]:
        """The newest state: from the cache at the row's version, else from the snapshot."""
        cached = self._cache.get(match.id, match.version)
        if cached is not None:
            return match.version, cached
        version, snapshot = await store.get_snapshot(session, match.id)
        state = game.from_json(snapshot)
        self._cache.put(match.id, version, state)
        return version, state

    async def _commit(
        self,
        game: Game,
        match_id: str,
        read_version: int,
        seat: str,
        client_id: str,
        action: Mapping[str, Any],
        transition: Transition,
    ) -> Ack:
        """One transaction: the action row and the new snapshot, only if nobody moved first.

        The write transaction starts with the guarded UPDATE, so SQLite takes its write
        lock up front instead of upgrading a stale read snapshot.
        """
        outcome = game.outcome(transition.state)
        events = tuple(transition.events)
        row = Action(
            match_id=match_id,
            seq=read_version + 1,
            seat=seat,
            client_action_id=client_id,
            payload=dict(action),
            events=[event.to_json() for event in events],
        )
        snapshot = game.to_json(transition.state)
        stored_outcome = outcome.to_json() if outcome else None
        try:
            saved = await write_retrying(
                self._sessions,
                lambda session: store.save_step(
                    session, read_version, row, snapshot, stored_outcome
                ),
            )
        except IntegrityError:  # the same client id won a race (a resend on another socket)
            saved = False
        if not saved:
            self._recent.forget(match_id)
            return await self._after_conflict(match_id, seat, client_id)
        self._cache.put(match_id, row.seq, transition.state)
        status = MatchStatus.FINISHED if outcome else MatchStatus.ACTIVE
        step = Step(row.seq, transition.state, events)
        self._recent.record(match_id, Head(game.NAME, row.seq, status), step)
        metrics.stage("committed", match_id, row.seq)
        return Ack(client_id, row.seq)

    async def _after_conflict(self, match_id: str, seat: str, client_id: str) -> Ack:
        """Another writer won: either our own resend (ack it) or a real conflict (stale)."""
        async with self._sessions() as session:
            original = await store.find_action(session, match_id, client_id)
            if original is not None:
                return original_ack(original, seat)
            match = await self._require(session, match_id)
        check_playable(match, match.version)  # ended meanwhile (a clock's forfeit)
        raise errors.StaleVersion(match.version)
