"""Worked examples T-01…T-25 (dune-battle.md §10.1): core resolution."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dune_scenarios import act, fight, forces_of, give_turn, plan, resolved, stage, with_kh, zone_of

from app.games.base import IllegalAction
from app.games.dune_battle.plan import available_leaders, plan_dial2
from app.games.dune_battle.state import Forces, Plan


def test_t01_tie_goes_to_aggressor() -> None:
    s = stage()
    s, ev = fight(
        s, {"atreides": plan("thufir_hawat", normal=4), "harkonnen": plan("feyd_rautha", normal=3)}
    )
    r = resolved(ev)
    assert r["winner"] == "atreides" and r["totals"] == {"atreides": 9, "harkonnen": 9}
    assert forces_of(s, "atreides") == 6 and forces_of(s, "harkonnen") == 0
    assert zone_of(s, "thufir_hawat") != "tanks" and zone_of(s, "feyd_rautha") != "tanks"
    assert s.faction("atreides").spice == 10 and s.faction("harkonnen").spice == 10


TB = {
    "type": "choose_battle",
    "territory": "test_basin",
    "sectors": [7, 8, 9],
    "opponent": "harkonnen",
}


def test_t02_higher_total_wins_and_loser_keeps_leader() -> None:
    s = stage(extra=[Forces("atreides", "arrakeen", 9, 3), Forces("harkonnen", "arrakeen", 9, 3)])
    s = act(s, "atreides", TB)
    s, ev = fight(
        s, {"atreides": plan("thufir_hawat", normal=4), "harkonnen": plan("feyd_rautha", normal=4)}
    )
    assert resolved(ev)["winner"] == "harkonnen"
    assert forces_of(s, "harkonnen") == 4 and forces_of(s, "atreides") == 0
    thufir = s.leader("thufir_hawat")
    assert thufir.zone == "territory" and thufir.territory == "test_basin"
    assert "thufir_hawat" in available_leaders(s, "atreides", "test_basin")
    assert "thufir_hawat" not in available_leaders(s, "atreides", "arrakeen")


def test_t03_projectile_kills_unshielded_leader() -> None:
    s = stage(hands={"atreides": ["maula_pistol-1"]})
    p = {
        "atreides": plan("thufir_hawat", "maula_pistol-1", normal=2),
        "harkonnen": plan("feyd_rautha", normal=5),
    }
    s, ev = fight(s, p)
    r = resolved(ev)
    assert zone_of(s, "feyd_rautha") == "tanks"
    assert r["totals"] == {"atreides": 7, "harkonnen": 5} and r["winner"] == "atreides"
    assert s.faction("atreides").spice == 16


def test_t04_shield_stops_projectile() -> None:
    s = stage(hands={"atreides": ["maula_pistol-1"], "harkonnen": ["shield-1"]})
    p = {
        "atreides": plan("thufir_hawat", "maula_pistol-1", normal=2),
        "harkonnen": plan("feyd_rautha", defense="shield-1", normal=5),
    }
    s, ev = fight(s, p)
    r = resolved(ev)
    assert r["winner"] == "harkonnen" and r["totals"] == {"atreides": 7, "harkonnen": 11}
    assert zone_of(s, "feyd_rautha") != "tanks"
    assert (
        s.battle is not None
        and s.battle.step == "keep_cards"
        and s.battle.keepable == ("shield-1",)
    )
    assert "maula_pistol-1" in s.discard and "maula_pistol-1" not in s.faction("atreides").hand


@pytest.mark.parametrize(
    ("weapon", "defense"), [("chaumas-1", "shield-1"), ("crysknife-1", "snooper-1")]
)
def test_t05_wrong_defense_does_not_help(weapon: str, defense: str) -> None:
    s = stage(hands={"atreides": [weapon], "harkonnen": [defense]})
    p = {
        "atreides": plan("thufir_hawat", weapon),
        "harkonnen": plan("feyd_rautha", defense=defense),
    }
    s, _ = fight(s, p)
    assert zone_of(s, "feyd_rautha") == "tanks"


def test_t06_winner_is_paid_for_its_own_dead_leader_too() -> None:
    s = stage(hands={"atreides": ["gom_jabbar-1"], "harkonnen": ["stunner-1"]})
    p = {
        "atreides": plan("thufir_hawat", "gom_jabbar-1", normal=5),
        "harkonnen": plan("feyd_rautha", "stunner-1", normal=1),
    }
    s, ev = fight(s, p)
    r = resolved(ev)
    assert r["totals"] == {"atreides": 5, "harkonnen": 1} and r["winner"] == "atreides"
    assert zone_of(s, "thufir_hawat") == "tanks" and zone_of(s, "feyd_rautha") == "tanks"
    assert s.faction("atreides").spice == 10 + 11


def test_t07_card_keeping() -> None:
    s = stage(
        hands={"atreides": ["cheap_hero-1", "slip_tip-1", "baliset-1"], "harkonnen": ["snooper-1"]}
    )
    p = {
        "atreides": plan("cheap_hero-1", "slip_tip-1", "baliset-1", normal=9),
        "harkonnen": plan("feyd_rautha", defense="snooper-1", normal=1),
    }
    s, _ = fight(s, p)
    assert s.battle is not None and s.battle.step == "keep_cards"
    assert set(s.battle.keepable) == {"slip_tip-1", "baliset-1"}
    assert "cheap_hero-1" in s.discard and "snooper-1" in s.discard
    s = act(s, "atreides", {"type": "keep_cards", "discard": []})
    assert set(s.faction("atreides").hand) == {"slip_tip-1", "baliset-1"}


def test_t08_cheap_hero_with_cards_counts_zero() -> None:
    s = stage(hands={"atreides": ["cheap_hero-1", "crysknife-1", "shield-1"]})
    p = {
        "atreides": plan("cheap_hero-1", "crysknife-1", "shield-1", normal=3),
        "harkonnen": plan("feyd_rautha", normal=0),
    }
    s, ev = fight(s, p)
    assert resolved(ev)["totals"]["atreides"] == 3


def test_t09_leader_obligation() -> None:
    s = stage()
    for lid in ("thufir_hawat", "lady_jessica", "gurney_halleck", "wellington_yueh"):
        s = s.with_leader(replace(s.leader(lid), zone="tanks"))
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", plan(None, normal=1))
    assert e.value.code == "leader_required"


def test_t10_no_leader_no_cards() -> None:
    s = stage(hands={"harkonnen": ["crysknife-1"]})
    for ld in s.leaders:
        if ld.controller == "harkonnen":
            s = s.with_leader(replace(ld, zone="tanks"))
    import app.games.dune_battle as game

    for viewer in ("atreides", "harkonnen", None):
        assert game.view(s, viewer)["battle"]["defender"]["no_leader_available"] is True
    s = give_turn(s, "harkonnen")
    with pytest.raises(IllegalAction) as e:
        act(s, "harkonnen", plan(None, "crysknife-1", normal=1))
    assert e.value.code == "cards_without_leader"
    s = act(s, "harkonnen", plan(None, normal=5))
    assert s.battle is not None and s.battle.defender.draft == Plan(normal=5)


def test_t11_dedicated_leader() -> None:
    s = stage(extra=[Forces("atreides", "arrakeen", 9, 3), Forces("harkonnen", "arrakeen", 9, 3)])
    s = s.with_leader(replace(s.leader("thufir_hawat"), zone="territory", territory="arrakeen"))
    assert s.phase == "choose_battle"
    tb = act(
        s,
        "atreides",
        {
            "type": "choose_battle",
            "territory": "test_basin",
            "sectors": [7, 8, 9],
            "opponent": "harkonnen",
        },
    )
    with pytest.raises(IllegalAction) as e:
        act(tb, "atreides", plan("thufir_hawat"))
    assert e.value.code == "leader_unavailable"
    ar = act(
        s,
        "atreides",
        {"type": "choose_battle", "territory": "arrakeen", "sectors": [9], "opponent": "harkonnen"},
    )
    ar = act(ar, "atreides", plan("thufir_hawat"))
    assert ar.battle is not None and ar.battle.aggressor.draft is not None


def test_t12_worthless_cards() -> None:
    s = stage(hands={"atreides": ["kulon-1", "la_la_la-1"]})
    p = {
        "atreides": plan("thufir_hawat", "kulon-1", "la_la_la-1", normal=4),
        "harkonnen": plan("feyd_rautha", normal=3),
    }
    s, ev = fight(s, p)
    assert resolved(ev)["leaders_killed"] == []
    assert s.battle is not None and set(s.battle.keepable) == {"kulon-1", "la_la_la-1"}


def test_t13_lasgun_ignores_snooper() -> None:
    s = stage(hands={"atreides": ["lasgun-1"], "harkonnen": ["snooper-1"]})
    p = {
        "atreides": plan("thufir_hawat", "lasgun-1"),
        "harkonnen": plan("feyd_rautha", defense="snooper-1"),
    }
    s, ev = fight(s, p)
    assert resolved(ev)["result"] == "normal" and zone_of(s, "feyd_rautha") == "tanks"


def _explosion_stage(**kw: object):  # type: ignore[no-untyped-def]
    return stage(
        third="emperor",
        extra=[Forces("emperor", "test_basin", 9, 3)],
        storm_sector=8,
        territory_spice=0,
        **kw,  # type: ignore[arg-type]
    )


def test_t14_explosion() -> None:
    s = _explosion_stage(hands={"atreides": ["lasgun-1"], "harkonnen": ["shield-1"]})
    s = replace(
        s,
        territories=tuple(
            replace(t, spice=4) if t.id == "test_basin" else t for t in s.territories
        ),
    )
    assert s.battle is not None and s.battle.sectors == (8,)
    p = {
        "atreides": plan("thufir_hawat", "lasgun-1", normal=2),
        "harkonnen": plan("feyd_rautha", defense="shield-1", normal=2),
    }
    s, ev = fight(s, p)
    r = resolved(ev)
    assert r["result"] == "explosion" and r["winner"] is None
    assert all(f.territory != "test_basin" for f in s.forces)
    assert s.faction("emperor").tanks_normal == 3 and s.territory("test_basin").spice == 0
    assert zone_of(s, "thufir_hawat") == "tanks" and zone_of(s, "feyd_rautha") == "tanks"
    assert s.faction("atreides").spice == 10 and s.faction("harkonnen").spice == 10
    assert {"lasgun-1", "shield-1"} <= set(s.discard)
    assert s.battle is None and not any(e.type == "capture_declared" for e in ev)


def test_t15_own_shield_also_explodes() -> None:
    s = stage(hands={"atreides": ["lasgun-1", "shield-1"]})
    p = {"atreides": plan("thufir_hawat", "lasgun-1", "shield-1"), "harkonnen": plan("feyd_rautha")}
    s, ev = fight(s, p)
    assert resolved(ev)["result"] == "explosion"


def test_t16_traitor_pre_empts_explosion() -> None:
    s = _explosion_stage(
        hands={"atreides": ["lasgun-1"], "harkonnen": ["shield-1"]},
        traitors={"atreides": ["piter_de_vries"]},
    )
    s = replace(
        s,
        territories=tuple(
            replace(t, spice=4) if t.id == "test_basin" else t for t in s.territories
        ),
    )
    p = {
        "atreides": plan("thufir_hawat", "lasgun-1", normal=2),
        "harkonnen": plan("piter_de_vries", defense="shield-1", normal=2),
    }
    s, ev = fight(s, p, calls=["atreides"])
    r = resolved(ev)
    assert r["result"] == "traitor" and r["winner"] == "atreides"
    assert forces_of(s, "atreides") == 10 and forces_of(s, "harkonnen") == 0
    assert forces_of(s, "emperor") == 3 and s.territory("test_basin").spice == 4
    assert zone_of(s, "piter_de_vries") == "tanks" and s.faction("atreides").spice == 13
    assert "shield-1" in s.discard
    assert s.battle is not None and s.battle.keepable == ("lasgun-1",)


def test_t17_one_traitor_advanced_spice() -> None:
    s = stage(advanced=True, traitors={"atreides": ["feyd_rautha"]})
    p = {
        "atreides": plan("thufir_hawat", normal=5, spice=5),
        "harkonnen": plan("feyd_rautha", normal=4, spice=3),
    }
    s, _ = fight(s, p, calls=["atreides"])
    assert s.faction("atreides").spice == 10 + 6
    assert s.faction("harkonnen").spice == 7
    assert forces_of(s, "atreides") == 10 and forces_of(s, "harkonnen") == 0


def test_t18_two_traitors() -> None:
    s = stage(
        hands={"atreides": ["crysknife-1"]},
        traitors={"atreides": ["feyd_rautha"], "harkonnen": ["thufir_hawat"]},
    )
    p = {
        "atreides": plan("thufir_hawat", "crysknife-1", normal=3),
        "harkonnen": plan("feyd_rautha", normal=3),
    }
    s, ev = fight(s, p, calls=["atreides", "harkonnen"])
    r = resolved(ev)
    assert r["result"] == "two_traitors" and r["winner"] is None
    assert zone_of(s, "thufir_hawat") == "tanks" and zone_of(s, "feyd_rautha") == "tanks"
    assert forces_of(s, "atreides") == 0 and forces_of(s, "harkonnen") == 0
    assert s.faction("atreides").spice == 10 and s.faction("harkonnen").spice == 10
    assert "crysknife-1" in s.discard


def test_t19_kh_blocks_traitor() -> None:
    s = with_kh(stage(advanced=True, traitors={"harkonnen": ["gurney_halleck"]}))
    plans = {"atreides": plan("gurney_halleck", kh=True), "harkonnen": plan("feyd_rautha")}
    s, _ = fight(s, plans, decide=False)
    s = act(s, "atreides", {"type": "decline_traitor"})
    with pytest.raises(IllegalAction) as e:
        act(s, "harkonnen", {"type": "call_traitor"})
    assert e.value.code == "traitor_blocked_by_kh"


def test_t20_kh_bonus_needs_a_survivor() -> None:
    s = with_kh(stage(advanced=True, hands={"harkonnen": ["chaumas-1"]}))
    p = {
        "atreides": plan("gurney_halleck", normal=3, spice=3, kh=True),
        "harkonnen": plan("feyd_rautha", "chaumas-1"),
    }
    s, ev = fight(s, p)
    assert resolved(ev)["totals"]["atreides"] == 3
    assert not s.faction("atreides").kh_dead


def test_t21_kh_activation() -> None:
    import app.games.dune_battle as game

    s = with_kh(stage(advanced=True), losses=5)
    s, _ = fight(
        s, {"atreides": plan("thufir_hawat", normal=2, spice=2), "harkonnen": plan("umman_kudu")}
    )
    assert s.faction("atreides").kh_losses == 7
    assert game.view(s, "atreides")["factions"]["atreides"]["kh_counter"] == 7
    for viewer in ("harkonnen", None):
        assert "kh_counter" not in game.view(s, viewer)["factions"]["atreides"]


def test_t22_spice_dialing() -> None:
    s = stage(a="harkonnen", d="atreides", a_forces=8, advanced=True)
    p = {
        "harkonnen": plan("feyd_rautha", normal=6, spice=4),
        "atreides": plan("thufir_hawat", normal=8, spice=8),
    }
    assert s.battle is not None
    assert plan_dial2(s, s.battle, "harkonnen", Plan("feyd_rautha", normal=6, spice=4), False) == 10
    s, _ = fight(s, p)
    assert s.faction("harkonnen").spice == 6


def test_t22_spice_dialing_is_paid_by_a_winner_too() -> None:
    s = stage(a="harkonnen", d="atreides", a_forces=8, advanced=True)
    p = {
        "harkonnen": plan("feyd_rautha", normal=6, spice=4),
        "atreides": plan("wellington_yueh", normal=1, spice=1),
    }
    s, ev = fight(s, p)
    assert resolved(ev)["winner"] == "harkonnen" and resolved(ev)["totals"]["harkonnen"] == 11
    assert s.faction("harkonnen").spice == 6


def _elite(d: str, **kw: object):  # type: ignore[no-untyped-def]
    return stage(
        a="emperor",
        d=d,
        a_forces=(6, 4),
        d_forces=(6, 3) if d == "fremen" else 6,
        advanced=True,
        **kw,
    )  # type: ignore[arg-type]


def test_t23_elite_forces() -> None:
    emperor_plan = Plan("caid", normal=2, elite=2, spice=4)
    s = _elite("atreides")
    assert s.battle is not None and plan_dial2(s, s.battle, "emperor", emperor_plan, False) == 12
    s = _elite("fremen")
    assert s.battle is not None and plan_dial2(s, s.battle, "emperor", emperor_plan, False) == 8
    assert plan_dial2(s, s.battle, "fremen", Plan("stilgar", normal=2, elite=3), False) == 16


def test_t24_karama_on_sardaukar() -> None:
    s = _elite("atreides", hands={"atreides": ["karama-1"]})
    s = act(s, "atreides", {"type": "karama", "effect": "cancel_elite", "card_id": "karama-1"})
    assert s.battle is not None
    assert plan_dial2(s, s.battle, "emperor", Plan("caid", normal=2, elite=2, spice=4), False) == 8
    p = {
        "emperor": plan("hasimir_fenring", normal=2, elite=2, spice=4),
        "atreides": plan("wellington_yueh"),
    }
    s, _ = fight(s, p)
    assert s.faction("emperor").tanks_normal == 2 and s.faction("emperor").tanks_elite == 2


def test_t25_half_points_tie_to_aggressor() -> None:
    s = stage(advanced=True)
    p = {
        "atreides": plan("duncan_idaho", normal=4, spice=3),
        "harkonnen": plan("iakin_nefud", normal=4, spice=3),
    }
    s, ev = fight(s, p)
    r = resolved(ev)
    assert r["totals"] == {"atreides": 5.5, "harkonnen": 5.5} and r["winner"] == "atreides"
