"""The worked examples T-1 … T-20 of invaders.md §16, one test each."""

from __future__ import annotations

import pytest
from invaders_builders import Play, build, one, ready, target, where, zone

from app.games.invaders.flow import BeginTurn
from app.games.invaders.state import INVADER, MANKIND


def test_t01_nanobot_kill_swarm_removes_a_mako() -> None:
    """Given the Invader's main phase, a Mako in Eurasia and Nanobot in hand,
    when he plays Nanobot on the Mako, then nothing else is discarded, the Mako
    goes to Mankind's discard pile and Nanobot to the Invader's."""
    s = build(
        board={"eurasia": {"mankind": ["mako_combat_walker"]}},
        hands={"invader": ["nanobot_kill_swarm", "drone_picket"]},
    )
    mako, nano = one(s, "mako_combat_walker"), one(s, "nanobot_kill_swarm")
    p = Play(s)("invader", {"type": "play", "card": nano})("invader", target(mako))
    assert where(p.s, mako) == "discard:mankind"
    assert where(p.s, nano) == "discard:invader"
    assert where(p.s, one(s, "drone_picket")) == "hand:invader"


def test_t02_norad_costs_five_other_cards_chosen_by_mankind() -> None:
    """Given NORAD and 7 other cards in Mankind's hand, when he plays NORAD, then he
    picks 5 of the 7 to discard, keeps 2, and NORAD enters a slot."""
    others = ["rifle_platoon"] * 3 + ["exo_suit_rangers"] * 2 + ["precision_airstrike"] * 2
    s = build(active="mankind", hands={"mankind": ["norad_bunker", *others]})
    norad = one(s, "norad_bunker")
    keep = set(one(s, t) for t in ("precision_airstrike", "exo_suit_rangers"))
    p = Play(s)("mankind", {"type": "play", "card": norad})("mankind", zone("eurasia"))
    for _ in range(5):
        assert p.prompt() == "discard"
        pick = next(o for o in p.legal("mankind") if o["card"] not in keep)
        p("mankind", pick)
    assert where(p.s, norad) == "eurasia:mankind"
    assert {f"c{c}" for c in p.s.hand[MANKIND]} == keep


def test_t02_norad_with_four_other_cards_cannot_be_played() -> None:
    """And (negative): with only 4 other cards NORAD is not offered and is refused."""
    s = build(
        active="mankind",
        hands={"mankind": ["norad_bunker"] + ["rifle_platoon"] * 2 + ["exo_suit_rangers"] * 2},
    )
    p = Play(s)
    norad = one(s, "norad_bunker")
    assert {"type": "play", "card": norad} not in p.legal("mankind")
    assert p.refuse("mankind", {"type": "play", "card": norad}) == "cost_unpayable"
    assert len(p.s.hand[MANKIND]) == 5


def test_t03_kraken_pays_discard_one_and_drain_two() -> None:
    """Given a Kraken with one other card in hand and a deck of 10, when played,
    then the other card is discarded, the top 2 deck cards flip, the Kraken is placed."""
    s = build(
        hands={"invader": ["kraken_warmachine", "drone_picket"]},
        deck_tops={"invader": ["squid_lander_vehicle", "carapace_larvae"]},
        deck_sizes={"invader": 10},
    )
    kraken = one(s, "kraken_warmachine")
    p = Play(s)("invader", {"type": "play", "card": kraken})("invader", zone("africa"))
    assert where(p.s, kraken) == "africa:invader"
    assert len(p.s.deck[INVADER]) == 8
    drained = [e["card_type"] for e in p.event("card_drained")]
    assert drained == ["squid_lander_vehicle", "carapace_larvae"]
    assert [e["card_type"] for e in p.event("card_discarded")] == ["drone_picket"]


def test_t03_kraken_with_one_deck_card_cannot_be_played() -> None:
    s = build(hands={"invader": ["kraken_warmachine", "drone_picket"]}, deck_sizes={"invader": 1})
    p = Play(s)
    assert p.refuse("invader", {"type": "play", "card": one(s, "kraken_warmachine")}) == (
        "cost_unpayable"
    )


def test_t04_mega_slug_once_per_turn_and_again_next_turn() -> None:
    """Given Anthraxus and Deathworm in Pacific rim, when the Invader uses Anthraxus,
    Mankind drains 1, both stay, it cannot be used again this turn, it can next turn,
    and the drain satisfies step B."""
    s = build(board={"pacific_rim": {"invader": ["anthraxus_mega_slug", "deathworm_infestation"]}})
    slug = one(s, "anthraxus_mega_slug")
    deck = len(s.deck[MANKIND])
    p = Play(s)("invader", {"type": "use", "card": slug})
    assert len(p.s.deck[MANKIND]) == deck - 1 and p.s.drain_inflicted
    assert p.refuse("invader", {"type": "use", "card": slug}) == "already_used"
    plot = p.s.plot
    p.end_main()
    assert p.s.plot == plot  # step B satisfied
    p.end_main()  # Mankind's turn
    assert {"type": "use", "card": slug} in p.legal("invader")


def test_t05_mount_rushmore_wards_usable_the_same_turn() -> None:
    """Given Mankind plays Mount Rushmore, then it carries 8 wards, and a drain cost
    paid later that turn may be replaced by a ward."""
    s = build(
        active="mankind",
        hands={
            "mankind": ["mount_rushmore", "rifle_platoon", "rifle_platoon", "aegis_shield_dome"]
        },
    )
    rush = one(s, "mount_rushmore")
    p = Play(s)("mankind", {"type": "play", "card": rush})("mankind", zone("pacific_rim"))
    for rifle in [f"c{c}" for c in s.hand[MANKIND] if s.types[c] == "rifle_platoon"]:
        p("mankind", {"type": "discard", "card": rifle})
    assert p.s.wards == {int(rush[1:]): 8}
    deck = len(p.s.deck[MANKIND])
    p("mankind", {"type": "play", "card": one(p.s, "aegis_shield_dome")})("mankind", zone("africa"))
    assert p.prompt() == "ward"
    p("mankind", {"type": "spend_ward"})
    assert len(p.s.deck[MANKIND]) == deck and p.s.wards[int(rush[1:])] == 7


@pytest.mark.usefixtures("spec_zone_powers")
def test_t06_zone_tie_drains_nothing() -> None:
    """Eurasia: Medusa 5 against Ramses 1 + Saladin 1 + zone 3 = 5: a tie, no drain."""
    s = build(
        board={
            "eurasia": {
                "invader": ["medusa_assault_vehicles"],
                "mankind": ["ramses_submarine", "saladin_vtol"],
            }
        }
    )
    p = Play(s).end_main()
    eurasia = next(e for e in p.event("zone_resolved") if e["zone"] == "eurasia")
    assert (eurasia["invader"], eurasia["mankind"], eurasia["result"]) == (5, 5, "hold")
    assert not [e for e in p.event("card_drained") if e["seat"] == "mankind"]


@pytest.mark.usefixtures("spec_zone_powers")
def test_t07_zone_win_drains_the_difference() -> None:
    """Pacific rim: Kraken 3 + Squid 2 against Shanty Town 1 + zone 2: Mankind drains 2."""
    s = build(
        board={
            "pacific_rim": {
                "invader": ["kraken_warmachine", "squid_lander_vehicle"],
                "mankind": ["refugee_shanty_town"],
            }
        }
    )
    p = Play(s).end_main()
    assert len([e for e in p.event("card_drained") if e["seat"] == "mankind"]) == 2
    assert p.event("plot_check") == [{"drain_inflicted": True}]


def test_t06_and_t07_positions_on_the_shipped_zone_powers() -> None:
    """BAL-9 (docs/rulings.md) prints 3 / 4 / 3: T-6's tie becomes a hold by one (5 vs 6)
    and T-7's loss by two a loss by one (5 vs 4)."""
    s = build(
        board={
            "eurasia": {
                "invader": ["medusa_assault_vehicles"],
                "mankind": ["ramses_submarine", "saladin_vtol"],
            },
            "pacific_rim": {
                "invader": ["kraken_warmachine", "squid_lander_vehicle"],
                "mankind": ["refugee_shanty_town"],
            },
        }
    )
    p = Play(s).end_main()
    results = {
        e["zone"]: (e["invader"], e["mankind"], e["result"]) for e in p.event("zone_resolved")
    }
    assert results["eurasia"] == (5, 6, "hold")
    assert results["pacific_rim"] == (5, 4, "win")
    assert len([e for e in p.event("card_drained") if e["seat"] == "mankind"]) == 1


@pytest.mark.usefixtures("spec_zone_powers")
def test_t08_turned_hero_adds_nothing_until_upright() -> None:
    """A turned hero (Han, 3) alone in Africa against 3: 3 vs 2, Mankind drains 1; upright
    at Mankind's next main phase; the next attack counts him: 3 vs 5, held."""
    s = build(
        hero=("hero_han", "africa"),
        hero_turned=True,
        board={"africa": {"invader": ["kraken_warmachine"]}},
    )
    p = Play(s).end_main()
    africa = [e for e in p.event("zone_resolved") if e["zone"] == "africa"]
    assert (africa[0]["mankind"], africa[0]["result"]) == (2, "win")
    assert "hero_upright" in p.types() and not p.s.hero_turned
    p.end_main().end_main()
    africa = [e for e in p.event("zone_resolved") if e["zone"] == "africa"]
    assert (africa[1]["mankind"], africa[1]["result"]) == (5, "hold")


def test_t09_thing_destroys_hero_and_defender_then_a_turned_replacement() -> None:
    """Thing destroys the hero and a Defender; the next hero arrives turned in a zone of
    Mankind's choice."""
    s = build(
        hero=("hero_vale", "africa"),
        hero_pile=["hero_han"],
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
        hands={"invader": ["shapeshifting_alien_thing", "drone_picket", "drone_picket"]},
    )
    vale, rifle = one(s, "hero_vale"), one(s, "rifle_platoon")
    p = Play(s)("invader", {"type": "play", "card": one(s, "shapeshifting_alien_thing")})
    p("invader", target(vale))("invader", target(rifle))
    assert where(p.s, vale) == where(p.s, rifle) == "discard:mankind"
    assert p.prompt() == "place_hero"
    p("mankind", zone("pacific_rim"))
    han = one(p.s, "hero_han")
    assert where(p.s, han) == "pacific_rim:mankind" and p.s.hero_turned


def test_t09_thing_with_an_empty_hero_pile_wins_for_the_invader() -> None:
    s = build(
        hero_pile=[],
        hands={"invader": ["shapeshifting_alien_thing", "drone_picket", "drone_picket"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "shapeshifting_alien_thing")})
    assert p.s.outcome is not None and p.s.outcome.reason == "last_hero"
    assert p.s.outcome.winner == "invader"


def test_t10_no_drain_moves_the_marker_down() -> None:
    s = build(plot=10)
    p = Play(s).end_main()
    assert p.s.plot == 9


def test_t10_prevented_drain_still_moves_the_marker_down() -> None:
    """Variant: the only drain is cancelled by a shield: marker still moves to 9."""
    s = build(plot=10, shield=1, hands={"invader": ["terror_broadcast"]})
    s = build(plot=10, shield=2, hands={"invader": ["terror_broadcast"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "terror_broadcast")})
    assert p.event("shield_used") and not p.s.drain_inflicted
    p.end_main()
    assert p.s.plot == 9


def test_t11_plot_action_on_one_reaches_the_skull() -> None:
    s = build(plot=1)
    p = Play(s)("invader", {"type": "plot_action", "option": "draw"})
    assert p.s.plot == 0 and p.s.outcome.reason == "plot_skull"
    assert p.s.outcome.winner == "mankind" and not p.event("card_drawn")


def test_t12_marker_never_goes_above_twelve() -> None:
    s = build(plot=11, hands={"invader": ["cold_recalculation"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "cold_recalculation")})
    assert p.s.plot == 12


def test_t13_deck_out_on_draw() -> None:
    """Mankind's deck holds 1 card at his draw phase: the second draw loses."""
    s = ready(build(active="invader", deck_sizes={"mankind": 1}, stack=(BeginTurn(MANKIND),)))
    assert s.outcome.reason == "mankind_decked_draw" and s.outcome.winner == "invader"
    assert len(s.hand[MANKIND]) == 1


def test_t14_deck_out_on_drain() -> None:
    """Mankind's deck holds 1 card and he must drain 3: one flips, then he loses."""
    s = build(
        deck_sizes={"mankind": 1}, board={"pacific_rim": {"invader": ["medusa_assault_vehicles"]}}
    )
    p = Play(s).end_main()
    assert len(p.event("card_drained")) == 1
    assert p.s.outcome.reason == "mankind_decked_drain"


def test_t15_both_decks_run_out_together_mankind_wins() -> None:
    """The Invader pays Terror Broadcast's drain (0, +1 from Mankind's Telepath Cadre) with
    his last card, then Mankind must drain from an empty deck: both decks ran out, Mankind
    wins (W5, G-16)."""
    s = build(
        deck_sizes={"mankind": 0, "invader": 1},
        board={"eurasia": {"mankind": ["telepath_cadre"]}},
        hands={"invader": ["terror_broadcast"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "terror_broadcast")})
    assert p.s.outcome.winner == "mankind" and p.s.outcome.reason == "both_decks"


@pytest.mark.usefixtures("spec_zone_powers")
def test_t16_zone_tokens_stop_at_zero_and_are_not_drain() -> None:
    """Eurasia 3 with 2 tokens (power 1); Atmospheric Poisoning adds only 1 more."""
    s = build(zone_tokens=(0, 2, 0), hands={"invader": ["atmospheric_poisoning"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "atmospheric_poisoning")})
    p("invader", zone("eurasia"))
    assert p.s.zone_tokens == (0, 3, 0) and not p.s.drain_inflicted
    from app.games.invaders.power import zone_power

    assert zone_power(p.s, 1) == 0


def test_t17_sacrifice_only_into_a_full_zone() -> None:
    """Africa holding 3 Mankind cards: the new card just takes the free slot; with 4, he
    picks one to sacrifice (to the discard pile, not destroyed)."""
    three = build(
        active="mankind",
        hero=("hero_vale", "africa"),
        board={"africa": {"mankind": ["rifle_platoon", "rifle_platoon"]}},
        hands={"mankind": ["telepath_cadre"]},
    )
    p = Play(three)("mankind", {"type": "play", "card": one(three, "telepath_cadre")})
    p("mankind", zone("africa"))
    assert len(p.s.board[2 * 2 + MANKIND]) == 4 and not p.event("card_sacrificed")
    four = build(
        active="mankind",
        hero=("hero_vale", "africa"),
        board={"africa": {"mankind": ["rifle_platoon"] * 3}},
        hands={"mankind": ["telepath_cadre"]},
    )
    q = Play(four)("mankind", {"type": "play", "card": one(four, "telepath_cadre")})
    q("mankind", zone("africa"))
    assert q.prompt() == "sacrifice"
    rifle = one(four, "rifle_platoon")
    q("mankind", {"type": "sacrifice", "card": rifle})
    assert where(q.s, rifle) == "discard:mankind"
    assert where(q.s, one(four, "telepath_cadre")) == "africa:mankind"


def test_t18_strategy_once_per_game_and_only_chainmail_in_the_invader_turn() -> None:
    s = build(active="mankind", deck_sizes={"mankind": 50}, zone_tokens=(1, 1, 1))
    p = Play(s)("mankind", {"type": "enable", "strategy": "operation_clean_slate"})
    assert p.refuse("mankind", {"type": "enable", "strategy": "operation_clean_slate"}) == (
        "strategy_used"
    )
    p.end_main()
    p("invader", {"type": "end_main"})
    assert p.prompt() == "chainmail_window"
    assert p.legal("mankind") == [
        {"type": "enable", "strategy": "project_chainmail"},
        {"type": "decline"},
    ]


def test_t19_every_turn_means_the_controllers_turns_only() -> None:
    """Dr. Vale removes a token from her zone at the start of each Mankind turn only."""
    s = build(hero=("hero_vale", "africa"), zone_tokens=(0, 0, 2))
    p = Play(s).end_main()  # Invader's turn ends; Mankind's starts
    assert p.s.zone_tokens[2] == 1
    p.end_main()  # Mankind's turn ends; Invader's starts: no removal
    assert p.s.zone_tokens[2] == 1 and p.s.active == INVADER


def test_t20_no_attack_in_mankinds_turn() -> None:
    s = build(active="mankind", board={"eurasia": {"invader": ["medusa_assault_vehicles"]}})
    p = Play(s).end_main()
    assert not p.event("zone_resolved")
