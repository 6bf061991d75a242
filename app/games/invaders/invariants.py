"""Structural invariants of a State (conformance hook ``invariants``).

Card conservation: every card instance is in exactly one place, each side
keeps its 70 cards and Mankind his 11 heroes; plus a few sanity bounds.
"""

from __future__ import annotations

from collections import Counter

from app.games.invaders.cards import SLOTS_PER_SIDE, card
from app.games.invaders.catalog import CATALOG
from app.games.invaders.state import MANKIND, SIDES, State


def problems(s: State) -> list[str]:
    """Every broken invariant, as readable sentences (empty when all hold)."""
    return [*_conservation(s), *_board(s), *_piles(s), *_bounds(s)]


def _conservation(s: State) -> list[str]:
    out = []
    places = [
        *s.deck[0],
        *s.deck[1],
        *s.hand[0],
        *s.hand[1],
        *s.discard[0],
        *s.discard[1],
        *s.hero_pile,
        *s.limbo,
        *(c for column in s.board for c in column),
    ]
    count = Counter(places)
    dup = [c for c, n in count.items() if n > 1]
    if dup:
        out.append(f"cards in two places: {sorted(dup)}")
    if set(count) != set(range(len(s.types))):
        out.append("some card is nowhere")
    per_side = Counter(card(s.types[c]).side for c in count)
    expected = {
        "mankind": len(CATALOG.mankind_deck),
        "invader": len(CATALOG.invader_deck),
        "hero": len(CATALOG.heroes),
    }
    if dict(per_side) != expected:
        out.append(f"side totals {dict(per_side)} != {expected}")
    return out


def _board(s: State) -> list[str]:
    out = []
    for i, column in enumerate(s.board):
        if len(column) > SLOTS_PER_SIDE:
            out.append(f"column {i} holds {len(column)} cards")
        for c in column:
            if int(card(s.types[c]).side == "invader") != i % 2:
                out.append(f"c{c} on the wrong side")
    heroes = [c for column in s.board for c in column if card(s.types[c]).side == "hero"]
    expected = [s.hero] if s.hero >= 0 else []  # -1 while a replacement is being placed
    if heroes != expected:
        out.append(f"hero in play {heroes} != current {s.hero}")
    return out


def _piles(s: State) -> list[str]:
    out = []
    for i in (0, 1):
        for c in (*s.deck[i], *s.hand[i]):
            if card(s.types[c]).side != SIDES[i]:
                out.append(f"c{c} in the wrong player's deck or hand")
    for c in s.discard[MANKIND]:
        if card(s.types[c]).side == "invader":
            out.append(f"c{c} in Mankind's discard pile")
    return out


def _bounds(s: State) -> list[str]:
    out = []
    if not 0 <= s.plot <= 12:
        out.append(f"plot {s.plot}")
    if any(t < 0 for t in s.zone_tokens) or s.shield < 0:
        out.append("negative tokens or shield")
    if not s.revealed <= set(s.hand[0]) | set(s.hand[1]):
        out.append("a revealed card is not in a hand")
    return out
