"""Bot seats: a computer player that acts through the same ``MatchService.act`` as a human.

Why this shape:
- Same path as a human: every bot move goes through ``act`` (guards, optimistic
  concurrency, one transaction, then the bus), so the bot can never do what a
  socket could not, and spectators see its moves exactly like a human's.
- Never blocks the event loop: the search runs in a worker thread
  (``asyncio.to_thread``) or in an executor the caller provides (a process
  pool), with a budget; the loop only waits for the answer.
- Never sees what its seat may not see: the runner reduces the state to the
  seat's ``Knowledge`` (``observe``) on the loop, and only that value goes to
  the worker; the search itself works on determinizations of it.
- Persistent: a bot seat is an ordinary claimed seat whose display name is
  ``bot:<level>`` and whose secret nobody holds, so a restarted worker finds
  its bot matches again (``resume``) and the lobby shows who plays.

Wiring (app/main.py, owned by the lead)::

    bots = BotRunner(service)
    bots.install(bus)            # after bus.subscribe(hub.on_version)
    await bots.resume()          # after await bus.start()
    clocks = ClockKeeper(..., bot_claimer=bots.claim_abandoned)
    ...
    await bots.close()           # on shutdown, before bus.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import select

from app.db.models import Match, MatchClock, MatchStatus, Seat
from app.games.invaders import bots as invaders_bots
from app.matches import errors

if TYPE_CHECKING:
    from app.matches.service import MatchService

log = logging.getLogger(__name__)

BOT_NAME_PREFIX = "bot:"
BOT_GAMES: dict[str, tuple[str, ...]] = {"invaders": tuple(invaders_bots.LEVELS)}
"""Games that have bots, and their levels."""
ABANDONED_SEAT_LEVEL = "heuristic"
"""The level that takes over a seat abandoned under ``on_abandon: "bot"`` (clocks.py)."""


def bot_seat_name(level: str) -> str:
    return f"{BOT_NAME_PREFIX}{level}"


def bot_level(display_name: str | None) -> str | None:
    """The level of a bot seat from its display name, or None for a human seat."""
    if display_name and display_name.startswith(BOT_NAME_PREFIX):
        return display_name.removeprefix(BOT_NAME_PREFIX)
    return None


def check_bot(game: str, level: str) -> None:
    """Refuse a bot the game does not have (the same code as other bad match options)."""
    levels = BOT_GAMES.get(game)
    if levels is None:
        raise errors.IllegalMove("bad_options", f"{game} has no bot")
    if level not in levels:
        raise errors.IllegalMove("bad_options", f"bot level must be one of {list(levels)}")


@dataclass(frozen=True)
class BotSettings:
    """How a bot behaves: a human-like pause before each move and a search budget."""

    delay_seconds: float = 0.6  # before the bot's first move after the opponent's
    followup_delay_seconds: float = 0.2  # between the bot's own consecutive decisions
    budget_seconds: float = 1.0
    budget_iterations: int = 200


class Bus(Protocol):
    def subscribe(self, listener: Callable[[str, int], None]) -> None: ...


def decide(knowledge: invaders_bots.Knowledge, level: str, seed: int, budget: Any) -> dict:  # type: ignore[type-arg]
    """The pure computation, run off the event loop (a thread or another process)."""
    return invaders_bots.choose(knowledge, knowledge.seat, random.Random(seed), budget, level)


class BotRunner:
    """Plays every bot seat of the matches this worker adopted, one task per match."""

    def __init__(
        self,
        service: MatchService,
        settings: BotSettings | None = None,
        executor: Executor | None = None,
    ) -> None:
        self._service = service
        self._settings = settings or BotSettings()
        self._executor = executor
        self._matches: dict[str, dict[str, str]] = {}  # match id -> {seat: level}
        self._wake: dict[str, asyncio.Event] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}

    # -- wiring ------------------------------------------------------------------

    def install(self, bus: Bus) -> None:
        """Hear every committed version, and learn of bot seats the service creates."""
        bus.subscribe(self.on_version)
        self._service.bot_seated = self.adopt

    async def resume(self) -> None:
        """After a restart: adopt every active match that has a bot seat."""
        async with self._service.sessions() as session:
            query = (
                select(Seat.match_id, Seat.seat, Seat.display_name)
                .join(Match, Match.id == Seat.match_id)
                .where(
                    Match.status == MatchStatus.ACTIVE,
                    Seat.display_name.like(f"{BOT_NAME_PREFIX}%"),
                )
            )
            rows = (await session.execute(query)).all()
        found: dict[str, dict[str, str]] = {}
        for match_id, seat, name in rows:
            level = bot_level(name)
            if level is not None:
                found.setdefault(match_id, {})[seat] = level
        async with self._service.sessions() as session:  # seats handed over by the clocks
            handed = (
                select(MatchClock.match_id, MatchClock.bot_seats, Match.game)
                .join(Match, Match.id == MatchClock.match_id)
                .where(Match.status == MatchStatus.ACTIVE)
            )
            for match_id, abandoned, game in (await session.execute(handed)).all():
                if game in BOT_GAMES:
                    for seat in abandoned or []:
                        found.setdefault(match_id, {}).setdefault(seat, ABANDONED_SEAT_LEVEL)
        for match_id, bot_seats in found.items():
            self.adopt(match_id, bot_seats)

    async def claim_abandoned(self, match_id: str, seat: str) -> bool:
        """The clock keeper's ``BotClaimer``: play an abandoned seat if the game has bots."""
        position = await self._service.position(match_id)
        if position.game.NAME not in BOT_GAMES:
            return False
        self.adopt(match_id, {**self._matches.get(match_id, {}), seat: ABANDONED_SEAT_LEVEL})
        return True

    async def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()

    # -- events ------------------------------------------------------------------

    def adopt(self, match_id: str, seats: Mapping[str, str]) -> None:
        """Play ``seats`` ({seat: level}) of this match from now on."""
        self._matches[match_id] = dict(seats)
        self._poke(match_id)

    def on_version(self, match_id: str, _version: int) -> None:
        """Bus listener (must not block): wake the match's bot if it has one."""
        if match_id in self._matches:
            self._poke(match_id)

    def playing(self) -> list[str]:
        return list(self._matches)

    # -- the loop of one match ---------------------------------------------------

    def _poke(self, match_id: str) -> None:
        self._wake.setdefault(match_id, asyncio.Event()).set()
        task = self._tasks.get(match_id)
        if task is None or task.done():
            self._tasks[match_id] = asyncio.create_task(
                self._play(match_id), name=f"bot-{match_id}"
            )

    async def _play(self, match_id: str) -> None:
        wake = self._wake[match_id]
        try:
            while match_id in self._matches:
                wake.clear()
                if not await self._turn(match_id):
                    break
                if not wake.is_set():
                    await wake.wait()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot of match %s stopped", match_id)
        finally:
            if self._tasks.get(match_id) is asyncio.current_task():
                self._tasks.pop(match_id, None)

    async def _turn(self, match_id: str) -> bool:
        """Make every move the bot owes now; False once the match is over."""
        delay = self._settings.delay_seconds
        while True:
            position = await self._service.position(match_id)
            if position.status != MatchStatus.ACTIVE:
                if position.status != MatchStatus.LOBBY:
                    self._matches.pop(match_id, None)
                    self._wake.pop(match_id, None)
                    return False
                return True
            seats = self._matches.get(match_id, {})
            owing = [s for s in position.game.active_seats(position.state) if s in seats]
            if not owing:
                return True
            seat = owing[0]
            knowledge = invaders_bots.observe(position.state, seat)  # all the worker gets
            await asyncio.sleep(delay)
            action = await self._think(knowledge, seats[seat], position.version)
            delay = self._settings.followup_delay_seconds
            try:
                await self._service.act(match_id, seat, str(uuid.uuid4()), position.version, action)
            except (errors.StaleVersion, errors.NotYourDecision):
                continue  # someone moved first (a clock, another worker): look again
            except (errors.MatchFinished, errors.MatchNotActive):
                continue

    async def _think(self, knowledge: invaders_bots.Knowledge, level: str, version: int) -> dict:  # type: ignore[type-arg]
        s = self._settings
        budget = invaders_bots.Budget(s.budget_iterations, s.budget_seconds)
        seed = random.getrandbits(62) ^ version
        if self._executor is not None:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(
                self._executor, decide, knowledge, level, seed, budget
            )
        return await asyncio.to_thread(decide, knowledge, level, seed, budget)
