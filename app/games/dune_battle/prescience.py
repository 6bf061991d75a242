"""Prescience (DB-22): the Atreides ask one element; the answer binds the plan.

The answer must come from a plan the asked player could still legally play
(``answer_unsatisfiable`` otherwise). Cards bind by name, the dial by its
nominal value (R-5, R-6); the answer is shown to the Atreides only.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle.catalog import DEFENSE_KINDS, WEAPON_KINDS, card_kind, card_slug
from app.games.dune_battle.constraints import satisfiable, true_of_committed
from app.games.dune_battle.plan import dial_table, leader_options, slot_options
from app.games.dune_battle.state import Binding, GameState
from app.games.dune_battle.steps import (
    PRESCIENCE_ELEMENTS,
    Result,
    need_window,
    next_step,
    prompted,
    settle,
)


def _answer_token(state: GameState, seat: str, element: str, value: Any) -> str:
    """Wire answer -> the binding's value (leader token, card name, half-unit dial)."""
    if element == "dial":
        number = isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))
        if not number or isinstance(value, bool) or value * 2 != int(value * 2):
            raise IllegalAction("bad_action", "a dial answer is a number in steps of 0.5")
        return str(int(value * 2))
    if value is None or value == "none":
        return "none"
    if not isinstance(value, str):
        raise IllegalAction("bad_action", "the answer must be an id or 'none'")
    if element == "leader":
        if value in state.faction(seat).hand and card_kind(value) == "cheap_hero":
            return "cheap_hero"
        return value
    kinds = WEAPON_KINDS if element == "weapon" else DEFENSE_KINDS
    if value not in state.faction(seat).hand:
        raise IllegalAction("card_not_in_hand", "answer with a card you hold")
    if card_kind(value) not in kinds:
        raise IllegalAction("slot_type_mismatch", f"that card is not a {element} card")
    return card_slug(value)


def prescience_answers(state: GameState, seat: str) -> list[Any]:
    """Every answer the asked player could truthfully give (small: one per name/value)."""
    battle = state.battle
    assert battle is not None and battle.prescience_element
    element = battle.prescience_element
    if element == "dial":
        candidates: list[Any] = [
            v / 2 if v % 2 else v // 2 for v in dial_table(state, battle, seat)
        ]
    elif element == "leader":
        candidates = [ld or "none" for ld in leader_options(state, battle, seat)]
    else:
        kinds = WEAPON_KINDS if element == "weapon" else DEFENSE_KINDS
        candidates = ["none", *(c for c in slot_options(state, seat, kinds) if c)]
    out = []
    for value in candidates:
        binding = Binding("prescience", element, value=_answer_token(state, seat, element, value))
        if satisfiable(state, battle, seat, binding) and true_of_committed(
            state, battle, seat, binding
        ):
            out.append(value)
    return out


def do_prescience(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    battle = need_window(state, seat, "prescience")
    element = action.get("element")
    if element not in PRESCIENCE_ELEMENTS:
        raise IllegalAction("bad_action", "element must be leader, weapon, defense or dial")
    battle = next_step(replace(battle, prescience_element=element))
    event = Event("prescience_asked", {"by": seat, "element": element})
    state, events = settle(replace(state, battle=battle))
    return state, [event, *events]


def do_answer_prescience(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    battle = need_window(state, seat, "answer_prescience")
    element = battle.prescience_element or ""
    token = _answer_token(state, seat, element, action.get("value"))
    binding = Binding("prescience", element, value=token)
    if not satisfiable(state, battle, seat, binding):
        raise IllegalAction("answer_unsatisfiable", "no legal plan gives that answer")
    if not true_of_committed(state, battle, seat, binding):
        raise IllegalAction("prescience_violation", "your committed plan answers otherwise")
    side = battle.side(seat)
    battle = replace(
        battle.with_side(replace(side, bindings=(*side.bindings, binding))),
        prescience_answer=token,
    )
    value = action.get("value") if element == "dial" else token
    events = [
        Event("prescience_answered", {"by": seat, "element": element, "value": value}, "atreides")
    ]
    state, more = settle(replace(state, battle=next_step(battle)))
    return state, [*events, *more]


def answer_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    """At S5, for the asked player: every truthful answer, one per name or value."""
    battle = state.battle
    if battle is None or battle.stack or battle.step != "answer_prescience":
        return []
    if prompted(state, battle, battle.step) != seat:
        return []
    return [{"type": "answer_prescience", "value": v} for v in prescience_answers(state, seat)]
