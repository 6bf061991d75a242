"""Constraints on a plan (Voice, Prescience, Truthtrance, Karama lock) and search.

Bindings are kept in the order they arose. A Voice binds only "as well as
able" (DB-20): it is in force iff some legal plan satisfies it together with
every earlier binding in force. Answers (Prescience, Truthtrance) are accepted
only if satisfiable with everything in force (``answer_unsatisfiable``), so a
player can never be left without a legal plan.

Card choices and the dial are independent, so the search enumerates
leader × weapon × defense (one card per name) and checks the dial separately
against the table of reachable dial values.
"""

from __future__ import annotations

from collections.abc import Iterator

from app.games.base import IllegalAction
from app.games.dune_battle.catalog import DEFENSE_KINDS, WEAPON_KINDS, card_kind, card_slug, is_card
from app.games.dune_battle.plan import (
    check_structure,
    dial_table,
    kh_available,
    leader_options,
    plan_dial2,
    slot_options,
)
from app.games.dune_battle.state import Battle, Binding, GameState, Plan

VOICE_TARGETS = (
    "projectile_weapon",
    "poison_weapon",
    "lasgun",
    "projectile_defense",
    "poison_defense",
    "worthless",
    "cheap_hero",
)
SEED_FORBIDDEN_TARGETS = frozenset({"worthless", "cheap_hero"})
DIAL_BINDINGS = frozenset({"dial", "dial_more_than"})
VIOLATION = {
    "voice": "voice_violation",
    "prescience": "prescience_violation",
    "truthtrance": "truthtrance_violation",
    "lock": "plan_locked_by_karama",
}


def _kind(card: str | None) -> str:
    return "none" if card is None else card_kind(card)


def leader_token(plan: Plan) -> str:
    """What the leader slot holds: a leader id, ``cheap_hero`` or ``none``."""
    if plan.leader is None:
        return "none"
    return "cheap_hero" if is_card(plan.leader) else plan.leader


def voice_holds(target: str, plan: Plan) -> bool:
    """Does the plan play the Voice's category?"""
    w, d = _kind(plan.weapon), _kind(plan.defense)
    return {
        "projectile_weapon": w == "projectile",
        "poison_weapon": w == "poison",
        "lasgun": w == "lasgun",
        "projectile_defense": d == "shield",
        "poison_defense": d == "snooper",
        "worthless": "worthless" in (w, d),
        "cheap_hero": leader_token(plan) == "cheap_hero",
    }[target]


def intent_holds(kind: str, param: str, plan: Plan, dial2: int) -> bool:
    """Truth value of a Truthtrance intent question for a plan (DB-24 catalog)."""
    w, d = _kind(plan.weapon), _kind(plan.defense)
    if kind == "leader_is":
        return leader_token(plan) == param
    if kind == "weapon_kind":
        return w == param or (param == "any" and w in ("projectile", "poison", "lasgun"))
    if kind == "defense_kind":
        return d == param or (param == "any" and d in ("shield", "snooper"))
    if kind == "worthless":
        return "worthless" in (w, d)
    if kind == "dial_more_than":
        return dial2 > 2 * int(param)
    raise ValueError(kind)


def prescience_value(element: str, plan: Plan, dial2: int) -> str:
    """The answer a plan gives to a Prescience element; cards bind by name (G-5)."""
    if element == "leader":
        return leader_token(plan)
    if element in ("weapon", "defense"):
        card = plan.weapon if element == "weapon" else plan.defense
        return "none" if card is None else card_slug(card)
    return str(dial2)


def holds(b: Binding, plan: Plan, dial2: int) -> bool:
    if b.kind == "voice":
        return voice_holds(b.subject, plan) == (b.value == "must")
    if b.kind == "prescience":
        return prescience_value(b.subject, plan, dial2) == b.value
    if b.kind == "truthtrance":
        return intent_holds(b.subject, b.param, plan, dial2) == (b.value == "yes")
    return plan == b.plan


def _touches_dial(b: Binding) -> bool:
    return b.subject in DIAL_BINDINGS


def _card_parts(state: GameState, battle: Battle, faction: str) -> Iterator[Plan]:
    """Structurally possible (leader, weapon, defense) triples, dial left at zero."""
    for leader in leader_options(state, battle, faction):
        weapons = slot_options(state, faction, WEAPON_KINDS) if leader else [None]
        defenses = slot_options(state, faction, DEFENSE_KINDS) if leader else [None]
        for w in weapons:
            for d in defenses:
                if w is not None and w == d:
                    continue
                yield Plan(leader=leader, weapon=w, defense=d)


def _dials(state: GameState, battle: Battle, faction: str, bs: list[Binding]) -> list[Plan]:
    """Dial compositions (as plans with no cards) meeting every dial binding."""
    out = []
    for value, (n, e, s) in dial_table(state, battle, faction).items():
        probe = Plan(normal=n, elite=e, spice=s)
        if all(holds(b, probe, value) for b in bs if _touches_dial(b)):
            out.append(probe)
    return out


def solutions(
    state: GameState, battle: Battle, faction: str, bs: list[Binding], limit: int
) -> list[Plan]:
    """Up to ``limit`` card parts (dial zero) meeting every card binding."""
    lock = next((b.plan for b in bs if b.kind == "lock" and b.plan), None)
    if lock is not None:
        ok = all(holds(b, lock, plan_dial2(state, battle, faction, lock, True)) for b in bs)
        return [lock] if ok else []
    if not _dials(state, battle, faction, bs):
        return []
    out = []
    for part in _card_parts(state, battle, faction):
        if all(holds(b, part, 0) for b in bs if not _touches_dial(b) and b.kind != "lock"):
            out.append(part)
            if len(out) >= limit:
                break
    return out


def in_force(
    state: GameState, battle: Battle, faction: str, extra: tuple[Binding, ...] = ()
) -> list[Binding]:
    """The bindings that bind now, in order (a Voice that cannot be met drops out)."""
    out: list[Binding] = []
    for b in (*battle.side(faction).bindings, *extra):
        if not b.active:
            continue
        if b.kind == "voice" and not solutions(state, battle, faction, [*out, b], 1):
            continue
        out.append(b)
    return out


def satisfiable(state: GameState, battle: Battle, faction: str, extra: Binding) -> bool:
    """Could the side still play a legal plan if ``extra`` were added?"""
    bs = in_force(state, battle, faction)
    return bool(solutions(state, battle, faction, [*bs, extra], 1))


def check_plan(state: GameState, battle: Battle, faction: str, plan: Plan) -> None:
    """Structure first, then each binding in force; raises the first violation."""
    check_structure(state, battle, faction, plan)
    dial2 = plan_dial2(state, battle, faction, plan, nominal=True)
    for b in sorted(in_force(state, battle, faction), key=lambda b: b.kind != "lock"):
        if not holds(b, plan, dial2):
            raise IllegalAction(VIOLATION[b.kind], f"the plan breaks the {b.kind} in force")


def true_of_committed(state: GameState, battle: Battle, faction: str, binding: Binding) -> bool:
    """A committed plan answers for its owner (R-26): no answer may silently
    un-commit it, since the S9 turn order would then tell the asker."""
    side = battle.side(faction)
    if not side.committed or side.draft is None:
        return True
    return holds(binding, side.draft, plan_dial2(state, battle, faction, side.draft, True))


def plan_ok(state: GameState, battle: Battle, faction: str, plan: Plan) -> bool:
    try:
        check_plan(state, battle, faction, plan)
    except IllegalAction:
        return False
    return True


def suggestions(state: GameState, battle: Battle, faction: str, limit: int = 12) -> list[Plan]:
    """A small, varied set of complete legal plans for ``legal_actions``."""
    bs = in_force(state, battle, faction)
    parts = solutions(state, battle, faction, bs, 40)
    if not parts:
        return []
    if any(b.kind == "lock" for b in bs):
        return parts
    dials = _dials(state, battle, faction, bs)
    picks = [dials[0], dials[-1], dials[len(dials) // 2]]
    step = max(1, len(parts) // 6)
    out: list[Plan] = []
    for i, part in enumerate(parts[::step][:6]):
        d = picks[i % len(picks)]
        out.append(Plan(part.leader, part.weapon, part.defense, d.normal, d.elite, d.spice))
    if kh_available(state, battle, faction) and out[0].leader is not None:
        p = out[0]
        out.append(Plan(p.leader, p.weapon, p.defense, p.normal, p.elite, p.spice, kh=True))
    out = [p for p in dict.fromkeys(out) if plan_ok(state, battle, faction, p)]
    return out[:limit]
