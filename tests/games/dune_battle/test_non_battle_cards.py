"""Weather Control, Family Atomics and Hajr are dealt but have no battle use (§11.2, R-30)."""

from __future__ import annotations

import pytest
from dune_scenarios import act, give_turn, plan, stage

import app.games.dune_battle as game
from app.games.base import IllegalAction

INERT = ("weather_control-1", "family_atomics-1", "hajr-1")


def _holding_inert():  # type: ignore[no-untyped-def]
    return give_turn(stage(advanced=True, hands={"atreides": list(INERT)}), "atreides")


@pytest.mark.parametrize("card", INERT)
@pytest.mark.parametrize("slot", ["leader", "weapon", "defense"])
def test_non_battle_cards_fill_no_plan_slot(card: str, slot: str) -> None:
    s = _holding_inert()
    p = plan("thufir_hawat")
    p[slot] = card
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", p)
    assert e.value.code == "slot_type_mismatch"


@pytest.mark.parametrize("card", INERT)
def test_non_battle_cards_are_no_karama(card: str) -> None:
    s = _holding_inert()
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", {"type": "karama", "effect": "full_view", "card_id": card})
    assert e.value.code == "no_karama_card"


def test_no_legal_action_names_a_non_battle_card() -> None:
    s = _holding_inert()
    assert not any(c in str(a) for a in game.legal_actions(s, "atreides") for c in INERT)
