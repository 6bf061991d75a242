"""Costs K-1 … K-5: payability checks and the payment tasks (spec §5.1, C-20, C-25).

Payment happens in full after the checks, one choice at a time: the payer picks
each discarded card; drains flip one card at a time (wards may replace them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.games.base import Event
from app.games.invaders.board import remove_from_hand, to_discard, total_wards
from app.games.invaders.decisions import JSON, Decision, cid, parse_cid
from app.games.invaders.formal import Requirement
from app.games.invaders.state import MANKIND, SIDES, Board, Draft, Task, task


def can_pay(s: Board, side: int, discard: int, drain: int, hand_excluded: int = 0) -> bool:
    """Spec §5.1 [P]: hand (minus the card played) ≥ discard; deck (+ wards, C-20) ≥ drain."""
    if len(s.hand[side]) - hand_excluded < discard:
        return False
    reserve = len(s.deck[side]) + (total_wards(s) if side == MANKIND else 0)
    return reserve >= drain


def requirement_costs(reqs: tuple[Requirement, ...]) -> tuple[int, int, bool]:
    """(discard, drain, destroy_self) printed in an activated/enable bracket."""
    discard = sum(r.n for r in reqs if r.kind == "discard")
    drain = sum(r.n for r in reqs if r.kind == "drain")
    return discard, drain, any(r.kind == "destroy_self" for r in reqs)


def requirements_met(s: Board, side: int, reqs: tuple[Requirement, ...]) -> bool:
    """K-4 / K-5, checked when the strategy is enabled (C-37)."""
    for r in reqs:
        if r.kind == "plot<=" and s.plot > r.n:
            return False
        if r.kind == "deck<=" and len(s.deck[side]) > r.n:
            return False
    return True


@task
@dataclass(frozen=True, slots=True)
class PayDiscard(Task):
    """Discard ``n`` cards from hand; automatic when the hand leaves no choice."""

    side: int
    n: int
    why: str = "cost"

    def run(self, d: Draft, ev: list[Event]) -> None:
        hand = d.hand[self.side]
        if self.n <= 0 or not hand:
            return
        if len(hand) <= self.n:
            for c in hand:
                discard_from_hand(d, self.side, c, self.why, ev)
            return
        d.push(DiscardChoice(self.side, self.n, self.why))


def discard_from_hand(d: Draft, side: int, c: int, why: str, ev: list[Event]) -> None:
    remove_from_hand(d, side, c)
    to_discard(d, c)
    ev.append(
        Event(
            "card_discarded",
            {"seat": SIDES[side], "card": cid(c), "card_type": d.types[c], "why": why},
        )
    )


@task
@dataclass(frozen=True, slots=True)
class DiscardChoice(Decision):
    """The payer picks the next card to discard (T-2: he keeps the ones he prefers)."""

    seat: int
    n: int
    why: str

    kind: ClassVar[str] = "discard"
    bad_value_code: ClassVar[str] = "card_not_in_hand"

    def options(self, s: Board) -> list[JSON]:
        return [{"type": "discard", "card": cid(c)} for c in s.hand[self.seat]]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        discard_from_hand(d, self.seat, parse_cid(action["card"]), self.why, ev)
        if self.n > 1:
            d.push(PayDiscard(self.seat, self.n - 1, self.why))

    def info(self, s: Board) -> JSON:
        return {"remaining": self.n, "why": self.why}
