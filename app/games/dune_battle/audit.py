"""Optional conformance hooks: ``secrets`` (what a viewer must never receive)
and ``invariants`` (conservation laws a legal state always keeps).

The generic suite (tests/games/test_conformance.py) calls both on every step of
its random playouts, so a leak or a lost card shows up with no game-specific test.
"""

from __future__ import annotations

from app.games.base import Viewer
from app.games.dune_battle.catalog import DECK, HAND_LIMIT, LEADERS
from app.games.dune_battle.state import GameState
from app.games.dune_battle.steps import PRE_STEPS


def _public_cards(state: GameState, viewer: Viewer) -> set[str]:
    """Cards the viewer saw: the Atreides full view, and both plans after reveal."""
    battle = state.battle
    if battle is None:
        return set()
    out: set[str] = set()
    if battle.full_view is not None and viewer == "atreides":
        fv = battle.full_view
        out |= {c for c in (fv.leader, fv.weapon, fv.defense) if c}
    if battle.step in PRE_STEPS:
        return out
    for side in (battle.aggressor, battle.defender):
        if side.draft:
            out |= {c for c in (side.draft.leader, side.draft.weapon, side.draft.defense) if c}
    return out


def _known_leaders(state: GameState, viewer: Viewer) -> set[str]:
    """Leader ids the viewer legitimately knows from its own cards or answers."""
    battle = state.battle
    # Names said aloud in public questions are not identities revealed.
    known = {q.param for q in battle.questions} if battle is not None else set()
    if viewer is None or viewer not in state.in_play:
        return known
    fac = state.faction(viewer)
    known |= set(fac.traitors) | set(fac.traitor_offer)
    if battle is not None and viewer in battle.combatants:
        known |= {battle.prescience_answer or ""}
        if battle.full_view and battle.full_view.leader:
            known.add(battle.full_view.leader)
    return known


def secrets(state: GameState, viewer: Viewer) -> set[str]:
    """Quoted ids ``viewer`` must not see: others' hand cards, hidden leader identities."""
    out: set[str] = set()
    public = _public_cards(state, viewer)
    for fac in state.factions:
        if fac.name != viewer:
            out |= {f'"{c}"' for c in fac.hand if c not in public}
    known = _known_leaders(state, viewer)
    for ld in state.leaders:
        entitled = viewer in (LEADERS[ld.id].faction, "harkonnen")
        if ld.secret and not entitled and ld.id not in known | public:
            out.add(f'"{ld.id}"')
    return out


def invariants(state: GameState) -> list[str]:
    """Cards, forces and spice are conserved and never negative; hand limits hold."""
    problems: list[str] = []
    cards = list(state.deck) + list(state.discard) + [c for f in state.factions for c in f.hand]
    if sorted(cards) != sorted(DECK):
        problems.append("the 33 treachery cards are not all accounted for exactly once")
    for fac in state.factions:
        on_board = sum(x.normal + x.elite for x in state.forces if x.faction == fac.name)
        off_board = fac.tanks_normal + fac.tanks_elite + fac.reserves_normal + fac.reserves_elite
        if on_board + off_board != state.options.forces:
            problems.append(f"{fac.name}: board + Tanks + reserves != {state.options.forces}")
        if fac.spice < 0:
            problems.append(f"{fac.name}: negative spice")
        if len(fac.hand) > HAND_LIMIT[fac.name]:
            problems.append(f"{fac.name}: more than {HAND_LIMIT[fac.name]} cards in hand (§11.3)")
    if any(x.normal < 0 or x.elite < 0 for x in state.forces):
        problems.append("a negative force count")
    return problems
