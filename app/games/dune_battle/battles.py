"""The Battle phase around single battles: traitor picks, battle order, the end.

Battles are fought aggressor by aggressor in storm order (DB-4); the aggressor
picks which of its battles comes next and against whom (DB-5). When nobody is in
contact any more, leaders return home and the match is over.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle.board import aggressor, battle_options
from app.games.dune_battle.losses import leader_return
from app.games.dune_battle.state import Battle, GameState, Side
from app.games.dune_battle.steps import settle

Result = tuple[GameState, list[Event]]


def advance(state: GameState) -> Result:
    """Run the engine until someone owes a decision (or the phase is over)."""
    if any(f.traitor_offer for f in state.factions):
        return replace(state, phase="traitor_pick"), []
    if state.battle is not None:
        return state, []
    who = aggressor(state)
    if who is None:
        state = replace(leader_return(state), phase="over")
        return state, [Event("battle_phase_over", {"forces": board_totals(state)})]
    options = battle_options(state, who)
    if len(options) == 1:  # a choice of one is no decision
        territory, sectors, opponent = options[0]
        return start_battle(state, who, territory, sectors, opponent)
    return replace(state, phase="choose_battle"), []


def board_totals(state: GameState) -> dict[str, int]:
    return {
        f: sum(x.normal + x.elite for x in state.forces if x.faction == f) for f in state.in_play
    }


def start_battle(
    state: GameState, who: str, territory: str, sectors: tuple[int, ...], opponent: str
) -> Result:
    battle = Battle(territory, sectors, Side(who), Side(opponent))
    state = replace(state, phase="battle", battle=battle)
    event = Event(
        "battle_started",
        {"aggressor": who, "defender": opponent, "territory": territory, "sectors": list(sectors)},
    )
    state, more = settle(state)
    return state, [event, *more]


def end_battle(state: GameState) -> Result:
    """The battle is over; the next one (or the end of the phase) follows."""
    battle = state.battle
    assert battle is not None
    wins = (*state.battle_wins, battle.winner) if battle.winner else state.battle_wins
    state = replace(state, battle=None, battles_fought=state.battles_fought + 1, battle_wins=wins)
    state, more = advance(state)
    return state, [Event("battle_ended", {"winner": battle.winner}), *more]


def picking(state: GameState) -> str | None:
    """Traitor picks go one faction at a time, in storm order (hidden choices)."""
    for f in state.storm_order:
        if state.faction(f).traitor_offer:
            return f
    return None


def do_pick_traitor(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    fac = state.faction(seat) if seat in state.in_play else None
    if state.phase != "traitor_pick" or fac is None or picking(state) != seat:
        raise IllegalAction("not_your_decision", "no traitor to pick now")
    leader = action.get("leader")
    if leader not in fac.traitor_offer:
        raise IllegalAction("traitor_not_offered", "pick one of the traitor cards you were dealt")
    state = state.with_faction(replace(fac, traitors=(leader,), traitor_offer=()))
    state, more = advance(state)
    return state, [Event("traitor_picked", {"by": seat, "leader": leader}, seat), *more]


def pick_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    if state.phase != "traitor_pick" or picking(state) != seat:
        return []
    return [{"type": "pick_traitor", "leader": ld} for ld in state.faction(seat).traitor_offer]


def do_choose_battle(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    if state.phase != "choose_battle" or aggressor(state) != seat:
        raise IllegalAction("not_your_decision", "you are not the aggressor choosing a battle")
    sectors = action.get("sectors")
    key = (
        action.get("territory"),
        tuple(sectors) if isinstance(sectors, list) else None,
        action.get("opponent"),
    )
    options = battle_options(state, seat)
    if key not in options:
        raise IllegalAction("no_such_battle", "that is not one of your battles")
    return start_battle(state, seat, *options[options.index(key)])  # type: ignore[arg-type]


def choose_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    if state.phase != "choose_battle" or aggressor(state) != seat:
        return []
    return [
        {"type": "choose_battle", "territory": t, "sectors": list(s), "opponent": o}
        for t, s, o in battle_options(state, seat)
    ]
