"""Battle plans: structural rules (DB-10…DB-15) and the dial arithmetic.

Dial values are kept in half-units (integers ×2) so that half-strength tokens
never produce float ties (DB-11). The *nominal* dial ignores a Karama-cancelled
elite bonus: it is what Prescience and Truthtrance answers bind (G-5 extended),
so a later Karama never makes an already given answer unsatisfiable.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from app.games.base import IllegalAction
from app.games.dune_battle.board import tokens_in
from app.games.dune_battle.catalog import (
    DEFENSE_KINDS,
    LEADERS,
    WEAPON_KINDS,
    card_kind,
    is_card,
)
from app.games.dune_battle.state import Battle, GameState, Plan

KH_THRESHOLD = 7


def available_leaders(state: GameState, faction: str, territory: str) -> list[str]:
    """Leaders the faction may field here (DB-12, DB-7): alive, not used elsewhere."""
    return [
        ld.id
        for ld in state.leaders
        if ld.controller == faction
        and ld.zone != "tanks"
        and (ld.zone == "pool" or ld.territory == territory)
    ]


def cheap_heroes(state: GameState, faction: str) -> list[str]:
    return [c for c in state.faction(faction).hand if card_kind(c) == "cheap_hero"]


def no_leader_available(state: GameState, battle: Battle, faction: str) -> bool:
    """The public DB-12 announcement: neither a leader nor a Cheap Hero to play."""
    return not available_leaders(state, faction, battle.territory) and not cheap_heroes(
        state, faction
    )


def kh_available(state: GameState, battle: Battle, faction: str) -> bool:
    """May the Atreides attach the Kwisatz Haderach in this battle (DB-15)?"""
    fac = state.faction(faction)
    return (
        faction == "atreides"
        and state.options.advanced
        and fac.kh_losses >= KH_THRESHOLD
        and not fac.kh_dead
        and not battle.kh_cancelled
        and fac.kh_used_in in (None, battle.territory)
    )


def kh_active(state: GameState, faction: str) -> bool:
    """The KH has awakened (public consequence: Karama window S7 opens)."""
    fac = state.faction(faction)
    return (
        faction == "atreides"
        and state.options.advanced
        and fac.kh_losses >= KH_THRESHOLD
        and not fac.kh_dead
    )


def elite_value2(state: GameState, battle: Battle, faction: str, nominal: bool) -> int:
    """Half-unit value of one supported elite token (DB-11, DB-25)."""
    opponent = battle.other(faction).faction
    if faction == "emperor" and opponent == "fremen":
        return 2
    if battle.elite_cancelled and not nominal:
        return 2
    return 4


def spice_dialing(state: GameState, faction: str) -> bool:
    """Advanced spice dialing applies, except to battle-hardened Fremen."""
    return state.options.advanced and faction != "fremen"


def dial2_of(normal: int, elite: int, spice: int, ev2: int, dialing: bool) -> int:
    """Dial value in half-units; spice supports elite tokens first (G-4)."""
    if not dialing:
        return 2 * normal + ev2 * elite
    se = min(elite, spice)
    sn = min(normal, spice - se)
    return se * ev2 + (elite - se) * ev2 // 2 + 2 * sn + (normal - sn)


def plan_dial2(state: GameState, battle: Battle, faction: str, plan: Plan, nominal: bool) -> int:
    ev2 = elite_value2(state, battle, faction, nominal)
    return dial2_of(plan.normal, plan.elite, plan.spice, ev2, spice_dialing(state, faction))


@lru_cache(maxsize=4096)
def _dial_table(
    normal: int, elite: int, spice: int, ev2: int, dialing: bool
) -> tuple[tuple[int, tuple[int, int, int]], ...]:
    """Every reachable dial value with its cheapest composition (fewest tokens)."""
    best: dict[int, tuple[int, int, int]] = {}
    for n in range(normal + 1):
        for e in range(elite + 1):
            top = min(n + e, spice) if dialing else 0
            for s in range(top + 1):
                v = dial2_of(n, e, s, ev2, dialing)
                cur = best.get(v)
                if cur is None or (n + e, s) < (cur[0] + cur[1], cur[2]):
                    best[v] = (n, e, s)
    return tuple(sorted(best.items()))


def dial_table(state: GameState, battle: Battle, faction: str) -> dict[int, tuple[int, int, int]]:
    """Nominal dial value (half-units) -> one (normal, elite, spice) reaching it."""
    normal, elite = tokens_in(state.forces, faction, battle.territory, battle.sectors)
    spice = state.faction(faction).spice if spice_dialing(state, faction) else 0
    ev2 = elite_value2(state, battle, faction, nominal=True)
    return dict(_dial_table(normal, elite, spice, ev2, spice_dialing(state, faction)))


def parse_plan(action: Mapping[str, Any]) -> Plan:
    """The wire form of ``set_plan`` as a Plan; shape errors are ``bad_action``."""

    def opt_str(key: str) -> str | None:
        v = action.get(key)
        if v is not None and not isinstance(v, str):
            raise IllegalAction("bad_action", f"{key} must be a string or null")
        return v

    def count(key: str) -> int:
        v = action.get(key, 0)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise IllegalAction("bad_action", f"{key} must be a non-negative integer")
        return v

    kh = action.get("kwisatz_haderach", False)
    if not isinstance(kh, bool):
        raise IllegalAction("bad_action", "kwisatz_haderach must be true or false")
    return Plan(
        leader=opt_str("leader"),
        weapon=opt_str("weapon"),
        defense=opt_str("defense"),
        normal=count("normal"),
        elite=count("elite"),
        spice=count("spice"),
        kh=kh,
    )


def plan_to_json(plan: Plan) -> dict[str, Any]:
    return {
        "leader": plan.leader,
        "weapon": plan.weapon,
        "defense": plan.defense,
        "normal": plan.normal,
        "elite": plan.elite,
        "spice": plan.spice,
        "kwisatz_haderach": plan.kh,
    }


def _check_leader(state: GameState, battle: Battle, faction: str, plan: Plan) -> None:
    hand = state.faction(faction).hand
    if plan.leader is None:
        if not no_leader_available(state, battle, faction):
            raise IllegalAction("leader_required", "a leader or Cheap Hero must be played")
        if plan.weapon is not None or plan.defense is not None:
            raise IllegalAction("cards_without_leader", "no treachery cards without a leader")
        return
    if is_card(plan.leader):
        if plan.leader not in hand:
            raise IllegalAction("card_not_in_hand", "that Cheap Hero is not in your hand")
        if card_kind(plan.leader) != "cheap_hero":
            raise IllegalAction("slot_type_mismatch", "only a Cheap Hero fills the leader slot")
    elif plan.leader not in LEADERS or plan.leader not in available_leaders(
        state, faction, battle.territory
    ):
        raise IllegalAction("leader_unavailable", "that leader cannot fight here")


def _check_cards(state: GameState, faction: str, plan: Plan) -> None:
    hand = state.faction(faction).hand
    for slot, card, kinds in (
        ("weapon", plan.weapon, WEAPON_KINDS),
        ("defense", plan.defense, DEFENSE_KINDS),
    ):
        if card is None:
            continue
        if card not in hand:
            raise IllegalAction("card_not_in_hand", f"the {slot} card is not in your hand")
        if card_kind(card) not in kinds:
            raise IllegalAction("slot_type_mismatch", f"that card cannot fill the {slot} slot")
    if plan.weapon is not None and plan.weapon == plan.defense:
        raise IllegalAction("slot_type_mismatch", "one card cannot fill both slots")


def _check_dial(state: GameState, battle: Battle, faction: str, plan: Plan) -> None:
    normal, elite = tokens_in(state.forces, faction, battle.territory, battle.sectors)
    if plan.normal > normal or plan.elite > elite:
        raise IllegalAction("dial_exceeds_forces", "more tokens than you have in the battle")
    if plan.spice and not spice_dialing(state, faction):
        raise IllegalAction("spice_not_allowed", "no spice support here (basic game or Fremen)")
    if plan.spice > plan.normal + plan.elite:
        raise IllegalAction("spice_exceeds_forces", "at most one spice per committed token")
    if plan.spice > state.faction(faction).spice:
        raise IllegalAction("spice_exceeds_available", "you do not have that much spice")


def _check_kh(state: GameState, battle: Battle, faction: str, plan: Plan) -> None:
    if not plan.kh:
        return
    fac = state.faction(faction)
    if not kh_active(state, faction) or battle.kh_cancelled:
        raise IllegalAction("kh_inactive", "the Kwisatz Haderach cannot be used")
    if fac.kh_used_in not in (None, battle.territory):
        raise IllegalAction("kh_used_elsewhere", "the Kwisatz Haderach fought elsewhere")
    if plan.leader is None:
        raise IllegalAction("kh_without_leader", "the Kwisatz Haderach needs a leader")


def check_structure(state: GameState, battle: Battle, faction: str, plan: Plan) -> None:
    """Every rule of §4 that does not depend on Voice/Prescience/Truthtrance."""
    _check_leader(state, battle, faction, plan)
    _check_cards(state, faction, plan)
    _check_dial(state, battle, faction, plan)
    _check_kh(state, battle, faction, plan)


def leader_options(state: GameState, battle: Battle, faction: str) -> list[str | None]:
    """Leader-slot choices, one Cheap Hero standing for all copies."""
    leaders: list[str | None] = list(available_leaders(state, faction, battle.territory))
    heroes = cheap_heroes(state, faction)
    if heroes:
        leaders.append(heroes[0])
    return leaders or [None]


def slot_options(state: GameState, faction: str, kinds: frozenset[str]) -> list[str | None]:
    """Cards for a slot, one per card name (copies are interchangeable)."""
    seen: dict[str, str] = {}
    for c in state.faction(faction).hand:
        slug = c.rsplit("-", 1)[0]
        if card_kind(c) in kinds and slug not in seen:
            seen[slug] = c
    return [None, *seen.values()]
