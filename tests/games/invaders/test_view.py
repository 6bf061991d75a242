"""Views are built by allow-list; hidden cards never reach another seat or a spectator."""

from __future__ import annotations

import json

import pytest
from invaders_builders import Play, build, one

from app.games import invaders as game
from app.games.base import Event
from app.games.invaders.state import INVADER, MANKIND

# Single-copy card types planted in hidden places act as sentinels.
SENTINELS = {
    "mankind": ["norad_bunker", "mount_rushmore"],
    "invader": ["dread_mothership", "salvage_ark"],
}


def sentinel_state():  # type: ignore[no-untyped-def]
    return build(
        hands={"mankind": SENTINELS["mankind"], "invader": SENTINELS["invader"]},
        deck_tops={"mankind": ["carrier_meridian"], "invader": ["abyssal_leviathan"]},
        hero_pile=["hero_marquez", "hero_nowak"],
    )


def test_view_has_the_documented_top_level_fields() -> None:
    v = game.view(build(), "invader")
    assert set(v) == {
        "game",
        "viewer",
        "turn",
        "active",
        "phase",
        "plot",
        "outcome",
        "options",
        "zones",
        "hero",
        "limbo",
        "players",
        "prompt",
        "legal_actions",
        "catalog",
    }
    assert [z["id"] for z in v["zones"]] == ["pacific_rim", "eurasia", "africa"]
    json.dumps(v)


@pytest.mark.usefixtures("spec_zone_powers")
def test_zone_totals_and_current_power_are_in_the_view() -> None:
    s = build(
        board={
            "eurasia": {
                "mankind": ["hover_tank_squadron", "bastion_heavy_tank"],
                "invader": ["kraken_warmachine"],
            }
        }
    )
    eurasia = game.view(s, None)["zones"][1]
    assert eurasia["totals"] == {"mankind": 2 + 6 + 3, "invader": 3}
    assert [c["power"] for c in eurasia["mankind"]] == [2, 6]


def test_own_hand_is_visible_the_opponents_only_as_a_size() -> None:
    s = sentinel_state()
    v = game.view(s, "mankind")
    assert [c["type"] for c in v["players"]["mankind"]["hand"]] == SENTINELS["mankind"]
    assert "hand" not in v["players"]["invader"]
    assert v["players"]["invader"]["hand_size"] == 2


def test_sentinels_never_reach_the_other_seat_or_a_spectator() -> None:
    s = sentinel_state()
    for viewer, hidden in (
        ("mankind", SENTINELS["invader"]),
        ("invader", SENTINELS["mankind"]),
        (None, SENTINELS["mankind"] + SENTINELS["invader"]),
    ):
        text = json.dumps(game.view(s, viewer))
        planted = [*hidden, "carrier_meridian", "abyssal_leviathan", "hero_marquez", "hero_nowak"]
        for t in planted:
            assert t not in text
            for cid in [f'"c{c}"' for c in range(len(s.types)) if s.types[c] == t]:
                assert cid not in text


def test_drawn_cards_are_redacted_for_everyone_but_the_drawer() -> None:
    s = sentinel_state()
    p = Play(s)("invader", {"type": "plot_action", "option": "draw"})
    drawn = next(e for e in p.events if e.type == "card_drawn")
    assert drawn.data["card_type"] == "abyssal_leviathan"
    assert game.redact(drawn, "invader")["card_type"] == "abyssal_leviathan"
    for viewer in ("mankind", None):
        assert game.redact(drawn, viewer) == {"type": "card_drawn", "seat": "invader"}
    assert game.redact(Event("card_played", {"card": "c1"}), None) == {
        "type": "card_played",
        "card": "c1",
    }


def test_prompt_names_the_owner_and_shows_options_only_to_it() -> None:
    s = build(hands={"invader": ["atmospheric_poisoning"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "atmospheric_poisoning")})
    mine, theirs = game.view(p.s, "invader"), game.view(p.s, "mankind")
    assert mine["prompt"]["seat"] == "invader" and mine["prompt"]["kind"] == "choose_zone"
    assert mine["prompt"]["options"] == mine["legal_actions"] != []
    assert "options" not in theirs["prompt"] and theirs["legal_actions"] == []
    assert game.view(p.s, None)["legal_actions"] == []


def test_catalog_covers_every_visible_card() -> None:
    s = build(
        board={"eurasia": {"invader": ["kraken_warmachine"]}},
        hands={"mankind": ["rifle_platoon"]},
        discards={"invader": ["drone_picket"]},
    )
    cat = game.view(s, "mankind")["catalog"]
    assert {
        "kraken_warmachine",
        "rifle_platoon",
        "drone_picket",
        "hero_vale",
        "project_chainmail",
        "ops_centre",
    } <= set(cat)
    assert cat["kraken_warmachine"]["power"] == 3 and cat["kraken_warmachine"]["drain"] == 2
    assert "rifle_platoon" not in game.view(s, "invader")["catalog"]


def test_public_state_is_shown_to_everyone() -> None:
    s = build(
        zone_tokens=(1, 0, 0),
        shield=2,
        plot=7,
        hero_turned=True,
        discards={"mankind": ["rifle_platoon"]},
    )
    v = game.view(s, None)
    assert v["plot"] == 7 and v["zones"][0]["tokens"] == 1
    assert v["players"]["mankind"]["shield"] == 2 and v["hero"]["turned"] is True
    assert v["players"]["mankind"]["discard"][-1]["type"] == "rifle_platoon"
    assert v["players"]["mankind"]["deck_size"] == len(s.deck[MANKIND])
    assert v["players"]["invader"]["deck_size"] == len(s.deck[INVADER])
