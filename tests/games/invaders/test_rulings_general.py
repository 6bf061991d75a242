"""Rulings C-1 … C-23 of invaders-cards.md §4, one test each (named test_cNN_…)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from invaders_builders import Play, build, one, ready, target, where, zone

from app.games.invaders.flow import BeginTurn
from app.games.invaders.formal import Effect, Filter
from app.games.invaders.power import all_powers, zone_power, zone_totals
from app.games.invaders.state import INVADER, MANKIND, Ctx
from app.games.invaders.targets import board_candidates

PLAY = "play"


def play(p: Play, seat: str, type_id: str) -> Play:
    return p(seat, {"type": PLAY, "card": one(p.s, type_id)})


def test_c01_targets_are_chosen_first_then_destroyed_together() -> None:
    s = build(
        board={"eurasia": {"mankind": ["rifle_platoon", "exo_suit_rangers"]}},
        hands={"invader": ["shapeshifting_alien_thing", "drone_picket", "drone_picket"]},
    )
    rifle, exo = one(s, "rifle_platoon"), one(s, "exo_suit_rangers")
    p = play(Play(s), "invader", "shapeshifting_alien_thing")("invader", target(rifle))
    assert where(p.s, rifle) == "eurasia:mankind" and not p.event("card_destroyed")
    p("invader", target(exo))
    assert [e["card"] for e in p.event("card_destroyed")] == [rifle, exo]


def test_c02_one_shots_and_abilities_must_change_something_permanents_need_not() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"mankind": ["field_hospital"]}},
        hands={"mankind": ["reclaim_the_land", "interceptor_wing"]},
    )
    p = Play(s)
    assert p.refuse("mankind", {"type": PLAY, "card": one(s, "reclaim_the_land")}) == "no_effect"
    assert p.refuse("mankind", {"type": "use", "card": one(s, "field_hospital")}) == "no_effect"
    assert {"type": PLAY, "card": one(s, "interceptor_wing")} in p.legal("mankind")
    jam = build(hands={"invader": ["signal_jamming"]})
    assert Play(jam).refuse("invader", {"type": PLAY, "card": one(jam, "signal_jamming")}) == (
        "no_effect"
    )


@pytest.mark.usefixtures("spec_zone_powers")
def test_c03_a_chosen_zone_must_hold_a_legal_target() -> None:
    s = build(
        board={
            "africa": {"mankind": ["saladin_vtol"]},
            "eurasia": {"mankind": ["mako_combat_walker"]},
        },
        hands={"invader": ["kinetic_bombardment", "drone_picket"]},
    )
    p = play(Play(s), "invader", "kinetic_bombardment")
    # Only Africa holds a non-hero Mankind card of power <= 1: chosen automatically.
    assert where(p.s, one(s, "saladin_vtol")) == "discard:mankind"
    t = build(zone_tokens=(0, 3, 0), hands={"invader": ["atmospheric_poisoning"]})
    q = play(Play(t), "invader", "atmospheric_poisoning")
    assert {o["zone"] for o in q.legal("invader")} == {"pacific_rim", "africa"}


def test_c04_power_tests_use_current_power_even_for_a_turned_hero() -> None:
    s = build(
        hero=("hero_vale", "africa"),
        hero_turned=True,
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
        plus_tokens={},
        hands={"invader": ["plasma_barrage"]},
    )
    rifle = int(one(s, "rifle_platoon")[1:])
    s = replace(s, plus_tokens={rifle: 1})
    p = play(Play(s), "invader", "plasma_barrage")
    # The Rifle Platoon (2 + 1 token = 3) is out; the turned Vale (2) is in: auto-chosen.
    assert where(p.s, one(s, "hero_vale")) == "discard:mankind"


def test_c05_simultaneous_triggers_are_ordered_by_their_controller() -> None:
    s = build(
        active="mankind",
        board={
            "eurasia": {"invader": ["deathworm_infestation"]},
            "africa": {"invader": ["deathworm_infestation"]},
        },
    )
    p = Play(s).end_main()
    assert p.prompt() == "order_triggers"
    assert p.legal("invader") == [{"type": "choose_trigger", "index": i} for i in (0, 1)]
    p("invader", {"type": "choose_trigger", "index": 1})
    assert [e["zone"] for e in p.event("zone_tokens_placed")] == ["africa", "eurasia"]


def test_c06_partial_effects_still_happened() -> None:
    s = build(shield=1, hands={"invader": ["terror_broadcast"]})
    p = play(Play(s), "invader", "terror_broadcast")
    drained = [e for e in p.event("card_drained") if e["seat"] == "mankind"]
    assert len(p.event("shield_used")) == 1 and len(drained) == 1
    assert p.s.drain_inflicted


def test_c07_heroes_count_as_defenders_but_never_return_or_recover() -> None:
    s = build(
        active="mankind",
        hands={"mankind": ["rally_the_survivors"]},
        discards={"mankind": ["hero_okonkwo"]},
    )
    ctx = Ctx(MANKIND, -1, "x", -1, "one_shot")
    rally = Effect(
        "add_power_token", count=2, filter=Filter(side="mankind", categories=("defender",))
    )
    assert board_candidates(s, ctx, rally) == [s.hero]
    back = Effect("return_to_hand", count=1, filter=Filter(side="mankind"))
    assert board_candidates(s, ctx, back) == []
    t = build(
        active="mankind",
        hands={"mankind": ["conscription"]},
        discards={"mankind": ["hero_okonkwo"]},
    )
    assert Play(t).refuse("mankind", {"type": PLAY, "card": one(t, "conscription")}) == (
        "no_effect"
    )


def test_c08_a_turned_hero_is_inactive_except_on_play() -> None:
    s = build(
        active="mankind",
        hero=("hero_ruiz", "eurasia"),
        hero_turned=True,
        board={"eurasia": {"invader": ["drone_picket"]}},
        hands={"mankind": ["rifle_platoon"]},
    )
    assert Play(s).refuse("mankind", {"type": "use", "card": one(s, "hero_ruiz")}) == (
        "hero_turned"
    )
    o = build(
        hero=("hero_okonkwo", "eurasia"),
        hero_turned=True,
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
    )
    assert all_powers(o)[int(one(o, "rifle_platoon")[1:])] == 2
    m = build(
        hero_pile=["hero_marquez"], zone_tokens=(1, 1, 0), hands={"invader": ["nanobot_kill_swarm"]}
    )
    p = play(Play(m), "invader", "nanobot_kill_swarm")("mankind", zone("eurasia"))
    assert p.s.hero_turned and p.s.zone_tokens == (0, 0, 0)


def test_c09_destroyed_heroes_stay_inert_in_the_discard_pile() -> None:
    s = build(
        active="mankind",
        deck_sizes={"mankind": 45},
        discards={"mankind": ["hero_okonkwo", "rifle_platoon"]},
    )
    p = Play(s)("mankind", {"type": "enable", "strategy": "operation_lifeline"})
    offered = {o["card"] for o in p.legal("mankind") if o["type"] == "choose_target"}
    assert offered and one(s, "hero_okonkwo") not in offered


def test_c10_a_replacement_hero_cannot_be_hit_by_the_same_effect() -> None:
    s = build(
        hero_pile=["hero_han"],
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
        hands={"invader": ["shapeshifting_alien_thing", "drone_picket", "drone_picket"]},
    )
    p = play(Play(s), "invader", "shapeshifting_alien_thing")
    p("invader", target(one(s, "hero_vale")))("invader", {"type": "done"})
    p("mankind", zone("africa"))
    assert where(p.s, one(p.s, "hero_han")) == "africa:mankind"
    d = build(hero_turned=True, hands={"invader": ["decapitation_strike", "drone_picket"]})
    assert Play(d).refuse("invader", {"type": PLAY, "card": one(d, "decapitation_strike")}) == (
        "no_effect"
    )


def test_c11_sokolova_never_goes_above_three_tokens() -> None:
    s = build(active="invader", hero=("hero_sokolova", "eurasia"), stack=(BeginTurn(MANKIND),))
    s = replace(s, plus_tokens={s.hero: 2})
    s = ready(s)
    assert s.plus_tokens[s.hero] == 3
    again = ready(replace(s, stack=(BeginTurn(MANKIND),)))
    assert again.plus_tokens[s.hero] == 3


@pytest.mark.usefixtures("spec_zone_powers")
def test_c12_hero_tokens_count_only_upright_and_leave_with_the_hero() -> None:
    s = build(
        hero=("hero_vale", "eurasia"),
        hero_turned=True,
        hands={"invader": ["nanobot_kill_swarm"]},
        hero_pile=["hero_han"],
    )
    s = replace(s, plus_tokens={s.hero: 2})
    assert zone_totals(s, 1) == (3, 0)
    p = play(Play(s), "invader", "nanobot_kill_swarm")
    assert p.s.plus_tokens == {}


@pytest.mark.usefixtures("spec_zone_powers")
def test_c13_tokens_stay_when_a_positive_modifier_leaves() -> None:
    s = build(
        zone_tokens=(0, 4, 0),
        board={"eurasia": {"mankind": ["aegis_shield_dome"]}},
        hands={"invader": ["nanobot_kill_swarm"]},
    )
    assert zone_power(s, 1) == 1
    p = play(Play(s), "invader", "nanobot_kill_swarm")(
        "invader", target(one(s, "aegis_shield_dome"))
    )
    assert p.s.zone_tokens == (0, 4, 0) and zone_power(p.s, 1) == 0


@pytest.mark.usefixtures("spec_zone_powers")
def test_c14_chainmail_and_blot_out_the_sun_add_up() -> None:
    s = build(plot=6, deck_sizes={"mankind": 50})
    p = Play(s)("invader", {"type": "enable", "strategy": "blot_out_the_sun"})
    p.end_main(chainmail=True)
    powers = [e["mankind"] for e in p.event("zone_resolved")]
    assert powers == [2, 3, 2 + 2]  # Vale (2) stands in Africa


@pytest.mark.usefixtures("spec_zone_powers")
def test_c15_static_zone_modifiers_travel_with_their_card() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"invader": ["terraforming_spire"]}},
        hands={"mankind": ["decoy_beacons"]},
    )
    assert zone_power(s, 1) == 1
    p = play(Play(s), "mankind", "decoy_beacons")("mankind", zone("pacific_rim"))
    assert (zone_power(p.s, 0), zone_power(p.s, 1)) == (0, 3)


def test_c16_deathworm_hits_the_zone_it_occupies_at_invader_main_start() -> None:
    s = build(
        active="mankind",
        zone_tokens=(0, 0, 2),
        board={"eurasia": {"invader": ["deathworm_infestation"]}},
        hero=("hero_vale", "pacific_rim"),
    )
    p = Play(s).end_main()
    assert p.s.zone_tokens == (0, 1, 2)


@pytest.mark.usefixtures("spec_zone_powers")
def test_c17_each_treats_zones_one_by_one_and_skips_zones_at_zero() -> None:
    s = build(plot=8, board={"pacific_rim": {"invader": ["terraforming_spire"]}})
    p = Play(s)("invader", {"type": "enable", "strategy": "drown_the_coastlines"})
    assert p.s.zone_tokens == (0, 1, 1)


def test_c18_two_arcologies_in_a_held_zone_remove_two_tokens() -> None:
    s = build(
        zone_tokens=(0, 3, 0),
        board={"eurasia": {"mankind": ["fortified_arcology", "fortified_arcology"]}},
    )
    p = Play(s).end_main()
    assert p.s.zone_tokens == (0, 1, 0)


def test_c19_shields_cover_invader_drain_only_and_empty_after_the_invader_turn() -> None:
    s = build(active="mankind", hands={"mankind": ["emergency_shielding", "aegis_shield_dome"]})
    p = play(Play(s), "mankind", "emergency_shielding")
    deck = len(p.s.deck[MANKIND])
    play(p, "mankind", "aegis_shield_dome")("mankind", zone("eurasia"))
    assert len(p.s.deck[MANKIND]) == deck - 1 and p.s.shield == 2  # own cost not shielded
    p.end_main()
    assert p.s.shield == 2  # survives into the Invader turn
    p.end_main()
    assert p.s.shield == 0


def test_c20_wards_replace_drains_and_draws_at_mankinds_option() -> None:
    s = build(
        active="invader",
        board={"eurasia": {"mankind": ["mount_rushmore"]}},
        hands={"invader": ["terror_broadcast"]},
        shield=1,
    )
    rush = int(one(s, "mount_rushmore")[1:])
    s = replace(s, wards={rush: 2})
    deck = len(s.deck[MANKIND])
    p = play(Play(s), "invader", "terror_broadcast")
    assert p.prompt() == "ward"  # the shield took the first card already
    p("mankind", {"type": "spend_ward"})
    assert len(p.s.deck[MANKIND]) == deck and p.s.wards == {rush: 1}
    p.end_main()
    assert p.prompt() == "ward"  # Mankind's draw phase
    p("mankind", {"type": "decline_ward"})("mankind", {"type": "spend_ward"})
    assert len(p.s.hand[MANKIND]) == 1 and p.s.wards == {}


def test_c20_a_drain_cost_is_payable_with_wards() -> None:
    s = build(
        active="mankind",
        deck_sizes={"mankind": 0},
        board={"eurasia": {"mankind": ["mount_rushmore"]}},
        hands={"mankind": ["aegis_shield_dome"]},
    )
    rush = int(one(s, "mount_rushmore")[1:])
    s = replace(s, wards={rush: 1})
    p = play(Play(s), "mankind", "aegis_shield_dome")("mankind", zone("africa"))
    assert p.s.wards == {} and where(p.s, one(s, "aegis_shield_dome")) == "africa:mankind"


def test_c21_prevented_drain_is_not_drain() -> None:
    s = build(
        shield=5, board={"eurasia": {"invader": ["medusa_assault_vehicles", "kraken_warmachine"]}}
    )
    p = Play(s).end_main()
    assert p.event("plot_check") == [{"drain_inflicted": False}] and p.s.plot == 9


def test_c22_black_narcissus_drain_is_real_but_never_counts_for_the_plot() -> None:
    s = build(
        deck_sizes={"mankind": 0, "invader": 20},
        board={"africa": {"invader": ["black_narcissus_weapons_array", "medusa_assault_vehicles"]}},
        hero=("hero_vale", "eurasia"),
        shield=0,
        plot=10,
    )
    s = replace(s, shield=99)
    p = Play(s).end_main()  # the turn's own attack is fully shielded
    assert p.s.outcome.reason == "mankind_decked_drain"  # U-1 attack: no shield, real drain


@pytest.mark.usefixtures("spec_zone_powers")
def test_c23_leviathans_extra_drain_counts_for_the_plot_check() -> None:
    s = build(shield=4, board={"eurasia": {"invader": ["abyssal_leviathan", "kraken_warmachine"]}})
    p = Play(s).end_main()
    assert p.event("plot_check") == [{"drain_inflicted": True}] and p.s.plot == 10
    assert len([e for e in p.event("card_drained") if e["seat"] == "mankind"]) == 1


__all__ = ["INVADER"]
