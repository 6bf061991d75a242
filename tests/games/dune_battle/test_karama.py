"""G-14 / DB-17: in module (a) only the two combatants play Karama or Truthtrance."""

from __future__ import annotations

import pytest
from dune_scenarios import act, stage

import app.games.dune_battle as game
from app.games.base import IllegalAction
from app.games.dune_battle.state import Forces, GameState
from app.games.dune_battle.steps import PRE_STEPS

THIRD_PARTY_CARDS = ["karama-1", "truthtrance-1", "tleilaxu_ghola-1"]


def _watched() -> GameState:
    """Atreides vs Harkonnen; the Emperor, elsewhere, holds Karama and Truthtrance."""
    return stage(
        third="emperor",
        advanced=True,
        extra=[Forces("emperor", "arrakeen", 9, 3)],
        hands={"emperor": THIRD_PARTY_CARDS},
    )


def test_a_third_party_is_never_offered_a_window() -> None:
    s = _watched()
    assert s.battle is not None and "emperor" not in s.battle.combatants
    while s.battle is not None and s.battle.step in PRE_STEPS:
        assert game.legal_actions(s, "emperor") == []
        (seat,) = game.active_seats(s)
        kinds = {a["type"]: a for a in game.legal_actions(s, seat)}
        move = kinds.get("pass") or kinds.get("commit_plan") or kinds.get("answer_prescience")
        s = act(s, seat, move or kinds["set_plan"])
    assert s.battle is not None and s.battle.step == "traitor"
    assert game.legal_actions(s, "emperor") == []


@pytest.mark.parametrize(
    "action",
    [
        {"type": "karama", "effect": "cancel_prescience", "card_id": "karama-1"},
        {
            "type": "truthtrance",
            "card_id": "truthtrance-1",
            "question": {"kind": "holds_card", "param": "lasgun"},
        },
        {"type": "ghola", "card_id": "tleilaxu_ghola-1", "normal": 1},
    ],
)
def test_a_third_party_card_play_is_refused(action: dict[str, object]) -> None:
    s = _watched()
    with pytest.raises(IllegalAction) as e:
        act(s, "emperor", action)
    assert e.value.code == "not_your_decision"
