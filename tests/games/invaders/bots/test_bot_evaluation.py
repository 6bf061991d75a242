"""The evaluator's hand term (flat by default, diminishing returns when switched on) and
the modelled surge of the Invader's next push (docs/balance.md §11), and the projection of
Black Narcissus's extra attack (U-1)."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise

import pytest

from app.games.invaders.bots import determinize, observe
from app.games.invaders.bots.evaluation import (
    INVADER_WEIGHTS,
    MANKIND_WEIGHTS,
    WEIGHT_NAMES,
    Weights,
    _pressure,
    attack_drains,
    hand_value,
    mankind_score,
    surprise_of,
)
from app.games.invaders.bots.surge import _UNITS, modelled_surge
from app.games.invaders.cards import N_ZONES
from app.games.invaders.power import zone_totals
from app.games.invaders.state import INVADER, MANKIND, State
from tests.games.invaders.bots.test_bot_knowledge import random_position
from tests.games.invaders.invaders_builders import build


def test_shipped_weights_keep_the_flat_hand_term() -> None:
    assert MANKIND_WEIGHTS.hand_ratio == INVADER_WEIGHTS.hand_ratio == 1.0
    assert [hand_value(n, 1.0, 5.0) for n in range(8)] == [float(n) for n in range(8)]
    assert "hand_ratio" not in WEIGHT_NAMES and "mankind_hand" in WEIGHT_NAMES


def test_diminishing_hand_term_values_the_last_cards_most() -> None:
    marginal = [hand_value(n + 1, 0.7, 4.0) - hand_value(n, 0.7, 4.0) for n in range(8)]
    assert all(a > b for a, b in pairwise(marginal))
    assert abs(marginal[3] - 1.0) < 1e-9  # the pivot card is worth one hand weight
    assert hand_value(3, 0.7, 4.0, above=1.0) == hand_value(3, 0.7, 4.0)
    assert hand_value(6, 0.7, 4.0, above=1.0) == hand_value(4, 0.7, 4.0) + 2


def test_losing_a_card_from_a_short_hand_costs_more_than_from_a_long_one() -> None:
    s = next(
        p
        for p in (random_position(seed, n) for seed in range(3, 13) for n in range(5, 60, 5))
        if p.outcome is None and len(p.hand[MANKIND]) >= 5
    )
    w = replace(MANKIND_WEIGHTS, hand_ratio=0.7, mankind_hand_pivot=4.0)
    hand = s.hand[MANKIND]

    def with_hand(n: int) -> float:
        cut = replace(s, hand=tuple(hand[:n] if i == MANKIND else h for i, h in enumerate(s.hand)))
        return mankind_score(cut, w)

    assert with_hand(2) - with_hand(1) > with_hand(len(hand)) - with_hand(len(hand) - 1)


def _invader_hand(s: State, n: int) -> State:
    """``s`` with the Invader's hand cut to its first ``n`` cards (the rest back on the deck)."""
    hand, deck = s.hand[INVADER], s.deck[INVADER]
    return replace(
        s,
        hand=(s.hand[MANKIND], hand[:n]),
        deck=(s.deck[MANKIND], hand[n:] + deck),
    )


def _mid_game() -> State:
    return next(
        p
        for p in (random_position(seed, n) for seed in range(5, 40) for n in (20, 30, 40))
        if p.outcome is None and p.active == MANKIND and len(p.hand[INVADER]) >= 4
    )


def test_modelled_surge_grows_with_the_invaders_hand_and_stays_in_range() -> None:
    s = _mid_game()
    surges = [modelled_surge(_invader_hand(s, n)) for n in range(len(s.hand[INVADER]) + 1)]
    assert all(a <= b + 1e-12 for a, b in pairwise(surges))
    assert 0.0 < surges[0] < surges[-1] <= 6.0  # at most the strongest printed unit


def test_modelled_surge_depends_only_on_what_mankind_may_know() -> None:
    s = _mid_game()
    k = observe(s, "mankind")
    values = {round(modelled_surge(determinize(k, random.Random(i))), 9) for i in range(5)}
    assert values == {round(modelled_surge(s), 9)}


def test_shipped_weights_model_the_surge_instead_of_a_fixed_surprise() -> None:
    assert MANKIND_WEIGHTS.surge_model == INVADER_WEIGHTS.surge_model == 1.0
    assert "surge_model" not in WEIGHT_NAMES and "surge_scale" not in WEIGHT_NAMES
    assert "surprise" not in WEIGHT_NAMES  # not read by the shipped evaluator
    s = _mid_game()
    fixed = replace(MANKIND_WEIGHTS, surge_model=0.0)
    assert surprise_of(s, fixed) == fixed.surprise
    assert surprise_of(s, MANKIND_WEIGHTS) == modelled_surge(s)
    assert surprise_of(s, replace(MANKIND_WEIGHTS, surprise=99.0)) == modelled_surge(s)
    assert surprise_of(s, replace(MANKIND_WEIGHTS, surge_scale=2.0)) == 2.0 * modelled_surge(s)


def test_a_pivot_of_zero_keeps_that_hand_flat() -> None:
    """§11's one-sided shapes: ``mankind_hand_pivot`` 0 leaves Mankind's hand flat."""
    assert [hand_value(n, 0.7, 0.0) for n in range(6)] == [float(n) for n in range(6)]
    assert hand_value(3, 0.7, 6.0) > 3.0


def test_pressure_modes() -> None:
    totals = [(3, 2), (1, 4), (5, 0)]  # (Mankind, Invader) per zone
    assert _pressure(totals) == 2 + 6 + 0  # shipped: every zone within REACH 3
    assert _pressure(totals, 2.0) == 6  # the best zone only
    assert _pressure(totals, 1.0, 1.5) == 0.5 + 4.5 + 0.0  # within the surge's reach
    assert MANKIND_WEIGHTS.pressure_mode == INVADER_WEIGHTS.pressure_mode == 0.0


def _africa_unit(unit: str, **extra: object) -> State:
    """Mankind to move; one Invader power-3 unit in Africa (printed Mankind power 2)."""
    return build(active="mankind", hero=None, board={"africa": {"invader": [unit]}}, **extra)


@pytest.mark.usefixtures("spec_zone_powers")
def test_black_narcissus_extra_attack_is_projected_after_the_coming_attack() -> None:
    assert attack_drains(_africa_unit("kraken_warmachine"), 0.0) == (1.0, 0.0)
    assert attack_drains(_africa_unit("black_narcissus_weapons_array"), 0.0) == (1.0, 1.0)


@pytest.mark.usefixtures("spec_zone_powers")
def test_the_shield_pool_does_not_cover_the_extra_attack() -> None:
    """U-1: the pool emptied at the end of the Invader's turn."""
    s = _africa_unit("black_narcissus_weapons_array", shield=5)
    assert attack_drains(s, 0.0) == (0.0, 1.0)


@pytest.mark.usefixtures("spec_zone_powers")
def test_a_surprise_in_black_narcissus_zone_drains_twice() -> None:
    s = _africa_unit("black_narcissus_weapons_array")
    assert attack_drains(s, 2.0) == (3.0, 3.0)  # the surprise goes where it drains twice
    assert attack_drains(_africa_unit("kraken_warmachine"), 2.0) == (3.0, 0.0)


def test_the_extra_attack_lowers_mankinds_score() -> None:
    echo = mankind_score(_africa_unit("black_narcissus_weapons_array"), MANKIND_WEIGHTS)
    plain = mankind_score(_africa_unit("kraken_warmachine"), MANKIND_WEIGHTS)
    assert echo < plain


@pytest.mark.usefixtures("spec_zone_powers")
def test_the_previous_projection_ignores_the_extra_attack() -> None:
    s = _africa_unit("black_narcissus_weapons_array")
    assert attack_drains(s, 0.0, echo=False) == (1.0, 0.0)
    before = replace(MANKIND_WEIGHTS, extra_attack=0.0, surge_model=0.0)  # the previous bots
    assert mankind_score(s, before) == mankind_score(_africa_unit("kraken_warmachine"), before)


def _surge_by_definition(s: State) -> float:
    """modelled_surge's docstring, spelt out card by card (no counting, no memo)."""
    hand, deck = s.hand[INVADER], s.deck[INVADER]
    mid_turn = s.active == INVADER and s.phase in ("main", "attack")
    draws = min(0 if mid_turn else 2, len(deck))
    size, payable = len(hand) + draws, len(deck) - draws
    units = {c: _UNITS.get(s.types[c], (0, 99, 99)) for c in hand + deck}
    fits = {c: p if d < size and dr <= payable else 0 for c, (p, d, dr) in units.items()}
    known = [c for c in hand if c in s.revealed]
    pool = [c for c in hand + deck if c not in known]
    hidden, out = size - len(known), 0.0
    for v in range(1, 7):
        if any(fits[c] >= v for c in known):
            out += 1.0
            continue
        k = sum(1 for c in pool if fits[c] >= v)
        miss = 1.0
        for i in range(min(hidden, len(pool))):
            miss *= max(0.0, (len(pool) - k - i) / (len(pool) - i))
        out += 1.0 - miss
    return out


def test_modelled_surge_matches_its_definition_in_any_order() -> None:
    """Its one-entry memo never serves one position's surge for another."""
    positions = [random_position(seed, n) for seed in range(6) for n in (5, 25, 45, 70)]
    positions = [p for p in positions if p.outcome is None and p.hand[INVADER]]
    for p in positions:
        # Twins that differ from ``p`` in one of the surge's inputs and share the rest.
        twins = [
            replace(p, active=INVADER, phase="main"),
            replace(p, hand=(p.hand[MANKIND], p.hand[INVADER][1:])),
            replace(p, deck=(p.deck[MANKIND], p.deck[INVADER][1:])),
            replace(p, revealed=p.revealed | {p.hand[INVADER][0]}),
        ]
        for q in [x for twin in twins for x in (p, twin)]:
            assert abs(modelled_surge(q) - _surge_by_definition(q)) < 1e-12


def test_modelled_surge_counts_revealed_hand_cards_as_known() -> None:
    s = _mid_game()  # his draw is ahead: the 2 cards he draws stay a chance
    mid_turn = replace(s, active=INVADER, phase="main")  # nothing left to draw
    shown = replace(mid_turn, revealed=frozenset(s.hand[INVADER]))
    assert abs(modelled_surge(shown) - _surge_by_definition(shown)) < 1e-12
    assert modelled_surge(shown) == float(int(modelled_surge(shown)))  # nothing left to chance


def _kept_gain(s: State) -> float:
    surge = modelled_surge(s)
    totals = [zone_totals(s, z) for z in range(N_ZONES)]
    return max(max(0.0, inv + surge - mk) - max(0, inv - mk) for mk, inv in totals)


def test_kept_threat_is_off_in_the_shipped_weights() -> None:
    assert MANKIND_WEIGHTS.kept_threat == INVADER_WEIGHTS.kept_threat == 0.0
    assert "kept_threat" not in WEIGHT_NAMES


def _invader_main_with_a_kept_push() -> State:
    """His main phase: a power-3 unit in Africa and a hand whose surge can break a zone."""
    return build(
        active="invader",
        board={"africa": {"invader": ["kraken_warmachine"]}},
        hands={"invader": ["kraken_warmachine", "burrower_brood", "burrower_brood"]},
        hero=None,
    )


def test_kept_threat_charges_the_kept_hands_surge_during_the_invaders_main_phase() -> None:
    """docs/balance.md §13: the push his kept hand threatens for the next attack."""
    s = _invader_main_with_a_kept_push()
    assert _kept_gain(s) > 0
    for kt in (0.5, 1.0):
        w = replace(MANKIND_WEIGHTS, kept_threat=kt)
        drop = mankind_score(s, MANKIND_WEIGHTS) - mankind_score(s, w)
        assert abs(drop - kt * w.mankind_deck * _kept_gain(s)) < 1e-9


def test_kept_threat_is_not_charged_where_the_push_is_already_projected() -> None:
    s = _africa_unit("kraken_warmachine")  # Mankind to move: the surge is in the attack
    assert mankind_score(s, replace(MANKIND_WEIGHTS, kept_threat=1.0)) == mankind_score(
        s, MANKIND_WEIGHTS
    )


def _plot_step(w: Weights, plot: int) -> float:
    return w.kept_plot * w.plot * (10.0 / (plot - 0.5) - 10.0 / (plot + 0.5))


def test_kept_plot_is_off_in_the_shipped_weights() -> None:
    assert MANKIND_WEIGHTS.kept_plot == INVADER_WEIGHTS.kept_plot == 0.0
    assert "kept_plot" not in WEIGHT_NAMES


def test_kept_plot_charges_the_next_plot_check_when_his_kept_hand_cannot_drain() -> None:
    """docs/balance.md §38.4: an empty hand in his main phase carries no push next turn."""
    s = build(active="invader", hero=None, hands={"invader": []}, plot=4)
    w = replace(INVADER_WEIGHTS, kept_plot=1.0)
    gain = mankind_score(s, w) - mankind_score(s, INVADER_WEIGHTS)
    assert gain > 0
    assert abs(gain - _plot_step(w, 3)) < 1e-9  # the coming check already took one space


def test_kept_plot_is_not_charged_when_his_kept_hand_can_break_a_zone() -> None:
    s = _invader_main_with_a_kept_push()
    assert _kept_gain(s) >= 0.5  # so his best zone drains next turn
    w = replace(INVADER_WEIGHTS, kept_plot=1.0)
    assert mankind_score(s, w) == mankind_score(s, INVADER_WEIGHTS)


def test_kept_plot_is_not_charged_where_the_push_is_already_projected() -> None:
    s = build(active="mankind", hero=None, hands={"invader": []})
    w = replace(INVADER_WEIGHTS, kept_plot=1.0)
    assert mankind_score(s, w) == mankind_score(s, INVADER_WEIGHTS)
