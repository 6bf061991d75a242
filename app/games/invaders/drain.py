"""Draining and drawing, one card at a time, with shields (C-19) and wards (C-20).

Each step flips or draws exactly one card, so victory is checked per card
(R-WIN-0) and Mankind may decide on a ward before each card.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from app.games.base import Event
from app.games.invaders.board import set_side, to_discard, total_wards
from app.games.invaders.decisions import JSON, Decision, cid
from app.games.invaders.state import INVADER, MANKIND, SIDES, Board, Draft, Task, task
from app.games.invaders.victory import deck_out


@task
@dataclass(frozen=True, slots=True)
class Drain(Task):
    """``side`` flips ``n`` more cards (E-4 / K-2 / step A).

    ``invader_caused``: an Invader source (shields apply, the plot flag may be set).
    ``cost``: a drain cost (never shielded, never W3/W6 since payable in full).
    ``answer``: Mankind's ward decision for the next card ('' = not asked yet).
    """

    side: int
    n: int
    invader_caused: bool = False
    cost: bool = False
    answer: str = ""

    def next(self) -> Drain:
        """The same drain with one card fewer to go (cheaper than dataclasses.replace)."""
        return Drain(self.side, self.n - 1, self.invader_caused, self.cost, "")

    def run(self, d: Draft, ev: list[Event]) -> None:
        if self.n <= 0:
            return
        if self.side == MANKIND and not self.answer:
            if self.invader_caused and not self.cost and d.shield > 0:
                d.shield -= 1
                ev.append(Event("shield_used", {"remaining": d.shield}))
                d.push(self.next())
                return
            if d.wards:  # carriers with 0 wards are removed, so non-empty means > 0
                forced = self.cost and len(d.deck[MANKIND]) < self.n
                d.push(WardChoice(MANKIND, "drain", self.n, forced), self)
                return
        if self.answer == "spend":
            spend_ward(d, ev, "drain")
            d.push(self.next())
            return
        deck = d.deck[self.side]
        if not deck:
            deck_out(d, self.side, "drain", self.invader_caused, ev)
            return
        c = deck[-1]
        d.deck = set_side(d.deck, self.side, deck[:-1])
        to_discard(d, c)
        if self.side == MANKIND and self.invader_caused and d.active == INVADER:
            d.drain_inflicted = True
        ev.append(
            Event(
                "card_drained",
                {
                    "seat": SIDES[self.side],
                    "card": cid(c),
                    "card_type": d.types[c],
                    "cost": self.cost,
                },
            )
        )
        if self.n > 1:
            d.push(self.next())


@task
@dataclass(frozen=True, slots=True)
class Draw(Task):
    """``side`` draws ``n`` more cards (R-DRAW-1, E-5); ``opening`` hands skip wards."""

    side: int
    n: int
    opening: bool = False
    answer: str = ""

    def next(self) -> Draw:
        return Draw(self.side, self.n - 1, self.opening, "")

    def run(self, d: Draft, ev: list[Event]) -> None:
        if self.n <= 0:
            return
        if self.side == MANKIND and not self.opening and not self.answer and d.wards:
            d.push(WardChoice(MANKIND, "draw", self.n, False), self)
            return
        if self.answer == "spend":
            spend_ward(d, ev, "draw")
            d.push(self.next())
            return
        deck = d.deck[self.side]
        if not deck:
            deck_out(d, self.side, "draw", False, ev)
            return
        c = deck[-1]
        d.deck = set_side(d.deck, self.side, deck[:-1])
        d.hand = set_side(d.hand, self.side, d.hand[self.side] + (c,))
        seat = SIDES[self.side]
        ev.append(
            Event(
                "card_drawn",
                {"seat": seat, "card": cid(c), "card_type": d.types[c]},
                private_to=seat,
            )
        )
        if self.n > 1:
            d.push(self.next())


def spend_ward(d: Draft, ev: list[Event], instead_of: str) -> None:
    """Remove one ward token (from the lowest-numbered carrier) to replace one card."""
    holder = min(c for c, n in d.wards.items() if n > 0)
    left = d.wards[holder] - 1
    d.wards = (
        {**d.wards, holder: left} if left else {k: v for k, v in d.wards.items() if k != holder}
    )
    ev.append(
        Event("ward_spent", {"card": cid(holder), "instead_of": instead_of, "remaining": left})
    )


@task
@dataclass(frozen=True, slots=True)
class WardChoice(Decision):
    """Mankind decides whether one ward token replaces the next card (C-20)."""

    seat: int
    what: str  # "drain" | "draw"
    remaining: int
    forced: bool  # a drain cost the deck alone cannot pay: the ward must be spent

    kind: ClassVar[str] = "ward"

    def options(self, s: Board) -> list[JSON]:
        spend: JSON = {"type": "spend_ward"}
        return [spend] if self.forced else [spend, {"type": "decline_ward"}]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        below = d.stack[-1]
        answer = "spend" if action["type"] == "spend_ward" else "decline"
        d.stack = (*d.stack[:-1], replace(below, answer=answer))  # type: ignore[type-var]

    def info(self, s: Board) -> JSON:
        return {"what": self.what, "remaining": self.remaining, "wards": total_wards(s)}
