"""The Kwisatz Haderach dies only in an explosion and is revived like a leader (DB-15, R-20)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dune_scenarios import act, fight, give_turn, plan, resolved, stage, with_kh

import app.games.dune_battle as game
from app.games.base import IllegalAction
from app.games.dune_battle.state import Forces, GameState

GHOLA_KH = {"type": "ghola", "card_id": "tleilaxu_ghola-1", "leader": "kwisatz_haderach"}
ARRAKEEN = [Forces("atreides", "arrakeen", 9, 3), Forces("harkonnen", "arrakeen", 9, 3)]


def _exploded(**kw: object) -> GameState:
    """Atreides fight with the KH in Test Basin and blow up; Arrakeen is still to fight."""
    s = with_kh(
        stage(
            advanced=True,
            extra=ARRAKEEN,
            hands={"atreides": ["lasgun-1", "tleilaxu_ghola-1"], "harkonnen": ["shield-1"]},
            **kw,  # type: ignore[arg-type]
        )
    )
    s = act(
        s,
        "atreides",
        {
            "type": "choose_battle",
            "territory": "test_basin",
            "sectors": [7, 8, 9],
            "opponent": "harkonnen",
        },
    )
    s, ev = fight(
        s,
        {
            "atreides": plan("gurney_halleck", "lasgun-1", kh=True),
            "harkonnen": plan("feyd_rautha", defense="shield-1"),
        },
    )
    assert resolved(ev)["result"] == "explosion"
    return s


def test_kh_attached_in_an_explosion_goes_to_the_tanks_publicly() -> None:
    s = _exploded()
    assert s.faction("atreides").kh_dead and s.faction("atreides").kh_used_in == "test_basin"
    for viewer in ("atreides", "harkonnen", None):
        assert game.view(s, viewer)["factions"]["atreides"]["kh_in_tanks"] is True


def test_dead_kh_cannot_join_a_plan() -> None:
    s = give_turn(_exploded(), "atreides")
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", plan("thufir_hawat", kh=True))
    assert e.value.code == "kh_inactive"


def test_ghola_revives_the_kh_like_a_leader() -> None:
    s = give_turn(_exploded(), "atreides")
    assert GHOLA_KH in game.legal_actions(s, "atreides")
    s = act(s, "atreides", GHOLA_KH)
    assert not s.faction("atreides").kh_dead and "tleilaxu_ghola-1" in s.discard
    assert game.view(s, None)["factions"]["atreides"]["kh_in_tanks"] is False


def test_revived_kh_already_fought_in_the_exploded_territory_this_turn() -> None:
    s = act(give_turn(_exploded(), "atreides"), "atreides", GHOLA_KH)
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", plan("thufir_hawat", kh=True))
    assert e.value.code == "kh_used_elsewhere"


def test_ghola_cannot_revive_a_living_kh() -> None:
    s = with_kh(stage(advanced=True, hands={"atreides": ["tleilaxu_ghola-1"]}))
    assert GHOLA_KH not in game.legal_actions(s, "atreides")
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", GHOLA_KH)
    assert e.value.code == "leader_unavailable"


def test_only_the_atreides_revive_the_kh() -> None:
    s = stage(advanced=True, hands={"harkonnen": ["tleilaxu_ghola-1"]})
    s = s.with_faction(replace(s.faction("atreides"), kh_dead=True))
    s = give_turn(s, "harkonnen")
    with pytest.raises(IllegalAction) as e:
        act(s, "harkonnen", GHOLA_KH)
    assert e.value.code == "leader_unavailable"


def test_a_revived_leader_is_still_a_traitor() -> None:
    s = stage(hands={"harkonnen": ["tleilaxu_ghola-1"]}, traitors={"atreides": ["feyd_rautha"]})
    s = s.with_leader(replace(s.leader("feyd_rautha"), zone="tanks"))
    s = give_turn(s, "harkonnen")
    s = act(
        s, "harkonnen", {"type": "ghola", "card_id": "tleilaxu_ghola-1", "leader": "feyd_rautha"}
    )
    s, ev = fight(
        s,
        {"atreides": plan("thufir_hawat"), "harkonnen": plan("feyd_rautha", normal=8)},
        calls=["atreides"],
    )
    r = resolved(ev)
    assert r["result"] == "traitor" and r["winner"] == "atreides"
