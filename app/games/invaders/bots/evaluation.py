"""Static evaluation of a position for one side, with a projection of the next attack.

Why a projection: the Invader sees Mankind's board and then picks where to push
(invaders-cards.md §3.1 pillar 3). A Mankind evaluator that scores only the
board as it stands leaves no margin and loses far more often (§3.6: −9 points
for a surprise of 2 instead of 3). So the evaluator resolves the coming attack
on the current board, and when the Invader still has a main phase before that
attack it adds a push to the Invader's best zone. The prototype added a fixed 3
(``surprise``); the shipped weights derive it from what Mankind may know
(``modelled_surge``, docs/balance.md §11–§12), as §3.6 asks: "the engine's bot for
Mankind must model the surge".

The score is from Mankind's point of view (positive = good for Mankind) and is
negated for the Invader. Each side has its own weights (§3.7: "each side has its
own evaluation weights"); ``scaled`` multiplies one shared weight for B-2.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from app.games.invaders.bots.surge import modelled_surge
from app.games.invaders.cards import (
    N_ZONES,
    STRATEGY_IDS,
    card,
    has_activated,
    owner_of_type,
)
from app.games.invaders.catalog import CATALOG
from app.games.invaders.power import all_powers, all_zone_totals
from app.games.invaders.state import INVADER, MANKIND, State

WIN = 1_000_000.0
FULL_DECK = 65  # cards in a deck after the opening hand
REACH = 3  # zone pressure counts a zone once the Invader is this close to breaking it


@dataclass(frozen=True)
class Weights:
    """Evaluation weights; units are roughly "one card in Mankind's deck"."""

    mankind_deck: float = 1.0  # per card left in Mankind's deck (after the projected drain)
    mankind_danger: float = 4.0  # × 10/(deck+1): the last cards are worth more
    invader_deck: float = 0.45  # per card left in the Invader's deck
    invader_danger: float = 3.0
    plot: float = 2.5  # × 10/(plot+0.5), steep near the skull
    mankind_hand: float = 0.9
    invader_hand: float = 0.8
    mankind_board: float = 0.45  # per point of Mankind power in play (future turns)
    invader_board: float = 0.45
    heroes: float = 0.1  # per hero left (pile + current): matters only near W4
    strategy: float = 2.0  # option value of a dormant strategy at the start (× game clock)
    pressure: float = 0.3  # per point of Invader power within ``REACH`` of breaking a zone
    engine: float = 1.0  # per permanent in play with an activated ability (future uses)
    surprise: float = 3.0  # the prototype's fixed push, read only with surge_model 0
    # Shape of the hand term, an experiment switched off in the shipped weights
    # (docs/balance.md §10: measured, not adopted). Not weights: B-2 scales the two hand
    # weights above. ``hand_ratio`` 1.0 is the flat per-card value; below 1, the i-th
    # card in a hand is worth ``hand_ratio ** (i - pivot)`` hand weights.
    hand_ratio: float = 1.0
    mankind_hand_pivot: float = 5.0
    invader_hand_pivot: float = 6.0
    hand_above: float = 0.0  # 1: cards beyond the pivot count 1 each (only the last cards gain)
    # The modelled surge (docs/balance.md §11, shipped since §12): 1 replaces the fixed
    # ``surprise`` by ``modelled_surge``, the Invader's expected best affordable unit next
    # main phase, derived from public counts and the unseen pool; 0 restores the fixed
    # push. ``surge_scale`` multiplies it; it is 1 for both bots and only the strong
    # Mankind's search raises it (levels.py).
    surge_model: float = 1.0
    # 1 projects Black Narcissus's extra attack (U-1; shipped since §12); 0 is the
    # previous bots' projection, kept so that §2–§11's figures can be reproduced.
    extra_attack: float = 1.0
    surge_scale: float = 1.0
    # Zone pressure's shape (an experiment, §11): 0 sums every zone within ``REACH``;
    # 1 sums every zone within reach of the modelled surge; 2 counts the best zone only.
    pressure_mode: float = 0.0
    # The threat of the hand the Invader keeps (an experiment, docs/balance.md §13): during
    # his own main and attack phases, where no push is projected into the coming attack,
    # subtract ``kept_threat`` × ``mankind_deck`` × the extra drain the modelled surge
    # would add in his best zone next turn. 1 matches the push the evaluator projects once
    # Mankind is to move (below 1 the score jumps at the end of his turn, §13.3); 0
    # (shipped) leaves the term out.
    kept_threat: float = 0.0
    # The plot check his kept hand can carry (an experiment, docs/balance.md §38.4; 0, off,
    # in the shipped weights): during his own main and attack phases, when the modelled
    # surge of the hand he keeps makes no zone drain on the current board, his next plot
    # check counts as failed too: ``kept_plot`` × ``plot`` × the plot term's step for one
    # more space. Unlike his hand weight, which B-2 halves, it prices the skull directly.
    # Measured at 1 in B-2's hand row: a loss, the skull traded for his own deck-out (§38.4).
    kept_plot: float = 0.0
    # A ward policy probe (docs/balance.md §25, switched off in the shipped weights): 1 lets
    # the first Invader drain of his turn through when a failed plot check would open a gate
    # of one of his dormant strategies (Mount Rushmore's wards fed his gates, §24.3).
    ward_gate: float = 0.0


MANKIND_WEIGHTS = Weights()
INVADER_WEIGHTS = Weights(surprise=2.0)
SHAPE_NAMES = (
    "hand_ratio",
    "mankind_hand_pivot",
    "invader_hand_pivot",
    "hand_above",
    "surge_model",
    "surge_scale",
    "extra_attack",
    "pressure_mode",
    "kept_threat",
    "kept_plot",
    "ward_gate",
)
UNREAD_NAMES = ("surprise",)
"""Read only with ``surge_model`` 0, so not an evaluation weight of the shipped bots."""
WEIGHT_NAMES = tuple(f.name for f in fields(Weights) if f.name not in SHAPE_NAMES + UNREAD_NAMES)
"""The evaluation weights that B-2 scales (×0.5 and ×1.5, both bots)."""


def hand_value(n: int, ratio: float, pivot: float, above: float = 0.0) -> float:
    """Value of ``n`` hand cards in hand-weight units: the i-th card (1-based) is worth
    ``ratio ** (i - pivot)``, so with ``ratio`` < 1 the first cards are worth more than
    one unit and the cards beyond ``pivot`` less; ``ratio`` 1 is the flat count ``n``."""
    if ratio == 1.0 or pivot <= 0 or n <= 0:  # a pivot of 0 keeps that hand flat
        return float(max(0, n))
    if above and n > pivot:
        k = int(pivot)
        return hand_value(k, ratio, pivot) + (n - k)
    return ratio ** (1.0 - pivot) * (1.0 - ratio**n) / (1.0 - ratio)


def scaled(w: Weights, name: str, factor: float) -> Weights:
    """``w`` with one weight multiplied (the B-2 robustness variants)."""
    return replace(w, **{name: getattr(w, name) * factor})


def attack_drains(
    s: State, surprise: float, totals: list[tuple[int, int]] | None = None, echo: bool = True
) -> tuple[float, float]:
    """(coming attack, extra attack) drain on the current board.

    The Invader's extra ``surprise`` goes to the zone where it drains most; Mankind's
    shield pool absorbs what it can of the coming attack (C-19). A unit with
    ``extra_attack`` (Black Narcissus) attacks its zone once more at the start of
    Mankind's turn, after the pool emptied (U-1): that drain is not shielded, does not
    count for the plot check (C-22), and a surprise in that zone drains twice.
    """
    totals = _zone_totals(s) if totals is None else totals
    echo_zones = _echo_zones(s) if echo else []
    now = [max(0, inv - mk) for mk, inv in totals]
    base = sum(now)
    best = (max(0.0, base - s.shield), float(sum(now[z] for z in echo_zones)))
    if surprise <= 0:
        return best
    for z, (mk, inv) in enumerate(totals):
        gain = max(0.0, inv + surprise - mk) - now[z]
        main = max(0.0, base + gain - s.shield)
        again = sum(now[e] + (gain if e == z else 0.0) for e in echo_zones)
        if main + again > sum(best):
            best = (main, again)
    return best


_ECHO_TYPES = frozenset(t for t, ct in CATALOG.cards.items() if "extra_attack" in (ct.formal or ""))
"""Card types that attack their zone again at the start of Mankind's turn (U-1)."""


def _echo_zones(s: State) -> list[int]:
    """Zones a U-1 unit of the Invader will attack again (one entry per such unit)."""
    return [
        z for z in range(N_ZONES) for c in s.board[z * 2 + INVADER] if s.types[c] in _ECHO_TYPES
    ]


def surprise_of(s: State, w: Weights) -> float:
    """The Invader power the evaluator assumes arrives in his best zone."""
    return modelled_surge(s) * w.surge_scale if w.surge_model else w.surprise


def _zone_totals(s: State, powers: Mapping[int, int] | None = None) -> list[tuple[int, int]]:
    """(Mankind, Invader) totals of every zone, computed once per evaluation."""
    return all_zone_totals(s, all_powers(s) if powers is None else powers)


def _surprise_applies(s: State) -> bool:
    """The Invader still has a main phase before the next attack."""
    return not (s.active == INVADER and s.phase in ("main", "attack"))


_ACTIVATED = {t: has_activated(t) for t in CATALOG.cards}


def _board_counts(s: State, powers: Mapping[int, int]) -> tuple[int, int, int, int]:
    """(Mankind power, Invader power, Mankind engines, Invader engines) in one pass over the
    board; integer sums, so the score's float arithmetic is unchanged by the single pass.

    Engines are permanents with an activated ability (Field Hospital, Salvage Ark …): a
    one-ply evaluator sees their cost at once and their uses only later, so they get a value.
    """
    power = [0, 0]
    engines = [0, 0]
    hero = s.hero
    types = s.types
    for i, column in enumerate(s.board):
        side = i & 1  # column z * 2 + side
        for c in column:
            power[side] += powers[c]
            if c != hero and _ACTIVATED[types[c]]:
                engines[side] += 1
    return power[MANKIND], power[INVADER], engines[MANKIND], engines[INVADER]


def _pressure(totals: list[tuple[int, int]], mode: float = 0.0, reach: float = REACH) -> float:
    """Zone pressure: how far the Invader has got toward breaking each zone (partial
    progress counts, so a greedy bot can build a concentrated push card by card)."""
    if mode == 2.0:
        return max(max(0, inv - mk + REACH) for mk, inv in totals)
    if mode == 1.0:
        return sum(max(0.0, inv - mk + reach) for mk, inv in totals)
    return sum(max(0, inv - mk + REACH) for mk, inv in totals)


_STRATEGIES_OF = tuple(
    tuple(sid for sid in STRATEGY_IDS if owner_of_type(sid) == side) for side in (0, 1)
)


def _dormant(s: State, side: int) -> int:
    enabled = s.enabled
    return sum(1 for sid in _STRATEGIES_OF[side] if sid not in enabled)


def mankind_score(s: State, w: Weights) -> float:
    """Position value for Mankind (terminal states are ±WIN)."""
    if s.outcome is not None:
        return WIN if s.outcome.winner == "mankind" else -WIN
    surprise = surprise_of(s, w) if _surprise_applies(s) else 0.0
    powers = all_powers(s)
    totals = _zone_totals(s, powers)
    main_drain, echo_drain = attack_drains(s, surprise, totals, bool(w.extra_attack))
    drain = main_drain + echo_drain
    wards = sum(s.wards.values())
    m_deck = len(s.deck[MANKIND]) + wards - drain
    i_deck = len(s.deck[INVADER])
    if m_deck < 0:  # the attack empties Mankind's deck: W3, or W5 if the Invader's is empty
        return WIN / 10 if i_deck == 0 else -WIN / 10 + m_deck
    if s.active == INVADER and m_deck < 2:
        return -WIN / 20  # Mankind cannot draw 2 next turn (W2)
    if s.active == MANKIND and i_deck < 2:
        return WIN / 20  # the Invader cannot draw 2 next turn (W2)
    plot = s.plot
    attack_ahead = s.active == MANKIND or s.phase in ("main", "attack", "draw")
    if attack_ahead and main_drain < 0.5 and not s.drain_inflicted:
        plot -= 1  # the coming plot check fails (§8.2)
    if plot <= 0:
        return WIN / 10
    score = w.mankind_deck * m_deck - w.mankind_danger * 10.0 / (m_deck + 1.0)
    score -= w.invader_deck * i_deck - w.invader_danger * 10.0 / (i_deck + 1.0)
    score += w.plot * 10.0 / (plot + 0.5)
    if w.hand_ratio == 1.0:  # the shipped flat hand term (same float sums as before)
        score += w.mankind_hand * len(s.hand[MANKIND]) - w.invader_hand * len(s.hand[INVADER])
    else:  # docs/balance.md §10 (switched off); two statements, as measured there
        m_hand = hand_value(len(s.hand[MANKIND]), w.hand_ratio, w.mankind_hand_pivot, w.hand_above)
        i_hand = hand_value(len(s.hand[INVADER]), w.hand_ratio, w.invader_hand_pivot, w.hand_above)
        score += w.mankind_hand * m_hand
        score -= w.invader_hand * i_hand
    m_power, i_power, m_engines, i_engines = _board_counts(s, powers)
    score += w.mankind_board * m_power
    score -= w.invader_board * i_power
    score += w.heroes * (len(s.hero_pile) + (1 if s.hero >= 0 else 0))
    # A dormant strategy is an option worth most early; its value runs down with the
    # game clock (the smaller deck), so it is not fired at the first chance nor hoarded.
    clock = min(len(s.deck[MANKIND]), i_deck) / FULL_DECK
    score += w.strategy * clock * (_dormant(s, MANKIND) - _dormant(s, INVADER))
    if w.pressure_mode == 1.0:
        score -= w.pressure * _pressure(totals, 1.0, modelled_surge(s))
    else:
        score -= w.pressure * _pressure(totals, w.pressure_mode)
    score += w.engine * (m_engines - i_engines)
    if w.kept_threat and w.surge_model and not _surprise_applies(s):
        score -= w.kept_threat * w.mankind_deck * _kept_gain(s, totals)
    if w.kept_plot and not _surprise_applies(s) and _kept_push(s, totals) < 0.5:
        score += w.kept_plot * w.plot * (10.0 / (plot - 0.5) - 10.0 / (plot + 0.5))
    return score


def _kept_push(s: State, totals: list[tuple[int, int]]) -> float:
    """Drain his best zone would take next turn from the board plus his kept hand's surge."""
    surge = modelled_surge(s)
    return max(max(0.0, inv + surge - mk) for mk, inv in totals)


def _kept_gain(s: State, totals: list[tuple[int, int]]) -> float:
    """Extra drain the Invader's kept hand (its modelled surge) would add in his best zone."""
    surge = modelled_surge(s)
    return max(max(0.0, inv + surge - mk) - max(0, inv - mk) for mk, inv in totals)


def score(s: State, side: int, w: Weights) -> float:
    """Position value for ``side`` with that side's weights."""
    v = mankind_score(s, w)
    return v if side == MANKIND else -v


ONE_SHOT_VALUE = 2.0
"""What a one-shot in hand is worth keeping, whatever its discard cost.

That cost is the price of a strong effect, not a reason to throw the card away. The
prototype's 2.0 − 0.3 × discard made the Shapeshifting Alien 'Thing' (discard 2, one copy)
the Invader's second-cheapest card, so a Thing in his opening went as fodder in his first
turn and was played in 9% of those games, and B-6 read its opening shift at −16 points
(1,484 games of the criteria run; −13.1 at 2,000). On those 166 seeds this value gave him
+10.2 ± 8.8 points (paired; docs/balance.md §33).
"""


def card_value(type_id: str) -> float:
    """How much a hand card is worth keeping when a cost asks for discards (the bots
    discard the cheapest first)."""
    ct = card(type_id)
    if ct.power is None:
        return ONE_SHOT_VALUE
    return ct.power - 0.4 * ct.discard + 0.5
