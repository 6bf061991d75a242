"""Player primitives: drain, draw, discard, shield, ward_tokens, choose_one, extra_attack."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.games.base import Event
from app.games.invaders import rng
from app.games.invaders.attack import ResolveZone
from app.games.invaders.board import remove_from_hand, to_discard, zone_of
from app.games.invaders.clauses import Ref, ResolveEffect, can_change, primitive
from app.games.invaders.costs import DiscardChoice
from app.games.invaders.decisions import JSON, Decision, cid
from app.games.invaders.drain import Drain, Draw
from app.games.invaders.state import INVADER, SIDES, Board, Ctx, Draft, task


def _side(name: str | None) -> int:
    return SIDES.index(name or "mankind")


@primitive("drain", lambda s, ctx, eff: (eff.amount or 0) > 0)
def drain(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """E-4: an Invader source's drain of Mankind may be shielded and sets the plot flag."""
    eff = ref.effect
    d.push(Drain(_side(eff.player), eff.amount or 0, invader_caused=ctx.controller == INVADER))


@primitive("draw", lambda s, ctx, eff: len(s.deck[_side(eff.player)]) >= (eff.amount or 0))
def draw(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """E-5; C-26: only offered when the deck holds the cards (can_change)."""
    eff = ref.effect
    d.push(Draw(_side(eff.player), eff.amount or 0))


@primitive("discard", lambda s, ctx, eff: bool(s.hand[_side(eff.player)]))
def discard(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """E-6: ``random`` uses the match RNG; ``chosen`` lets the player pick one at a time."""
    eff = ref.effect
    side = _side(eff.player)
    n = min(eff.amount or 0, len(d.hand[side]))
    if eff.mode != "random":
        d.push(DiscardChoice(side, n, "effect"))
        return
    for _ in range(n):
        hand = d.hand[side]
        d.rng, k = rng.below(d.rng, len(hand))
        c = hand[k]
        remove_from_hand(d, side, c)
        to_discard(d, c)
        ev.append(
            Event(
                "card_discarded",
                {"seat": SIDES[side], "card": cid(c), "card_type": d.types[c], "why": "random"},
            )
        )


@primitive("shield", lambda s, ctx, eff: (eff.amount or 0) > 0)
def shield(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """E-12: points in Mankind's pool; it empties at the end of every Invader turn (C-19)."""
    d.shield += ref.effect.amount or 0
    ev.append(Event("shield_gained", {"amount": ref.effect.amount, "pool": d.shield}))


@primitive("ward_tokens", lambda s, ctx, eff: zone_of(s, ctx.source) >= 0)
def ward_tokens(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """E-13: ward tokens on the source; they go back to the supply when it leaves play."""
    if zone_of(d, ctx.source) < 0:
        return
    n = ref.effect.amount or 0
    d.wards = {**d.wards, ctx.source: d.wards.get(ctx.source, 0) + n}
    ev.append(Event("wards_placed", {"card": cid(ctx.source), "amount": n}))


def _can_choose_one(s: Board, ctx: Ctx, eff: object) -> bool:
    return any(can_change(s, ctx, b) for b in eff.branches)  # type: ignore[attr-defined]


@primitive("choose_one", _can_choose_one)
def choose_one(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    d.push(ChooseBranch(ctx.controller, ctx, ref))


@task
@dataclass(frozen=True, slots=True)
class ChooseBranch(Decision):
    """E-16: the controller picks a branch that can change something (C-40)."""

    seat: int
    ctx: Ctx
    ref: Ref

    kind: ClassVar[str] = "choose_branch"
    bad_value_code: ClassVar[str] = "invalid_choice"

    def options(self, s: Board) -> list[JSON]:
        branches = self.ref.effect.branches
        return [
            {"type": "choose_branch", "branch": i}
            for i, b in enumerate(branches)
            if can_change(s, self.ctx, b)
        ]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        i = int(action["branch"])
        ref = Ref(self.ref.type_id, self.ref.clause, (*self.ref.path, i))
        d.push(ResolveEffect(self.ctx, ref))

    def info(self, s: Board) -> JSON:
        return {
            "branches": [b.name for b in self.ref.effect.branches],
            "source_type": self.ctx.source_type,
        }


@primitive("extra_attack", lambda s, ctx, eff: ctx.zone >= 0)
def extra_attack(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """U-1: step A for the source's current zone only (C-22, C-31)."""
    if ctx.zone >= 0:
        d.push(ResolveZone(ctx.zone, extra=True))
