"""The action vocabulary: who may do what now, and applying an action.

``legal_actions`` lists concrete, applicable actions only; parameterised
actions (``set_plan``, ``answer_prescience``…) are listed as a small set of
ready-made examples, and ``apply`` accepts any parameters that pass the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.games.base import Event, IllegalAction, Transition
from app.games.dune_battle import (
    battles,
    capture,
    drafting,
    ghola,
    karama,
    prescience,
    resolve,
    steps,
    truthtrance,
)
from app.games.dune_battle.state import GameState

Handler = Callable[[GameState, str, dict[str, Any]], tuple[GameState, list[Event]]]


def legal_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    if state.phase == "traitor_pick":
        return battles.pick_actions(state, seat)
    if state.phase == "choose_battle":
        return battles.choose_actions(state, seat)
    battle = state.battle
    if state.phase != "battle" or battle is None or seat not in battle.combatants:
        return []
    if battle.step in steps.PRE_STEPS:
        if battle.stack:
            return truthtrance.answer_actions(state, seat) or (
                drafting.drafting_actions(state, seat) if battle.stack[-1].seat == seat else []
            )
        return [
            *steps.window_actions(state, seat),
            *prescience.answer_actions(state, seat),
            *drafting.drafting_actions(state, seat),
            *karama.karama_actions(state, seat),
            *truthtrance.truthtrance_actions(state, seat),
            *ghola.ghola_actions(state, seat),
            *capture.kill_captured_actions(state, seat),
        ]
    if battle.step == "traitor":
        if resolve.traitor_turn(battle) != seat:
            return []
        call = [] if resolve.traitor_allowed(state, battle, seat) else [{"type": "call_traitor"}]
        return [*call, {"type": "decline_traitor"}]
    return capture.post_actions(state, seat)


def active_seats(state: GameState) -> frozenset[str]:
    """Exactly the seats whose legal_actions are non-empty."""
    return frozenset(s for s in state.in_play if legal_actions(state, s))


def _pass(state: GameState, seat: str, action: dict[str, Any]) -> tuple[GameState, list[Event]]:
    if state.battle is not None and state.battle.step == "capture_karama":
        return capture.do_capture_pass(state, seat)
    return steps.do_pass(state, seat)


HANDLERS: dict[str, Handler] = {
    "pick_traitor": battles.do_pick_traitor,
    "choose_battle": battles.do_choose_battle,
    "voice": steps.do_voice,
    "prescience": prescience.do_prescience,
    "answer_prescience": prescience.do_answer_prescience,
    "pass": _pass,
    "set_plan": drafting.do_set_plan,
    "commit_plan": lambda s, seat, a: drafting.do_commit(s, seat),
    "karama": karama.do_karama,
    "truthtrance": truthtrance.do_truthtrance,
    "ghola": ghola.do_ghola,
    "answer_truthtrance": truthtrance.do_answer_truthtrance,
    "call_traitor": resolve.do_traitor,
    "decline_traitor": resolve.do_traitor,
    "capture": capture.do_capture,
    "capture_choice": capture.do_capture_choice,
    "kill_captured": capture.do_kill_captured,
    "keep_cards": capture.do_keep_cards,
}


def apply(state: GameState, seat: str, action: Mapping[str, Any]) -> Transition:
    """Apply one action or raise IllegalAction; the input state is never changed."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", "an action is an object with a string type")
    handler = HANDLERS.get(action["type"])
    if handler is None:
        raise IllegalAction("bad_action", f"unknown action type {action['type']!r}")
    if state.phase == "over" or seat not in state.in_play:
        raise IllegalAction("not_your_decision", "this seat has no decision to make")
    new_state, events = handler(state, seat, dict(action))
    return Transition(new_state, tuple(events))


def timeout_action(state: GameState, seat: str) -> dict[str, Any] | None:
    """G-21: what the platform clock plays for an absent seat; None if it owes nothing.

    Windows pass, traitor and capture are declined, the winner keeps its cards,
    an uncommitted draft is committed, and a seat with no draft gets the
    minimal legal plan (strongest leader, dial 0, no cards). A seat whose plan
    is committed owes nothing even though it may still revise (DB-18).
    """
    legal = legal_actions(state, seat)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        by_type.setdefault(a["type"], []).append(a)
    for kind, default in (
        ("pass", {"type": "pass"}),
        ("decline_traitor", {"type": "decline_traitor"}),
        ("capture", {"type": "capture", "take": False}),
        ("capture_choice", {"type": "capture_choice", "choice": "keep"}),
        ("keep_cards", {"type": "keep_cards", "discard": []}),
        ("commit_plan", {"type": "commit_plan"}),
    ):
        if kind in by_type:
            return default
    for kind in ("answer_truthtrance", "answer_prescience", "pick_traitor", "choose_battle"):
        if kind in by_type:
            return by_type[kind][0]
    battle = state.battle
    plans = by_type.get("set_plan", [])
    if battle is None or not plans or battle.side(seat).draft is not None:
        return None
    return min(plans, key=_minimal_plan_rank)


def _minimal_plan_rank(action: dict[str, Any]) -> tuple[int, int, int]:
    from app.games.dune_battle.catalog import LEADERS

    cards = (action["weapon"] is not None) + (action["defense"] is not None)
    leader = action["leader"]
    strength = LEADERS[leader].strength if leader in LEADERS else 0
    return (cards, action["normal"] + action["elite"], -strength)
