"""Per-viewer views and event redaction, built by allow-list (STYLE §4).

Every field is added because this viewer may see it; nothing is copied from the
state and then pruned. Secrets: hands, traitor cards, spice totals, drafts and
Prescience/full-view answers before reveal, the KH counter, captured leader
identities (DB-53). Prompts are the same for every viewer whatever they hold, so
a Karama or Truthtrance window never tells who holds such a card (DB-19).
"""

from __future__ import annotations

from typing import Any

from app.games.base import Event, Viewer
from app.games.dune_battle.actions import active_seats, legal_actions
from app.games.dune_battle.board import battlefields
from app.games.dune_battle.catalog import LEADERS, TERRITORIES, card_slug
from app.games.dune_battle.options import options_to_json
from app.games.dune_battle.plan import no_leader_available, plan_to_json
from app.games.dune_battle.state import Battle, GameState, Leader
from app.games.dune_battle.steps import PRE_STEPS, prompted, voice_binding

PROMPTS = {
    "traitor_pick": "Pick the traitor card you keep.",
    "choose_battle": "The aggressor chooses the next battle.",
    "voice": "Voice: the Bene Gesserit may command the opponent.",
    "karama_voice": "Karama window: the Voice may be cancelled.",
    "prescience": "Prescience: the Atreides may ask one element of the opponent's plan.",
    "karama_prescience": "Karama window: the Prescience question may be cancelled.",
    "answer_prescience": "The Prescience question is being answered.",
    "karama_full_view": "Karama window: the Atreides may see the whole opposing plan.",
    "karama_kh": "Karama window: the Kwisatz Haderach may be cancelled.",
    "karama_elite": "Karama window: the elite forces' bonus may be cancelled.",
    "commit": "Both combatants finalise their battle plans.",
    "traitor": "Plans revealed: each combatant may call traitor.",
    "capture": "The Harkonnen may capture a leader.",
    "capture_karama": "Karama window: the capture may be blocked.",
    "capture_choice": "The Harkonnen decide: kill or keep the captured leader.",
    "keep_cards": "The winner keeps or discards the cards it played.",
    "over": "The Battle phase is over.",
}
PUBLIC_EVENTS_HIDDEN = frozenset({"plan_committed", "traitor_decided", "plan_drafted"})


def _leader_visible(ld: Leader, viewer: Viewer) -> bool:
    return not ld.secret or viewer in (LEADERS[ld.id].faction, "harkonnen")


def _leaders(state: GameState, viewer: Viewer) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    shown, hidden = [], []
    for ld in state.leaders:
        base = {"faction": LEADERS[ld.id].faction, "controller": ld.controller, "zone": ld.zone}
        if _leader_visible(ld, viewer):
            shown.append(
                {
                    "id": ld.id,
                    "name": LEADERS[ld.id].name,
                    "strength": LEADERS[ld.id].strength,
                    "territory": ld.territory,
                    "captured": ld.captured_from is not None,
                    **base,
                }
            )
        else:
            hidden.append(base)
    hidden.sort(key=lambda d: (d["faction"], d["controller"], d["zone"]))
    return shown, hidden


def _factions(state: GameState, viewer: Viewer) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for fac in state.factions:
        entry: dict[str, Any] = {
            "hand_count": len(fac.hand),
            "tanks": {"normal": fac.tanks_normal, "elite": fac.tanks_elite},
            "reserves": {"normal": fac.reserves_normal, "elite": fac.reserves_elite},
            "special_karama_used": fac.special_karama_used,
        }
        if fac.name == "atreides":  # public: the KH died in a revealed plan
            entry["kh_in_tanks"] = fac.kh_dead
        if viewer == fac.name:
            entry.update(
                spice=fac.spice,
                hand=list(fac.hand),
                traitors=list(fac.traitors),
                traitor_offer=list(fac.traitor_offer),
            )
            if fac.name == "atreides":
                entry["kh_counter"] = fac.kh_losses
        out[fac.name] = entry
    return out


def _side_view(
    state: GameState, battle: Battle, faction: str, viewer: Viewer, revealed: bool
) -> dict[str, Any]:
    side = battle.side(faction)
    out: dict[str, Any] = {
        "faction": faction,
        "no_leader_available": no_leader_available(state, battle, faction),
    }
    if revealed:
        out["plan"] = plan_to_json(side.draft) if side.draft else None
    if viewer == faction:
        out["draft"] = plan_to_json(side.draft) if side.draft else None
        out["committed"] = side.committed
        out["revisions_left"] = max(0, state.options.plan_revisions - side.revisions)
        out["traitor_call"] = side.traitor_call
    return out


def _battle(state: GameState, battle: Battle, viewer: Viewer) -> dict[str, Any]:
    revealed = battle.step not in PRE_STEPS
    voice = voice_binding(battle)
    any_voice = next(
        (b for s in (battle.aggressor, battle.defender) for b in s.bindings if b.kind == "voice"),
        None,
    )
    out: dict[str, Any] = {
        "territory": battle.territory,
        "sectors": list(battle.sectors),
        "aggressor": _side_view(state, battle, battle.aggressor.faction, viewer, revealed),
        "defender": _side_view(state, battle, battle.defender.faction, viewer, revealed),
        "step": battle.step,
        "prompted": prompted(state, battle, battle.step) if battle.step in PRE_STEPS else None,
        "waiting_on": [{"kind": p.kind, "seat": p.seat} for p in battle.stack[-1:]],
        "voice": {"mode": any_voice.value, "target": any_voice.subject, "cancelled": voice is None}
        if any_voice
        else None,
        "prescience": {
            "element": battle.prescience_element,
            "cancelled": "cancel_prescience" in battle.karama_played,
        }
        if battle.prescience_element
        else None,
        "questions": [
            {"by": q.asker, "to": q.asked, "kind": q.kind, "param": q.param, "answer": q.answer}
            for q in battle.questions
        ],
        "karama_played": list(battle.karama_played),
        "kh_cancelled": battle.kh_cancelled,
        "elite_cancelled": battle.elite_cancelled,
        "result": battle.result,
        "winner": battle.winner,
        "totals": {f: (v / 2 if v % 2 else v // 2) for f, v in battle.totals},
        "keepable": list(battle.keepable),
        "capture_declared": battle.capture_take,
    }
    asked = battle.other("atreides").faction if "atreides" in battle.combatants else None
    if battle.prescience_answer is not None and viewer in ("atreides", asked):
        answer: Any = battle.prescience_answer
        if battle.prescience_element == "dial":
            answer = int(answer) / 2 if int(answer) % 2 else int(answer) // 2
        out["prescience"]["answer"] = answer
    if battle.full_view is not None and viewer in ("atreides", asked):
        out["full_view"] = plan_to_json(battle.full_view)
    if (
        battle.victim
        and battle.winner
        and viewer in (battle.winner, battle.other(battle.winner).faction)
    ):
        out["victim"] = battle.victim
    return out


def prompt(state: GameState) -> dict[str, Any]:
    """The same prompt for every viewer: which step, and whom it names."""
    step = state.battle.step if state.phase == "battle" and state.battle else state.phase
    return {"step": step, "text": PROMPTS.get(step, step)}


def view(state: GameState, viewer: Viewer) -> dict[str, Any]:
    from app.games.dune_battle.outcome import outcome

    shown, hidden = _leaders(state, viewer)
    result = outcome(state)
    in_play = viewer in state.in_play
    return {
        "game": "dune_battle",
        "viewer": viewer,
        "phase": state.phase,
        "options": options_to_json(state.options),
        "storm_sector": state.storm_sector,
        "storm_order": list(state.storm_order),
        "territories": [
            {
                "id": t.id,
                "name": TERRITORIES[t.id].name,
                "sectors": list(TERRITORIES[t.id].sectors),
                "terrain": TERRITORIES[t.id].terrain,
                "spice": t.spice,
            }
            for t in state.territories
        ],
        "forces": [
            {
                "faction": f.faction,
                "territory": f.territory,
                "sector": f.sector,
                "normal": f.normal,
                "elite": f.elite,
                "advisor": f.advisor,
            }
            for f in state.forces
        ],
        "battlefields": [
            {"territory": b.territory, "sectors": list(b.sectors), "factions": list(b.factions)}
            for b in battlefields(state)
        ],
        "factions": _factions(state, viewer),
        "leaders": shown,
        "hidden_leaders": hidden,
        "discard": [card_slug(c) for c in state.discard],
        "deck_count": len(state.deck),
        "battle": _battle(state, state.battle, viewer) if state.battle else None,
        "battles_fought": state.battles_fought,
        "outcome": result.to_json() if result else None,
        "prompt": prompt(state),
        "turn": next(iter(active_seats(state)), None),
        "legal_actions": legal_actions(state, viewer) if in_play and viewer else [],
    }


def redact(event: Event, viewer: Viewer) -> dict[str, Any] | None:
    """Private events reach only their seat; everyone else gets nothing at all."""
    if event.private_to is None:
        return event.to_json()
    return event.to_json() if viewer == event.private_to else None
