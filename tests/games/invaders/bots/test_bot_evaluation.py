"""The evaluator's hand term: flat by default, diminishing returns when switched on."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

from app.games.invaders.bots.evaluation import (
    INVADER_WEIGHTS,
    MANKIND_WEIGHTS,
    WEIGHT_NAMES,
    hand_value,
    mankind_score,
)
from app.games.invaders.state import MANKIND
from tests.games.invaders.bots.test_bot_knowledge import random_position


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
        for p in (random_position(3, n) for n in range(5, 60))
        if p.outcome is None and len(p.hand[MANKIND]) >= 5
    )
    w = replace(MANKIND_WEIGHTS, hand_ratio=0.7, mankind_hand_pivot=4.0)
    hand = s.hand[MANKIND]

    def with_hand(n: int) -> float:
        cut = replace(s, hand=tuple(hand[:n] if i == MANKIND else h for i, h in enumerate(s.hand)))
        return mankind_score(cut, w)

    assert with_hand(2) - with_hand(1) > with_hand(len(hand)) - with_hand(len(hand) - 1)
