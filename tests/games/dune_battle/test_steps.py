"""Worked examples T-30…T-40 (dune-battle.md §10.2): sequence and constraints."""

from __future__ import annotations

from dataclasses import replace

import pytest
from dune_scenarios import act, fight, give_turn, pass_windows, plan, stage, with_kh

import app.games.dune_battle as game
from app.games.base import IllegalAction
from app.games.dune_battle.steps import prompted


def _code(state, seat, action) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalAction) as e:
        act(state, seat, action)
    return e.value.code


def _bg_vs_atreides(**kw):  # type: ignore[no-untyped-def]
    return stage(a="bene_gesserit", d="atreides", **kw)


def test_t30_step_order() -> None:
    s = with_kh(
        _bg_vs_atreides(
            advanced=True, hands={"bene_gesserit": ["karama-1"], "atreides": ["karama-2"]}
        )
    )
    seen = []
    moves = {
        "voice": ("bene_gesserit", {"type": "voice", "mode": "must_not", "target": "lasgun"}),
        "prescience": ("atreides", {"type": "prescience", "element": "leader"}),
        "answer_prescience": ("bene_gesserit", {"type": "answer_prescience", "value": "alia"}),
    }
    while s.battle is not None and s.battle.step != "commit":
        step = s.battle.step
        seat = prompted(s, s.battle, step)
        seen.append((step, seat))
        assert game.active_seats(s) == {seat}
        who, action = moves.get(step, (seat, {"type": "pass"}))
        s = act(s, who, action)
    assert seen == [
        ("voice", "bene_gesserit"),
        ("karama_voice", "atreides"),
        ("prescience", "atreides"),
        ("karama_prescience", "bene_gesserit"),
        ("answer_prescience", "bene_gesserit"),
        ("karama_full_view", "atreides"),
        ("karama_kh", "bene_gesserit"),
    ]
    assert game.active_seats(s) == {"bene_gesserit"}  # S9: aggressor first, then defender
    s = act(s, "bene_gesserit", plan("alia"))
    s = act(s, "bene_gesserit", {"type": "commit_plan"})
    assert game.active_seats(s) == {"atreides"}
    s = act(s, "atreides", plan("thufir_hawat"))
    s = act(s, "atreides", {"type": "commit_plan"})
    assert s.battle is not None and s.battle.step == "traitor"


def test_t31_voice_limits() -> None:
    s = _bg_vs_atreides()
    assert (
        _code(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "worthless"})
        == "voice_target_not_allowed"
    )
    assert (
        _code(s, "bene_gesserit", {"type": "voice", "mode": "must_not", "target": "cheap_hero"})
        == "voice_target_not_allowed"
    )
    g = _bg_vs_atreides(voice_targets="gf9")
    act(g, "bene_gesserit", {"type": "voice", "mode": "must", "target": "worthless"})
    act(g, "bene_gesserit", {"type": "voice", "mode": "must_not", "target": "cheap_hero"})


def test_t32_voice_binds() -> None:
    s = _bg_vs_atreides(hands={"atreides": ["chaumas-1"]})
    s = act(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "poison_weapon"})
    assert _code(s, "atreides", plan("thufir_hawat")) == "voice_violation"
    act(s, "atreides", plan("thufir_hawat", "chaumas-1"))


def test_t33_voice_must_not() -> None:
    s = _bg_vs_atreides(hands={"atreides": ["shield-1"]})
    s = act(
        s, "bene_gesserit", {"type": "voice", "mode": "must_not", "target": "projectile_defense"}
    )
    assert _code(s, "atreides", plan("thufir_hawat", defense="shield-1")) == "voice_violation"


def test_t34_cannot_comply_no_announcement() -> None:
    s = _bg_vs_atreides(hands={"atreides": ["crysknife-1"]})
    before = {v: game.view(s, v) for v in ("bene_gesserit", None)}
    s = act(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "lasgun"})
    s = act(s, "atreides", plan("thufir_hawat", "crysknife-1"))
    for viewer in ("bene_gesserit", None):
        text = str(game.view(s, viewer)).lower()
        assert "compl" not in text and "crysknife" not in text
        assert before[viewer]["battle"]["aggressor"] == game.view(s, viewer)["battle"]["aggressor"]


def test_t35_karama_any_time_before_reveal() -> None:
    s = _bg_vs_atreides(hands={"atreides": ["karama-1", "crysknife-1"]})
    s = act(
        s, "bene_gesserit", {"type": "voice", "mode": "must_not", "target": "projectile_weapon"}
    )
    s = act(s, "atreides", {"type": "pass"})  # S2 window passed
    s = act(s, "atreides", {"type": "prescience", "element": "dial"})
    s = act(s, "bene_gesserit", {"type": "pass"})
    s = act(s, "bene_gesserit", {"type": "answer_prescience", "value": 0})  # after S5
    s = give_turn(s, "atreides")
    assert _code(s, "atreides", plan("thufir_hawat", "crysknife-1")) == "voice_violation"
    s = act(s, "atreides", {"type": "karama", "effect": "cancel_voice", "card_id": "karama-1"})
    s = act(s, "atreides", plan("thufir_hawat", "crysknife-1"))
    s = act(s, "atreides", {"type": "commit_plan"})
    assert s.battle is not None and s.battle.step == "traitor"
    after = s.with_faction(replace(s.faction("atreides"), hand=("karama-2",)))
    karama = {"type": "karama", "effect": "cancel_voice", "card_id": "karama-2"}
    assert _code(after, "atreides", karama) == "not_your_decision"


def _prescience(element: str, value: object, hands: dict[str, list[str]]):  # type: ignore[no-untyped-def]
    s = stage(hands=hands)
    s = act(s, "atreides", {"type": "prescience", "element": element})
    s = act(s, "harkonnen", {"type": "pass"})
    s = act(s, "harkonnen", {"type": "answer_prescience", "value": value})
    return give_turn(s, "harkonnen")


def test_t36_prescience_binds() -> None:
    s = _prescience(
        "weapon", "crysknife-1", {"harkonnen": ["crysknife-1", "chaumas-1", "karama-1"]}
    )
    assert _code(s, "harkonnen", plan("feyd_rautha", "chaumas-1")) == "prescience_violation"
    assert _code(s, "harkonnen", plan("feyd_rautha")) == "prescience_violation"
    act(s, "harkonnen", plan("feyd_rautha", "crysknife-1"))
    assert game.view(s, "atreides")["battle"]["prescience"]["answer"] == "crysknife"
    assert "answer" not in game.view(s, None)["battle"]["prescience"]
    s = act(
        s, "harkonnen", {"type": "karama", "effect": "cancel_prescience", "card_id": "karama-1"}
    )
    act(s, "harkonnen", plan("feyd_rautha", "chaumas-1"))


def test_t37_answer_none() -> None:
    s = _prescience("defense", "none", {"harkonnen": ["shield-1"]})
    assert _code(s, "harkonnen", plan("feyd_rautha", defense="shield-1")) == "prescience_violation"
    assert _code(s, "atreides", {"type": "prescience", "element": "weapon"}) == "not_your_decision"


def test_t38_truthtrance_between_steps() -> None:
    s = _bg_vs_atreides(
        hands={"atreides": ["truthtrance-1", "truthtrance-2"], "bene_gesserit": ["shield-1"]},
        traitors={"bene_gesserit": ["thufir_hawat"]},
    )
    s = pass_windows(s, until="prescience")  # S1 done; S4 not yet: Atreides' S3 turn
    q = {"kind": "defense_kind", "param": "shield"}
    s = act(s, "atreides", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q})
    assert game.active_seats(s) == {"bene_gesserit"}
    s = act(s, "bene_gesserit", {"type": "answer_truthtrance", "answer": "no"})
    fact = {"kind": "holds_traitor", "param": "thufir_hawat"}
    s = act(s, "atreides", {"type": "truthtrance", "card_id": "truthtrance-2", "question": fact})
    assert s.battle is not None and s.battle.questions[-1].answer == "yes" and not s.battle.stack
    assert game.view(s, None)["battle"]["questions"][-1]["answer"] == "yes"
    s = act(s, "atreides", {"type": "prescience", "element": "leader"})
    assert s.battle is not None and s.battle.step == "karama_prescience"
    s = give_turn(s, "bene_gesserit")
    assert _code(s, "bene_gesserit", plan("alia", defense="shield-1")) == "truthtrance_violation"
    act(s, "bene_gesserit", plan("alia"))


def test_t39_revisions_before_reveal() -> None:
    s = stage(a="harkonnen", d="atreides", advanced=True, hands={"harkonnen": ["karama-1"]})
    s = act(s, "atreides", {"type": "prescience", "element": "dial"})
    s = act(s, "harkonnen", plan("feyd_rautha"))
    s = act(s, "harkonnen", {"type": "commit_plan"})
    s = act(s, "harkonnen", plan("beast_rabban"))  # no constraint names the leader
    assert s.battle is not None and not s.battle.aggressor.committed
    s = act(s, "harkonnen", {"type": "pass"})
    s = act(s, "harkonnen", {"type": "answer_prescience", "value": 0})
    s = pass_windows(s)
    assert game.active_seats(s) == {"harkonnen"}  # reveal waits for the harkonnen
    s = act(s, "harkonnen", {"type": "commit_plan"})
    s = act(s, "atreides", plan("thufir_hawat"))
    s = act(s, "atreides", {"type": "commit_plan"})
    assert s.battle is not None and s.battle.step == "traitor"
    assert (
        s.battle.aggressor.draft is not None and s.battle.aggressor.draft.leader == "beast_rabban"
    )


def test_t40_atreides_full_view() -> None:
    s = stage(
        advanced=True, hands={"atreides": ["karama-1", "karama-2"], "harkonnen": ["shield-1"]}
    )
    s = act(s, "atreides", {"type": "prescience", "element": "dial"})
    s = act(s, "harkonnen", plan("feyd_rautha", defense="shield-1", normal=2, spice=2))
    s = act(s, "harkonnen", {"type": "pass"})
    s = act(s, "harkonnen", {"type": "answer_prescience", "value": 2})
    assert s.battle is not None and s.battle.step == "karama_full_view"
    s = act(s, "atreides", {"type": "karama", "effect": "full_view", "card_id": "karama-1"})
    assert game.view(s, "atreides")["battle"]["full_view"]["defense"] == "shield-1"
    assert "full_view" not in game.view(s, None)["battle"]
    s = give_turn(s, "harkonnen")
    assert _code(s, "harkonnen", plan("feyd_rautha", normal=2, spice=2)) == "plan_locked_by_karama"
    s, _ = fight(s, {})
    assert s.battle is not None and s.battle.defender.draft is not None
    assert s.battle.defender.draft.defense == "shield-1"
    again = stage(advanced=True, hands={"atreides": ["karama-2"]})
    again = again.with_faction(replace(again.faction("atreides"), special_karama_used=True))
    karama = {"type": "karama", "effect": "full_view", "card_id": "karama-2"}
    assert _code(again, "atreides", karama) == "special_karama_used"


def test_full_view_before_any_draft_waits_for_the_draft() -> None:
    s = stage(advanced=True, hands={"atreides": ["karama-1"]})
    s = act(s, "atreides", {"type": "karama", "effect": "full_view", "card_id": "karama-1"})
    assert game.active_seats(s) == {"harkonnen"}
    assert {a["type"] for a in game.legal_actions(s, "harkonnen")} == {"set_plan"}
    s = act(s, "harkonnen", plan("beast_rabban", normal=1, spice=1))
    assert s.battle is not None and s.battle.full_view is not None
    assert game.active_seats(s) == {"atreides"}  # back to the prompt that was interrupted
    s = give_turn(s, "harkonnen")
    assert _code(s, "harkonnen", plan("feyd_rautha")) == "plan_locked_by_karama"


def test_bg_cannot_spend_a_worthless_card_an_answer_promised() -> None:
    s = stage(
        a="atreides", d="bene_gesserit", advanced=True, hands={"bene_gesserit": ["la_la_la-1"]}
    )
    s = pass_windows(s, until="prescience")
    s = act(s, "atreides", {"type": "prescience", "element": "defense"})
    s = act(s, "bene_gesserit", {"type": "pass"})
    s = act(s, "bene_gesserit", {"type": "answer_prescience", "value": "la_la_la-1"})
    s = give_turn(s, "bene_gesserit")
    assert not [a for a in game.legal_actions(s, "bene_gesserit") if a["type"] == "karama"]
    with_kh_state = with_kh(s)
    karama = {"type": "karama", "effect": "cancel_kh", "card_id": "la_la_la-1"}
    assert _code(with_kh_state, "bene_gesserit", karama) == "no_karama_card"


def test_a_committed_plan_answers_truthtrance_for_its_owner() -> None:
    s = stage(hands={"atreides": ["shield-1"], "harkonnen": ["truthtrance-1"]})
    s = pass_windows(s)
    s = act(s, "atreides", plan("thufir_hawat", defense="shield-1"))
    s = act(s, "atreides", {"type": "commit_plan"})
    q = {"kind": "defense_kind", "param": "shield"}
    s = act(s, "harkonnen", {"type": "truthtrance", "card_id": "truthtrance-1", "question": q})
    assert game.legal_actions(s, "atreides") == [{"type": "answer_truthtrance", "answer": "yes"}]
    assert (
        _code(s, "atreides", {"type": "answer_truthtrance", "answer": "no"})
        == "truthtrance_violation"
    )
    s = act(s, "atreides", {"type": "answer_truthtrance", "answer": "yes"})
    assert s.battle is not None and s.battle.aggressor.committed
    assert game.active_seats(s) == {"harkonnen"}


def test_a_committed_plan_answers_prescience_for_its_owner() -> None:
    s = stage(hands={"harkonnen": ["crysknife-1", "chaumas-1"]})
    s = act(s, "atreides", {"type": "prescience", "element": "weapon"})
    s = act(s, "harkonnen", plan("feyd_rautha", "crysknife-1"))
    s = act(s, "harkonnen", {"type": "commit_plan"})
    s = act(s, "harkonnen", {"type": "pass"})
    listed = game.legal_actions(s, "harkonnen")
    assert [a["value"] for a in listed if a["type"] == "answer_prescience"] == ["crysknife-1"]
    answer = {"type": "answer_prescience", "value": "chaumas-1"}
    assert _code(s, "harkonnen", answer) == "prescience_violation"
