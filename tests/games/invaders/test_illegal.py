"""Every IllegalAction code of docs/invaders-view.md §6, one negative test each."""

from __future__ import annotations

import pytest
from invaders_builders import Play, build, one

from app.games import invaders as game
from app.games.base import IllegalAction
from app.games.invaders.serialize import to_json


def code(s: object, seat: str, action: object) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(s, seat, action)  # type: ignore[arg-type]
    return err.value.code


def test_game_over() -> None:
    p = Play(build(plot=1)).end_main()
    assert code(p.s, "mankind", {"type": "end_main"}) == "game_over"


def test_bad_action() -> None:
    assert code(build(), "invader", {"kind": "end_main"}) == "bad_action"
    assert code(build(), "invader", "end_main") == "bad_action"


def test_unknown_action() -> None:
    assert code(build(), "invader", {"type": "fly_to_the_moon"}) == "unknown_action"


def test_not_your_decision() -> None:
    assert code(build(), "mankind", {"type": "end_main"}) == "not_your_decision"
    assert code(build(), "spectator", {"type": "end_main"}) == "not_your_decision"


def test_wrong_phase_main_action_during_a_decision() -> None:
    s = build(hands={"invader": ["atmospheric_poisoning"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "atmospheric_poisoning")})
    assert code(p.s, "invader", {"type": "end_main"}) == "wrong_phase"
    assert code(p.s, "invader", {"type": "spend_ward"}) == "wrong_phase"


def test_wrong_phase_decision_answer_in_the_main_phase() -> None:
    assert code(build(), "invader", {"type": "choose_zone", "zone": "eurasia"}) == "wrong_phase"


def test_unknown_card() -> None:
    assert code(build(), "invader", {"type": "play", "card": "c999"}) == "unknown_card"
    assert code(build(), "invader", {"type": "play", "card": "kraken"}) == "unknown_card"


def test_card_not_in_hand() -> None:
    s = build(hands={"mankind": ["rifle_platoon"]})
    assert code(s, "invader", {"type": "play", "card": one(s, "rifle_platoon")}) == (
        "card_not_in_hand"
    )


def test_card_not_in_hand_when_paying_a_discard() -> None:
    s = build(
        hands={
            "invader": [
                "medusa_assault_vehicles",
                "drone_picket",
                "drone_picket",
                "drone_picket",
                "carapace_larvae",
            ]
        }
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "medusa_assault_vehicles")})
    p("invader", {"type": "choose_zone", "zone": "eurasia"})
    assert code(p.s, "invader", {"type": "discard", "card": "c999"}) == "card_not_in_hand"


def test_cost_unpayable() -> None:
    s = build(hands={"invader": ["medusa_assault_vehicles"]})
    assert code(s, "invader", {"type": "play", "card": one(s, "medusa_assault_vehicles")}) == (
        "cost_unpayable"
    )


def test_no_free_slot() -> None:
    full = {
        "pacific_rim": ["drone_picket"] * 4,
        "eurasia": ["squid_lander_vehicle"] * 4,
        "africa": ["burrower_brood"] * 4,
    }
    s = build(
        board={z: {"invader": cards} for z, cards in full.items()},
        hands={"invader": ["carapace_larvae"]},
    )
    assert code(s, "invader", {"type": "play", "card": one(s, "carapace_larvae")}) == (
        "no_free_slot"
    )


def test_no_effect() -> None:
    s = build(active="mankind", hands={"mankind": ["reclaim_the_land"]})
    assert code(s, "mankind", {"type": "play", "card": one(s, "reclaim_the_land")}) == "no_effect"


def test_card_not_in_play() -> None:
    s = build(board={"eurasia": {"invader": ["anthraxus_mega_slug"]}})
    assert code(s, "invader", {"type": "use", "card": one(s, "hero_vale")}) == "card_not_in_play"


def test_no_ability() -> None:
    s = build(board={"eurasia": {"invader": ["kraken_warmachine"]}})
    assert code(s, "invader", {"type": "use", "card": one(s, "kraken_warmachine")}) == (
        "no_ability"
    )


def test_already_used() -> None:
    s = build()
    p = Play(s)("invader", {"type": "plot_action", "option": "reduce_drain"})
    assert code(p.s, "invader", {"type": "plot_action", "option": "draw"}) == "already_used"


def test_hero_turned() -> None:
    s = build(active="mankind", hero=("hero_sorensen", "eurasia"), hero_turned=True)
    assert code(s, "mankind", {"type": "use", "card": one(s, "hero_sorensen")}) == "hero_turned"


def test_unknown_strategy() -> None:
    assert code(build(), "invader", {"type": "enable", "strategy": "nope"}) == "unknown_strategy"


def test_not_your_strategy() -> None:
    assert code(build(), "invader", {"type": "enable", "strategy": "project_chainmail"}) == (
        "not_your_strategy"
    )


def test_strategy_used() -> None:
    s = build(active="mankind", enabled=frozenset({"project_chainmail"}))
    assert code(s, "mankind", {"type": "enable", "strategy": "project_chainmail"}) == (
        "strategy_used"
    )


def test_requirement_unmet() -> None:
    assert code(
        build(plot=10), "invader", {"type": "enable", "strategy": "drown_the_coastlines"}
    ) == ("requirement_unmet")


def test_not_your_ability() -> None:
    assert code(build(), "invader", {"type": "ops_centre"}) == "not_your_ability"


def test_invader_only() -> None:
    assert (
        code(build(active="mankind"), "mankind", {"type": "plot_action", "option": "draw"})
        == "invader_only"
    )


def test_deck_empty() -> None:
    s = build(deck_sizes={"invader": 0})
    assert code(s, "invader", {"type": "plot_action", "option": "draw"}) == "deck_empty"


@pytest.mark.usefixtures("spec_zone_powers")
def test_invalid_choice() -> None:
    assert code(build(), "invader", {"type": "plot_action", "option": "steal"}) == (
        "invalid_choice"
    )
    s = build(
        active="mankind",
        zone_tokens=(1, 0, 0),
        board={"eurasia": {"mankind": ["rifle_platoon"]}},
        hands={"mankind": ["exo_suit_rangers", "rifle_platoon"]},  # discard 2 (BAL-10): forced
    )
    p = Play(s)("mankind", {"type": "ops_centre"})
    assert code(p.s, "mankind", {"type": "choose_branch", "branch": 7}) == "invalid_choice"


@pytest.mark.usefixtures("spec_zone_powers")
def test_invalid_zone() -> None:
    s = build(zone_tokens=(0, 3, 0), hands={"invader": ["atmospheric_poisoning"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "atmospheric_poisoning")})
    assert code(p.s, "invader", {"type": "choose_zone", "zone": "eurasia"}) == "invalid_zone"
    assert code(p.s, "invader", {"type": "choose_zone", "zone": "mars"}) == "invalid_zone"


def test_invalid_target() -> None:
    s = build(
        board={"eurasia": {"mankind": ["mako_combat_walker"]}},
        hands={"invader": ["nanobot_kill_swarm"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "nanobot_kill_swarm")})
    assert code(
        p.s, "invader", {"type": "choose_target", "card": one(s, "nanobot_kill_swarm")}
    ) == ("invalid_target")


def test_bad_options() -> None:
    for bad in (
        {"opening_hand": -1},
        {"first_player": "alien"},
        {"zone_collapse_win": 1},
        {"colour": "red"},
    ):
        with pytest.raises(IllegalAction) as err:
            game.validate_options(bad)
        assert err.value.code == "bad_options"


def test_bad_snapshot() -> None:
    data = to_json(build())
    data["version"] = 999
    with pytest.raises(IllegalAction) as err:
        game.from_json(data)
    assert err.value.code == "bad_snapshot"


def test_apply_never_mutates_its_input() -> None:
    s = build(hands={"invader": ["terror_broadcast"]})
    before = to_json(s)
    game.apply(s, "invader", {"type": "play", "card": one(s, "terror_broadcast")})
    assert to_json(s) == before
