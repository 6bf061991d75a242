"""The modelled surge: the push Mankind may expect from the Invader's next main phase.

Split from the evaluator because it is a model of its own (docs/balance.md §11–§12): it
derives the expected printed power of the strongest unit the Invader can afford from
public counts and the pool of Invader cards Mankind has not seen, with no fitted constant.
It runs on every evaluation, so it keeps two one-entry memos compared by identity.
"""

from __future__ import annotations

from app.games.invaders.catalog import CATALOG
from app.games.invaders.state import INVADER, State

_UNITS = {
    t: (ct.power, ct.discard, ct.drain)
    for t, ct in CATALOG.cards.items()
    if ct.side == "invader" and ct.power is not None
}
"""Invader permanents: (printed power, discard cost, drain cost)."""
_NO_UNIT = (0, 99, 99)
_TOP = 6  # the surge counts unit powers 1 … 6 (no printed Invader power is higher)
DRAW_PER_TURN = 2  # R-DRAW-1


def modelled_surge(s: State) -> float:
    """The Invader's expected push next main phase, as Mankind may know it: the expected
    printed power of the strongest unit he can afford in the hand he will hold.

    Derived from public data only: the Invader's hand size (+ the 2 cards of his draw
    phase if it is still ahead), the cards of his hand that are publicly known, his deck
    size (drain costs must be payable) and the multiset of Invader cards Mankind has not
    seen (his hidden hand + deck; in a determinized State exactly ``hand ∪ deck``, the
    same for every determinization). A unit of discard d needs d other hand cards. The
    hidden cards are a uniform draw from that pool, so P(best ≥ v) is hypergeometric;
    E[best] = Σ_v P(best ≥ v). No free constant.
    """
    hand, deck = s.hand[INVADER], s.deck[INVADER]
    draws = 0 if (s.active == INVADER and s.phase in ("main", "attack")) else DRAW_PER_TURN
    draws = min(draws, len(deck))
    key = (hand, deck, s.revealed, s.types, draws)
    last = _SURGE_MEMO[0]
    if last is not None and _same(last[0], key):
        return last[1]  # the step's options mostly share the Invader's cards
    out = _surge(s, hand, deck, draws)
    _SURGE_MEMO[0] = (key, out)
    return out


_SURGE_MEMO: list[tuple[tuple[object, ...], float] | None] = [None]
"""One-entry memo, compared by identity like power.py's: the key holds references to
immutable values, so an identity hit is exact."""


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return a[0] is b[0] and a[1] is b[1] and a[2] is b[2] and a[3] is b[3] and a[4] == b[4]


_DECK_MEMO: list[tuple[tuple[int, ...], tuple[str, ...], list[tuple[int, int, int]]] | None] = [
    None
]


def _deck_units(deck: tuple[int, ...], types: tuple[str, ...]) -> list[tuple[int, int, int]]:
    """The units of the Invader's deck as (power capped at ``_TOP``, discard, drain): his
    deck changes far less often than his hand, so the surge reads it from this memo."""
    last = _DECK_MEMO[0]
    if last is not None and last[0] is deck and last[1] is types:
        return last[2]
    out = []
    for c in deck:
        p, d, dr = _UNITS.get(types[c], _NO_UNIT)
        if p > 0:
            out.append((min(p, _TOP), d, dr))
    _DECK_MEMO[0] = (deck, types, out)
    return out


def _surge(s: State, hand: tuple[int, ...], deck: tuple[int, ...], draws: int) -> float:
    size = len(hand) + draws
    if size == 0:
        return 0.0
    payable = len(deck) - draws
    at_least = [0] * (_TOP + 2)  # at_least[v]: affordable unseen units of power >= v
    known_best = 0  # the strongest affordable unit among his publicly known hand cards
    n_known = 0
    types = s.types
    for p, d, dr in _deck_units(deck, types):
        if d < size and dr <= payable:
            at_least[p] += 1
    for c in hand:
        p, d, dr = _UNITS.get(types[c], _NO_UNIT)
        fits = p > 0 and d < size and dr <= payable
        if c in s.revealed:
            n_known += 1
            if fits:
                known_best = max(known_best, p)
        elif fits:
            at_least[min(p, _TOP)] += 1
    for v in range(_TOP - 1, 0, -1):
        at_least[v] += at_least[v + 1]
    hidden = size - n_known
    n = len(deck) + len(hand) - n_known  # the unseen pool
    out = 0.0
    for v in range(1, _TOP + 1):
        if known_best >= v:
            out += 1.0
            continue
        k = at_least[v]
        if k == 0:
            break
        miss = 1.0
        for i in range(min(hidden, n)):
            miss *= max(0.0, (n - k - i) / (n - i))
        out += 1.0 - miss
    return out
