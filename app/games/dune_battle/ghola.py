"""Tleilaxu Ghola (§11.2): revive one leader, or up to five forces, for free.

Played like Karama and Truthtrance: in one of your turns before reveal (R-2).
A leader so revived may fight in this very Battle phase [Q]; revived forces go
to reserves (off the board). The Kwisatz Haderach, once killed in an
explosion, "is revived like a leader" (DB-15), so the Atreides may name it
(``leader: "kwisatz_haderach"``) — ruling R-20. A revival is refused if it
would leave the player without a legal plan under the answers already given
(e.g. Prescience answered "no leader"), with ``answer_unsatisfiable`` — R-27.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle.catalog import LEADERS, card_kind
from app.games.dune_battle.constraints import in_force, solutions
from app.games.dune_battle.karama import spend
from app.games.dune_battle.state import GameState
from app.games.dune_battle.steps import PRE_STEPS, Result, settle, turn_seat

MAX_FORCES = 5
KH = "kwisatz_haderach"


def _cards(state: GameState, seat: str) -> list[str]:
    return [c for c in state.faction(seat).hand if card_kind(c) == "ghola"]


def _open(state: GameState, seat: str) -> bool:
    battle = state.battle
    return (
        battle is not None
        and battle.step in PRE_STEPS
        and not battle.stack
        and turn_seat(state, battle) == seat
    )


def _revive_leader(state: GameState, seat: str, leader: Any) -> GameState:
    if leader == KH:
        fac = state.faction(seat)
        if not fac.kh_dead:
            raise IllegalAction("leader_unavailable", "the Kwisatz Haderach is not in the Tanks")
        return state.with_faction(replace(fac, kh_dead=False))
    if not isinstance(leader, str) or leader not in LEADERS or LEADERS[leader].faction != seat:
        raise IllegalAction("leader_unavailable", "revive one of your own leaders")
    ld = state.leader(leader)
    if ld.zone != "tanks":
        raise IllegalAction("leader_unavailable", "that leader is not in the Tanks")
    return state.with_leader(
        replace(
            ld,
            controller=seat,
            zone="pool",
            face_down=False,
            secret=False,
            captured_from=None,
            fought_for_captor=False,
        )
    )


def _revive_forces(state: GameState, seat: str, normal: Any, elite: Any) -> GameState:
    fac = state.faction(seat)
    ok = all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in (normal, elite))
    if not ok or not 0 < normal + elite <= MAX_FORCES:
        raise IllegalAction("bad_action", "revive 1 to 5 forces")
    if normal > fac.tanks_normal or elite > fac.tanks_elite:
        raise IllegalAction("dial_exceeds_forces", "not that many forces in the Tanks")
    return state.with_faction(
        replace(
            fac,
            tanks_normal=fac.tanks_normal - normal,
            tanks_elite=fac.tanks_elite - elite,
            reserves_normal=fac.reserves_normal + normal,
            reserves_elite=fac.reserves_elite + elite,
        )
    )


def do_ghola(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    if not _open(state, seat):
        raise IllegalAction("not_your_decision", "a Ghola is played in your turn before reveal")
    card = action.get("card_id")
    if card not in _cards(state, seat):
        raise IllegalAction("card_not_in_hand", "you hold no such Tleilaxu Ghola")
    after = spend(state, seat, str(card))
    leader = action.get("leader")
    if leader is not None:
        after = _revive_leader(after, seat, leader)
    else:
        after = _revive_forces(after, seat, action.get("normal", 0), action.get("elite", 0))
    battle = after.battle
    assert battle is not None
    if not solutions(after, battle, seat, in_force(after, battle, seat), 1):
        raise IllegalAction("answer_unsatisfiable", "that revival would break an answer given")
    data = {"by": seat, "leader": leader}
    if leader is None:
        data |= {"normal": action.get("normal", 0), "elite": action.get("elite", 0)}
    state, more = settle(after)
    return state, [Event("ghola", data), *more]


def ghola_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    """One revival per dead leader, and the largest force revival (normal tokens first)."""
    if not _open(state, seat):
        return []
    cards = _cards(state, seat)
    if not cards:
        return []
    out: list[dict[str, Any]] = [
        {"type": "ghola", "card_id": cards[0], "leader": ld.id}
        for ld in state.leaders
        if ld.zone == "tanks" and LEADERS[ld.id].faction == seat
    ]
    fac = state.faction(seat)
    if fac.kh_dead:
        out.append({"type": "ghola", "card_id": cards[0], "leader": KH})
    normal = min(MAX_FORCES, fac.tanks_normal)
    elite = min(MAX_FORCES - normal, fac.tanks_elite)
    if normal + elite:
        out.append({"type": "ghola", "card_id": cards[0], "normal": normal, "elite": elite})
    return [a for a in out if _applies(state, seat, a)]


def _applies(state: GameState, seat: str, action: dict[str, Any]) -> bool:
    try:
        do_ghola(state, seat, action)
    except IllegalAction:
        return False
    return True
