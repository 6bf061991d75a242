"""The catalog matches the sums printed in invaders-cards.md §2 and rejects bad data."""

from collections import Counter
from pathlib import Path

import pytest
from invaders_builders import SPEC_ZONE_POWERS, ZONE_POWER_READERS, build

from app.games.invaders import power
from app.games.invaders.catalog import CATALOG, CatalogError, load_catalog
from app.games.invaders.power import zone_power

CARDS_TOML = Path(__file__).parents[3] / "app" / "games" / "invaders" / "cards.toml"


def _copies_by_category(deck: tuple[str, ...]) -> dict[str, int]:
    return dict(Counter(CATALOG.cards[card_id].category for card_id in deck))


def test_invader_deck_sums_to_70_by_category() -> None:
    assert _copies_by_category(CATALOG.invader_deck) == {
        "invader_unit": 38,
        "desolator": 8,
        "one_shot": 24,
    }


def test_mankind_deck_sums_to_70_by_category() -> None:
    assert _copies_by_category(CATALOG.mankind_deck) == {
        "defender": 29,
        "location": 12,
        "one_shot": 29,
    }


def test_distinct_card_counts_match_the_tables() -> None:
    sides = Counter(card.side for card in CATALOG.cards.values())
    assert sides == {"invader": 33, "mankind": 32, "hero": 11}


def test_heroes_are_eleven_unique_costless_cards() -> None:
    heroes = [CATALOG.cards[h] for h in CATALOG.heroes]
    assert len({h.id for h in heroes}) == 11
    assert all(h.discard == 0 and h.drain == 0 and h.power is not None for h in heroes)


def test_strategies_are_five_invader_four_mankind_and_the_ops_centre() -> None:
    owners = Counter((s.owner, s.repeatable) for s in CATALOG.strategies.values())
    assert owners == {("invader", False): 5, ("mankind", False): 4, ("mankind", True): 1}
    assert CATALOG.strategies["ops_centre"].repeatable


def test_zones_print_the_placeholder_powers_plus_one_in_board_order() -> None:
    """docs/rulings.md BAL-9: the spec's placeholders (R-ZPOW-5: 2, 3, 2) each +1."""
    assert [(z.id, z.printed_power) for z in CATALOG.zones] == [
        ("pacific_rim", 3),
        ("eurasia", 4),
        ("africa", 3),
    ]


def test_the_spec_zone_powers_fixture_reaches_every_module_that_reads_them() -> None:
    """conftest's ``spec_zone_powers`` patches module globals: a new reader must be listed."""
    package = Path(power.__file__).parent
    readers = {
        ".".join(("app.games.invaders", *f.relative_to(package).with_suffix("").parts))
        for f in package.rglob("*.py")
        if f.stem != "cards" and "PRINTED_ZONE_POWER" in f.read_text("utf-8")
    }
    assert readers == set(ZONE_POWER_READERS)


@pytest.mark.usefixtures("spec_zone_powers")
def test_the_spec_zone_powers_fixture_plays_on_the_placeholders() -> None:
    s = build()
    assert [zone_power(s, z) for z in range(3)] == list(SPEC_ZONE_POWERS)


def test_printed_drain_totals_match_the_design_notes() -> None:
    """§3.3: the Invader deck prints 103 drain, the Mankind deck 12; BAL-2 (docs/rulings.md)
    raised Black Narcissus's drain by 1 (BAL-5's +25 was withdrawn by BAL-9), BAL-12
    lowered Siege Crawler's by 1 on its two copies, BAL-13 Terror Broadcast's by 1 and
    BAL-14 raised Deathworm Infestation's by 1 (two copies each), BAL-15 lowered the Squid's
    by 1 (five copies): 97."""
    assert sum(CATALOG.cards[c].drain for c in CATALOG.invader_deck) == 103 + 1 - 2 - 2 + 2 - 5
    assert sum(CATALOG.cards[c].drain for c in CATALOG.mankind_deck) == 12


def test_black_narcissus_carries_its_balance_changes() -> None:
    """BAL-2 drain 3 -> 4 and BAL-4 discard 2 -> 3 (docs/rulings.md); power unchanged."""
    bn = CATALOG.cards["black_narcissus_weapons_array"]
    assert (bn.power, bn.discard, bn.drain, bn.copies) == (3, 3, 4, 1)


def test_siege_crawler_carries_bal12() -> None:
    """BAL-12 drain 3 -> 2 (docs/rulings.md); power, discard and copies unchanged."""
    sc = CATALOG.cards["siege_crawler"]
    assert (sc.power, sc.discard, sc.drain, sc.copies) == (4, 2, 2, 2)


def test_terror_broadcast_carries_bal13() -> None:
    """BAL-13 drain 1 -> 0 (docs/rulings.md); discard, copies and text unchanged."""
    tb = CATALOG.cards["terror_broadcast"]
    assert (tb.discard, tb.drain, tb.copies) == (0, 0, 2)


def test_deathworm_infestation_carries_bal14() -> None:
    """BAL-14 drain 2 -> 3 (docs/rulings.md); power, discard and copies unchanged."""
    dw = CATALOG.cards["deathworm_infestation"]
    assert (dw.power, dw.discard, dw.drain, dw.copies) == (3, 1, 3, 2)


BAL_5 = {  # docs/rulings.md BAL-5: (printed drain before, after); BAL-9 withdrew it
    "drone_picket": (0, 1),
    "burrower_brood": (0, 1),
    "squid_lander_vehicle": (2, 3),
    "hunter_killer_tripod": (2, 3),
    "strafing_saucer": (2, 3),
    "carapace_larvae": (1, 2),
    "spore_carrier": (1, 2),
}


def test_bal9_gives_the_invaders_cheap_units_their_drain_from_before_bal5() -> None:
    """All but the Squid, whose drain BAL-15 lowered again (below)."""
    kept = {c: old for c, (old, _) in BAL_5.items() if c != "squid_lander_vehicle"}
    assert {c: CATALOG.cards[c].drain for c in kept} == kept


def test_squid_lander_vehicle_carries_bal15() -> None:
    """BAL-15 drain 2 -> 1 (docs/rulings.md); its sourced power, discard and copies unchanged."""
    squid = CATALOG.cards["squid_lander_vehicle"]
    assert (squid.power, squid.discard, squid.drain, squid.copies) == (2, 0, 1, 5)


def test_hunter_killer_tripod_carries_bal16() -> None:
    """BAL-16 power 2 -> 3 (docs/rulings.md); discard, drain, copies and text unchanged."""
    tripod = CATALOG.cards["hunter_killer_tripod"]
    assert (tripod.power, tripod.discard, tripod.drain, tripod.copies) == (3, 1, 2, 3)


BAL_6 = {  # docs/rulings.md BAL-6: strategy requirements (were none, plot<=9, plot<=8)
    "project_chainmail": "deck<=50",
    "drown_the_coastlines": "plot<=8",
    "brood_awakening": "plot<=7",
}


def test_bal6_gates_the_three_strategies_fired_before_round_3() -> None:
    for sid, gate in BAL_6.items():
        assert CATALOG.strategies[sid].formal.startswith(f"enable[{gate}]:"), sid


def test_known_cards_keep_their_sourced_values() -> None:
    kraken = CATALOG.cards["kraken_warmachine"]
    assert (kraken.power, kraken.discard, kraken.drain) == (3, 1, 2)
    assert CATALOG.cards["norad_bunker"].discard == 5
    assert CATALOG.cards["medusa_assault_vehicles"].power == 5
    assert CATALOG.cards["squid_lander_vehicle"].power == 2  # its drain is ours (BAL-5)
    assert CATALOG.cards["nanobot_kill_swarm"].power is None


def test_every_card_with_text_has_parsed_clauses() -> None:
    for card in CATALOG.cards.values():
        assert bool(card.formal) == bool(card.clauses), card.id


def test_only_black_narcissus_uses_the_free_text_mechanic() -> None:
    unique = [c.id for c in CATALOG.cards.values() if any(k.timing == "unique" for k in c.clauses)]
    assert unique == ["black_narcissus_weapons_array"]


def test_a_deck_of_the_wrong_size_is_refused(tmp_path: Path) -> None:
    broken = CARDS_TOML.read_text("utf-8").replace("copies = 5", "copies = 6", 1)
    path = tmp_path / "cards.toml"
    path.write_text(broken, "utf-8")
    with pytest.raises(CatalogError, match="70"):
        load_catalog(path)


def test_a_malformed_formal_line_names_its_card(tmp_path: Path) -> None:
    broken = CARDS_TOML.read_text("utf-8").replace(
        'formal = "on_play: move_plot(+2)"', 'formal = "on_play: move_plot(up)"'
    )
    path = tmp_path / "cards.toml"
    path.write_text(broken, "utf-8")
    with pytest.raises(CatalogError, match="cold_recalculation"):
        load_catalog(path)


def test_a_one_shot_with_power_is_refused(tmp_path: Path) -> None:
    broken = CARDS_TOML.read_text("utf-8").replace(
        'id = "nanobot_kill_swarm"', 'id = "nanobot_kill_swarm"\npower = 2'
    )
    path = tmp_path / "cards.toml"
    path.write_text(broken, "utf-8")
    with pytest.raises(CatalogError, match="nanobot_kill_swarm"):
        load_catalog(path)


def test_only_chainmail_may_be_enabled_in_the_opponents_turn() -> None:
    """§5.3 [M]: Activate Project 'Chainmail' is the one exception (window: C-35)."""
    assert [s.id for s in CATALOG.strategies.values() if s.opponent_turn] == ["project_chainmail"]


def test_bal9_withdraws_bal8_so_exo_suit_rangers_cost_no_card_from_hand() -> None:
    """docs/rulings.md BAL-9 withdrew BAL-8 (discard 0 -> 1): discard 0 again."""
    rangers = CATALOG.cards["exo_suit_rangers"]
    assert (rangers.power, rangers.discard, rangers.drain, rangers.copies) == (3, 0, 1, 3)


def test_bal10_the_ops_centre_costs_two_cards_from_hand() -> None:
    """docs/rulings.md BAL-10 (BAL-3 withdrawn): discard 2, as invaders-cards.md §2.6 prints it."""
    ops = CATALOG.strategies["ops_centre"]
    assert ops.formal.startswith("activated[discard 2]:")
    assert ops.repeatable


def test_bal11_norad_has_power_nine_at_its_sourced_cost() -> None:
    """docs/rulings.md BAL-11: power 6 -> 9; the discard 5 is sourced (spec §14)."""
    norad = CATALOG.cards["norad_bunker"]
    assert (norad.power, norad.discard, norad.drain, norad.copies) == (9, 5, 0, 1)
