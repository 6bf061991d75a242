"""Running a clause: its effects resolve left to right, each completely (§1.1).

The primitives register themselves in ``PRIMITIVES`` (effects*.py), so this
module knows no effect by name and card behaviour is composed from data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.games.base import Event
from app.games.invaders.board import zone_of
from app.games.invaders.cards import clause_at, effect_at
from app.games.invaders.formal import Effect
from app.games.invaders.state import Board, Ctx, Draft, Task, task


@dataclass(frozen=True, slots=True)
class Ref:
    """Where an effect is printed: source type, clause index, effect path."""

    type_id: str
    clause: int
    path: tuple[int, ...]

    @property
    def effect(self) -> Effect:
        return effect_at(self.type_id, self.clause, self.path)


Primitive = Callable[[Draft, Ctx, Ref, list[Event]], None]
CanChange = Callable[[Board, Ctx, Effect], bool]

PRIMITIVES: dict[str, Primitive] = {}
CAN_CHANGE: dict[str, CanChange] = {}


def primitive(name: str, can_change: CanChange) -> Callable[[Primitive], Primitive]:
    """Register a one-time primitive and its C-2 "would change something" test."""

    def wrap(fn: Primitive) -> Primitive:
        PRIMITIVES[name] = fn
        CAN_CHANGE[name] = can_change
        return fn

    return wrap


def can_change(s: Board, ctx: Ctx, eff: Effect) -> bool:
    return CAN_CHANGE[eff.name](s, ctx, eff)


def clause_can_change(s: Board, ctx: Ctx, type_id: str, clause: int) -> bool:
    """C-2 / §1.7.1: at least one effect of the clause would change the game now."""
    return any(CAN_CHANGE[e.name](s, ctx, e) for e in clause_at(type_id, clause).effects)


@task
@dataclass(frozen=True, slots=True)
class RunClause(Task):
    """Resolve effect ``next`` of a clause, then the rest.

    ``live``: a trigger whose source must still be in play and active (C-8)
    when it starts resolving (start_of_turn, on_zone_resolved, unique).
    """

    ctx: Ctx
    type_id: str
    clause: int
    next: int = 0
    live: bool = False

    def run(self, d: Draft, ev: list[Event]) -> None:
        ctx = self.ctx
        if self.next == 0 and self.live:
            if ctx.source == d.hero and d.hero_turned:
                return
            where = zone_of(d, ctx.source)
            if where < 0:
                return
            ctx = Ctx(ctx.controller, ctx.source, ctx.source_type, where, ctx.by)
        effects = clause_at(self.type_id, self.clause).effects
        if self.next >= len(effects):
            return
        rest = RunClause(ctx, self.type_id, self.clause, self.next + 1)
        d.push(ResolveEffect(ctx, Ref(self.type_id, self.clause, (self.next,))), rest)


@task
@dataclass(frozen=True, slots=True)
class ResolveEffect(Task):
    ctx: Ctx
    ref: Ref

    def run(self, d: Draft, ev: list[Event]) -> None:
        PRIMITIVES[self.ref.effect.name](d, self.ctx, self.ref, ev)
