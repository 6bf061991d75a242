"""DB rules not already pinned by a worked example (dune-battle.md §3–§8)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dune_scenarios import act, fight, give_turn, plan, resolved, stage, with_kh

import app.games.dune_battle as game
from app.games.base import IllegalAction
from app.games.dune_battle.state import Forces


def test_db7_leaders_waiting_in_a_territory_survive_a_later_explosion() -> None:
    s = stage(hands={"atreides": ["lasgun-1"], "harkonnen": ["shield-1"]})
    s = s.with_leader(replace(s.leader("lady_jessica"), zone="territory", territory="test_basin"))
    s, ev = fight(
        s,
        {
            "atreides": plan("thufir_hawat", "lasgun-1"),
            "harkonnen": plan("feyd_rautha", defense="shield-1"),
        },
    )
    assert resolved(ev)["result"] == "explosion"
    assert s.leader("lady_jessica").zone != "tanks" and s.leader("thufir_hawat").zone == "tanks"


def test_db15_kh_adds_two_to_a_surviving_leader() -> None:
    s = with_kh(stage(advanced=True))
    p = {
        "atreides": plan("gurney_halleck", normal=3, spice=3, kh=True),
        "harkonnen": plan("feyd_rautha", normal=8, spice=8),
    }
    s, ev = fight(s, p)
    assert resolved(ev)["totals"]["atreides"] == 4 + 3 + 2
    assert s.faction("atreides").kh_used_in == "test_basin"


def test_db25_cancel_kh_strips_it_and_forbids_it() -> None:
    s = with_kh(stage(advanced=True, hands={"harkonnen": ["karama-1"]}))
    s = act(s, "atreides", plan("gurney_halleck", kh=True))
    s = act(s, "atreides", {"type": "pass"})  # S3 prescience passed
    s = act(s, "atreides", {"type": "pass"})  # S6 full view passed
    assert s.battle is not None and s.battle.step == "karama_kh"
    s = act(s, "harkonnen", {"type": "karama", "effect": "cancel_kh", "card_id": "karama-1"})
    assert s.battle is not None and s.battle.kh_cancelled
    assert s.battle.aggressor.draft is not None and not s.battle.aggressor.draft.kh
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", plan("gurney_halleck", kh=True))
    assert e.value.code == "kh_inactive"


def test_db25_loser_blocks_capture_with_karama() -> None:
    s = stage(
        a="harkonnen",
        d="fremen",
        a_forces=8,
        d_forces=4,
        advanced=True,
        hands={"fremen": ["karama-1"]},
    )
    s, _ = fight(s, {"harkonnen": plan("feyd_rautha", normal=8, spice=8), "fremen": plan("jamis")})
    s = act(s, "harkonnen", {"type": "capture", "take": True})
    assert game.active_seats(s) == {"fremen"}
    s = act(s, "fremen", {"type": "karama", "effect": "block_capture", "card_id": "karama-1"})
    assert all(
        ld.controller == "fremen" for ld in s.leaders if ld.id in ("stilgar", "jamis", "otheym")
    )
    assert "karama-1" in s.discard


def test_db11_fremen_need_no_spice_and_may_not_pay_it() -> None:
    s = stage(a="fremen", d="harkonnen", a_forces=(4, 2), advanced=True)
    with pytest.raises(IllegalAction) as e:
        act(give_turn(s, "fremen"), "fremen", plan("stilgar", normal=2, spice=2))
    assert e.value.code == "spice_not_allowed"
    s, ev = fight(s, {"fremen": plan("jamis", normal=4, elite=2), "harkonnen": plan("umman_kudu")})
    assert resolved(ev)["totals"]["fremen"] == 2 + 4 + 4


def test_db35_both_pay_spice_in_an_explosion() -> None:
    s = stage(advanced=True, hands={"atreides": ["lasgun-1"], "harkonnen": ["shield-1"]})
    p = {
        "atreides": plan("thufir_hawat", "lasgun-1", normal=3, spice=3),
        "harkonnen": plan("feyd_rautha", defense="shield-1", normal=2, spice=2),
    }
    s, _ = fight(s, p)
    assert s.faction("atreides").spice == 7 and s.faction("harkonnen").spice == 8


def test_db37_kh_with_a_traitor_caller_does_not_count_as_used() -> None:
    s = with_kh(stage(advanced=True, traitors={"atreides": ["feyd_rautha"]}))
    s, _ = fight(
        s,
        {"atreides": plan("gurney_halleck", kh=True), "harkonnen": plan("feyd_rautha")},
        calls=["atreides"],
    )
    assert s.faction("atreides").kh_used_in is None
    assert s.leader("gurney_halleck").zone == "pool"


def test_db1_battles_repeat_until_one_faction_is_left() -> None:
    s = stage(third="emperor", extra=[Forces("emperor", "test_basin", 9, 4)])
    assert s.phase == "choose_battle"
    s = act(
        s,
        "atreides",
        {
            "type": "choose_battle",
            "territory": "test_basin",
            "sectors": [7, 8, 9],
            "opponent": "harkonnen",
        },
    )
    s, _ = fight(s, {"atreides": plan("thufir_hawat", normal=1), "harkonnen": plan("umman_kudu")})
    assert s.battle is not None and s.battle.combatants == ("atreides", "emperor")


def test_db12_cheap_hero_is_a_choice_even_with_leaders() -> None:
    s = stage(hands={"atreides": ["cheap_hero-2"]})
    s = act(s, "atreides", plan("cheap_hero-2", normal=1))
    assert s.battle is not None and s.battle.aggressor.draft is not None


def test_ghola_revives_a_leader_who_may_fight_this_phase() -> None:
    s = stage(hands={"atreides": ["tleilaxu_ghola-1"]})
    s = s.with_leader(replace(s.leader("thufir_hawat"), zone="tanks"))
    listed = [a for a in game.legal_actions(s, "atreides") if a["type"] == "ghola"]
    assert {"type": "ghola", "card_id": "tleilaxu_ghola-1", "leader": "thufir_hawat"} in listed
    s = act(
        s, "atreides", {"type": "ghola", "card_id": "tleilaxu_ghola-1", "leader": "thufir_hawat"}
    )
    assert s.leader("thufir_hawat").zone == "pool" and "tleilaxu_ghola-1" in s.discard
    act(s, "atreides", plan("thufir_hawat"))


def test_ghola_revives_forces_to_reserves() -> None:
    s = stage(hands={"atreides": ["tleilaxu_ghola-1"]})
    s = s.with_faction(replace(s.faction("atreides"), tanks_normal=7))
    s = act(s, "atreides", {"type": "ghola", "card_id": "tleilaxu_ghola-1", "normal": 5})
    fac = s.faction("atreides")
    assert fac.tanks_normal == 2 and fac.reserves_normal == 5


def test_ghola_may_not_break_an_answer() -> None:
    s = stage(hands={"harkonnen": ["tleilaxu_ghola-1"]})
    for ld in s.leaders:
        if ld.controller == "harkonnen":
            s = s.with_leader(replace(ld, zone="tanks"))
    s = act(s, "atreides", {"type": "prescience", "element": "leader"})
    s = act(s, "harkonnen", {"type": "pass"})
    s = act(s, "harkonnen", {"type": "answer_prescience", "value": "none"})
    s = give_turn(s, "harkonnen")
    assert not [a for a in game.legal_actions(s, "harkonnen") if a["type"] == "ghola"]
    with pytest.raises(IllegalAction) as e:
        act(
            s,
            "harkonnen",
            {"type": "ghola", "card_id": "tleilaxu_ghola-1", "leader": "feyd_rautha"},
        )
    assert e.value.code == "answer_unsatisfiable"
