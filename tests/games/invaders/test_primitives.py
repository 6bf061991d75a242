"""One test per effect primitive E-1 … E-16 (+ U-1's extra_attack), invaders-cards.md §1.4."""

from __future__ import annotations

import pytest
from invaders_builders import Play, build, one, target, where, zone

from app.games.invaders.power import all_powers, zone_power
from app.games.invaders.state import INVADER, MANKIND


def test_destroy_sends_the_target_to_its_owners_discard() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"invader": ["drone_picket"]}},
        hands={"mankind": ["precision_airstrike"]},
    )
    p = Play(s)("mankind", {"type": "play", "card": one(s, "precision_airstrike")})
    assert where(p.s, one(s, "drone_picket")) == "discard:invader"


def test_destroy_all_in_a_chosen_zone_takes_every_match() -> None:
    s = build(
        active="mankind",
        hands={"mankind": ["decontamination_sweep", "rifle_platoon"]},
        board={
            "eurasia": {"invader": ["burrower_brood", "carapace_larvae", "kraken_warmachine"]},
            "africa": {"invader": ["spore_carrier"]},
        },
    )
    p = Play(s)("mankind", {"type": "play", "card": one(s, "decontamination_sweep")})
    p("mankind", zone("eurasia"))
    assert [len(p.s.board[z * 2 + INVADER]) for z in range(3)] == [0, 1, 1]


def test_return_to_hand_puts_the_card_back_in_its_owners_hand() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"invader": ["kraken_warmachine"]}},
        hands={"mankind": ["ambush"]},
    )
    kraken = one(s, "kraken_warmachine")
    p = Play(s)("mankind", {"type": "play", "card": one(s, "ambush")})
    assert where(p.s, kraken) == "hand:invader"


def test_move_card_moves_to_a_free_slot_of_the_chosen_zone() -> None:
    s = build(active="mankind", board={"eurasia": {"mankind": ["saladin_vtol"]}})
    saladin = one(s, "saladin_vtol")
    p = Play(s)("mankind", {"type": "use", "card": saladin})("mankind", zone("pacific_rim"))
    assert where(p.s, saladin) == "pacific_rim:mankind"


def test_drain_flips_cards_from_the_players_deck() -> None:
    s = build(hands={"invader": ["terror_broadcast"]})
    deck = len(s.deck[MANKIND])
    p = Play(s)("invader", {"type": "play", "card": one(s, "terror_broadcast")})
    assert len(p.s.deck[MANKIND]) == deck - 2 and p.s.drain_inflicted


def test_draw_takes_cards_into_the_hand() -> None:
    s = build(hands={"invader": ["reinforcement_wave"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "reinforcement_wave")})
    assert len(p.s.hand[INVADER]) == 2 and len(p.event("card_drawn")) == 2


def test_discard_random_uses_the_match_rng() -> None:
    s = build(
        hands={
            "invader": ["signal_jamming"],
            "mankind": ["rifle_platoon", "exo_suit_rangers", "mako_combat_walker"],
        }
    )
    a = Play(s)("invader", {"type": "play", "card": one(s, "signal_jamming")})
    b = Play(s)("invader", {"type": "play", "card": one(s, "signal_jamming")})
    assert len(a.s.hand[MANKIND]) == 1 and a.s == b.s
    assert all(e["why"] == "random" for e in a.event("card_discarded"))


def test_place_zone_token_on_its_own_zone() -> None:
    s = build(hands={"invader": ["spore_carrier"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "spore_carrier")})(
        "invader", zone("eurasia")
    )
    assert p.s.zone_tokens == (0, 1, 0)


def test_remove_zone_token_from_a_chosen_zone() -> None:
    s = build(active="mankind", zone_tokens=(1, 3, 0), hands={"mankind": ["reclaim_the_land"]})
    p = Play(s)("mankind", {"type": "play", "card": one(s, "reclaim_the_land")})
    p("mankind", zone("eurasia"))
    assert p.s.zone_tokens == (1, 1, 0)


def test_add_power_token_on_chosen_cards() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
        hands={"mankind": ["rally_the_survivors"]},
    )
    rifle, hero = one(s, "rifle_platoon"), one(s, "hero_vale")
    p = Play(s)("mankind", {"type": "play", "card": one(s, "rally_the_survivors")})
    p("mankind", target(rifle))("mankind", target(hero))
    assert all_powers(p.s)[int(rifle[1:])] == 3 and p.s.plus_tokens[int(hero[1:])] == 1


def test_boost_lasts_until_the_end_of_the_turn() -> None:
    s = build(board={"eurasia": {"invader": ["drone_picket"]}}, hands={"invader": ["overcharge"]})
    drone = int(one(s, "drone_picket")[1:])
    p = Play(s)("invader", {"type": "play", "card": one(s, "overcharge")})
    assert all_powers(p.s)[drone] == 3
    p.end_main()
    assert all_powers(p.s)[drone] == 1


def test_move_plot_moves_the_marker() -> None:
    s = build(active="mankind", plot=6, hands={"mankind": ["expose_the_plot", "rifle_platoon"]})
    p = Play(s)("mankind", {"type": "play", "card": one(s, "expose_the_plot")})
    assert p.s.plot == 5


def test_shield_adds_to_the_pool() -> None:
    s = build(active="mankind", hands={"mankind": ["emergency_shielding"]})
    p = Play(s)("mankind", {"type": "play", "card": one(s, "emergency_shielding")})
    assert p.s.shield == 2


def test_ward_tokens_go_on_the_source() -> None:
    s = build(
        active="mankind", hands={"mankind": ["mount_rushmore", "rifle_platoon", "rifle_platoon"]}
    )
    rush = one(s, "mount_rushmore")
    p = Play(s)("mankind", {"type": "play", "card": rush})("mankind", zone("eurasia"))
    assert p.s.wards == {int(rush[1:]): 8}


def test_recover_takes_from_the_discard_pile() -> None:
    s = build(
        active="mankind",
        discards={"mankind": ["rifle_platoon", "mako_combat_walker"]},
        hands={"mankind": ["conscription"]},
    )
    p = Play(s)("mankind", {"type": "play", "card": one(s, "conscription")})
    # Only the Rifle Platoon (power 2) matches; it is taken automatically.
    assert [s.types[c] for c in p.s.hand[MANKIND]] == ["rifle_platoon"]


@pytest.mark.usefixtures("spec_zone_powers")
def test_zone_power_mod_until_end_of_turn() -> None:
    s = build(plot=6)
    p = Play(s)("invader", {"type": "enable", "strategy": "blot_out_the_sun"})
    assert [zone_power(p.s, z) for z in range(3)] == [0, 1, 0]
    p.end_main()
    assert [zone_power(p.s, z) for z in range(3)] == [2, 3, 2]


@pytest.mark.usefixtures("spec_zone_powers")
def test_choose_one_resolves_only_the_chosen_branch() -> None:
    s = build(
        active="mankind",
        zone_tokens=(1, 0, 0),
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
        hands={"mankind": ["exo_suit_rangers", "rifle_platoon"]},  # discard 2 (BAL-10): forced
    )
    p = Play(s)("mankind", {"type": "ops_centre"})
    assert p.prompt() == "choose_branch"
    p("mankind", {"type": "choose_branch", "branch": 0})
    assert p.s.zone_tokens == (0, 0, 0)
    assert where(p.s, one(s, "rifle_platoon")) == "eurasia:mankind"


@pytest.mark.usefixtures("spec_zone_powers")
def test_u1_extra_attack_resolves_the_sources_zone_at_the_start_of_mankinds_turn() -> None:
    """U-1: Black Narcissus attacks its zone once more before Mankind's draw phase."""
    s = build(
        board={"africa": {"invader": ["black_narcissus_weapons_array", "medusa_assault_vehicles"]}},
        hero=("hero_vale", "eurasia"),
        shield=3,
    )
    p = Play(s).end_main()
    extra = [e for e in p.event("zone_resolved") if e["extra"]]
    assert extra == [{"zone": "africa", "mankind": 2, "invader": 8, "result": "win", "extra": True}]
    types = p.types()
    assert types.index("zone_resolved", types.index("turn_started")) < types.index(
        "card_drawn", types.index("turn_started")
    )
