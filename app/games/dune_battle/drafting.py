"""Plan drafting before reveal (DB-18): set, revise and commit a battle plan.

A draft is checked against every rule and binding in force when it is set; a
seat may revise it up to ``plan_revisions`` times per battle (ruling R-3) so
that every battle, even between random players, ends in bounded steps.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle.constraints import check_plan, suggestions
from app.games.dune_battle.plan import parse_plan, plan_to_json
from app.games.dune_battle.state import Battle, Binding, GameState, Side
from app.games.dune_battle.steps import PRE_STEPS, Result, settle, turn_seat


def _pre_reveal_seat(state: GameState, seat: str) -> Battle:
    battle = state.battle
    if battle is None or battle.step not in PRE_STEPS or seat not in battle.combatants:
        raise IllegalAction("not_your_decision", "no plan to make now")
    if turn_seat(state, battle) != seat:
        raise IllegalAction("not_your_decision", "it is not your turn to act")
    return battle


def do_set_plan(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    battle = _pre_reveal_seat(state, seat)
    top = battle.stack[-1] if battle.stack else None
    if top is not None and top.kind != "draft_for_full_view":
        raise IllegalAction("not_your_decision", "answer the pending question first")
    side = battle.side(seat)
    if side.draft is not None and side.revisions >= state.options.plan_revisions:
        raise IllegalAction("revision_limit", "no more plan revisions in this battle")
    plan = parse_plan(action)
    check_plan(state, battle, seat, plan)
    side = replace(side, draft=plan, committed=False, revisions=side.revisions + 1)
    battle = battle.with_side(side)
    events = [Event("plan_drafted", {"by": seat, "plan": plan_to_json(plan)}, seat)]
    if top is not None:
        battle = replace(battle, stack=battle.stack[:-1], full_view=plan)
        side = replace(side, bindings=(*side.bindings, Binding("lock", plan=plan)))
        battle = battle.with_side(side)
        events.append(Event("full_view_seen", {"of": seat, "plan": plan_to_json(plan)}, "atreides"))
    state, more = settle(replace(state, battle=battle))
    return state, [*events, *more]


def do_commit(state: GameState, seat: str) -> Result:
    battle = _pre_reveal_seat(state, seat)
    if battle.stack:
        raise IllegalAction("not_your_decision", "answer the pending decision first")
    side = battle.side(seat)
    if side.draft is None:
        raise IllegalAction("no_plan", "set a plan before committing")
    if side.committed:
        raise IllegalAction("already_committed", "the plan is already committed")
    battle = battle.with_side(replace(side, committed=True))
    state, more = settle(replace(state, battle=battle))
    return state, [Event("plan_committed", {"by": seat}, seat), *more]


def drafting_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    """set_plan suggestions (a few concrete legal plans) and commit_plan."""
    battle = state.battle
    assert battle is not None
    if turn_seat(state, battle) != seat:
        return []
    if battle.stack and (
        battle.stack[-1].seat != seat or battle.stack[-1].kind != "draft_for_full_view"
    ):
        return []
    side: Side = battle.side(seat)
    out: list[dict[str, Any]] = []
    if side.draft is None or side.revisions < state.options.plan_revisions:
        out += [{"type": "set_plan", **plan_to_json(p)} for p in suggestions(state, battle, seat)]
    if side.draft is not None and not side.committed and not battle.stack:
        out.append({"type": "commit_plan"})
    return out
