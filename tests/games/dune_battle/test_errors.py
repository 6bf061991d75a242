"""One negative test per IllegalAction code of the engine (docs/dune-battle.md, "Error codes").

The last test reads the package source and checks that every code raised there
is exercised here, so a new code cannot ship untested.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from dune_scenarios import act, fight, give_turn, plan, stage, with_kh

import app.games.dune_battle as game
from app.games.base import IllegalAction
from app.games.dune_battle.state import Forces, GameState

Case = Callable[[], tuple[GameState, str, dict[str, Any]]]
CASES: dict[str, Case] = {}


def case(code: str) -> Callable[[Case], Case]:
    def register(fn: Case) -> Case:
        CASES[code] = fn
        return fn

    return register


@case("bad_action")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(), "atreides", {"type": "teleport"}


@case("not_your_decision")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(), "harkonnen", {"type": "prescience", "element": "leader"}


@case("leader_required")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(), "atreides", plan(None)


@case("leader_unavailable")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(), "atreides", plan("feyd_rautha")


@case("cards_without_leader")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(hands={"atreides": ["crysknife-1"]})
    for ld in s.leaders:
        if ld.controller == "atreides":
            s = s.with_leader(replace(ld, zone="tanks"))
    return s, "atreides", plan(None, "crysknife-1")


@case("card_not_in_hand")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(), "atreides", plan("thufir_hawat", "crysknife-1")


@case("slot_type_mismatch")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(hands={"atreides": ["shield-1"]}), "atreides", plan("thufir_hawat", "shield-1")


@case("dial_exceeds_forces")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(), "atreides", plan("thufir_hawat", normal=11)


@case("spice_not_allowed")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(), "atreides", plan("thufir_hawat", normal=2, spice=2)


@case("spice_exceeds_forces")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(advanced=True), "atreides", plan("thufir_hawat", normal=2, spice=3)


@case("spice_exceeds_available")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return (
        stage(advanced=True, spice={"atreides": 1}),
        "atreides",
        plan("thufir_hawat", normal=2, spice=2),
    )


@case("kh_inactive")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(advanced=True), "atreides", plan("thufir_hawat", kh=True)


@case("kh_used_elsewhere")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = with_kh(stage(advanced=True))
    s = s.with_faction(replace(s.faction("atreides"), kh_used_in="arrakeen"))
    return s, "atreides", plan("thufir_hawat", kh=True)


@case("kh_without_leader")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = with_kh(stage(advanced=True))
    for ld in s.leaders:
        if ld.controller == "atreides":
            s = s.with_leader(replace(ld, zone="tanks"))
    return s, "atreides", plan(None, kh=True)


@case("voice_target_not_allowed")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return (
        stage(a="bene_gesserit"),
        "bene_gesserit",
        {"type": "voice", "mode": "must", "target": "cheap_hero"},
    )


@case("voice_violation")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(a="bene_gesserit", hands={"harkonnen": ["lasgun-1"]})
    s = act(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "lasgun"})
    return s, "harkonnen", plan("feyd_rautha")


def _asked(element: str, value: object, hands: list[str]) -> GameState:
    s = stage(hands={"harkonnen": hands})
    s = act(s, "atreides", {"type": "prescience", "element": element})
    s = act(s, "harkonnen", {"type": "pass"})
    return act(s, "harkonnen", {"type": "answer_prescience", "value": value})


@case("prescience_violation")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return give_turn(_asked("dial", 2, []), "harkonnen"), "harkonnen", plan("feyd_rautha", normal=3)


@case("answer_unsatisfiable")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage()
    s = act(s, "atreides", {"type": "prescience", "element": "dial"})
    s = act(s, "harkonnen", {"type": "pass"})
    return s, "harkonnen", {"type": "answer_prescience", "value": 9}


def _truthtrance(answer: str | None = None) -> GameState:
    s = stage(hands={"atreides": ["truthtrance-1"]})
    q = {"kind": "dial_more_than", "param": 2}
    s = act(s, "atreides", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q})
    return act(s, "harkonnen", {"type": "answer_truthtrance", "answer": answer}) if answer else s


@case("truthtrance_violation")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return give_turn(_truthtrance("no"), "harkonnen"), "harkonnen", plan("feyd_rautha", normal=3)


@case("bad_question")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(hands={"atreides": ["truthtrance-1"]})
    q = {"kind": "what_are_you_thinking", "param": ""}
    return s, "atreides", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q}


@case("no_truthtrance_card")
def _() -> tuple[GameState, str, dict[str, Any]]:
    q = {"kind": "worthless", "param": ""}
    return stage(), "atreides", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q}


@case("plan_locked_by_karama")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(advanced=True, hands={"atreides": ["karama-1"]})
    s = act(s, "atreides", {"type": "karama", "effect": "full_view", "card_id": "karama-1"})
    s = act(s, "harkonnen", plan("feyd_rautha"))
    return give_turn(s, "harkonnen"), "harkonnen", plan("beast_rabban")


@case("special_karama_used")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(advanced=True, hands={"atreides": ["karama-1"]})
    s = s.with_faction(replace(s.faction("atreides"), special_karama_used=True))
    return s, "atreides", {"type": "karama", "effect": "full_view", "card_id": "karama-1"}


@case("no_karama_card")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(a="bene_gesserit")
    s = act(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "lasgun"})
    return s, "harkonnen", {"type": "karama", "effect": "cancel_voice", "card_id": "karama-1"}


@case("karama_target_absent")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = give_turn(stage(hands={"harkonnen": ["karama-1"]}), "harkonnen")
    return s, "harkonnen", {"type": "karama", "effect": "cancel_voice", "card_id": "karama-1"}


def _at_traitor(traitors: dict[str, list[str]], kh: bool = False) -> GameState:
    s = stage(advanced=True, traitors=traitors)
    s = with_kh(s) if kh else s
    plans = {"atreides": plan("gurney_halleck", kh=kh), "harkonnen": plan("feyd_rautha")}
    return fight(s, plans, decide=False)[0]


@case("traitor_not_held")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return _at_traitor({}), "atreides", {"type": "call_traitor"}


@case("traitor_blocked_by_kh")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = _at_traitor({"harkonnen": ["gurney_halleck"]}, kh=True)
    s = act(s, "atreides", {"type": "decline_traitor"})
    return s, "harkonnen", {"type": "call_traitor"}


@case("revision_limit")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(plan_revisions=1)
    s = act(s, "atreides", plan("thufir_hawat"))
    return s, "atreides", plan("duncan_idaho")


@case("no_plan")
def _() -> tuple[GameState, str, dict[str, Any]]:
    return stage(), "atreides", {"type": "commit_plan"}


@case("already_committed")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = act(stage(), "atreides", plan("thufir_hawat"))
    return act(s, "atreides", {"type": "commit_plan"}), "atreides", {"type": "commit_plan"}


@case("traitor_not_offered")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = game.setup(3, {})
    offered = set(s.faction("atreides").traitor_offer)
    other = next(ld.id for ld in s.leaders if ld.id not in offered)
    return s, "atreides", {"type": "pick_traitor", "leader": other}


@case("no_such_battle")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(extra=[Forces("atreides", "arrakeen", 9, 3), Forces("harkonnen", "arrakeen", 9, 3)])
    return (
        s,
        "atreides",
        {"type": "choose_battle", "territory": "carthag", "sectors": [10], "opponent": "harkonnen"},
    )


@case("card_not_keepable")
def _() -> tuple[GameState, str, dict[str, Any]]:
    s = stage(hands={"atreides": ["crysknife-1", "karama-1"]})
    s, _ = fight(
        s,
        {
            "atreides": plan("thufir_hawat", "crysknife-1", normal=5),
            "harkonnen": plan("feyd_rautha"),
        },
    )
    return s, "atreides", {"type": "keep_cards", "discard": ["karama-1"]}


@pytest.mark.parametrize("code", sorted(CASES))
def test_illegal_action_code(code: str) -> None:
    state, seat, action = CASES[code]()
    before = game.to_json(state)
    with pytest.raises(IllegalAction) as e:
        game.apply(state, seat, action)
    assert e.value.code == code
    assert game.to_json(state) == before  # never mutated


def test_bad_options() -> None:
    for bad in (
        {"factions": ["atreides"]},
        {"storm_battles": "sometimes"},
        {"colour": "red"},
        {"factions": ["atreides", "atreides"]},
        {"forces": 0},
    ):
        with pytest.raises(IllegalAction) as e:
            game.validate_options(bad)
        assert e.value.code == "bad_options"


def test_bad_snapshot() -> None:
    with pytest.raises(IllegalAction) as e:
        game.from_json({"version": 99, "state": {}})
    assert e.value.code == "bad_snapshot"


def test_every_code_in_the_source_is_tested() -> None:
    src = Path(game.__file__).parent
    text = "\n".join(p.read_text() for p in src.glob("*.py"))
    raised = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', text))
    raised |= set(re.findall(r'"([a-z_]+_violation|plan_locked_by_karama|traitor_[a-z_]+)"', text))
    raised -= {
        "traitor_pick",
        "traitor_picked",
        "traitor_decided",
        "traitor_calls",
        "traitor_not_offered_",
        "traitor_call",
    }
    tested = set(CASES) | {"bad_options", "bad_snapshot"}
    assert raised - tested == set()
