"""Engine rulings of docs/rulings.md (RUL-n) that the source texts left open."""

from __future__ import annotations

from dataclasses import replace

from invaders_builders import Play, build, one, target, where, zone

from app.games import invaders as game
from app.games.invaders.state import INVADER, MANKIND


def test_rul01_the_ops_centre_is_enabled() -> None:
    s = build(active="mankind", zone_tokens=(1, 0, 0), hands={"mankind": ["rifle_platoon"] * 2})
    assert {"type": "ops_centre"} in Play(s).legal("mankind")


def test_rul03_up_to_n_needs_one_target_then_allows_done() -> None:
    s = build(
        board={"eurasia": {"mankind": ["rifle_platoon", "exo_suit_rangers"]}},
        hands={"invader": ["shapeshifting_alien_thing", "drone_picket", "drone_picket"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "shapeshifting_alien_thing")})
    assert {"type": "done"} not in p.legal("invader")
    p("invader", target(one(s, "rifle_platoon")))
    assert {"type": "done"} in p.legal("invader")
    p("invader", {"type": "done"})
    assert where(p.s, one(s, "exo_suit_rangers")) == "eurasia:mankind"


def test_rul05_a_sacrificed_hero_is_replaced_after_the_new_card_is_placed() -> None:
    s = build(
        active="mankind",
        hero=("hero_vale", "africa"),
        hero_pile=["hero_han"],
        board={"africa": {"mankind": ["rifle_platoon"] * 3}},
        hands={"mankind": ["telepath_cadre"]},
    )
    cadre = one(s, "telepath_cadre")
    p = Play(s)("mankind", {"type": "play", "card": cadre})("mankind", zone("africa"))
    p("mankind", {"type": "sacrifice", "card": one(s, "hero_vale")})
    assert where(p.s, cadre) == "africa:mankind" and p.prompt() == "place_hero"
    assert {o["zone"] for o in p.legal("mankind")} == {"pacific_rim", "eurasia"}
    p("mankind", zone("eurasia"))
    assert p.s.hero_turned and where(p.s, one(p.s, "hero_han")) == "eurasia:mankind"
    assert not p.event("card_destroyed")


def test_rul08_identical_triggers_are_not_ordered() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"invader": ["deathworm_infestation", "deathworm_infestation"]}},
    )
    p = Play(s).end_main()
    assert p.prompt() == "main" and p.s.zone_tokens == (0, 2, 0)


def test_rul13_the_plot_reduction_is_spent_on_the_next_card() -> None:
    s = build(
        hands={"invader": ["nanobot_kill_swarm", "kraken_warmachine", "drone_picket"]},
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
    )
    p = Play(s)("invader", {"type": "plot_action", "option": "reduce_drain"})
    assert p.s.reduction == "drain" and p.s.plot == 9
    p("invader", {"type": "play", "card": one(s, "nanobot_kill_swarm")})
    assert p.s.reduction == ""


def test_rul15_a_ward_must_pay_what_the_deck_cannot() -> None:
    s = build(
        active="mankind",
        deck_sizes={"mankind": 0},
        board={"eurasia": {"mankind": ["mount_rushmore"]}},
        hands={"mankind": ["aegis_shield_dome"]},
    )
    rush = int(one(s, "mount_rushmore")[1:])
    s = replace(s, wards={rush: 3})
    p = Play(s)("mankind", {"type": "play", "card": one(s, "aegis_shield_dome")})
    p("mankind", zone("africa"))
    assert p.s.wards == {rush: 2} and not p.event("card_drained")


def test_rul25_returned_cards_are_known_in_hand() -> None:
    s = build(
        active="mankind",
        board={"eurasia": {"invader": ["kraken_warmachine"]}},
        hands={"mankind": ["ambush"], "invader": ["drone_picket"]},
    )
    kraken = one(s, "kraken_warmachine")
    p = Play(s)("mankind", {"type": "play", "card": one(s, "ambush")})
    v = game.view(p.s, "mankind")["players"]["invader"]
    assert v["known_hand"] == [{"id": kraken, "type": "kraken_warmachine"}]
    assert v["hand_size"] == 2 and "hand" not in v
    assert one(s, "drone_picket") not in str(game.view(p.s, "mankind"))
    p.end_main()
    p("invader", {"type": "play", "card": kraken})
    assert int(kraken[1:]) not in p.s.revealed


def test_rul16_shields_before_wards_and_never_on_costs() -> None:
    s = build(
        shield=1,
        board={"eurasia": {"mankind": ["mount_rushmore"]}},
        hands={"invader": ["terror_broadcast"]},
    )
    rush = int(one(s, "mount_rushmore")[1:])
    s = replace(s, wards={rush: 1})
    p = Play(s)("invader", {"type": "play", "card": one(s, "terror_broadcast")})
    assert p.types().index("shield_used") < len(p.types()) and p.prompt() == "ward"


def test_rul17_mankinds_own_costs_never_set_the_plot_flag() -> None:
    s = build(
        board={"eurasia": {"invader": ["salvage_ark"]}}, discards={"invader": ["drone_picket"]}
    )
    p = Play(s)("invader", {"type": "use", "card": one(s, "salvage_ark")})
    assert not p.s.drain_inflicted and len(p.s.hand[INVADER]) == 1


def test_rul18_mankinds_own_draw_deck_out_is_w2_even_if_both_decks_are_empty() -> None:
    from invaders_builders import ready

    from app.games.invaders.flow import BeginTurn

    s = ready(build(deck_sizes={"mankind": 0, "invader": 0}, stack=(BeginTurn(MANKIND),)))
    assert s.outcome.reason == "mankind_decked_draw"


def test_g07_forced_sacrifice_when_all_twelve_slots_are_full() -> None:
    """The hero is sacrificed to play into a full board: the replacement needs a slot, so
    Mankind must sacrifice a non-hero card first (G-7), then places the hero there."""
    full = {
        "pacific_rim": {"mankind": ["rifle_platoon"] * 3 + ["saladin_vtol"]},
        "eurasia": {"mankind": ["exo_suit_rangers"] * 3 + ["saladin_vtol"]},
        "africa": {"mankind": ["mako_combat_walker"] * 3},
    }
    s = build(
        active="mankind",
        hero=("hero_vale", "africa"),
        hero_pile=["hero_han"],
        board=full,
        hands={"mankind": ["bastion_heavy_tank", "combat_engineers", "combat_engineers"]},
    )
    p = Play(s)("mankind", {"type": "play", "card": one(s, "bastion_heavy_tank")})
    p("mankind", zone("africa"))("mankind", {"type": "sacrifice", "card": one(s, "hero_vale")})
    assert p.prompt() == "sacrifice_for_hero"  # both other hand cards paid the discard 2
    assert len(p.legal("mankind")) == 12  # any non-hero Mankind card, the new Bastion too
    p("mankind", {"type": "sacrifice", "card": one(s, "saladin_vtol")})
    assert where(p.s, one(p.s, "hero_han")) == "pacific_rim:mankind" and p.s.hero_turned
