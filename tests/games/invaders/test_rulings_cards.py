"""Rulings C-24 … C-48 of invaders-cards.md §4, one test each (named test_cNN_…)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from invaders_builders import Play, build, one, target, where, zone

from app.games.invaders.cards import card
from app.games.invaders.power import all_powers, card_cost, zone_power
from app.games.invaders.state import INVADER, MANKIND


def play(p: Play, seat: str, type_id: str) -> Play:
    return p(seat, {"type": "play", "card": one(p.s, type_id)})


def test_c24_cost_modifiers_apply_in_order_and_floor_at_zero() -> None:
    s = build(
        hero=("hero_mensah", "eurasia"),
        board={"eurasia": {"mankind": ["telepath_cadre"]}},
        hands={
            "invader": ["whisperer_envoy"],
            "mankind": ["mount_rushmore", "refugee_shanty_town"],
        },
    )
    assert card_cost(s, int(one(s, "mount_rushmore")[1:])) == (1, 0)
    assert card_cost(s, int(one(s, "refugee_shanty_town")[1:])) == (0, 0)
    envoy = int(one(s, "whisperer_envoy")[1:])
    assert card_cost(s, envoy) == (0, 2)
    p = Play(s)("invader", {"type": "plot_action", "option": "reduce_drain"})
    assert card_cost(p.s, envoy) == (0, 1)


def test_c25_activated_costs_first_and_this_zone_is_where_the_source_was() -> None:
    s = build(
        active="mankind",
        board={
            "eurasia": {"mankind": ["ramses_submarine"], "invader": ["drone_picket"]},
            "africa": {"invader": ["drone_picket"]},
        },
    )
    p = Play(s)("mankind", {"type": "use", "card": one(s, "ramses_submarine")})
    assert [len(p.s.board[z * 2 + INVADER]) for z in range(3)] == [0, 0, 1]
    assert not p.event("card_sacrificed")


def test_c26_draw_effects_need_the_cards_in_the_deck() -> None:
    s = build(deck_sizes={"invader": 1}, hands={"invader": ["reinforcement_wave"]})
    assert Play(s).refuse("invader", {"type": "play", "card": one(s, "reinforcement_wave")}) == (
        "no_effect"
    )
    e = build(deck_sizes={"invader": 0})
    assert Play(e).refuse("invader", {"type": "plot_action", "option": "draw"}) == "deck_empty"


def test_c27_a_cost_may_empty_the_payers_deck() -> None:
    s = build(deck_sizes={"invader": 2}, hands={"invader": ["kraken_warmachine", "drone_picket"]})
    p = play(Play(s), "invader", "kraken_warmachine")("invader", zone("eurasia"))
    assert p.s.deck[INVADER] == () and p.s.outcome is None


def test_c28_norad_stops_one_shots_only() -> None:
    s = build(
        plot=7,
        hero=("hero_vale", "eurasia"),
        board={"eurasia": {"mankind": ["norad_bunker", "refugee_shanty_town"]}},
        hands={"invader": ["kinetic_bombardment", "drone_picket"]},
    )
    assert Play(s).refuse("invader", {"type": "play", "card": one(s, "kinetic_bombardment")}) == (
        "no_effect"
    )
    t = build(
        plot=7,
        hero=("hero_vale", "eurasia"),
        board={"eurasia": {"mankind": ["norad_bunker", "refugee_shanty_town"]}},
        hands={"invader": ["hunter_killer_tripod", "drone_picket"]},
    )
    p = play(Play(t), "invader", "hunter_killer_tripod")("invader", zone("eurasia"))
    assert where(p.s, one(t, "refugee_shanty_town")) == "discard:mankind"


def test_c29_rushmore_can_be_returned_to_hand_and_loses_its_wards() -> None:
    s = build(
        board={"eurasia": {"mankind": ["mount_rushmore"]}},
        hero=("hero_han", "africa"),
        hands={"invader": ["nanobot_kill_swarm", "mind_breach"]},
    )
    rush = one(s, "mount_rushmore")
    s = replace(s, wards={int(rush[1:]): 5})
    p = play(Play(s), "invader", "nanobot_kill_swarm")  # the hero is the only legal target
    assert where(p.s, one(s, "hero_han")) == "discard:mankind"
    assert where(p.s, rush) == "eurasia:mankind"
    q = play(Play(s), "invader", "mind_breach")
    assert where(q.s, rush) == "hand:mankind" and q.s.wards == {}


def test_c30_a_move_needs_a_free_slot_and_keeps_tokens() -> None:
    s = build(
        active="mankind",
        hero=("hero_vale", "pacific_rim"),
        board={
            "eurasia": {"mankind": ["saladin_vtol"]},
            "africa": {"mankind": ["rifle_platoon"] * 3 + ["exo_suit_rangers"]},
        },
    )
    saladin = one(s, "saladin_vtol")
    s = replace(s, plus_tokens={int(saladin[1:]): 1})
    p = Play(s)("mankind", {"type": "use", "card": saladin})  # full Africa is no option
    assert where(p.s, saladin) == "pacific_rim:mankind"
    assert p.s.plus_tokens == {int(saladin[1:]): 1} and not p.event("card_placed")


def test_c31_moving_black_narcissus_moves_its_extra_attack() -> None:
    s = build(
        active="mankind",
        hero=("hero_vale", "pacific_rim"),
        board={"eurasia": {"invader": ["black_narcissus_weapons_array"]}},
        hands={"mankind": ["decoy_beacons"]},
    )
    p = play(Play(s), "mankind", "decoy_beacons")("mankind", zone("africa"))
    p.end_main().end_main()
    assert [e["zone"] for e in p.event("zone_resolved") if e["extra"]] == ["africa"]


def test_c32_decoy_beacons_cannot_move_into_a_full_invader_column() -> None:
    s = build(
        active="mankind",
        board={
            "eurasia": {"invader": ["kraken_warmachine"]},
            "africa": {"invader": ["drone_picket"] * 4},
        },
        hands={"mankind": ["decoy_beacons"]},
    )
    p = play(Play(s), "mankind", "decoy_beacons")("mankind", target(one(s, "kraken_warmachine")))
    assert where(p.s, one(s, "kraken_warmachine")) == "pacific_rim:invader"


def test_c33_hold_the_line_lasts_through_the_next_invader_turn_for_chosen_cards_only() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
        hands={"mankind": ["hold_the_line", "telepath_cadre"]},
    )
    rifle = int(one(s, "rifle_platoon")[1:])
    p = play(Play(s), "mankind", "hold_the_line")("mankind", zone("eurasia"))
    play(p, "mankind", "telepath_cadre")("mankind", zone("eurasia"))
    assert all_powers(p.s)[rifle] == 3
    assert all_powers(p.s)[int(one(s, "telepath_cadre")[1:])] == 1  # came later
    p.end_main()
    assert all_powers(p.s)[rifle] == 3
    p.end_main()
    assert all_powers(p.s)[rifle] == 2


def test_c34_overcharge_may_target_a_desolator() -> None:
    s = build(
        board={"eurasia": {"invader": ["terraforming_spire"]}}, hands={"invader": ["overcharge"]}
    )
    p = play(Play(s), "invader", "overcharge")
    assert all_powers(p.s)[int(one(s, "terraforming_spire")[1:])] == 4


@pytest.mark.usefixtures("spec_zone_powers")
def test_c35_chainmail_window_and_duration() -> None:
    s = build(
        board={"eurasia": {"invader": ["medusa_assault_vehicles"]}}, deck_sizes={"mankind": 50}
    )
    p = Play(s).end_main(chainmail=True)
    eurasia = next(e for e in p.event("zone_resolved") if e["zone"] == "eurasia")
    assert eurasia["mankind"] == 5 and p.s.zone_mods == ()
    p.end_main()
    p("invader", {"type": "end_main"})
    assert p.prompt() != "chainmail_window"  # enabled already: no window
    m = build(active="mankind", deck_sizes={"mankind": 50})
    q = Play(m)("mankind", {"type": "enable", "strategy": "project_chainmail"}).end_main()
    assert zone_power(q.s, 1) == 5
    q.end_main()
    assert zone_power(q.s, 1) == 3


def test_bal6_chainmail_waits_for_a_deck_of_50_in_either_turn() -> None:
    mine = build(active="mankind", deck_sizes={"mankind": 51})
    assert Play(mine).refuse("mankind", {"type": "enable", "strategy": "project_chainmail"}) == (
        "requirement_unmet"
    )
    theirs = Play(build(deck_sizes={"mankind": 51}))("invader", {"type": "end_main"})
    assert theirs.event("zone_resolved")  # the attack went ahead: no window while shut
    opened = Play(build(deck_sizes={"mankind": 50}))("invader", {"type": "end_main"})
    assert opened.prompt() == "chainmail_window"


def test_bal6_drown_the_coastlines_opens_on_plot_8() -> None:
    drown = {"type": "enable", "strategy": "drown_the_coastlines"}
    assert Play(build(plot=9)).refuse("invader", drown) == "requirement_unmet"
    assert "drown_the_coastlines" in Play(build(plot=8))("invader", drown).s.enabled


def test_bal6_brood_awakening_opens_on_plot_7() -> None:
    brood = {"type": "enable", "strategy": "brood_awakening"}
    s = build(plot=8, discards={"invader": ["drone_picket"]})
    assert Play(s).refuse("invader", brood) == "requirement_unmet"
    p = Play(replace(s, plot=7))("invader", brood)
    assert "brood_awakening" in p.s.enabled


@pytest.mark.usefixtures("spec_zone_powers")
def test_c36_blot_out_the_sun_covers_that_turns_attack() -> None:
    s = build(plot=6, board={"eurasia": {"invader": ["drone_picket"]}})
    p = Play(s)("invader", {"type": "enable", "strategy": "blot_out_the_sun"}).end_main()
    eurasia = next(e for e in p.event("zone_resolved") if e["zone"] == "eurasia")
    assert eurasia["mankind"] == 1 and zone_power(p.s, 1) == 3


def test_c37_requirements_are_checked_when_enabling() -> None:
    s = build(plot=6, hands={"invader": ["cold_recalculation"]})
    p = Play(s)
    assert {"type": "enable", "strategy": "blot_out_the_sun"} in p.legal("invader")
    play(p, "invader", "cold_recalculation")
    assert p.s.plot == 8
    assert p.refuse("invader", {"type": "enable", "strategy": "blot_out_the_sun"}) == (
        "requirement_unmet"
    )


def test_c38_strategies_are_not_cards_for_forbid() -> None:
    s = build(plot=7, board={"eurasia": {"mankind": ["mount_rushmore", "norad_bunker"]}})
    p = Play(s)("invader", {"type": "enable", "strategy": "lunar_fracture"})
    assert where(p.s, one(s, "mount_rushmore")) == "discard:mankind"


def test_c39_plot_moves_up_are_capped_at_twelve() -> None:
    s = build(plot=12, hands={"invader": ["cold_recalculation"]})
    assert Play(s).refuse("invader", {"type": "play", "card": one(s, "cold_recalculation")}) == (
        "no_effect"
    )
    e = build(plot=4)
    e = replace(e, plot=4)
    assert Play(e)("invader", {"type": "enable", "strategy": "patience_of_aeons"}).s.plot == 6


@pytest.mark.usefixtures("spec_zone_powers")
def test_c40_ops_centre_once_per_mankind_turn_never_for_the_invader() -> None:
    s = build(
        active="mankind",
        zone_tokens=(0, 2, 0),
        hands={
            "mankind": [
                "rifle_platoon",
                "exo_suit_rangers",
                "mako_combat_walker",
                "bastion_heavy_tank",
            ]
        },
        board={"africa": {"mankind": ["field_hospital"]}},
    )
    p = Play(s)("mankind", {"type": "ops_centre"})
    p("mankind", {"type": "discard", "card": one(s, "rifle_platoon")})  # discard 2 (BAL-10)
    p("mankind", {"type": "discard", "card": one(s, "exo_suit_rangers")})
    assert p.s.zone_tokens == (0, 1, 0)  # the move branch has no non-hero Defender: no choice
    assert p.refuse("mankind", {"type": "ops_centre"}) == "already_used"
    i = build(active="invader")
    assert Play(i).refuse("invader", {"type": "ops_centre"}) == "not_your_ability"


def test_c41_keyword_in_matches_either_keyword() -> None:
    s = build(
        active="mankind",
        hands={"mankind": ["emp_burst", "rifle_platoon"]},
        board={"eurasia": {"invader": ["drone_picket", "kraken_warmachine", "carapace_larvae"]}},
    )
    p = play(Play(s), "mankind", "emp_burst")
    assert [s.types[c] for c in p.s.board[1 * 2 + INVADER]] == ["carapace_larvae"]


def test_c42_infestation_counts_include_desolators() -> None:
    s = build(
        board={"eurasia": {"invader": ["burrower_brood", "hive_overseer", "anthraxus_mega_slug"]}}
    )
    powers = all_powers(s)
    assert powers[int(one(s, "burrower_brood")[1:])] == 1 + 1 + 1
    assert powers[int(one(s, "anthraxus_mega_slug")[1:])] == 3


def test_c43_returned_cards_lose_everything_and_pay_full_cost_again() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"invader": ["squid_lander_vehicle"]}},
        hands={"mankind": ["ambush"]},
    )
    squid = one(s, "squid_lander_vehicle")
    s = replace(s, plus_tokens={int(squid[1:]): 1})
    p = play(Play(s), "mankind", "ambush").end_main()
    assert p.s.plus_tokens == {}
    deck = len(p.s.deck[INVADER])
    p("invader", {"type": "play", "card": squid})("invader", zone("africa"))
    assert len(p.s.deck[INVADER]) == deck - card("squid_lander_vehicle").drain  # the full cost


def test_c44_shanty_town_recovers_when_destroyed_not_when_sacrificed() -> None:
    s = build(
        active="mankind",
        hero=("hero_vale", "pacific_rim"),
        board={
            "eurasia": {
                "mankind": [
                    "refugee_shanty_town",
                    "rifle_platoon",
                    "rifle_platoon",
                    "rifle_platoon",
                ]
            }
        },
        discards={"mankind": ["saladin_vtol"]},
        hands={"mankind": ["telepath_cadre"]},
    )
    p = play(Play(s), "mankind", "telepath_cadre")("mankind", zone("eurasia"))
    p("mankind", {"type": "sacrifice", "card": one(s, "refugee_shanty_town")})
    assert where(p.s, one(s, "saladin_vtol")) == "discard:mankind"


def test_c45_thing_is_blocked_by_norad() -> None:
    s = build(
        hero=("hero_vale", "eurasia"),
        board={"eurasia": {"mankind": ["norad_bunker"]}},
        hands={"invader": ["shapeshifting_alien_thing", "drone_picket", "drone_picket"]},
    )
    assert (
        Play(s).refuse("invader", {"type": "play", "card": one(s, "shapeshifting_alien_thing")})
        == "no_effect"
    )


def test_c46_mega_slug_on_an_empty_deck_wins_for_the_invader() -> None:
    s = build(deck_sizes={"mankind": 0}, board={"eurasia": {"invader": ["anthraxus_mega_slug"]}})
    p = Play(s)("invader", {"type": "use", "card": one(s, "anthraxus_mega_slug")})
    assert p.s.outcome.winner == "invader" and p.s.outcome.reason == "mankind_decked_drain"


def test_c47_expose_the_plot_onto_the_skull_wins_for_mankind() -> None:
    s = build(active="mankind", plot=1, hands={"mankind": ["expose_the_plot", "rifle_platoon"]})
    p = play(Play(s), "mankind", "expose_the_plot")
    assert p.s.outcome.winner == "mankind" and p.s.outcome.reason == "plot_skull"


def test_c48_component_counts_are_not_enforced() -> None:
    s = build(
        zone_tokens=(7, 6, 7),
        board={"eurasia": {"mankind": ["aegis_shield_dome", "aegis_shield_dome"]}},
        hands={"invader": ["spore_carrier"]},
    )
    p = play(Play(s), "invader", "spore_carrier")("invader", zone("eurasia"))
    assert sum(p.s.zone_tokens) == 21


__all__ = ["MANKIND", "target"]
