"""Victory conditions W1–W6, the zone-collapse option (G-3) and G-16."""

from __future__ import annotations

from dataclasses import replace

import pytest
from invaders_builders import Play, build, one, ready

from app.games.invaders.flow import BeginTurn
from app.games.invaders.state import INVADER, MANKIND


def test_w1_plot_marker_on_the_skull_mankind_wins() -> None:
    p = Play(build(plot=1)).end_main()
    assert p.s.outcome.winner == "mankind" and p.s.outcome.reason == "plot_skull"


def test_w2_mankind_draws_from_an_empty_deck() -> None:
    s = ready(build(deck_sizes={"mankind": 0}, stack=(BeginTurn(MANKIND),)))
    assert (s.outcome.winner, s.outcome.reason) == ("invader", "mankind_decked_draw")


def test_w2_invader_draws_from_an_empty_deck() -> None:
    s = ready(build(active="mankind", deck_sizes={"invader": 1}, stack=(BeginTurn(INVADER),)))
    assert (s.outcome.winner, s.outcome.reason) == ("mankind", "invader_decked_draw")


def test_w3_mankind_drains_from_an_empty_deck() -> None:
    s = build(deck_sizes={"mankind": 0}, hands={"invader": ["terror_broadcast"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "terror_broadcast")})
    assert (p.s.outcome.winner, p.s.outcome.reason) == ("invader", "mankind_decked_drain")


def test_w4_last_hero_destroyed() -> None:
    s = build(hero_pile=[], hands={"invader": ["nanobot_kill_swarm"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "nanobot_kill_swarm")})
    assert (p.s.outcome.winner, p.s.outcome.reason) == ("invader", "last_hero")


def test_w5_both_decks_run_out_together() -> None:
    s = build(
        deck_sizes={"mankind": 0, "invader": 0},
        board={"eurasia": {"invader": ["anthraxus_mega_slug"]}},
    )
    p = Play(s)("invader", {"type": "use", "card": one(s, "anthraxus_mega_slug")})
    assert (p.s.outcome.winner, p.s.outcome.reason) == ("mankind", "both_decks")


def test_w6_invader_forced_to_drain_from_an_empty_deck() -> None:
    from app.games.invaders.drain import Drain

    s = ready(build(deck_sizes={"invader": 0}, stack=(Drain(INVADER, 1),)))
    assert (s.outcome.winner, s.outcome.reason) == ("mankind", "invader_decked_drain")


def test_zone_collapse_is_off_by_default() -> None:
    s = build(plot=6)
    p = Play(s)("invader", {"type": "enable", "strategy": "blot_out_the_sun"})
    assert p.s.outcome is None


@pytest.mark.usefixtures("spec_zone_powers")
def test_zone_collapse_option_eurasia_at_zero() -> None:
    s = build(zone_tokens=(0, 2, 0), hands={"invader": ["spore_carrier"]})
    s = replace(s, options=replace(s.options, zone_collapse_win=True))
    p = Play(s)("invader", {"type": "play", "card": one(s, "spore_carrier")})
    p("invader", {"type": "choose_zone", "zone": "eurasia"})
    assert (p.s.outcome.winner, p.s.outcome.reason) == ("invader", "zone_collapse")


@pytest.mark.usefixtures("spec_zone_powers")
def test_zone_collapse_option_pacific_and_africa_at_zero() -> None:
    s = build(plot=6)
    s = replace(s, options=replace(s.options, zone_collapse_win=True))
    p = Play(s)("invader", {"type": "enable", "strategy": "blot_out_the_sun"})
    assert (p.s.outcome.winner, p.s.outcome.reason) == ("invader", "zone_collapse")


def test_g16_conflicting_conditions_favour_mankind() -> None:
    """Terror Broadcast empties the Invader's deck (its cost, raised to 1 by Mankind's
    Telepath Cadre) and then Mankind's (effect)."""
    s = build(
        deck_sizes={"mankind": 1, "invader": 1},
        board={"eurasia": {"mankind": ["telepath_cadre"]}},
        hands={"invader": ["terror_broadcast"]},
    )
    p = Play(s)("invader", {"type": "play", "card": one(s, "terror_broadcast")})
    assert (p.s.outcome.winner, p.s.outcome.reason) == ("mankind", "both_decks")


def test_game_ends_at_once_and_nothing_more_happens() -> None:
    p = Play(build(plot=1)).end_main()
    assert p.s.stack == () and p.types()[-1] == "game_over"
    from app.games import invaders

    assert invaders.active_seats(p.s) == frozenset()
    assert invaders.legal_actions(p.s, "mankind") == invaders.legal_actions(p.s, "invader") == []
