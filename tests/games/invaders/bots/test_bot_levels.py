"""Each bot level returns a legal action and decides only on the seat's information."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.games import invaders as game
from app.games.invaders.bots import (
    LEVELS,
    Budget,
    Weights,
    choose,
    default_weights,
    levels,
    observe,
)
from app.games.invaders.bots.evaluation import INVADER_WEIGHTS, MANKIND_WEIGHTS
from app.games.invaders.bots.levels import (
    INVADER_KEPT_THREAT,
    MANKIND_CAUTION,
    MANKIND_HAND_FACTOR,
    MANKIND_SECOND_CAUTION,
    MANKIND_THREAT_FACTOR,
)
from app.games.invaders.state import SIDES
from tests.games.invaders.bots.test_bot_knowledge import hidden_twin, random_position

FAST = Budget(iterations=6, seconds=60.0)  # iteration-bound: deterministic
POSITIONS = [(seed, n) for seed in (11, 12) for n in (0, 7, 30, 90, 120)]


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("seed", "decisions"), POSITIONS)
def test_level_returns_a_legal_action(level: str, seed: int, decisions: int) -> None:
    s = random_position(seed, decisions)
    if game.outcome(s) is not None:
        pytest.skip("the random game ended early")
    seat = next(iter(game.active_seats(s)))
    action = choose(s, seat, random.Random(seed), FAST, level)
    assert action in game.legal_actions(s, seat)
    game.apply(s, seat, action)  # and the engine accepts it


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("seed", "decisions"), POSITIONS)
def test_hidden_cards_do_not_change_the_decision(level: str, seed: int, decisions: int) -> None:
    s = random_position(seed, decisions)
    if game.outcome(s) is not None:
        pytest.skip("the random game ended early")
    seat = next(iter(game.active_seats(s)))
    twin = hidden_twin(s, seat, seed + 100)
    mine = choose(s, seat, random.Random(1), FAST, level)
    theirs = choose(twin, seat, random.Random(1), FAST, level)
    assert mine == theirs


def test_choose_accepts_knowledge_and_refuses_the_wrong_seat() -> None:
    s = random_position(13, 20)
    seat = next(iter(game.active_seats(s)))
    k = observe(s, seat)
    assert choose(k, seat, random.Random(2)) == choose(s, seat, random.Random(2))
    other = SIDES[1 - SIDES.index(seat)]
    with pytest.raises(ValueError, match="knowledge"):
        choose(k, other, random.Random(2))


def test_unknown_level_is_refused() -> None:
    s = random_position(14, 0)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose(s, "mankind", random.Random(1), level="genius")


def test_random_level_is_uniform_over_legal_actions() -> None:
    s = random_position(15, 30)
    seat = next(iter(game.active_seats(s)))
    legal = game.legal_actions(s, seat)
    seen = {str(choose(s, seat, random.Random(i), level="random")) for i in range(200)}
    assert seen == {str(a) for a in legal}


SearchCalls = list[tuple[Weights, Weights, Weights]]  # the ``searched`` fixture (conftest.py)


def test_strong_mankind_searches_with_a_margin_for_the_push_and_a_dearer_hand(
    searched: SearchCalls,
) -> None:
    """Only the strong Mankind's own moves (priors, rollout moves) get the margin; his two
    hand factors apply to his moves and the horizon score; the opponent models keep the
    default weights."""
    s = game.setup(3, {})
    for seat in SIDES:
        levels.strong_level(observe(s, seat), random.Random(0), FAST, default_weights(seat))
    (mk_own, mk_other, mk_leaf), invader = searched
    hand = replace(
        MANKIND_WEIGHTS,
        mankind_hand=MANKIND_WEIGHTS.mankind_hand * MANKIND_HAND_FACTOR,
        invader_hand=MANKIND_WEIGHTS.invader_hand * MANKIND_THREAT_FACTOR,
    )
    assert mk_own == replace(
        hand,
        surprise=MANKIND_WEIGHTS.surprise * MANKIND_CAUTION,
        surge_scale=MANKIND_WEIGHTS.surge_scale * MANKIND_CAUTION,  # the modelled surge too
    )
    assert (mk_other, mk_leaf) == (INVADER_WEIGHTS, hand)  # the horizon: no margin
    kept = replace(INVADER_WEIGHTS, kept_threat=INVADER_KEPT_THREAT)
    assert invader == (kept, MANKIND_WEIGHTS, kept)


def test_strong_mankind_moving_second_widens_the_push_at_horizon_and_in_his_moves(
    searched: SearchCalls,
) -> None:
    """With the Invader first, the modelled surge grows by MANKIND_SECOND_CAUTION in the
    strong Mankind's horizon and, times MANKIND_CAUTION, in his moves; nothing else moves."""
    for first in ("mankind", "invader"):
        s = game.setup(3, {"first_player": first})
        for seat in SIDES:
            levels.strong_level(observe(s, seat), random.Random(0), FAST, default_weights(seat))
    (mk_own, _, mk_leaf), invader, (mk_own2, _, mk_leaf2), invader2 = searched
    assert MANKIND_SECOND_CAUTION > 1.0
    assert mk_leaf2 == replace(mk_leaf, surge_scale=MANKIND_SECOND_CAUTION)
    assert mk_own2 == replace(mk_own, surge_scale=MANKIND_SECOND_CAUTION * MANKIND_CAUTION)
    assert invader2 == invader  # the Invader and his model of Mankind: either order alike


def test_strong_invader_counts_his_kept_threat_unless_a_probe_sets_it(
    searched: SearchCalls,
) -> None:
    """The shipped rule fills the default 0; a probe's own value is searched with as given."""
    k = observe(game.setup(3, {}), "invader")
    levels.strong_level(k, random.Random(0), FAST, INVADER_WEIGHTS)
    levels.strong_level(k, random.Random(0), FAST, replace(INVADER_WEIGHTS, kept_threat=0.5))
    assert [leaf.kept_threat for _, _, leaf in searched] == [INVADER_KEPT_THREAT, 0.5]
    assert INVADER_WEIGHTS.kept_threat == 0.0  # the heuristic Invader and every model


def test_heuristic_mankind_keeps_the_default_hand_weight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """MANKIND_HAND_FACTOR is the strong level's; the heuristic level is the issue's greedy bot."""
    seen: list[Weights] = []

    def spy(s, side, weights):  # type: ignore[no-untyped-def]
        seen.append(weights)
        return {}

    monkeypatch.setattr(levels, "greedy", spy)
    s = game.setup(3, {})
    choose(s, "mankind", random.Random(0), FAST, "heuristic")
    assert seen == [MANKIND_WEIGHTS]


def test_choose_hands_the_opponent_model_to_the_strong_level(searched: SearchCalls) -> None:
    """B-2 on the strong level scales a weight in both bots' opponent models too."""
    s = game.setup(3, {})
    model = replace(MANKIND_WEIGHTS, pressure=0.45)
    choose(s, "invader", random.Random(0), FAST, "strong", opponent=model)
    choose(s, "invader", random.Random(0), FAST, "strong")
    assert [other for _, other, _ in searched] == [model, MANKIND_WEIGHTS]
