"""Truthtrance (DB-24): one yes/no question from a structured catalog.

Fact questions are answered by the engine from the hidden state, so the answer
is true by construction; intent questions are answered by the asked player and
become a binding on their plan, accepted only if some legal plan satisfies it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle.catalog import LEADERS, card_kind
from app.games.dune_battle.constraints import satisfiable, true_of_committed
from app.games.dune_battle.karama import spend
from app.games.dune_battle.plan import available_leaders, leader_options
from app.games.dune_battle.state import Battle, Binding, GameState, Question
from app.games.dune_battle.steps import PRE_STEPS, Result, push, settle, turn_seat

FACT_KINDS = ("holds_traitor", "holds_card")
HELD_KINDS = (
    "lasgun",
    "projectile",
    "poison",
    "shield",
    "snooper",
    "cheap_hero",
    "worthless",
    "karama",
)
WEAPON_PARAMS = ("projectile", "poison", "lasgun", "any")
DEFENSE_PARAMS = ("shield", "snooper", "any")
DIAL_PARAMS = (0, 2, 4, 6, 8)


def _fact(state: GameState, asked: str, kind: str, param: str) -> str:
    fac = state.faction(asked)
    if kind == "holds_traitor":
        return "yes" if param in fac.traitors else "no"
    return "yes" if any(card_kind(c) == param for c in fac.hand) else "no"


def _check_question(kind: Any, param: Any) -> str:
    if not isinstance(param, str | int) or isinstance(param, bool):
        raise IllegalAction("bad_question", "a question parameter is a string or an integer")
    if kind == "holds_traitor" and param in LEADERS:
        return str(param)
    if kind == "holds_card" and param in HELD_KINDS:
        return str(param)
    if kind == "leader_is" and isinstance(param, str):
        return param
    if kind == "weapon_kind" and param in WEAPON_PARAMS:
        return str(param)
    if kind == "defense_kind" and param in DEFENSE_PARAMS:
        return str(param)
    if kind == "worthless":
        return ""
    if (
        kind == "dial_more_than"
        and isinstance(param, int)
        and not isinstance(param, bool)
        and param >= 0
    ):
        return str(param)
    raise IllegalAction("bad_question", "not a question of the Truthtrance catalog")


def do_truthtrance(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    battle = state.battle
    if (
        battle is None
        or battle.step not in PRE_STEPS
        or battle.stack
        or turn_seat(state, battle) != seat
    ):
        raise IllegalAction("not_your_decision", "Truthtrance is played before reveal")
    card = action.get("card_id")
    if card not in state.faction(seat).hand or card_kind(str(card)) != "truthtrance":
        raise IllegalAction("no_truthtrance_card", "you hold no such Truthtrance card")
    question = action.get("question")
    if not isinstance(question, dict):
        raise IllegalAction("bad_question", "question must be {kind, param}")
    kind = question.get("kind")
    param = _check_question(kind, question.get("param", ""))
    asked = battle.other(seat).faction
    state = spend(state, seat, str(card))
    answer = _fact(state, asked, str(kind), param) if kind in FACT_KINDS else None
    q = Question(seat, asked, str(kind), param, answer)
    battle = replace(battle, questions=(*battle.questions, q))
    if answer is None:
        battle = push(battle, "answer_truthtrance", asked)
    data = {"by": seat, "to": asked, "kind": kind, "param": param, "answer": answer}
    state, more = settle(replace(state, battle=battle))
    return state, [Event("truthtrance", data), *more]


def do_answer_truthtrance(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    battle = state.battle
    top = battle.stack[-1] if battle and battle.stack else None
    if battle is None or top is None or top.kind != "answer_truthtrance" or top.seat != seat:
        raise IllegalAction("not_your_decision", "no Truthtrance question awaits your answer")
    answer = action.get("answer")
    if answer not in ("yes", "no"):
        raise IllegalAction("bad_action", "answer yes or no")
    q = battle.questions[-1]
    binding = Binding("truthtrance", q.kind, q.param, answer)
    if not satisfiable(state, battle, seat, binding):
        raise IllegalAction("answer_unsatisfiable", "no legal plan would make that answer true")
    if not true_of_committed(state, battle, seat, binding):
        raise IllegalAction("truthtrance_violation", "your committed plan answers otherwise")
    side = battle.side(seat)
    battle = replace(
        battle.with_side(replace(side, bindings=(*side.bindings, binding))),
        questions=(*battle.questions[:-1], replace(q, answer=answer)),
        stack=battle.stack[:-1],
    )
    data = {"by": seat, "kind": q.kind, "param": q.param, "answer": answer}
    state, more = settle(replace(state, battle=battle))
    return state, [Event("truthtrance_answered", data), *more]


def truthtrance_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    """The catalog for the seat's first Truthtrance card (about forty questions)."""
    battle = state.battle
    if (
        battle is None
        or battle.step not in PRE_STEPS
        or battle.stack
        or turn_seat(state, battle) != seat
    ):
        return []
    cards = [c for c in state.faction(seat).hand if card_kind(c) == "truthtrance"]
    if not cards:
        return []
    asked = battle.other(seat).faction
    qs: list[tuple[str, Any]] = [("holds_traitor", ld) for ld in _own_leaders(state, battle, seat)]
    qs += [("holds_card", k) for k in HELD_KINDS]
    qs += [("leader_is", ld) for ld in _public_leaders(state, battle, asked, seat)]
    qs += [("weapon_kind", p) for p in WEAPON_PARAMS] + [
        ("defense_kind", p) for p in DEFENSE_PARAMS
    ]
    qs += [("worthless", "")] + [("dial_more_than", n) for n in DIAL_PARAMS]
    return [
        {"type": "truthtrance", "card_id": cards[0], "question": {"kind": k, "param": p}}
        for k, p in qs
    ]


def _public_leaders(state: GameState, battle: Battle, asked: str, asker: str) -> list[str]:
    """Leader-slot guesses built only from what the asker can see (never the asked's hand)."""
    out = [
        ld.id
        for ld in state.leaders
        if ld.id in available_leaders(state, asked, battle.territory)
        and (not ld.secret or asker in (LEADERS[ld.id].faction, "harkonnen"))
    ]
    return [*out, "cheap_hero"]


def _own_leaders(state: GameState, battle: Battle, seat: str) -> list[str]:
    """The asker's own fightable leaders whose identity is public (asking about a
    captured leader would announce the capture)."""
    return [
        ld
        for ld in leader_options(state, battle, seat)
        if ld in LEADERS and not state.leader(ld).secret
    ]


def _token(leader: str | None) -> str:
    if leader is None:
        return "none"
    return leader if leader in LEADERS else "cheap_hero"


def answer_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    battle = state.battle
    top = battle.stack[-1] if battle and battle.stack else None
    if battle is None or top is None or top.kind != "answer_truthtrance" or top.seat != seat:
        return []
    q = battle.questions[-1]
    out = []
    for a in ("yes", "no"):
        b = Binding("truthtrance", q.kind, q.param, a)
        if satisfiable(state, battle, seat, b) and true_of_committed(state, battle, seat, b):
            out.append({"type": "answer_truthtrance", "answer": a})
    return out
