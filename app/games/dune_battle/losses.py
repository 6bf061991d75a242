"""Bookkeeping shared by resolution and capture: Tanks, spice, discards, KH counter.

Small state-to-state functions so that resolve.py reads as the rule text.
"""

from __future__ import annotations

from dataclasses import replace

from app.games.dune_battle.board import remove_forces, remove_tokens
from app.games.dune_battle.catalog import LEADERS, is_card
from app.games.dune_battle.state import GameState, Plan


def add_tanks(state: GameState, faction: str, normal: int, elite: int) -> GameState:
    """Tokens to the Tleilaxu Tanks; Atreides losses feed the KH counter (DB-36)."""
    fac = state.faction(faction)
    kh = fac.kh_losses + (normal + elite if faction == "atreides" else 0)
    return state.with_faction(
        replace(
            fac,
            tanks_normal=fac.tanks_normal + normal,
            tanks_elite=fac.tanks_elite + elite,
            kh_losses=kh,
        )
    )


def lose_zone(
    state: GameState, faction: str | None, territory: str, sectors: tuple[int, ...]
) -> tuple[GameState, dict[str, int]]:
    """Every token (of a faction, or of all) in the sectors to the Tanks."""
    forces, lost = remove_forces(state.forces, faction, territory, sectors)
    state = replace(state, forces=forces)
    for f, (n, e) in lost.items():
        state = add_tanks(state, f, n, e)
    return state, {f: n + e for f, (n, e) in lost.items()}


def lose_tokens(
    state: GameState,
    faction: str,
    territory: str,
    sectors: tuple[int, ...],
    normal: int,
    elite: int,
) -> GameState:
    forces = remove_tokens(state.forces, faction, territory, sectors, normal, elite)
    return add_tanks(replace(state, forces=forces), faction, normal, elite)


def gain(state: GameState, faction: str, amount: int) -> GameState:
    fac = state.faction(faction)
    return state.with_faction(replace(fac, spice=fac.spice + amount))


def pay(state: GameState, faction: str, amount: int) -> GameState:
    """Spice support to the bank (DB-35); never below zero."""
    fac = state.faction(faction)
    return state.with_faction(replace(fac, spice=max(0, fac.spice - amount)))


def discard(state: GameState, faction: str, cards: tuple[str, ...]) -> GameState:
    cards = tuple(c for c in cards if c in state.faction(faction).hand)
    fac = state.faction(faction)
    hand = tuple(c for c in fac.hand if c not in cards)
    return replace(state.with_faction(replace(fac, hand=hand)), discard=(*state.discard, *cards))


def plan_cards(plan: Plan | None) -> tuple[str, ...]:
    if plan is None:
        return ()
    return tuple(c for c in (plan.leader, plan.weapon, plan.defense) if c and is_card(c))


def kill_leader(state: GameState, leader_id: str, face_down: bool = False) -> GameState:
    """A leader to the Tanks, then the Harkonnen prison break check (DB-54)."""
    ld = state.leader(leader_id)
    state = state.with_leader(
        replace(ld, zone="tanks", territory=None, face_down=face_down, secret=face_down)
    )
    return prison_break(state)


def prison_break(state: GameState) -> GameState:
    """All Harkonnen own leaders dead: captured leaders go home at once."""
    own = [ld for ld in state.leaders if LEADERS[ld.id].faction == "harkonnen"]
    if not own or any(ld.zone != "tanks" for ld in own):
        return state
    for ld in state.leaders:
        if ld.captured_from and ld.zone != "tanks":
            home = replace(  # a leader that fought this phase stays bound there (DB-7)
                ld,
                controller=ld.captured_from,
                captured_from=None,
                secret=False,
                fought_for_captor=False,
            )
            state = state.with_leader(home)
    return state


def leader_return(state: GameState) -> GameState:
    """End of the Battle phase: leaders in territories go back to a pool (DB-7, DB-54).

    A captured leader that fought for the Harkonnen this phase goes home (DB-54);
    one captured this phase after fighting for its owner stays captured (R-31).
    """
    for ld in state.leaders:
        if ld.zone == "tanks" or (ld.zone != "territory" and not ld.fought_for_captor):
            continue
        if ld.captured_from and ld.fought_for_captor:
            ld = replace(ld, controller=ld.captured_from, captured_from=None, secret=False)
        state = state.with_leader(replace(ld, zone="pool", territory=None, fought_for_captor=False))
    return state
