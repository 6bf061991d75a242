"""Conformance audit (docs/dune-battle.md §11): spec rules no worked example pins.

One behaviour per test, named for the rule id it proves (DB-n, G-n, R-n, §11.n).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from dune_scenarios import (
    act,
    act_events,
    fight,
    give_turn,
    pass_windows,
    plan,
    resolved,
    stage,
    with_kh,
)

import app.games.dune_battle as game
from app.games.base import IllegalAction
from app.games.dune_battle.board import storm_order
from app.games.dune_battle.catalog import CARD_TYPES, LEADERS
from app.games.dune_battle.state import Forces, GameState


def _code(state: GameState, seat: str, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as e:
        act(state, seat, action)
    return e.value.code


def _tanked(state: GameState, faction: str) -> GameState:
    for ld in state.leaders:
        if ld.controller == faction:
            state = state.with_leader(replace(ld, zone="tanks"))
    return state


# --- §0.2 options: the seed is the default wherever it and GF9 differ -----------------


def test_options_seed_is_the_default_where_seed_and_gf9_differ() -> None:
    opts = game.default_options()
    assert opts["storm_battles"] == "same_sector"  # G-1 [F]; "none" = GF9 Q&A
    assert opts["voice_targets"] == "seed"  # G-7 [F]; "gf9"
    assert opts["captured_leader_traitor_to_owner"] is True  # DB-54 [F]
    assert opts["advanced"] is True


# --- §11 data tables -------------------------------------------------------------------

SPEC_LEADERS = {
    "atreides": [5, 5, 4, 2, 1],
    "bene_gesserit": [5, 5, 5, 5, 5],
    "emperor": [6, 5, 3, 3, 2],
    "fremen": [7, 6, 5, 3, 2],
    "guild": [5, 3, 3, 2, 1],
    "harkonnen": [6, 4, 3, 2, 1],
}
SPEC_NAMES = {
    "Thufir Hawat": 5,
    "Lady Jessica": 5,
    "Gurney Halleck": 4,
    "Duncan Idaho": 2,
    "Dr. Wellington Yueh": 1,
    "Hasimir Fenring": 6,
    "Captain Aramsham": 5,
    "Stilgar": 7,
    "Chani": 6,
    "Otheym": 5,
    "Shadout Mapes": 3,
    "Jamis": 2,
    "Staban Tuek": 5,
    "Guild Representative": 1,
    "Feyd-Rautha": 6,
    "Beast Rabban": 4,
    "Piter de Vries": 3,
    "Captain Iakin Nefud": 2,
    "Umman Kudu": 1,
}


def test_s11_1_leader_table_matches_the_spec() -> None:
    for faction, strengths in SPEC_LEADERS.items():
        mine = sorted(
            (ld.strength for ld in LEADERS.values() if ld.faction == faction), reverse=True
        )
        assert mine == strengths, faction
    by_name = {ld.name: ld.strength for ld in LEADERS.values()}
    for name, strength in SPEC_NAMES.items():
        assert by_name[name] == strength, name


SPEC_DECK = {
    "lasgun": 1,
    "projectile": 4,
    "poison": 4,
    "shield": 4,
    "snooper": 4,
    "cheap_hero": 3,
    "worthless": 5,
    "karama": 2,
    "truthtrance": 2,
    "ghola": 1,
    "weather_control": 1,
    "family_atomics": 1,
    "hajr": 1,
}


def test_s11_2_deck_matches_the_spec_by_category() -> None:
    counts: dict[str, int] = {}
    for c in CARD_TYPES.values():
        counts[c.kind] = counts.get(c.kind, 0) + c.count
    assert counts == SPEC_DECK and sum(counts.values()) == 33
    assert CARD_TYPES["ellaca_drug"].kind == "poison"  # §11.2 note: a poison, not a projectile


# --- DB-4 / R-15 storm order ---------------------------------------------------------


@pytest.mark.parametrize(
    ("storm", "order"),
    [(1, ("a", "b", "c")), (3, ("b", "c", "a")), (5, ("c", "a", "b")), (8, ("a", "b", "c"))],
)
def test_db4_first_player_is_the_next_dot_after_the_storm(storm: int, order: tuple) -> None:
    # dots of a, b, c at sectors 2, 5, 8; a dot under the storm was just passed: last
    seating = ("atreides", "fremen", "harkonnen")
    names = dict(zip("abc", seating, strict=True))
    assert storm_order(seating, storm) == tuple(names[x] for x in order)


# --- DB-7 leader return --------------------------------------------------------------


def test_db7_leaders_return_to_their_pool_at_the_end_of_the_phase() -> None:
    s = stage()
    s, _ = fight(
        s, {"atreides": plan("thufir_hawat", normal=4), "harkonnen": plan("feyd_rautha", normal=3)}
    )
    assert s.phase == "over"
    assert s.leader("thufir_hawat").zone == "pool" and s.leader("feyd_rautha").zone == "pool"


# --- DB-14 cards in the plan -----------------------------------------------------------


@pytest.mark.parametrize("card", ["karama-1", "truthtrance-1", "tleilaxu_ghola-1"])
@pytest.mark.parametrize("slot", ["weapon", "defense"])
def test_db14_karama_truthtrance_and_ghola_are_never_part_of_a_plan(card: str, slot: str) -> None:
    s = stage(hands={"atreides": [card]})
    p = plan("thufir_hawat")
    p[slot] = card
    assert _code(s, "atreides", p) == "slot_type_mismatch"


def test_db13_a_losing_cheap_hero_is_discarded() -> None:
    s = stage(hands={"harkonnen": ["cheap_hero-1"]})
    s, ev = fight(
        s, {"atreides": plan("thufir_hawat", normal=5), "harkonnen": plan("cheap_hero-1")}
    )
    assert resolved(ev)["winner"] == "atreides"
    assert "cheap_hero-1" in s.discard and "cheap_hero-1" not in s.faction("harkonnen").hand


# --- DB-15 Kwisatz Haderach ------------------------------------------------------------


def test_db15_kh_may_accompany_a_cheap_hero() -> None:
    s = with_kh(stage(advanced=True, hands={"atreides": ["cheap_hero-1"]}))
    s, ev = fight(
        s,
        {
            "atreides": plan("cheap_hero-1", normal=2, spice=2, kh=True),
            "harkonnen": plan("umman_kudu"),
        },
    )
    assert resolved(ev)["totals"]["atreides"] == 0 + 2 + 2


def test_db15_kh_may_accompany_again_in_the_same_territory() -> None:
    s = with_kh(stage(advanced=True))
    s = s.with_faction(replace(s.faction("atreides"), kh_used_in="test_basin"))
    s = act(s, "atreides", plan("thufir_hawat", kh=True))
    assert s.battle is not None and s.battle.aggressor.draft is not None
    assert s.battle.aggressor.draft.kh


def test_db15_kh_awakens_for_the_next_battle() -> None:
    s = with_kh(
        stage(
            advanced=True,
            extra=[Forces("atreides", "arrakeen", 9, 3), Forces("harkonnen", "arrakeen", 9, 3)],
        ),
        losses=0,
    )
    tb = {
        "type": "choose_battle",
        "territory": "test_basin",
        "sectors": [7, 8, 9],
        "opponent": "harkonnen",
    }
    s = act(s, "atreides", tb)
    s, _ = fight(
        s, {"atreides": plan("thufir_hawat"), "harkonnen": plan("feyd_rautha", normal=8, spice=8)}
    )
    assert s.faction("atreides").kh_losses == 10
    if s.battle is not None and s.battle.step == "capture":
        s = act(s, "harkonnen", {"type": "capture", "take": False})
    assert s.battle is not None and s.battle.territory == "arrakeen"
    s = give_turn(s, "atreides")
    s = act(s, "atreides", plan("duncan_idaho", kh=True))
    assert s.battle is not None and s.battle.side("atreides").draft is not None


def test_db36_explosion_losses_count_for_the_kh() -> None:
    s = stage(advanced=True, hands={"atreides": ["lasgun-1"], "harkonnen": ["shield-1"]})
    s, ev = fight(
        s,
        {
            "atreides": plan("thufir_hawat", "lasgun-1"),
            "harkonnen": plan("feyd_rautha", defense="shield-1"),
        },
    )
    assert resolved(ev)["result"] == "explosion"
    assert s.faction("atreides").kh_losses == 10


# --- DB-20 Voice ----------------------------------------------------------------------


def _bg(**kw: Any) -> GameState:
    return stage(a="bene_gesserit", d="atreides", **kw)


def test_db20_voice_is_public() -> None:
    s = _bg()
    s, ev = act_events(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "lasgun"})
    assert next(e for e in ev if e.type == "voice").private_to is None
    for viewer in ("bene_gesserit", "atreides", None):
        voice = game.view(s, viewer)["battle"]["voice"]
        assert voice == {"mode": "must", "target": "lasgun", "cancelled": False}


def test_db20_voice_does_not_bind_a_player_without_leader_or_cheap_hero() -> None:
    s = _tanked(_bg(hands={"atreides": ["chaumas-1"]}), "atreides")
    s = act(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "poison_weapon"})
    s = give_turn(s, "atreides")
    s = act(s, "atreides", plan(None, normal=2))
    assert s.battle is not None and s.battle.defender.draft is not None


def test_g8_lasgun_is_not_a_projectile_weapon_for_voice() -> None:
    s = _bg(hands={"atreides": ["lasgun-1"]})
    s = act(
        s, "bene_gesserit", {"type": "voice", "mode": "must_not", "target": "projectile_weapon"}
    )
    s = act(s, "atreides", plan("thufir_hawat", "lasgun-1"))
    assert s.battle is not None and s.battle.defender.draft is not None


def test_db20_gf9_voice_may_command_a_cheap_hero() -> None:
    s = _bg(voice_targets="gf9", hands={"atreides": ["cheap_hero-1"]})
    s = act(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "cheap_hero"})
    assert _code(s, "atreides", plan("thufir_hawat")) == "voice_violation"
    act(s, "atreides", plan("cheap_hero-1"))


def test_db20_gf9_voice_may_command_a_worthless_card() -> None:
    s = _bg(voice_targets="gf9", hands={"atreides": ["kulon-1"]})
    s = act(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "worthless"})
    assert _code(s, "atreides", plan("thufir_hawat")) == "voice_violation"
    act(s, "atreides", plan("thufir_hawat", defense="kulon-1"))


def test_db20_seed_voice_lists_no_worthless_or_cheap_hero_target() -> None:
    targets = {a.get("target") for a in game.legal_actions(_bg(), "bene_gesserit")}
    assert "worthless" not in targets and "cheap_hero" not in targets
    gf9 = {a.get("target") for a in game.legal_actions(_bg(voice_targets="gf9"), "bene_gesserit")}
    assert {"worthless", "cheap_hero"} <= gf9


# --- DB-21 traitor calls ---------------------------------------------------------------


def test_db21_a_cheap_hero_is_never_a_traitor() -> None:
    s = stage(hands={"harkonnen": ["cheap_hero-1"]}, traitors={"atreides": ["feyd_rautha"]})
    s, _ = fight(
        s,
        {"atreides": plan("thufir_hawat"), "harkonnen": plan("cheap_hero-1")},
        decide=False,
    )
    assert {"type": "call_traitor"} not in game.legal_actions(s, "atreides")
    assert _code(s, "atreides", {"type": "call_traitor"}) == "traitor_not_held"


def test_db21_a_traitor_decision_stays_hidden_until_both_decided() -> None:
    def frames(call: str) -> dict[Any, str]:
        s = stage(traitors={"atreides": ["feyd_rautha"]})
        s, _ = fight(
            s,
            {"atreides": plan("thufir_hawat"), "harkonnen": plan("feyd_rautha")},
            decide=False,
        )
        s, ev = act_events(s, "atreides", {"type": call})
        return {
            v: json.dumps([game.view(s, v), [game.redact(e, v) for e in ev]], sort_keys=True)
            for v in ("harkonnen", None)
        }

    assert frames("call_traitor") == frames("decline_traitor")


def test_db54_owner_call_needs_the_seed_option() -> None:
    s = stage(a="harkonnen", d="fremen", advanced=True, captured_leader_traitor_to_owner=False)
    ld = s.leader("otheym")
    s = s.with_leader(replace(ld, controller="harkonnen", captured_from="fremen", secret=True))
    s, _ = fight(s, {"harkonnen": plan("otheym"), "fremen": plan("jamis")}, decide=False)
    s = act(s, "harkonnen", {"type": "decline_traitor"})
    assert game.legal_actions(s, "fremen") == [{"type": "decline_traitor"}]
    assert _code(s, "fremen", {"type": "call_traitor"}) == "traitor_not_held"


# --- DB-22 Prescience ----------------------------------------------------------------


def _asked_dial(value: float) -> GameState:
    s = stage(advanced=True, third="emperor", extra=[Forces("emperor", "arrakeen", 9, 2)])
    s = act(s, "atreides", {"type": "prescience", "element": "dial"})
    s = act(s, "harkonnen", {"type": "pass"})
    return act(s, "harkonnen", {"type": "answer_prescience", "value": value})


def test_db22_a_dial_answer_binds_the_value_not_the_tokens() -> None:
    s = give_turn(_asked_dial(2), "harkonnen")
    act(s, "harkonnen", plan("feyd_rautha", normal=4))  # 4 unsupported tokens = 2
    act(s, "harkonnen", plan("feyd_rautha", normal=2, spice=2))  # 2 supported = 2
    assert _code(s, "harkonnen", plan("feyd_rautha", normal=3)) == "prescience_violation"


def test_db22_the_answer_is_shown_to_the_atreides_only() -> None:
    s = _asked_dial(2)
    assert game.view(s, "atreides")["battle"]["prescience"]["answer"] == 2
    for viewer in ("emperor", None):
        assert "answer" not in game.view(s, viewer)["battle"]["prescience"]


def test_db22_the_answer_event_reaches_the_atreides_only() -> None:
    s = stage(advanced=True, third="emperor", extra=[Forces("emperor", "arrakeen", 9, 2)])
    s = act(s, "atreides", {"type": "prescience", "element": "dial"})
    s = act(s, "harkonnen", {"type": "pass"})
    _, ev = act_events(s, "harkonnen", {"type": "answer_prescience", "value": 2})
    answered = next(e for e in ev if e.type == "prescience_answered")
    assert game.redact(answered, "atreides") is not None
    for viewer in ("emperor", None):
        assert game.redact(answered, viewer) is None


# --- DB-24 Truthtrance -----------------------------------------------------------------

ASKED_HAND = ["crysknife-1", "chaumas-1", "shield-1", "baliset-1"]


def _asked(kind: str, param: Any, answer: str) -> GameState:
    s = stage(hands={"atreides": ["truthtrance-1"], "harkonnen": ASKED_HAND})
    q = {"kind": kind, "param": param}
    s = act(s, "atreides", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q})
    s = act(s, "harkonnen", {"type": "answer_truthtrance", "answer": answer})
    return give_turn(s, "harkonnen")


@pytest.mark.parametrize(
    ("kind", "param", "breaking_plan"),
    [
        ("leader_is", "feyd_rautha", plan("feyd_rautha")),
        ("leader_is", "none", plan("feyd_rautha")),
        ("weapon_kind", "poison", plan("feyd_rautha", "chaumas-1")),
        ("weapon_kind", "projectile", plan("feyd_rautha", "crysknife-1")),
        ("weapon_kind", "any", plan("feyd_rautha", "crysknife-1")),
        ("defense_kind", "shield", plan("feyd_rautha", defense="shield-1")),
        ("defense_kind", "any", plan("feyd_rautha", defense="shield-1")),
        ("worthless", "", plan("feyd_rautha", defense="baliset-1")),
        ("dial_more_than", 2, plan("feyd_rautha", normal=3)),
    ],
)
def test_db24_a_no_answer_binds_the_plan(kind: str, param: Any, breaking_plan: dict) -> None:
    if (kind, param) == ("leader_is", "none"):
        # "Will you play no leader?" "no" is the only satisfiable answer with leaders at hand
        s = stage(hands={"atreides": ["truthtrance-1"]})
        q = {"kind": kind, "param": param}
        s = act(s, "atreides", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q})
        assert _code(s, "harkonnen", {"type": "answer_truthtrance", "answer": "yes"}) == (
            "answer_unsatisfiable"
        )
        return
    s = _asked(kind, param, "no")
    assert _code(s, "harkonnen", breaking_plan) == "truthtrance_violation"


def test_db24_a_yes_answer_binds_the_plan() -> None:
    s = _asked("leader_is", "feyd_rautha", "yes")
    assert _code(s, "harkonnen", plan("beast_rabban")) == "truthtrance_violation"
    act(s, "harkonnen", plan("feyd_rautha"))


@pytest.mark.parametrize(("param", "expected"), [("poison", "yes"), ("lasgun", "no")])
def test_db24_fact_questions_are_answered_by_the_engine(param: str, expected: str) -> None:
    s = stage(hands={"atreides": ["truthtrance-1"], "harkonnen": ASKED_HAND})
    q = {"kind": "holds_card", "param": param}
    s = act(s, "atreides", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q})
    assert s.battle is not None and not s.battle.stack
    assert game.view(s, None)["battle"]["questions"][-1]["answer"] == expected


def test_db24_an_unsatisfiable_truthtrance_answer_is_refused() -> None:
    s = stage(hands={"atreides": ["truthtrance-1"]})
    q = {"kind": "defense_kind", "param": "shield"}
    s = act(s, "atreides", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q})
    assert game.legal_actions(s, "harkonnen") == [{"type": "answer_truthtrance", "answer": "no"}]
    assert _code(s, "harkonnen", {"type": "answer_truthtrance", "answer": "yes"}) == (
        "answer_unsatisfiable"
    )


def test_db24_question_and_answer_are_public() -> None:
    s = _asked("weapon_kind", "poison", "no")
    for viewer in ("atreides", "harkonnen", None):
        q = game.view(s, viewer)["battle"]["questions"][-1]
        assert (q["kind"], q["param"], q["answer"]) == ("weapon_kind", "poison", "no")


# --- DB-25 Karama ----------------------------------------------------------------------


def test_db25_each_karama_effect_once_per_battle() -> None:
    s = stage(
        a="emperor",
        d="atreides",
        a_forces=(6, 4),
        advanced=True,
        hands={"atreides": ["karama-1", "karama-2"]},
    )
    s = give_turn(s, "atreides")
    s = act(s, "atreides", {"type": "karama", "effect": "cancel_elite", "card_id": "karama-1"})
    again = {"type": "karama", "effect": "cancel_elite", "card_id": "karama-2"}
    assert _code(s, "atreides", again) == "karama_target_absent"


def test_db25_a_cancelled_kh_gives_no_traitor_immunity() -> None:
    s = with_kh(
        stage(
            advanced=True,
            hands={"harkonnen": ["karama-1"]},
            traitors={"harkonnen": ["gurney_halleck"]},
        )
    )
    s = act(s, "atreides", plan("gurney_halleck", kh=True))
    s = pass_windows(s, until="karama_kh")
    s = act(s, "harkonnen", {"type": "karama", "effect": "cancel_kh", "card_id": "karama-1"})
    s, ev = fight(s, {"harkonnen": plan("feyd_rautha")}, calls=["harkonnen"])
    r = resolved(ev)
    assert r["result"] == "traitor" and r["winner"] == "harkonnen"


def test_db25_bg_may_spend_a_worthless_card_as_karama_in_the_advanced_game() -> None:
    s = stage(a="atreides", d="bene_gesserit", advanced=True, hands={"bene_gesserit": ["kulon-1"]})
    s = pass_windows(s, until="prescience")
    s = act(s, "atreides", {"type": "prescience", "element": "weapon"})
    karama = {"type": "karama", "effect": "cancel_prescience", "card_id": "kulon-1"}
    assert karama in game.legal_actions(s, "bene_gesserit")
    s = act(s, "bene_gesserit", karama)
    assert s.battle is not None and "cancel_prescience" in s.battle.karama_played
    assert "kulon-1" in s.discard


def test_db25_worthless_is_no_karama_in_the_basic_game() -> None:
    s = stage(a="atreides", d="bene_gesserit", hands={"bene_gesserit": ["kulon-1"]})
    s = pass_windows(s, until="prescience")
    s = act(s, "atreides", {"type": "prescience", "element": "weapon"})
    karama = {"type": "karama", "effect": "cancel_prescience", "card_id": "kulon-1"}
    assert _code(s, "bene_gesserit", karama) == "no_karama_card"


def test_db25_only_the_bg_spends_worthless_cards_as_karama() -> None:
    s = stage(advanced=True, hands={"harkonnen": ["kulon-1"]})
    s = act(s, "atreides", {"type": "prescience", "element": "weapon"})
    karama = {"type": "karama", "effect": "cancel_prescience", "card_id": "kulon-1"}
    assert _code(s, "harkonnen", karama) == "no_karama_card"


# --- DB-35 spice support ---------------------------------------------------------------


def test_db35_the_winner_pays_its_spice_support_too() -> None:
    s = stage(advanced=True)
    s, ev = fight(
        s,
        {
            "atreides": plan("thufir_hawat", normal=4, spice=4),
            "harkonnen": plan("umman_kudu", normal=1, spice=1),
        },
    )
    assert resolved(ev)["winner"] == "atreides"
    assert s.faction("atreides").spice == 6 and s.faction("harkonnen").spice == 9


def test_db35_both_pay_spice_support_with_two_traitors() -> None:
    s = stage(advanced=True, traitors={"atreides": ["feyd_rautha"], "harkonnen": ["thufir_hawat"]})
    s, ev = fight(
        s,
        {
            "atreides": plan("thufir_hawat", normal=3, spice=3),
            "harkonnen": plan("feyd_rautha", normal=2, spice=2),
        },
        calls=["atreides", "harkonnen"],
    )
    assert resolved(ev)["result"] == "two_traitors"
    assert s.faction("atreides").spice == 7 and s.faction("harkonnen").spice == 8


# --- §8 Harkonnen capture --------------------------------------------------------------


def _harkonnen_win(**kw: Any) -> tuple[GameState, list]:
    s = stage(a="harkonnen", d="fremen", a_forces=8, d_forces=4, **kw)
    return fight(s, {"harkonnen": plan("feyd_rautha", normal=8), "fremen": plan("jamis")})


def test_db50_no_capture_in_the_basic_game() -> None:
    s, ev = _harkonnen_win(advanced=False)
    assert resolved(ev)["winner"] == "harkonnen"
    assert s.battle is None or s.battle.step != "capture"


def test_g11_harkonnen_may_capture_after_a_traitor_win() -> None:
    s = stage(a="harkonnen", d="fremen", advanced=True, traitors={"harkonnen": ["jamis"]})
    s, ev = fight(
        s, {"harkonnen": plan("umman_kudu"), "fremen": plan("jamis")}, calls=["harkonnen"]
    )
    assert resolved(ev)["result"] == "traitor"
    assert s.battle is not None and s.battle.step == "capture"


def test_db51_no_capture_when_the_loser_has_no_leader_left() -> None:
    s = _tanked(stage(a="harkonnen", d="fremen", a_forces=8, d_forces=4, advanced=True), "fremen")
    s, ev = fight(s, {"harkonnen": plan("feyd_rautha", normal=8, spice=8), "fremen": plan(None)})
    assert resolved(ev)["winner"] == "harkonnen"
    assert s.battle is None or s.battle.step != "capture"


def test_db53_a_killed_victim_is_face_down_to_third_parties() -> None:
    s = stage(a="harkonnen", d="fremen", a_forces=8, d_forces=4, advanced=True, third="atreides")
    s, _ = fight(s, {"harkonnen": plan("feyd_rautha", normal=8, spice=8), "fremen": plan("jamis")})
    s = act(s, "harkonnen", {"type": "capture", "take": True})
    s = act(s, "fremen", {"type": "pass"})
    assert s.battle is not None and s.battle.victim is not None
    victim = s.battle.victim
    s, ev = act_events(s, "harkonnen", {"type": "capture_choice", "choice": "kill"})
    for viewer in ("atreides", None):
        v = game.view(s, viewer)
        assert victim not in {ld["id"] for ld in v["leaders"]}
        assert {"faction": "fremen", "controller": "fremen", "zone": "tanks"} in v["hidden_leaders"]
        assert victim not in json.dumps([game.redact(e, viewer) for e in ev])
    assert victim in {ld["id"] for ld in game.view(s, "fremen")["leaders"]}


def test_db54_a_captured_leader_fights_at_its_printed_strength() -> None:
    s = stage(a="harkonnen", d="atreides", advanced=True, third="fremen")
    ld = s.leader("otheym")
    s = s.with_leader(replace(ld, controller="harkonnen", captured_from="fremen", secret=True))
    s, ev = fight(s, {"harkonnen": plan("otheym"), "atreides": plan("wellington_yueh")})
    assert resolved(ev)["totals"] == {"harkonnen": 5, "atreides": 1}


def _jamis_captured(extra: tuple[Forces, ...] = ()) -> GameState:
    """Harkonnen beat the Fremen in Test Basin; Jamis, who fought there, is the only victim."""
    s = stage(a="harkonnen", d="fremen", a_forces=8, d_forces=4, advanced=True, extra=extra)
    for lid in ("stilgar", "chani", "otheym", "shadout_mapes"):
        s = s.with_leader(replace(s.leader(lid), zone="tanks"))
    if s.phase == "choose_battle":
        s = act(
            s,
            "harkonnen",
            {
                "type": "choose_battle",
                "territory": "test_basin",
                "sectors": [7, 8, 9],
                "opponent": "fremen",
            },
        )
    s, _ = fight(s, {"harkonnen": plan("feyd_rautha", normal=8, spice=8), "fremen": plan("jamis")})
    s = act(s, "harkonnen", {"type": "capture", "take": True})
    s = act(s, "fremen", {"type": "pass"})
    assert s.battle is not None and s.battle.victim == "jamis"
    return act(s, "harkonnen", {"type": "capture_choice", "choice": "keep"})


def test_db7_a_leader_captured_after_fighting_stays_bound_to_that_territory() -> None:
    s = _jamis_captured((Forces("harkonnen", "arrakeen", 9, 3), Forces("fremen", "arrakeen", 9, 3)))
    jamis = s.leader("jamis")
    assert (jamis.controller, jamis.zone, jamis.territory) == (
        "harkonnen",
        "territory",
        "test_basin",
    )
    assert s.battle is not None and s.battle.territory == "arrakeen"
    s = give_turn(s, "harkonnen")
    assert _code(s, "harkonnen", plan("jamis")) == "leader_unavailable"


def test_r31_a_leader_captured_this_phase_stays_captured_at_leader_return() -> None:
    s = _jamis_captured()
    assert s.phase == "over"
    jamis = s.leader("jamis")
    assert (jamis.controller, jamis.captured_from, jamis.zone) == ("harkonnen", "fremen", "pool")


def test_s11_3_hand_limits_hold_from_setup_on() -> None:
    s = game.setup(4, {"factions": list(game.SEATS)})
    assert len(s.faction("harkonnen").hand) == 8 and len(s.faction("atreides").hand) == 4
    assert game.invariants(s) == []
    over = s.with_faction(replace(s.faction("atreides"), hand=(*s.faction("atreides").hand, "x")))
    assert any("hand" in p for p in game.invariants(over))


# --- G-12 variant: kill a captured leader later (option kill_captured_later, R-32) ------


def _holding_otheym(**kw: Any) -> GameState:
    s = stage(a="harkonnen", d="atreides", advanced=True, third="fremen", **kw)
    ld = s.leader("otheym")
    return s.with_leader(replace(ld, controller="harkonnen", captured_from="fremen", secret=True))


KILL_OTHEYM = {"type": "kill_captured", "leader": "otheym"}


def test_g12_a_later_kill_is_off_by_default() -> None:
    s = give_turn(_holding_otheym(), "harkonnen")
    assert KILL_OTHEYM not in game.legal_actions(s, "harkonnen")
    assert _code(s, "harkonnen", KILL_OTHEYM) == "not_your_decision"


def test_g12_variant_kills_a_captive_face_down_for_two_spice_now() -> None:
    s = give_turn(_holding_otheym(kill_captured_later=True), "harkonnen")
    assert KILL_OTHEYM in game.legal_actions(s, "harkonnen")
    s, ev = act_events(s, "harkonnen", KILL_OTHEYM)
    otheym = s.leader("otheym")
    assert otheym.zone == "tanks" and otheym.face_down
    assert s.faction("harkonnen").spice == 10 + 2
    for viewer in ("atreides", None):
        assert "otheym" not in json.dumps(
            [game.view(s, viewer), [game.redact(e, viewer) for e in ev]]
        )
    for viewer in ("harkonnen", "fremen"):
        assert "otheym" in {ld["id"] for ld in game.view(s, viewer)["leaders"]}


def test_g12_variant_cannot_kill_a_captive_an_answer_promised() -> None:
    s = _holding_otheym(kill_captured_later=True)
    s = act(s, "atreides", {"type": "prescience", "element": "leader"})
    s = act(s, "harkonnen", {"type": "pass"})
    s = act(s, "harkonnen", {"type": "answer_prescience", "value": "otheym"})
    s = give_turn(s, "harkonnen")
    assert KILL_OTHEYM not in game.legal_actions(s, "harkonnen")
    assert _code(s, "harkonnen", KILL_OTHEYM) == "answer_unsatisfiable"


def test_db32_totals_are_public_in_the_view_after_resolution() -> None:
    s = stage(advanced=True, hands={"atreides": ["kulon-1"]})
    s, _ = fight(
        s,
        {
            "atreides": plan("duncan_idaho", "kulon-1", normal=4, spice=3),
            "harkonnen": plan("iakin_nefud", normal=4, spice=3),
        },
    )
    assert s.battle is not None and s.battle.step == "keep_cards"
    for viewer in ("atreides", "harkonnen", None):
        assert game.view(s, viewer)["battle"]["totals"] == {"atreides": 5.5, "harkonnen": 5.5}
