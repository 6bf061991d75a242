"""Heroes of the Resistance: entering, replacement and forced sacrifice (§9, G-6, G-7).

R-HERO-1: exactly one hero is always in play, so losing the hero immediately
reveals the next one, or ends the game if the pile is empty (W4, R-HERO-5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.games.base import Event
from app.games.invaders.board import free_zones, in_play, leave_play, place, to_discard
from app.games.invaders.cards import clauses
from app.games.invaders.clauses import RunClause
from app.games.invaders.decisions import JSON, Decision, cid, zone_action, zone_index
from app.games.invaders.state import INVADER, MANKIND, Board, Ctx, Draft, Task, task
from app.games.invaders.victory import Reason, win


def hero_lost(d: Draft, ev: list[Event]) -> None:
    """The current hero left play: replace it at once (G-7) or the Invader wins (W4)."""
    if not d.hero_pile:
        win(d, INVADER, Reason.LAST_HERO, ev)
    else:
        d.push(HeroEnter(True))


@task
@dataclass(frozen=True, slots=True)
class HeroEnter(Task):
    """Reveal the top hero; it enters upright at setup (G-6), turned as replacement (R-HERO-3)."""

    turned: bool

    def run(self, d: Draft, ev: list[Event]) -> None:
        hero = d.hero_pile[-1]
        d.hero_pile = d.hero_pile[:-1]
        d.limbo = (*d.limbo, hero)
        ev.append(Event("hero_revealed", {"card": cid(hero), "card_type": d.types[hero]}))
        if free_zones(d, MANKIND):
            d.push(HeroZone(MANKIND, hero, self.turned))
        else:
            d.push(ForcedSacrifice(MANKIND), HeroZone(MANKIND, hero, self.turned))


@task
@dataclass(frozen=True, slots=True)
class HeroZone(Decision):
    """Mankind names the zone for the arriving hero (any zone with a free slot)."""

    seat: int
    card: int
    turned: bool

    kind: ClassVar[str] = "place_hero"
    bad_value_code: ClassVar[str] = "invalid_zone"

    def options(self, s: Board) -> list[JSON]:
        return [zone_action(z) for z in free_zones(s, MANKIND)]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        z = zone_index(action["zone"])
        d.limbo = tuple(x for x in d.limbo if x != self.card)
        place(d, self.card, z, MANKIND)
        d.hero, d.hero_turned = self.card, self.turned
        ev.append(
            Event(
                "hero_placed",
                {
                    "card": cid(self.card),
                    "card_type": d.types[self.card],
                    "zone": action["zone"],
                    "turned": self.turned,
                },
            )
        )
        ctx = Ctx(MANKIND, self.card, d.types[self.card], z, "hero")
        d.push(
            *(
                RunClause(ctx, d.types[self.card], i)
                for i, _ in clauses(d.types[self.card], "on_play")
            )
        )

    def info(self, s: Board) -> JSON:
        return {"card": cid(self.card), "card_type": s.types[self.card], "turned": self.turned}


@task
@dataclass(frozen=True, slots=True)
class ForcedSacrifice(Decision):
    """All 12 Mankind slots are full: sacrifice a non-hero to make room for the hero (G-7)."""

    seat: int

    kind: ClassVar[str] = "sacrifice_for_hero"
    bad_value_code: ClassVar[str] = "invalid_target"

    def options(self, s: Board) -> list[JSON]:
        return [
            {"type": "sacrifice", "card": cid(c)}
            for c, _z, side in in_play(s)
            if side == MANKIND and c != s.hero
        ]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        sacrifice(d, int(action["card"][1:]), ev)


def sacrifice(d: Draft, c: int, ev: list[Event], replace_hero: bool = True) -> None:
    """R-ZONE-4 / R-ZONE-7: to the discard pile, not a destruction (no on_destroyed)."""
    was_hero = c == d.hero and replace_hero
    leave_play(d, c)
    to_discard(d, c)
    ev.append(Event("card_sacrificed", {"card": cid(c), "card_type": d.types[c]}))
    if was_hero:
        hero_lost(d, ev)
