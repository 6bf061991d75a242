"""Staging helpers for the worked examples of dune-battle.md §10.

Conventions of §10: territory Test Basin (sectors 7–9), storm in sector 1,
aggressor A first in storm order, basic game unless asked, hands hold only the
named cards. ``stage`` builds that state; ``fight`` drives one battle from plans
to resolution through the public action interface only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import app.games.dune_battle as game
from app.games.base import Event
from app.games.dune_battle.battles import advance
from app.games.dune_battle.catalog import DECK
from app.games.dune_battle.setup import build_state
from app.games.dune_battle.state import Forces, GameState, Options
from app.games.dune_battle.steps import PRE_STEPS, prompted, turn_seat


def stage(
    a: str = "atreides",
    d: str = "harkonnen",
    a_forces: int | tuple[int, int] = 10,
    d_forces: int | tuple[int, int] = 8,
    hands: Mapping[str, Iterable[str]] | None = None,
    traitors: Mapping[str, Iterable[str]] | None = None,
    spice: Mapping[str, int] | None = None,
    extra: Iterable[Forces] = (),
    third: str | None = None,
    territory: str = "test_basin",
    a_sector: int = 8,
    d_sector: int = 8,
    **options: Any,
) -> GameState:
    """A started battle A (aggressor) vs D in ``territory``."""
    factions = (a, d) if third is None else (a, d, third)
    opts = Options(factions=factions, **{"advanced": False, **options})
    an, ae = a_forces if isinstance(a_forces, tuple) else (a_forces, 0)
    dn, de = d_forces if isinstance(d_forces, tuple) else (d_forces, 0)
    forces = (
        Forces(a, territory, a_sector, an, ae),
        Forces(d, territory, d_sector, dn, de),
        *extra,
    )
    hands = {f: tuple(h) for f, h in (hands or {}).items()}
    used = {c for h in hands.values() for c in h}
    state = build_state(
        opts,
        factions,
        tuple(f for f in forces if f.normal or f.elite),
        hands,
        tuple(c for c in DECK if c not in used),
        traitors={f: tuple(t) for f, t in (traitors or {}).items()},
        spice=spice,
        rng_state=12345,
    )
    state, _ = advance(state)
    return state


def act(state: GameState, seat: str, action: Mapping[str, Any]) -> GameState:
    return game.apply(state, seat, action).state


def act_events(
    state: GameState, seat: str, action: Mapping[str, Any]
) -> tuple[GameState, list[Event]]:
    t = game.apply(state, seat, action)
    return t.state, list(t.events)


def plan(
    leader: str | None = None,
    weapon: str | None = None,
    defense: str | None = None,
    normal: int = 0,
    elite: int = 0,
    spice: int = 0,
    kh: bool = False,
) -> dict[str, Any]:
    return {
        "type": "set_plan",
        "leader": leader,
        "weapon": weapon,
        "defense": defense,
        "normal": normal,
        "elite": elite,
        "spice": spice,
        "kwisatz_haderach": kh,
    }


def pass_windows(state: GameState, until: str = "commit") -> GameState:
    """Everyone prompted passes until the step ``until`` is reached."""
    while state.battle and state.battle.step in PRE_STEPS and state.battle.step != until:
        seat = prompted(state, state.battle, state.battle.step)
        assert seat is not None and not state.battle.stack
        if state.battle.step == "answer_prescience":
            state = act(state, seat, game.legal_actions(state, seat)[0])
        else:
            state = act(state, seat, {"type": "pass"})
    return state


def give_turn(state: GameState, seat: str) -> GameState:
    """Pass windows (and let the other side draft and commit) until ``seat`` may act."""
    state = pass_windows(state)
    assert state.battle is not None
    while turn_seat(state, state.battle) != seat:
        other = turn_seat(state, state.battle)
        assert other is not None
        if state.battle.side(other).draft is None:
            first = next(a for a in game.legal_actions(state, other) if a["type"] == "set_plan")
            state = act(state, other, first)
        state = act(state, other, {"type": "commit_plan"})
        assert state.battle is not None
    return state


def fight(
    state: GameState,
    plans: Mapping[str, Mapping[str, Any]],
    calls: Iterable[str] = (),
    decide: bool = True,
) -> tuple[GameState, list[Event]]:
    """Pass every window; at S9 each side drafts its plan and commits; decide traitors."""
    events: list[Event] = []
    state = pass_windows(state)
    while state.battle is not None and state.battle.step == "commit":
        seat = turn_seat(state, state.battle)
        assert seat is not None
        if seat in plans:
            state, ev = act_events(state, seat, plans[seat])
            events += ev
        state, ev = act_events(state, seat, {"type": "commit_plan"})
        events += ev
    calls = set(calls)
    assert state.battle is not None and state.battle.step == "traitor"
    if not decide:
        return state, events
    for seat in state.battle.combatants:
        kind = "call_traitor" if seat in calls else "decline_traitor"
        state, ev = act_events(state, seat, {"type": kind})
        events += ev
    return state, events


def resolved(events: list[Event]) -> dict[str, Any]:
    return next(dict(e.data) for e in events if e.type == "battle_resolved")


def forces_of(state: GameState, faction: str, territory: str = "test_basin") -> int:
    return sum(
        f.normal + f.elite
        for f in state.forces
        if f.faction == faction and f.territory == territory
    )


def zone_of(state: GameState, leader: str) -> str:
    return state.leader(leader).zone


def with_kh(state: GameState, losses: int = 7) -> GameState:
    return state.with_faction(replace(state.faction("atreides"), kh_losses=losses))
