"""Dial arithmetic (DB-11, G-3, G-4) as properties, plus the plan shape rules."""

from __future__ import annotations

import pytest
from dune_scenarios import act, plan, stage
from hypothesis import given
from hypothesis import strategies as st

from app.games.base import IllegalAction
from app.games.dune_battle.plan import _dial_table, dial2_of, parse_plan


def _brute(normal: int, elite: int, spice: int, ev2: int) -> int:
    """Try every split of the spice and keep the best: elite-first must equal it."""
    best = 0
    for se in range(min(elite, spice) + 1):
        sn = min(normal, spice - se)
        best = max(best, se * ev2 + (elite - se) * ev2 // 2 + 2 * sn + (normal - sn))
    return best


@given(st.integers(0, 20), st.integers(0, 5), st.integers(0, 25), st.sampled_from([2, 4]))
def test_elite_first_support_is_best_for_the_player(n: int, e: int, s: int, ev2: int) -> None:
    s = min(s, n + e)
    assert dial2_of(n, e, s, ev2, dialing=True) == _brute(n, e, s, ev2)


@given(st.integers(0, 12), st.integers(0, 4), st.integers(0, 12))
def test_dial_table_reaches_each_value_with_its_composition(n: int, e: int, s: int) -> None:
    for value, (cn, ce, cs) in _dial_table(n, e, s, 4, True):
        assert cn <= n and ce <= e and cs <= min(s, cn + ce)
        assert dial2_of(cn, ce, cs, 4, True) == value


@given(st.integers(0, 20), st.integers(0, 5))
def test_basic_game_counts_full_value_without_spice(n: int, e: int) -> None:
    assert dial2_of(n, e, 0, 4, dialing=False) == 2 * n + 4 * e


@pytest.mark.parametrize(
    "bad", [{"normal": -1}, {"elite": "2"}, {"leader": 3}, {"kwisatz_haderach": 1}]
)
def test_malformed_plans_are_bad_actions(bad: dict[str, object]) -> None:
    with pytest.raises(IllegalAction) as e:
        parse_plan({"type": "set_plan", **bad})
    assert e.value.code == "bad_action"


def test_one_card_cannot_fill_both_slots() -> None:
    s = stage(hands={"atreides": ["baliset-1"]})
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", plan("thufir_hawat", "baliset-1", "baliset-1"))
    assert e.value.code == "slot_type_mismatch"
