"""The ordered pre-reveal steps S1–S10 (dune-battle.md §5), Voice, and reveal.

The step pointer walks S1…S8 in the spec's order; each prompt goes to one
named player who acts or passes, and a step whose condition fails is skipped.
Decisions are sequential (R-2): in its turn the prompted seat may also draft or
commit (drafting.py, DB-18), play Karama (karama.py, DB-16) or Truthtrance
(truthtrance.py, DB-17); S9 gives each uncommitted side a turn, aggressor
first. Interrupts that need one player's answer go on ``battle.stack``.
Prescience (S3–S5) lives in prescience.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from app.games.base import Event, IllegalAction
from app.games.dune_battle.board import tokens_in
from app.games.dune_battle.constraints import SEED_FORBIDDEN_TARGETS, VOICE_TARGETS, plan_ok
from app.games.dune_battle.plan import kh_active, plan_to_json
from app.games.dune_battle.state import Battle, Binding, GameState, Pending

PRE_STEPS = (
    "voice",
    "karama_voice",
    "prescience",
    "karama_prescience",
    "answer_prescience",
    "karama_full_view",
    "karama_kh",
    "karama_elite",
    "commit",
)
PRESCIENCE_ELEMENTS = ("leader", "weapon", "defense", "dial")

Result = tuple[GameState, list[Event]]


def elite_target(state: GameState, battle: Battle) -> str | None:
    """The elite faction whose bonus a Karama could cancel here (S8), if any."""
    a, d = battle.combatants
    for f, opp in ((a, d), (d, a)):
        if f not in ("emperor", "fremen") or (f == "emperor" and opp == "fremen"):
            continue
        if tokens_in(state.forces, f, battle.territory, battle.sectors)[1] > 0:
            return f
    return None


def voice_binding(battle: Battle) -> Binding | None:
    for side in (battle.aggressor, battle.defender):
        for b in side.bindings:
            if b.kind == "voice" and b.active:
                return b
    return None


def prompted(state: GameState, battle: Battle, step: str) -> str | None:
    """Who is prompted at ``step``; None means the step is skipped."""
    fights = battle.combatants
    if step == "voice":
        return "bene_gesserit" if "bene_gesserit" in fights else None
    if step == "karama_voice":
        return battle.other("bene_gesserit").faction if voice_binding(battle) else None
    if "atreides" not in fights and step in (
        "prescience",
        "karama_prescience",
        "answer_prescience",
        "karama_full_view",
        "karama_kh",
    ):
        return None
    opponent = battle.other("atreides").faction if "atreides" in fights else None
    asked = battle.prescience_element and "cancel_prescience" not in battle.karama_played
    if step == "prescience":
        return "atreides"
    if step in ("karama_prescience", "answer_prescience"):
        return opponent if asked else None
    if step == "karama_full_view":
        ok = state.options.advanced and not state.faction("atreides").special_karama_used
        return "atreides" if ok else None
    if step == "karama_kh":
        ok = kh_active(state, "atreides") and not battle.kh_cancelled
        return opponent if ok else None
    if step == "karama_elite":
        target = elite_target(state, battle)
        return battle.other(target).faction if target and not battle.elite_cancelled else None
    return None


def turn_seat(state: GameState, battle: Battle) -> str | None:
    """The one seat that may act before reveal: decisions are sequential.

    An interrupt's owner first; else the seat prompted at S1–S8, who may also
    draft, commit, play Karama or Truthtrance in that turn (DB-16, DB-17); at
    S9 each uncommitted combatant in turn, aggressor first (DB-18).
    """
    if battle.stack:
        return battle.stack[-1].seat
    if battle.step not in PRE_STEPS:
        return None
    if battle.step != "commit":
        return prompted(state, battle, battle.step)
    for side in (battle.aggressor, battle.defender):
        if not side.committed:
            return side.faction
    return None


def next_step(battle: Battle) -> Battle:
    return replace(battle, step=PRE_STEPS[PRE_STEPS.index(battle.step) + 1])


def revalidate(state: GameState, battle: Battle) -> Battle:
    """Drop a draft that no longer meets the rules in force (owner re-drafts)."""
    for side in (battle.aggressor, battle.defender):
        if side.draft is not None and not plan_ok(state, battle, side.faction, side.draft):
            battle = battle.with_side(replace(side, draft=None, committed=False))
    return battle


def settle(state: GameState) -> Result:
    """Skip empty steps; reveal once both plans are committed at S9 (S10)."""
    battle = state.battle
    assert battle is not None and battle.step in PRE_STEPS
    battle = revalidate(state, battle)
    while not battle.stack and battle.step != "commit" and not prompted(state, battle, battle.step):
        battle = next_step(battle)
    state = replace(state, battle=battle)
    if battle.stack or battle.step != "commit":
        return state, []
    if battle.aggressor.committed and battle.defender.committed:
        return reveal(state)
    return state, []


def reveal(state: GameState) -> Result:
    """S10: both plans public at once; captured leaders in them lose their secrecy."""
    battle = state.battle
    assert battle is not None
    for side in (battle.aggressor, battle.defender):
        lid = side.draft.leader if side.draft else None
        if lid is not None and lid in {ld.id for ld in state.leaders}:
            state = state.with_leader(replace(state.leader(lid), secret=False))
    state = replace(state, battle=replace(battle, step="traitor"))
    plans = {
        s.faction: plan_to_json(s.draft) for s in (battle.aggressor, battle.defender) if s.draft
    }
    return state, [Event("plans_revealed", {"plans": plans})]


# --- the prompt of the current step -------------------------------------------------


def window_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    """The current step's own choices for the prompted seat (act or pass)."""
    battle = state.battle
    assert battle is not None
    if battle.stack or prompted(state, battle, battle.step) != seat or battle.step == "commit":
        return []
    if battle.step == "voice":
        targets = [
            t
            for t in VOICE_TARGETS
            if state.options.voice_targets == "gf9" or t not in SEED_FORBIDDEN_TARGETS
        ]
        voices = [
            {"type": "voice", "mode": m, "target": t} for m in ("must", "must_not") for t in targets
        ]
        return [*voices, {"type": "pass"}]
    if battle.step == "prescience":
        return [
            *({"type": "prescience", "element": e} for e in PRESCIENCE_ELEMENTS),
            {"type": "pass"},
        ]
    if battle.step == "answer_prescience":
        return []  # prescience.answer_actions
    return [{"type": "pass"}]  # Karama windows: the Karama itself is listed by karama.py


# --- step actions -------------------------------------------------------------------


def need_window(state: GameState, seat: str, step: str) -> Battle:
    battle = state.battle
    if (
        battle is None
        or battle.stack
        or battle.step != step
        or prompted(state, battle, step) != seat
    ):
        raise IllegalAction("not_your_decision", f"{step} is not yours to decide now")
    return battle


def do_pass(state: GameState, seat: str) -> Result:
    battle = state.battle
    if (
        battle is None
        or battle.step not in PRE_STEPS
        or battle.step in ("commit", "answer_prescience")
    ):
        raise IllegalAction("not_your_decision", "nothing to pass now")
    battle = need_window(state, seat, battle.step)
    return settle(replace(state, battle=next_step(battle)))


def do_voice(state: GameState, seat: str, action: dict[str, Any]) -> Result:
    battle = need_window(state, seat, "voice")
    mode, target = action.get("mode"), action.get("target")
    if mode not in ("must", "must_not") or target not in VOICE_TARGETS:
        raise IllegalAction("bad_action", "voice needs mode must|must_not and a known target")
    if state.options.voice_targets == "seed" and target in SEED_FORBIDDEN_TARGETS:
        raise IllegalAction("voice_target_not_allowed", "the seed forbids that Voice target")
    voiced = battle.other(seat)
    voiced = replace(voiced, bindings=(*voiced.bindings, Binding("voice", target, value=mode)))
    battle = next_step(battle.with_side(voiced))
    event = Event("voice", {"by": seat, "to": voiced.faction, "mode": mode, "target": target})
    state, events = settle(replace(state, battle=battle))
    return state, [event, *events]


def push(battle: Battle, kind: str, seat: str) -> Battle:
    return replace(battle, stack=(*battle.stack, Pending(kind, seat)))
