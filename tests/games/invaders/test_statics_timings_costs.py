"""One test per static S-1 … S-5, timing T-1 … T-8 (+ unique) and cost form K-1 … K-5."""

from __future__ import annotations

import pytest
from invaders_builders import Play, build, one, ready, target, where, zone

from app.games.invaders.flow import BeginTurn
from app.games.invaders.power import all_powers, all_zone_totals, card_cost, zone_power, zone_totals
from app.games.invaders.state import INVADER, MANKIND, ZoneMod

# --- statics ---------------------------------------------------------------


def test_static_power_mod_buffs_matching_cards_in_its_zone() -> None:
    s = build(board={"eurasia": {"mankind": ["hover_tank_squadron", "bastion_heavy_tank"]}})
    p = all_powers(s)
    assert p[int(one(s, "bastion_heavy_tank")[1:])] == 6
    assert p[int(one(s, "hover_tank_squadron")[1:])] == 2  # "other"


def test_static_power_per_counts_matching_cards() -> None:
    s = build(
        board={"eurasia": {"invader": ["burrower_brood", "carapace_larvae", "spore_carrier"]}}
    )
    assert all_powers(s)[int(one(s, "burrower_brood")[1:])] == 3


@pytest.mark.usefixtures("spec_zone_powers")
def test_static_zone_power_mod_changes_its_zone() -> None:
    s = build(
        board={
            "eurasia": {"mankind": ["aegis_shield_dome"]},
            "africa": {"invader": ["terraforming_spire"]},
        }
    )
    assert [zone_power(s, z) for z in range(3)] == [2, 5, 0]


@pytest.mark.usefixtures("spec_zone_powers")
def test_all_zone_totals_agree_with_zone_totals_zone_by_zone() -> None:
    """The bots' one-pass totals: statics, tokens, a temporary modifier, a turned hero."""
    s = build(
        board={
            "pacific_rim": {"mankind": ["rifle_platoon"], "invader": ["squid_lander_vehicle"]},
            "eurasia": {"mankind": ["aegis_shield_dome", "hover_tank_squadron"]},
            "africa": {"invader": ["terraforming_spire", "burrower_brood", "carapace_larvae"]},
        },
        hero=("hero_vale", "pacific_rim"),
        hero_turned=True,
        zone_tokens=(1, 0, 1),
        zone_mods=(ZoneMod(zone=1, amount=2, until="attack", turn=2),),
    )
    expected = [zone_totals(s, z) for z in range(3)]
    assert all_zone_totals(s, all_powers(s)) == expected
    assert [zone_power(s, z) for z in range(3)] == [1, 7, 0]  # tokens, static, modifier


def test_static_cost_mod_changes_costs_in_hand() -> None:
    s = build(
        board={"eurasia": {"mankind": ["telepath_cadre", "telepath_cadre"]}},
        hands={"invader": ["terror_broadcast", "whisperer_envoy"]},
    )
    assert card_cost(s, int(one(s, "terror_broadcast")[1:])) == (0, 2)  # printed 0 + 2
    assert card_cost(s, int(one(s, "whisperer_envoy")[1:])) == (0, 3)


def test_static_forbid_removes_protected_cards_from_targets() -> None:
    s = build(
        board={
            "eurasia": {"mankind": ["norad_bunker", "rifle_platoon"]},
            "africa": {"mankind": ["exo_suit_rangers"]},
        },
        hero=("hero_vale", "pacific_rim"),
        hands={"invader": ["nanobot_kill_swarm"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "nanobot_kill_swarm")})
    offered = {o["card"] for o in p.legal("invader")}
    assert offered == {one(s, "exo_suit_rangers"), one(s, "hero_vale")}


# --- timings ---------------------------------------------------------------


def test_timing_on_play_resolves_after_placement() -> None:
    s = build(
        board={"eurasia": {"mankind": ["saladin_vtol"]}},
        hands={"invader": ["hunter_killer_tripod", "drone_picket"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "hunter_killer_tripod")})
    p("invader", zone("eurasia"))
    assert where(p.s, one(s, "saladin_vtol")) == "discard:mankind"


def test_timing_on_destroyed_fires_after_destruction() -> None:
    s = build(
        board={"eurasia": {"mankind": ["refugee_shanty_town"]}},
        hero=("hero_vale", "pacific_rim"),
        discards={"mankind": ["rifle_platoon"]},
        hands={"invader": ["plasma_barrage"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "plasma_barrage")})
    p("invader", target(one(s, "refugee_shanty_town")))
    assert [s.types[c] for c in p.s.hand[MANKIND]] == ["rifle_platoon"]


def test_timing_start_of_turn_after_draw_and_upright() -> None:
    s = ready(
        build(
            active="invader",
            hero=("hero_sokolova", "eurasia"),
            hero_turned=True,
            stack=(BeginTurn(MANKIND),),
        )
    )
    assert not s.hero_turned and s.plus_tokens == {s.hero: 1}


@pytest.mark.usefixtures("spec_zone_powers")
def test_timing_on_zone_resolved_win() -> None:
    s = build(board={"eurasia": {"invader": ["abyssal_leviathan", "kraken_warmachine"]}})
    p = Play(s).end_main()
    assert len([e for e in p.event("card_drained") if e["seat"] == "mankind"]) == 4 + 1


def test_timing_on_zone_resolved_hold() -> None:
    s = build(zone_tokens=(0, 2, 0), board={"eurasia": {"mankind": ["fortified_arcology"]}})
    p = Play(s).end_main()
    assert p.s.zone_tokens == (0, 1, 0)


@pytest.mark.usefixtures("spec_zone_powers")
def test_timing_static_only_while_in_play() -> None:
    s = build(
        board={"eurasia": {"mankind": ["aegis_shield_dome"]}},
        hands={"invader": ["nanobot_kill_swarm"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "nanobot_kill_swarm")})
    p("invader", target(one(s, "aegis_shield_dome")))
    assert zone_power(p.s, 1) == 3


def test_timing_activated_once_per_own_turn() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"mankind": ["field_hospital"]}},
        discards={"mankind": ["rifle_platoon", "saladin_vtol"]},
        hands={"mankind": ["exo_suit_rangers"]},
    )
    hosp = one(s, "field_hospital")
    p = Play(s)("mankind", {"type": "use", "card": hosp})(
        "mankind", target(f"c{s.discard[MANKIND][-1]}")
    )
    assert p.refuse("mankind", {"type": "use", "card": hosp}) == "already_used"


def test_timing_enable_flips_a_strategy_once() -> None:
    s = build(plot=8, zone_tokens=(0, 0, 0))
    p = Play(s)("invader", {"type": "enable", "strategy": "drown_the_coastlines"})
    assert p.s.zone_tokens == (1, 1, 1) and "drown_the_coastlines" in p.s.enabled


def test_timing_unique_runs_at_the_start_of_mankinds_turn_only() -> None:
    s = build(board={"africa": {"invader": ["black_narcissus_weapons_array"]}})
    p = Play(s).end_main().end_main().end_main()
    assert [e["extra"] for e in p.event("zone_resolved")] == ([False] * 3 + [True]) * 2


# --- costs and requirements --------------------------------------------------


def test_cost_discard_n_is_picked_by_the_payer() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"mankind": ["railgun_battery"], "invader": ["drone_picket"]}},
        hands={"mankind": ["rifle_platoon", "exo_suit_rangers"]},
    )
    p = Play(s)("mankind", {"type": "use", "card": one(s, "railgun_battery")})
    assert p.prompt() == "discard"
    p("mankind", {"type": "discard", "card": one(s, "rifle_platoon")})
    assert where(p.s, one(s, "drone_picket")) == "discard:invader"
    assert where(p.s, one(s, "exo_suit_rangers")) == "hand:mankind"


def test_cost_drain_n_flips_own_deck_and_does_not_count_as_inflicted() -> None:
    s = build(
        board={"eurasia": {"invader": ["salvage_ark"]}}, discards={"invader": ["drone_picket"]}
    )
    deck = len(s.deck[INVADER])
    p = Play(s)("invader", {"type": "use", "card": one(s, "salvage_ark")})
    assert len(p.s.deck[INVADER]) == deck - 1 and not p.s.drain_inflicted
    assert p.event("card_drained")[0]["cost"] is True


def test_cost_destroy_self_destroys_the_source_first() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"mankind": ["ramses_submarine"], "invader": ["squid_lander_vehicle"]}},
    )
    p = Play(s)("mankind", {"type": "use", "card": one(s, "ramses_submarine")})
    assert where(p.s, one(s, "ramses_submarine")) == "discard:mankind"
    assert where(p.s, one(s, "squid_lander_vehicle")) == "discard:invader"
    assert p.types().index("card_destroyed") < p.types().index("card_destroyed", 2)


def test_requirement_plot_le_n() -> None:
    s = build(plot=8)
    p = Play(s)
    assert p.refuse("invader", {"type": "enable", "strategy": "lunar_fracture"}) == (
        "requirement_unmet"
    )


def test_requirement_deck_le_n() -> None:
    s = build(active="mankind", deck_sizes={"mankind": 51}, zone_tokens=(1, 0, 0))
    p = Play(s)
    assert p.refuse("mankind", {"type": "enable", "strategy": "operation_clean_slate"}) == (
        "requirement_unmet"
    )
    s2 = build(active="mankind", deck_sizes={"mankind": 50}, zone_tokens=(1, 0, 0))
    assert {"type": "enable", "strategy": "operation_clean_slate"} in Play(s2).legal("mankind")
