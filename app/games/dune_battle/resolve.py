"""Battle resolution S11–S12 (DB-21, DB-30…DB-40).

Order of precedence: traitor calls first (one, then two), then the lasgun–shield
explosion, then weapons, totals (ties to the aggressor) and losses. Each branch
is a pure function of the revealed plans and the state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle.catalog import LEADERS, card_kind, strength
from app.games.dune_battle.losses import (
    discard,
    gain,
    kill_leader,
    lose_tokens,
    lose_zone,
    pay,
    plan_cards,
)
from app.games.dune_battle.plan import plan_dial2
from app.games.dune_battle.state import Battle, GameState, Plan

Result = tuple[GameState, list[Event]]


def traitor_allowed(state: GameState, battle: Battle, seat: str) -> str | None:
    """None if ``seat`` may call traitor now, else the refusal code (DB-21, DB-54)."""
    plan = battle.other(seat).draft
    leader = plan.leader if plan else None
    if leader is None or leader not in LEADERS:
        return "traitor_not_held"
    held = leader in state.faction(seat).traitors
    ld = state.leader(leader)
    owner_call = (
        state.options.captured_leader_traitor_to_owner
        and ld.captured_from is not None
        and LEADERS[leader].faction == seat
    )
    if not (held or owner_call):
        return "traitor_not_held"
    if plan and plan.kh and not battle.kh_cancelled:
        return "traitor_blocked_by_kh"
    return None


def traitor_turn(battle: Battle) -> str | None:
    """Traitor calls are made one after the other, hidden until both decided (DB-21)."""
    for side in (battle.aggressor, battle.defender):
        if side.traitor_call is None:
            return side.faction
    return None


def do_traitor(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    battle = state.battle
    if battle is None or battle.step != "traitor" or seat not in battle.combatants:
        raise IllegalAction("not_your_decision", "no traitor call is open for you")
    side = battle.side(seat)
    if traitor_turn(battle) != seat:
        raise IllegalAction("not_your_decision", "it is not your turn to decide")
    call = action["type"] == "call_traitor"
    if call:
        code = traitor_allowed(state, battle, seat)
        if code:
            raise IllegalAction(code, "you cannot call traitor on that leader")
    battle = battle.with_side(replace(side, traitor_call="call" if call else "decline"))
    state = replace(state, battle=battle)
    events = [Event("traitor_decided", {"by": seat}, seat)]
    if battle.aggressor.traitor_call and battle.defender.traitor_call:
        calls = {s.faction: s.traitor_call == "call" for s in (battle.aggressor, battle.defender)}
        events.append(Event("traitor_calls", {"calls": calls}))
        state, more = resolve(state)
        events += more
    return state, events


def _plans(battle: Battle) -> tuple[Plan, Plan]:
    return battle.aggressor.draft or Plan(), battle.defender.draft or Plan()


def resolve(state: GameState) -> Result:
    battle = state.battle
    assert battle is not None
    callers = [s.faction for s in (battle.aggressor, battle.defender) if s.traitor_call == "call"]
    pa, pd = _plans(battle)
    kinds = {card_kind(c) for p in (pa, pd) for c in (p.weapon, p.defense) if c}
    if len(callers) == 1:
        return _one_traitor(state, callers[0])
    if len(callers) == 2:
        return _two_traitors(state)
    if "lasgun" in kinds and "shield" in kinds:
        return _explosion(state)
    return _normal(state)


def _support(state: GameState, battle: Battle, payers: tuple[str, ...]) -> GameState:
    if not state.options.advanced:
        return state
    for f in payers:
        state = pay(state, f, (battle.side(f).draft or Plan()).spice)
    return state


def _leader_stays(state: GameState, battle: Battle, leader: str | None) -> GameState:
    if leader is None or leader not in LEADERS or state.leader(leader).zone == "tanks":
        return state
    ld = state.leader(leader)
    return state.with_leader(
        replace(
            ld,
            zone="territory",
            territory=battle.territory,
            fought_for_captor=ld.captured_from is not None,
        )
    )


def _finish(
    state: GameState,
    battle: Battle,
    result: str,
    winner: str | None,
    keep: tuple[str, ...],
    data: dict[str, Any],
) -> Result:
    from app.games.dune_battle.capture import after_resolution

    totals = tuple((f, int(v * 2)) for f, v in data.get("totals", {}).items())
    battle = replace(
        state.battle or battle, result=result, winner=winner, keepable=keep, totals=totals
    )
    state = replace(state, battle=battle)
    event = Event("battle_resolved", {"result": result, "winner": winner, **data})
    state, more = after_resolution(state)
    return state, [event, *more]


def _one_traitor(state: GameState, caller: str) -> Result:
    """DB-37: the caller wins outright, whatever the plans."""
    battle = state.battle
    assert battle is not None
    betrayed = battle.other(caller).faction
    bplan, cplan = battle.side(betrayed).draft or Plan(), battle.side(caller).draft or Plan()
    traitor = bplan.leader or ""
    state = kill_leader(state, traitor)
    state = gain(state, caller, strength(traitor))
    state, lost = lose_zone(state, betrayed, battle.territory, battle.sectors)
    state = discard(state, betrayed, plan_cards(bplan))
    state = _support(state, battle, (betrayed,))
    hero = tuple(c for c in plan_cards(cplan) if card_kind(c) == "cheap_hero")
    state = discard(state, caller, hero)
    if cplan.leader in LEADERS:  # the caller's leader is free again this phase [G]
        ld = state.leader(cplan.leader or "")
        state = state.with_leader(replace(ld, zone="pool", territory=None))
    keep = tuple(c for c in (cplan.weapon, cplan.defense) if c)
    data = {
        "traitor": traitor,
        "caller": caller,
        "spice_to_caller": strength(traitor),
        "lost": lost,
    }
    return _finish(state, battle, "traitor", caller, keep, data)


def _two_traitors(state: GameState) -> Result:
    """DB-38: both leaders die, both sides lose everything in the zone, no winner."""
    battle = state.battle
    assert battle is not None
    lost: dict[str, int] = {}
    for side in (battle.aggressor, battle.defender):
        plan = side.draft or Plan()
        if plan.leader in LEADERS:
            state = kill_leader(state, plan.leader or "")
        state, more = lose_zone(state, side.faction, battle.territory, battle.sectors)
        lost.update(more)
        state = discard(state, side.faction, plan_cards(plan))
    state = _support(state, battle, battle.combatants)
    return _finish(state, battle, "two_traitors", None, (), {"lost": lost})


def _explosion(state: GameState) -> Result:
    """DB-40: the whole territory is wiped out; nobody wins, nobody is paid."""
    battle = state.battle
    assert battle is not None
    from app.games.dune_battle.catalog import TERRITORIES

    sectors = TERRITORIES[battle.territory].sectors
    state, lost = lose_zone(state, None, battle.territory, sectors)
    spice = state.territory(battle.territory).spice
    state = replace(
        state,
        territories=tuple(
            replace(t, spice=0) if t.id == battle.territory else t for t in state.territories
        ),
    )
    dead = []
    for side in (battle.aggressor, battle.defender):
        plan = side.draft or Plan()
        if plan.leader in LEADERS:
            state = kill_leader(state, plan.leader or "")
            dead.append(plan.leader)
        if plan.kh and not battle.kh_cancelled:  # DB-15: the only way the KH dies
            fac = state.faction(side.faction)
            state = state.with_faction(replace(fac, kh_dead=True, kh_used_in=battle.territory))
        state = discard(state, side.faction, plan_cards(plan))
    state = _support(state, battle, battle.combatants)
    data = {"lost": lost, "spice_lost": spice, "leaders_killed": dead}
    return _finish(state, battle, "explosion", None, (), data)


def _kills(weapon: str | None, defense: str | None) -> bool:
    """DB-31: does this weapon kill a leader behind this defense?"""
    w = card_kind(weapon) if weapon else None
    d = card_kind(defense) if defense else None
    return (
        (w == "projectile" and d != "shield") or (w == "poison" and d != "snooper") or w == "lasgun"
    )


def _normal(state: GameState) -> Result:
    """DB-31…DB-36: weapons, totals, winner, losses, spice, cards."""
    battle = state.battle
    assert battle is not None
    plans = dict(zip(battle.combatants, _plans(battle), strict=True))
    totals: dict[str, int] = {}
    dead: list[str] = []
    for f, plan in plans.items():
        opp = plans[battle.other(f).faction]
        killed = plan.leader is not None and _kills(opp.weapon, plan.defense)
        total = plan_dial2(state, battle, f, plan, nominal=False)
        if plan.leader is not None and not killed:
            total += 2 * (strength(plan.leader) if plan.leader in LEADERS else 0)
            total += 4 if plan.kh and not battle.kh_cancelled else 0
        if killed and plan.leader in LEADERS:
            dead.append(plan.leader or "")
        totals[f] = total
    a, d = battle.combatants
    winner = a if totals[a] >= totals[d] else d
    loser = battle.other(winner).faction
    for lid in dead:
        state = kill_leader(state, lid)
    state = gain(state, winner, sum(strength(lid) for lid in dead))
    wplan, lplan = plans[winner], plans[loser]
    state = lose_tokens(state, winner, battle.territory, battle.sectors, wplan.normal, wplan.elite)
    state, lost = lose_zone(state, loser, battle.territory, battle.sectors)
    lost[winner] = wplan.normal + wplan.elite
    state = discard(state, loser, plan_cards(lplan))
    state = discard(
        state, winner, tuple(c for c in plan_cards(wplan) if card_kind(c) == "cheap_hero")
    )
    state = _support(state, battle, battle.combatants)
    for f, plan in plans.items():
        state = _leader_stays(state, battle, plan.leader)
        if plan.kh and not battle.kh_cancelled:
            state = state.with_faction(replace(state.faction(f), kh_used_in=battle.territory))
    keep = tuple(c for c in (wplan.weapon, wplan.defense) if c)
    data = {
        "totals": {f: v / 2 for f, v in totals.items()},
        "leaders_killed": dead,
        "spice_to_winner": sum(strength(lid) for lid in dead),
        "lost": lost,
    }
    return _finish(state, battle, "normal", winner, keep, data)
