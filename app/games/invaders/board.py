"""Where cards are: columns of the three zones, slots, and moving cards in/out of play.

Columns are indexed ``zone * 2 + side`` (R-ZONE-2: 4 slots per side per zone).
"""

from __future__ import annotations

from collections.abc import Iterator

from app.games.invaders.cards import N_ZONES, SLOTS_PER_SIDE, owner_of_type
from app.games.invaders.state import Board, Draft


def col(zone: int, side: int) -> int:
    return zone * 2 + side


def owner(s: Board, c: int) -> int:
    """Side index that owns card instance ``c`` (heroes belong to Mankind)."""
    return owner_of_type(s.types[c])


def zone_of(s: Board, c: int) -> int:
    """The zone card ``c`` occupies, or -1 if it is not in play."""
    for i, column in enumerate(s.board):
        if c in column:
            return i // 2
    return -1


def in_play(s: Board) -> Iterator[tuple[int, int, int]]:
    """Every card in play as (card, zone, side), in board order (G-17)."""
    for i, column in enumerate(s.board):
        for c in column:
            yield c, i // 2, i % 2


def has_free_slot(s: Board, zone: int, side: int) -> bool:
    return len(s.board[col(zone, side)]) < SLOTS_PER_SIDE


def free_zones(s: Board, side: int, exclude: int = -1) -> list[int]:
    return [z for z in range(N_ZONES) if z != exclude and has_free_slot(s, z, side)]


def place(d: Draft, c: int, zone: int, side: int) -> None:
    """Put card ``c`` into a free slot of ``zone`` on ``side``."""
    i = col(zone, side)
    d.board = (*d.board[:i], d.board[i] + (c,), *d.board[i + 1 :])


def lift(d: Draft, c: int) -> int:
    """Take ``c`` out of its column (no bookkeeping); return the zone it was in."""
    for i, column in enumerate(d.board):
        if c in column:
            d.board = (*d.board[:i], tuple(x for x in column if x != c), *d.board[i + 1 :])
            return i // 2
    return -1


def leave_play(d: Draft, c: int) -> int:
    """Remove ``c`` from play: tokens, wards and boosts go back to the supply (G-23).

    Returns the zone it left. The caller decides where the card goes and handles
    the hero replacement (heroes.py).
    """
    zone = lift(d, c)
    if c in d.plus_tokens:
        d.plus_tokens = {k: v for k, v in d.plus_tokens.items() if k != c}
    if c in d.wards:
        d.wards = {k: v for k, v in d.wards.items() if k != c}
    if any(b.card == c for b in d.boosts):
        d.boosts = tuple(b for b in d.boosts if b.card != c)
    if c in d.used:
        d.used = d.used - {c}
    if c == d.hero:
        d.hero = -1
        d.hero_turned = False
    return zone


def to_discard(d: Draft, c: int) -> None:
    side = owner(d, c)
    piles = list(d.discard)
    piles[side] = piles[side] + (c,)
    d.discard = (piles[0], piles[1])


def set_side(
    pair: tuple[tuple[int, ...], tuple[int, ...]], side: int, value: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (value, pair[1]) if side == 0 else (pair[0], value)


def remove_from_hand(d: Draft, side: int, c: int) -> None:
    d.hand = set_side(d.hand, side, tuple(x for x in d.hand[side] if x != c))
    if c in d.revealed:
        d.revealed = d.revealed - {c}


def reveal_in_hand(d: Draft, side: int, c: int) -> None:
    """A card taken into a hand from a public place: its identity stays public knowledge."""
    add_to_hand(d, side, c)
    d.revealed = d.revealed | {c}


def add_to_hand(d: Draft, side: int, c: int) -> None:
    d.hand = set_side(d.hand, side, d.hand[side] + (c,))


def remove_from_limbo(d: Draft, c: int) -> None:
    d.limbo = tuple(x for x in d.limbo if x != c)


def total_wards(s: Board) -> int:
    return sum(s.wards.values())
