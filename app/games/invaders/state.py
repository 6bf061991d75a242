"""The whole match as one frozen value, plus the scratch draft ``apply`` edits.

Why a draft: a single decision can run dozens of atomic steps (flip a card,
check victory, fire a trigger). Rebuilding a 30-field frozen dataclass after
each step would dominate the run time, so ``apply`` copies the input State's
fields into a ``Draft`` (a plain object whose fields hold the *same immutable*
tuples, dicts-never-mutated-in-place and frozensets), reassigns fields as it goes,
and freezes once at the end. The input State is never touched, unchanged
fields are shared structurally, and the draft never escapes ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar

from app.games.base import Outcome

MANKIND, INVADER = 0, 1
SIDES = ("mankind", "invader")
PHASES = ("setup", "draw", "main", "attack", "end")


def side_index(seat: str) -> int:
    return SIDES.index(seat)


@dataclass(frozen=True, slots=True)
class Options:
    """Match options (G-1, G-2, G-3)."""

    zone_collapse_win: bool = False
    first_player: str = "mankind"
    opening_hand: int = 5


@dataclass(frozen=True, slots=True)
class Boost:
    """A temporary ±power on one card (E-10); ends in the clean-up of turn ``expires``."""

    card: int
    amount: int
    expires: int


@dataclass(frozen=True, slots=True)
class ZoneMod:
    """A temporary zone-power modifier (E-15). ``until`` is 'end_of_turn' or 'attack'."""

    zone: int
    amount: int
    until: str
    turn: int


@dataclass(frozen=True, slots=True)
class Ctx:
    """Who resolves an effect and from where (§1.1 controller/source/'this zone')."""

    controller: int
    source: int  # card instance, or -1 for a strategy / the Ops Centre
    source_type: str  # card type id or strategy id
    zone: int  # the source's zone (-1 if none)
    by: str  # source category for forbid: one_shot, invader_unit, ..., strategy, board


class Task:
    """A unit of pending work on the stack: automatic (``run``) or a decision.

    Concrete tasks are frozen dataclasses registered by name so snapshots can
    store the stack as data (no closures, no generators).
    """

    __slots__ = ()
    decision: ClassVar[bool] = False
    registry: ClassVar[dict[str, type[Task]]] = {}

    def run(self, d: Draft, ev: list[Any]) -> None:  # pragma: no cover - overridden
        raise NotImplementedError


def task(cls: type[Task]) -> type[Task]:
    """Register a task class by name (for serialize.py)."""
    Task.registry[cls.__name__] = cls
    return cls


@dataclass(frozen=True)
class State:
    """Everything about a match. Card instances are ints; ``types[i]`` is i's card type."""

    seed: int
    options: Options
    rng: int
    types: tuple[str, ...]
    deck: tuple[tuple[int, ...], tuple[int, ...]]  # per side; top = last
    hand: tuple[tuple[int, ...], tuple[int, ...]]
    discard: tuple[tuple[int, ...], tuple[int, ...]]  # top = last
    board: tuple[tuple[int, ...], ...]  # zone * 2 + side -> cards in that column
    hero_pile: tuple[int, ...]  # top = last
    hero: int  # current hero instance, -1 if none
    hero_turned: bool
    limbo: tuple[int, ...]  # cards being played or heroes being placed (public)
    revealed: frozenset[int]  # hand cards whose identity is public (returned, recovered)
    plus_tokens: dict[int, int]  # +1 power tokens per card in play (never mutated)
    wards: dict[int, int]  # ward tokens per card in play (never mutated)
    boosts: tuple[Boost, ...]
    used: frozenset[Any]  # card instances / 'ops_centre' used this turn
    zone_tokens: tuple[int, ...]  # -1 tokens per zone
    zone_mods: tuple[ZoneMod, ...]
    plot: int
    enabled: frozenset[str]  # enabled strategies
    turn: int  # 1-based turn counter (0 during setup)
    active: int  # side index
    phase: str
    plot_action_used: bool
    reduction: str  # "", "discard" or "drain": pending plot-action reduction (G-12)
    drain_inflicted: bool  # drainInflictedThisInvaderTurn (§8.2)
    shield: int  # Mankind's shield pool (E-12, C-19)
    stack: tuple[Task, ...]  # pending work, top = last
    outcome: Outcome | None
    decisions: int  # number of decisions applied so far (stats, bench)


FIELD_NAMES = tuple(f.name for f in fields(State))


class Draft:
    """Mutable shell over a State's immutable field values; see the module doc.

    It shares the State's field values (never copies the tuples) and is
    turned back into a State in one step, which keeps ``apply`` cheap.
    """

    if TYPE_CHECKING:
        seed: int
        options: Options
        rng: int
        types: tuple[str, ...]
        deck: tuple[tuple[int, ...], tuple[int, ...]]  # per side; top = last
        hand: tuple[tuple[int, ...], tuple[int, ...]]
        discard: tuple[tuple[int, ...], tuple[int, ...]]  # top = last
        board: tuple[tuple[int, ...], ...]  # zone * 2 + side -> cards in that column
        hero_pile: tuple[int, ...]  # top = last
        hero: int  # current hero instance, -1 if none
        hero_turned: bool
        limbo: tuple[int, ...]  # cards being played or heroes being placed (public)
        revealed: frozenset[int]  # hand cards whose identity is public (returned, recovered)
        plus_tokens: dict[int, int]  # +1 power tokens per card in play (never mutated)
        wards: dict[int, int]  # ward tokens per card in play (never mutated)
        boosts: tuple[Boost, ...]
        used: frozenset[Any]  # card instances / 'ops_centre' used this turn
        zone_tokens: tuple[int, ...]  # -1 tokens per zone
        zone_mods: tuple[ZoneMod, ...]
        plot: int
        enabled: frozenset[str]  # enabled strategies
        turn: int  # 1-based turn counter (0 during setup)
        active: int  # side index
        phase: str
        plot_action_used: bool
        reduction: str  # "", "discard" or "drain": pending plot-action reduction (G-12)
        drain_inflicted: bool  # drainInflictedThisInvaderTurn (§8.2)
        shield: int  # Mankind's shield pool (E-12, C-19)
        stack: tuple[Task, ...]  # pending work, top = last
        outcome: Outcome | None
        decisions: int  # number of decisions applied so far (stats, bench)

    def __init__(self, state: State) -> None:
        self.__dict__.update(state.__dict__)

    def freeze(self) -> State:
        """A new State with the draft's values, without re-running field-by-field
        initialisation (State is frozen: its __dict__ is set once, here)."""
        new = object.__new__(State)
        object.__setattr__(new, "__dict__", dict(self.__dict__))
        return new

    def push(self, *tasks: Task) -> None:
        """Push tasks so that the FIRST argument runs first (it ends on top)."""
        self.stack = self.stack + tuple(reversed(tasks))


Board = State | Draft
"""Read-only helpers accept either the frozen State or a Draft."""
