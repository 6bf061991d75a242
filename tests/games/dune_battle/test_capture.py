"""Worked examples T-50…T-57 (dune-battle.md §10.3): Harkonnen capture."""

from __future__ import annotations

from dataclasses import replace

from dune_scenarios import act, fight, plan, stage

import app.games.dune_battle as game
from app.games.dune_battle.state import GameState

WIN = {"harkonnen": plan("feyd_rautha", normal=8, spice=8)}


def _vs_fremen(**kw: object) -> GameState:
    s = stage(
        a="harkonnen", d="fremen", a_forces=8, d_forces=4, advanced=True, third="atreides", **kw
    )  # type: ignore[arg-type]
    s = s.with_leader(replace(s.leader("shadout_mapes"), zone="tanks"))
    return s.with_leader(replace(s.leader("chani"), zone="territory", territory="arrakeen"))


def _won(s: GameState, fremen_leader: str = "stilgar") -> GameState:
    s, _ = fight(s, {**WIN, "fremen": plan(fremen_leader)})
    assert s.battle is not None and s.battle.winner == "harkonnen" and s.battle.step == "capture"
    return s


def test_t50_capture_is_optional() -> None:
    s = act(_won(_vs_fremen()), "harkonnen", {"type": "capture", "take": False})
    assert all(
        ld.controller == "fremen" for ld in s.leaders if ld.id in ("stilgar", "otheym", "jamis")
    )


def test_t51_random_victim_secret_identity() -> None:
    victims = set()
    for seed in range(12):
        s = _won(replace(_vs_fremen(), rng=seed))
        s = act(s, "harkonnen", {"type": "capture", "take": True})
        s = act(s, "fremen", {"type": "pass"})
        assert s.battle is not None and s.battle.victim is not None
        victims.add(s.battle.victim)
        for seat in ("harkonnen", "fremen"):
            assert game.view(s, seat)["battle"]["victim"] == s.battle.victim
        for seat in ("atreides", None):
            assert "victim" not in game.view(s, seat)["battle"]
        s = act(s, "harkonnen", {"type": "capture_choice", "choice": "keep"})
        victim = next(ld for ld in s.leaders if ld.captured_from == "fremen")
        for seat in ("atreides", None):
            v = game.view(s, seat)
            assert victim.id not in {ld["id"] for ld in v["leaders"]}
            assert {"faction": "fremen", "controller": "harkonnen", "zone": "pool"} in v[
                "hidden_leaders"
            ]
        assert victim.id in {ld["id"] for ld in game.view(s, "fremen")["leaders"]}
    assert victims <= {"stilgar", "otheym", "jamis"} and len(victims) >= 2


def test_t52_kill_pays_now() -> None:
    s = act(_won(_vs_fremen()), "harkonnen", {"type": "capture", "take": True})
    s = act(s, "fremen", {"type": "pass"})
    assert s.battle is not None
    victim = s.battle.victim or ""
    before = s.faction("harkonnen").spice
    s = act(s, "harkonnen", {"type": "capture_choice", "choice": "kill"})
    ld = s.leader(victim)
    assert ld.zone == "tanks" and ld.face_down and s.faction("harkonnen").spice == before + 2


def _captured_otheym(s: GameState) -> GameState:
    ld = s.leader("otheym")
    return s.with_leader(replace(ld, controller="harkonnen", captured_from="fremen", secret=True))


def test_t53_captured_leader_is_traitor_to_owner() -> None:
    s = _captured_otheym(stage(a="harkonnen", d="fremen", advanced=True))
    s, ev = fight(
        s,
        {"harkonnen": plan("otheym", normal=8, spice=8), "fremen": plan("jamis")},
        calls=["fremen"],
    )
    assert s.leader("otheym").zone == "tanks"
    assert s.faction("fremen").spice == 3 + 5
    assert next(e for e in ev if e.type == "battle_resolved").data["winner"] == "fremen"


def test_t54_traitor_card_still_works_on_captured_leader() -> None:
    s = _captured_otheym(
        stage(
            a="harkonnen",
            d="atreides",
            advanced=True,
            third="fremen",
            traitors={"atreides": ["otheym"]},
        )
    )
    s, ev = fight(
        s, {"harkonnen": plan("otheym"), "atreides": plan("duncan_idaho")}, calls=["atreides"]
    )
    assert next(e for e in ev if e.type == "battle_resolved").data["winner"] == "atreides"


def test_t55_captured_leader_goes_home() -> None:
    s = _captured_otheym(stage(a="harkonnen", d="atreides", advanced=True, third="fremen"))
    s, _ = fight(
        s, {"harkonnen": plan("otheym", normal=8, spice=8), "atreides": plan("duncan_idaho")}
    )
    s = act(s, "harkonnen", {"type": "capture", "take": False})
    assert s.phase == "over"
    assert s.leader("otheym").controller == "fremen" and s.leader("otheym").zone == "pool"


def test_t56_prison_break() -> None:
    s = _captured_otheym(
        stage(
            a="harkonnen",
            d="atreides",
            advanced=True,
            third="fremen",
            hands={"atreides": ["crysknife-1"]},
        )
    )
    for lid in ("beast_rabban", "piter_de_vries", "iakin_nefud", "umman_kudu"):
        s = s.with_leader(replace(s.leader(lid), zone="tanks"))
    s, _ = fight(
        s,
        {
            "harkonnen": plan("feyd_rautha", normal=8),
            "atreides": plan("duncan_idaho", "crysknife-1"),
        },
    )
    assert s.leader("feyd_rautha").zone == "tanks"
    assert s.leader("otheym").controller == "fremen" and s.leader("otheym").captured_from is None


def test_t57_no_capture_after_explosion() -> None:
    s = _vs_fremen(hands={"harkonnen": ["lasgun-1"], "fremen": ["shield-1"]})
    s, ev = fight(
        s,
        {
            "harkonnen": plan("feyd_rautha", "lasgun-1"),
            "fremen": plan("stilgar", defense="shield-1"),
        },
    )
    assert s.battle is None and not any(e.type.startswith("capture") for e in ev)
