"""Karama inside a battle (DB-25).

A Karama may be played at any moment before reveal (DB-16) by a combatant the
effect concerns; played at its own prompt it also closes that prompt. Each
effect applies once per battle. The Bene Gesserit (advanced) may spend a
worthless card as Karama. Blocking a capture (after reveal) lives in capture.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle.catalog import card_kind
from app.games.dune_battle.constraints import in_force, solutions
from app.games.dune_battle.plan import kh_active, plan_to_json
from app.games.dune_battle.state import Battle, Binding, GameState
from app.games.dune_battle.steps import (
    PRE_STEPS,
    Result,
    elite_target,
    next_step,
    prompted,
    push,
    settle,
    turn_seat,
    voice_binding,
)

PRE_REVEAL_EFFECTS = ("cancel_voice", "cancel_prescience", "full_view", "cancel_kh", "cancel_elite")
EFFECT_STEP = {
    "cancel_voice": "karama_voice",
    "cancel_prescience": "karama_prescience",
    "full_view": "karama_full_view",
    "cancel_kh": "karama_kh",
    "cancel_elite": "karama_elite",
}


def karama_cards(state: GameState, seat: str) -> list[str]:
    """Cards the seat may spend as Karama: Karama, or for the BG (advanced) a worthless card.

    A worthless card may not be spent if the plan still needs it: it is in a
    locked plan, or without it no plan would meet an answer already given
    (e.g. Prescience answered "La La La" as defense) — ruling R-8.
    """
    out = []
    for c in state.faction(seat).hand:
        kind = card_kind(c)
        bg_worthless = seat == "bene_gesserit" and state.options.advanced and kind == "worthless"
        if kind == "karama" or (bg_worthless and not _needed(state, seat, c)):
            out.append(c)
    return out


def _needed(state: GameState, seat: str, card: str) -> bool:
    battle = state.battle
    if battle is None or seat not in battle.combatants:
        return False
    for b in battle.side(seat).bindings:
        if b.kind == "lock" and b.plan and card in (b.plan.leader, b.plan.weapon, b.plan.defense):
            return True
    without = spend(state, seat, card)
    return not solutions(without, battle, seat, in_force(without, battle, seat), 1)


def spend(state: GameState, seat: str, card: str) -> GameState:
    fac = state.faction(seat)
    hand = tuple(c for c in fac.hand if c != card)
    return replace(state.with_faction(replace(fac, hand=hand)), discard=(*state.discard, card))


def target_present(state: GameState, battle: Battle, seat: str, effect: str) -> bool:
    """Is there something for this seat's Karama to act on now?"""
    if effect in battle.karama_played or seat not in battle.combatants:
        return False
    other = battle.other(seat).faction
    if effect == "cancel_voice":
        voice = voice_binding(battle)
        return voice is not None and other == "bene_gesserit"
    if effect == "cancel_prescience":
        return other == "atreides" and battle.prescience_element is not None
    if effect == "full_view":
        return seat == "atreides" and state.options.advanced
    if effect == "cancel_kh":
        return other == "atreides" and kh_active(state, "atreides") and not battle.kh_cancelled
    if effect == "cancel_elite":
        return elite_target(state, battle) == other and not battle.elite_cancelled
    return False


def _effect(state: GameState, battle: Battle, seat: str, effect: str) -> tuple[Battle, GameState]:
    other = battle.other(seat)
    if effect == "cancel_voice":
        bs = tuple(
            replace(b, active=False) if b.kind == "voice" else b for b in battle.side(seat).bindings
        )
        battle = battle.with_side(replace(battle.side(seat), bindings=bs))
    elif effect == "cancel_prescience":
        bs = tuple(
            replace(b, active=False) if b.kind == "prescience" else b
            for b in battle.side(seat).bindings
        )
        battle = battle.with_side(replace(battle.side(seat), bindings=bs))
        if battle.step in ("karama_prescience", "answer_prescience"):
            battle = replace(battle, step="karama_full_view")
    elif effect == "full_view":
        state = state.with_faction(replace(state.faction(seat), special_karama_used=True))
        if other.draft is None:
            battle = push(battle, "draft_for_full_view", other.faction)
        else:
            locked = replace(other, bindings=(*other.bindings, Binding("lock", plan=other.draft)))
            battle = replace(battle.with_side(locked), full_view=other.draft)
    elif effect == "cancel_kh":
        battle = replace(battle, kh_cancelled=True)
        atreides = battle.side("atreides")
        if atreides.draft is not None and atreides.draft.kh:
            battle = battle.with_side(replace(atreides, draft=replace(atreides.draft, kh=False)))
    elif effect == "cancel_elite":
        battle = replace(battle, elite_cancelled=True)
    return battle, state


def do_karama(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    effect, card = action.get("effect"), action.get("card_id")
    if effect not in (*PRE_REVEAL_EFFECTS, "block_capture"):
        raise IllegalAction("bad_action", "unknown Karama effect")
    if effect == "block_capture":
        from app.games.dune_battle.capture import do_block_capture

        return do_block_capture(state, seat, card)
    battle = state.battle
    if (
        battle is None
        or battle.step not in PRE_STEPS
        or battle.stack
        or turn_seat(state, battle) != seat
    ):
        raise IllegalAction("not_your_decision", "no Karama window is open for you")
    if not target_present(state, battle, seat, effect):
        raise IllegalAction("karama_target_absent", "nothing for that Karama to act on")
    if effect == "full_view" and state.faction(seat).special_karama_used:
        raise IllegalAction("special_karama_used", "the Atreides special Karama is spent")
    if card not in karama_cards(state, seat):
        raise IllegalAction("no_karama_card", "you hold no such card usable as Karama")
    closes = battle.step == EFFECT_STEP[effect] and prompted(state, battle, battle.step) == seat
    state = spend(state, seat, card)
    battle = replace(battle, karama_played=(*battle.karama_played, effect))
    battle, state = _effect(state, battle, seat, effect)
    if closes and battle.step == EFFECT_STEP[effect]:
        battle = next_step(battle)
    events = [Event("karama", {"by": seat, "effect": effect, "card": card})]
    if effect == "full_view" and battle.full_view is not None:
        seen = {"of": battle.other(seat).faction, "plan": plan_to_json(battle.full_view)}
        events.append(Event("full_view_seen", seen, seat))
    state, more = settle(replace(state, battle=battle))
    return state, [*events, *more]


def karama_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    battle = state.battle
    if battle is None or battle.step not in PRE_STEPS or battle.stack:
        return []
    if turn_seat(state, battle) != seat:
        return []
    cards = karama_cards(state, seat)
    if not cards:
        return []
    out = []
    for effect in PRE_REVEAL_EFFECTS:
        if not target_present(state, battle, seat, effect):
            continue
        if effect == "full_view" and state.faction(seat).special_karama_used:
            continue
        out.append({"type": "karama", "effect": effect, "card_id": cards[0]})
    return out
