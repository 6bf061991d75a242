"""After the battle (S13, §7–§8): Harkonnen capture and the winner's card choices.

Capture (advanced) is optional [F]; the loser may block it with Karama; the
victim is drawn from the state's RNG among the loser's available leaders and is
known only to the Harkonnen and the loser (DB-53). Then the winner keeps or
discards the cards it played (G-9), and the battle is over.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle import rng
from app.games.dune_battle.constraints import in_force, plan_ok, solutions
from app.games.dune_battle.losses import discard, gain, kill_leader
from app.games.dune_battle.plan import available_leaders
from app.games.dune_battle.state import GameState
from app.games.dune_battle.steps import PRE_STEPS, settle, turn_seat

Result = tuple[GameState, list[Event]]
KILL_SPICE = 2


def victims(state: GameState) -> list[str]:
    """DB-51: the loser's leaders alive and not used in another territory."""
    battle = state.battle
    assert battle is not None and battle.winner is not None
    loser = battle.other(battle.winner).faction
    return available_leaders(state, loser, battle.territory)


def after_resolution(state: GameState) -> Result:
    """Open the first post-battle decision that applies, or end the battle."""
    battle = state.battle
    assert battle is not None
    if (
        battle.winner == "harkonnen"
        and state.options.advanced
        and battle.step == "traitor"
        and victims(state)
    ):
        return replace(state, battle=replace(battle, step="capture")), []
    return _to_keep(state)


def _to_keep(state: GameState) -> Result:
    battle = state.battle
    assert battle is not None
    if battle.winner and battle.keepable:
        return replace(state, battle=replace(battle, step="keep_cards")), []
    from app.games.dune_battle.battles import end_battle

    return end_battle(state)


def _need(state: GameState, seat: str, step: str) -> None:
    battle = state.battle
    if battle is None or battle.step != step or decider(state) != seat:
        raise IllegalAction("not_your_decision", f"{step} is not yours to decide now")


def decider(state: GameState) -> str | None:
    """Who owes the current post-battle decision."""
    battle = state.battle
    if battle is None or battle.winner is None:
        return None
    loser = battle.other(battle.winner).faction
    return {
        "capture": battle.winner,
        "capture_karama": loser,
        "capture_choice": battle.winner,
        "keep_cards": battle.winner,
    }.get(battle.step)


def captives(state: GameState, seat: str) -> list[str]:
    """Captured leaders ``seat`` holds alive (G-12 variant)."""
    return [
        ld.id
        for ld in state.leaders
        if ld.controller == seat and ld.captured_from and ld.zone != "tanks"
    ]


def _kill_open(state: GameState, seat: str) -> bool:
    """G-12 variant (option ``kill_captured_later``, R-32): in the Harkonnen's own turns
    before reveal, like Karama, Truthtrance and Ghola (R-2)."""
    battle = state.battle
    return (
        state.options.kill_captured_later
        and battle is not None
        and battle.step in PRE_STEPS
        and not battle.stack
        and turn_seat(state, battle) == seat
    )


def do_kill_captured(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    """Kill a leader captured earlier: face down to the Tanks, 2 spice now ([F], G-12)."""
    if not _kill_open(state, seat):
        raise IllegalAction("not_your_decision", "no captured leader may be killed now")
    victim = action.get("leader")
    if victim not in captives(state, seat):
        raise IllegalAction("leader_unavailable", "you hold no such captured leader")
    battle = state.battle
    assert battle is not None
    loser = state.leader(str(victim)).captured_from or ""
    after = gain(kill_leader(state, str(victim), face_down=True), seat, KILL_SPICE)
    lock = next((b.plan for b in battle.side(seat).bindings if b.kind == "lock" and b.plan), None)
    if (lock is not None and not plan_ok(after, battle, seat, lock)) or not solutions(
        after, battle, seat, in_force(after, battle, seat), 1
    ):
        raise IllegalAction("answer_unsatisfiable", "that leader is promised to a plan")
    public = Event("leader_captured", {"by": seat, "from": loser, "choice": "kill"})
    private = [
        Event("capture_result", {"victim": victim, "choice": "kill"}, s) for s in (seat, loser)
    ]
    state, more = settle(after)
    return state, [public, *private, *more]


def kill_captured_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    if not _kill_open(state, seat):
        return []
    out = []
    for victim in captives(state, seat):
        action = {"type": "kill_captured", "leader": victim}
        try:
            do_kill_captured(state, seat, action)
        except IllegalAction:
            continue
        out.append(action)
    return out


def do_capture(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    _need(state, seat, "capture")
    take = action.get("take")
    if not isinstance(take, bool):
        raise IllegalAction("bad_action", "take must be true or false")
    battle = state.battle
    assert battle is not None
    if not take:
        state = replace(state, battle=replace(battle, step="keep_cards"))
        state, more = _to_keep(state)
        return state, [Event("capture_declined", {"by": seat}), *more]
    state = replace(state, battle=replace(battle, step="capture_karama", capture_take=True))
    return state, [Event("capture_declared", {"by": seat})]


def do_block_capture(state: GameState, seat: str, card: Any) -> Result:
    from app.games.dune_battle.karama import karama_cards, spend

    _need(state, seat, "capture_karama")
    if card not in karama_cards(state, seat):
        raise IllegalAction("no_karama_card", "you hold no such card usable as Karama")
    state = spend(state, seat, str(card))
    event = Event("karama", {"by": seat, "effect": "block_capture", "card": card})
    state, more = _to_keep(state)
    return state, [event, *more]


def do_capture_pass(state: GameState, seat: str) -> Result:
    """The loser lets the capture happen: the victim is drawn now (DB-51)."""
    _need(state, seat, "capture_karama")
    pool = victims(state)
    victim, r = rng.choice(state.rng, pool)
    battle = state.battle
    assert battle is not None
    state = replace(state, rng=r, battle=replace(battle, step="capture_choice", victim=victim))
    return state, _victim_events(battle.winner or "", seat, victim)


def _victim_events(harkonnen: str, loser: str, victim: str) -> list[Event]:
    data = {"victim": victim, "from": loser}
    return [
        Event("capture_victim", data, harkonnen),
        Event("capture_victim", data, loser),
    ]


def do_capture_choice(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    _need(state, seat, "capture_choice")
    choice = action.get("choice")
    if choice not in ("kill", "keep"):
        raise IllegalAction("bad_action", "choice must be kill or keep")
    battle = state.battle
    assert battle is not None and battle.victim is not None and battle.winner
    loser = battle.other(battle.winner).faction
    victim = battle.victim
    if choice == "kill":
        state = kill_leader(state, victim, face_down=True)
        state = gain(state, seat, KILL_SPICE)
    else:
        # A victim that fought here this phase stays bound to this territory (DB-7,
        # R-31); zone and territory are kept, only the controller changes.
        ld = state.leader(victim)
        state = state.with_leader(replace(ld, controller=seat, captured_from=loser, secret=True))
    public = Event("leader_captured", {"by": seat, "from": loser, "choice": choice})
    private = [
        Event("capture_result", {"victim": victim, "choice": choice}, s) for s in (seat, loser)
    ]
    state, more = _to_keep(state)
    return state, [public, *private, *more]


def do_keep_cards(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    _need(state, seat, "keep_cards")
    battle = state.battle
    assert battle is not None
    chosen = action.get("discard", [])
    if not isinstance(chosen, list) or any(c not in battle.keepable for c in chosen):
        raise IllegalAction("card_not_keepable", "you may only discard cards you played")
    state = discard(state, seat, tuple(dict.fromkeys(chosen)))
    from app.games.dune_battle.battles import end_battle

    state = replace(state, battle=replace(battle, keepable=()))
    state, more = end_battle(state)
    return state, [Event("cards_kept", {"by": seat, "discarded": list(chosen)}), *more]


def post_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    """The decision of the current post-battle step, for its owner."""
    from app.games.dune_battle.karama import karama_cards

    battle = state.battle
    if battle is None or decider(state) != seat:
        return []
    if battle.step == "capture":
        return [{"type": "capture", "take": True}, {"type": "capture", "take": False}]
    if battle.step == "capture_karama":
        cards = karama_cards(state, seat)
        block = (
            [{"type": "karama", "effect": "block_capture", "card_id": cards[0]}] if cards else []
        )
        return [*block, {"type": "pass"}]
    if battle.step == "capture_choice":
        return [{"type": "capture_choice", "choice": c} for c in ("kill", "keep")]
    cards = list(battle.keepable)
    subsets = [[], *([c] for c in cards)] + ([cards] if len(cards) == 2 else [])
    return [{"type": "keep_cards", "discard": s} for s in subsets]
