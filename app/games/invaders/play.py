"""Action A, play a card (§5.1): zone, sacrifice (R-ZONE-4), costs, placement, on_play.

Order of one play: the cost is fixed when the play is declared (C-24 with the
plot reduction consumed), the card waits in limbo (public) while its owner
names the zone and any sacrifice and pays, then it is placed and its
``on_play`` resolves (a one-shot resolves and goes to the discard pile).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from app.games.base import Event
from app.games.invaders.board import (
    free_zones,
    has_free_slot,
    place,
    remove_from_hand,
    remove_from_limbo,
    to_discard,
)
from app.games.invaders.cards import N_ZONES, ZONE_IDS, category, clauses, is_permanent
from app.games.invaders.clauses import RunClause, clause_can_change
from app.games.invaders.costs import PayDiscard, can_pay
from app.games.invaders.decisions import JSON, Decision, cid, parse_cid, zone_action, zone_index
from app.games.invaders.drain import Drain
from app.games.invaders.heroes import hero_lost, sacrifice
from app.games.invaders.power import card_cost
from app.games.invaders.state import INVADER, MANKIND, SIDES, Board, Ctx, Draft, Task, task


def sacrificable(s: Board, zone: int) -> list[int]:
    """R-ZONE-4/6/7: only in a full Mankind column; the hero only with a replacement ready
    (Mankind plays only in his own turn, so R-HERO-8 never applies here)."""
    column = s.board[zone * 2 + MANKIND]
    if has_free_slot(s, zone, MANKIND):
        return []
    return [c for c in column if c != s.hero or s.hero_pile]


def play_zones(s: Board, side: int) -> list[int]:
    """R-ZONE-3 / G-11: zones with a free slot; Mankind also full zones he may sacrifice in."""
    zones = free_zones(s, side)
    if side == MANKIND:
        zones += [z for z in range(N_ZONES) if z not in zones and sacrificable(s, z)]
    return sorted(zones)


@cache
def _check_ctx(side: int, type_id: str) -> Ctx:
    """Context for a one-shot's C-2 test: the card is not in play, so its own id cannot
    matter to any filter and one context per (side, type) serves every copy."""
    return Ctx(side, -1, type_id, -1, category(type_id))


def play_problem(s: Board, side: int, c: int, zones_ok: bool | None = None) -> str | None:
    """Why hand card ``c`` cannot be played now (an IllegalAction code), or None.

    ``zones_ok`` may carry a precomputed ``bool(play_zones(s, side))``.
    """
    t = s.types[c]
    discard, drain = card_cost(s, c)
    if not can_pay(s, side, discard, drain, hand_excluded=1):
        return "cost_unpayable"
    if is_permanent(t):
        ok = bool(play_zones(s, side)) if zones_ok is None else zones_ok
        return None if ok else "no_free_slot"
    ctx = _check_ctx(side, t)
    if not any(clause_can_change(s, ctx, t, i) for i, _ in clauses(t, "on_play")):
        return "no_effect"  # C-2
    return None


def play_card(d: Draft, side: int, c: int, ev: list[Event]) -> None:
    t = d.types[c]
    discard, drain = card_cost(d, c)
    if side == INVADER and d.reduction:
        d.reduction = ""  # G-12: the reduction is spent on the next card played
    remove_from_hand(d, side, c)
    d.limbo = (*d.limbo, c)
    ev.append(
        Event(
            "card_played",
            {
                "seat": SIDES[side],
                "card": cid(c),
                "card_type": t,
                "discard": discard,
                "drain": drain,
            },
        )
    )
    pay = (PayDiscard(side, discard), Drain(side, drain, cost=True))
    if is_permanent(t):
        d.push(PlayZone(side, c, discard, drain))
    else:
        d.push(*pay, ResolveOneShot(side, c))


@task
@dataclass(frozen=True, slots=True)
class PlayZone(Decision):
    """The player names the zone for the permanent he is playing (R-ZONE-3)."""

    seat: int
    card: int
    discard: int
    drain: int

    kind: ClassVar[str] = "play_zone"
    bad_value_code: ClassVar[str] = "invalid_zone"

    def options(self, s: Board) -> list[JSON]:
        return [zone_action(z) for z in play_zones(s, self.seat)]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        z = zone_index(action["zone"])
        pay = (PayDiscard(self.seat, self.discard), Drain(self.seat, self.drain, cost=True))
        if has_free_slot(d, z, self.seat):
            d.push(*pay, Place(self.seat, self.card, z, -1))
        else:
            d.push(PlaySacrifice(self.seat, self.card, z, self.discard, self.drain))

    def info(self, s: Board) -> JSON:
        return {"card": cid(self.card), "card_type": s.types[self.card]}


@task
@dataclass(frozen=True, slots=True)
class PlaySacrifice(Decision):
    """R-ZONE-4: which card of the full column goes to the discard pile."""

    seat: int
    card: int
    zone: int
    discard: int
    drain: int

    kind: ClassVar[str] = "sacrifice"
    bad_value_code: ClassVar[str] = "invalid_target"

    def options(self, s: Board) -> list[JSON]:
        return [{"type": "sacrifice", "card": cid(c)} for c in sacrificable(s, self.zone)]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        sac = parse_cid(action["card"])
        pay = (PayDiscard(self.seat, self.discard), Drain(self.seat, self.drain, cost=True))
        d.push(*pay, Place(self.seat, self.card, self.zone, sac))

    def info(self, s: Board) -> JSON:
        return {
            "card": cid(self.card),
            "card_type": s.types[self.card],
            "zone": ZONE_IDS[self.zone],
        }


@task
@dataclass(frozen=True, slots=True)
class Place(Task):
    """Costs are paid: sacrifice (if any), place, replace a sacrificed hero, then on_play."""

    side: int
    card: int
    zone: int
    sacrifice: int

    def run(self, d: Draft, ev: list[Event]) -> None:
        hero_sacrificed = self.sacrifice >= 0 and self.sacrifice == d.hero
        if self.sacrifice >= 0:
            sacrifice(d, self.sacrifice, ev, replace_hero=False)
        remove_from_limbo(d, self.card)
        place(d, self.card, self.zone, self.side)
        t = d.types[self.card]
        ev.append(
            Event(
                "card_placed",
                {
                    "seat": SIDES[self.side],
                    "card": cid(self.card),
                    "card_type": t,
                    "zone": ZONE_IDS[self.zone],
                },
            )
        )
        ctx = Ctx(self.side, self.card, t, self.zone, category(t))
        on_play = [RunClause(ctx, t, i) for i, _ in clauses(t, "on_play")]
        d.push(*on_play)
        if hero_sacrificed:
            hero_lost(d, ev)


@task
@dataclass(frozen=True, slots=True)
class ResolveOneShot(Task):
    """R-CARD-2: carry out the text, then the card goes to its owner's discard pile."""

    side: int
    card: int

    def run(self, d: Draft, ev: list[Event]) -> None:
        t = d.types[self.card]
        ctx = Ctx(self.side, self.card, t, -1, category(t))
        d.push(*(RunClause(ctx, t, i) for i, _ in clauses(t, "on_play")), FinishOneShot(self.card))


@task
@dataclass(frozen=True, slots=True)
class FinishOneShot(Task):
    card: int

    def run(self, d: Draft, ev: list[Event]) -> None:
        remove_from_limbo(d, self.card)
        to_discard(d, self.card)
        ev.append(
            Event("one_shot_resolved", {"card": cid(self.card), "card_type": d.types[self.card]})
        )


__all__ = ["Task", "play_card", "play_problem"]
