"""Hidden information (T-41, T-42, DB-19, DB-53): views and events leak nothing.

Method: two matches that differ only in one side's secrets (hand, traitor cards,
draft plan) are driven through the same public actions; every frame the other
side and spectators receive must be identical. Sentinel card ids planted in the
secrets must never appear in those frames.
"""

from __future__ import annotations

import json
from typing import Any

from dune_scenarios import act_events, plan, stage

import app.games.dune_battle as game
from app.games.base import Event
from app.games.dune_battle.state import GameState

OBSERVERS = ("harkonnen", None)


def _frames(state: GameState, events: list[Event]) -> dict[Any, str]:
    out = {}
    for viewer in OBSERVERS:
        redacted = [game.redact(e, viewer) for e in events]
        out[viewer] = json.dumps(
            {"view": game.view(state, viewer), "events": redacted}, sort_keys=True
        )
    return out


def _script(secret: dict[str, Any]) -> list[dict[Any, str]]:
    """Atreides vs Harkonnen, advanced, through every pre-reveal window to reveal."""
    s = stage(
        advanced=True, hands={"atreides": secret["hand"]}, traitors={"atreides": secret["traitors"]}
    )
    frames = [_frames(s, [])]
    steps: list[tuple[str, dict[str, Any]]] = [
        ("atreides", secret["plan"]),
        ("atreides", {"type": "prescience", "element": "leader"}),
        ("harkonnen", {"type": "pass"}),
        ("harkonnen", {"type": "answer_prescience", "value": "feyd_rautha"}),
        ("atreides", {"type": "pass"}),
        ("atreides", {"type": "commit_plan"}),
        ("harkonnen", plan("feyd_rautha", normal=1, spice=1)),
    ]
    for seat, action in steps:
        s, ev = act_events(s, seat, action)
        frames.append(_frames(s, ev))
    return frames


SECRET_A = {
    "hand": ["karama-1", "crysknife-1"],
    "traitors": ["feyd_rautha"],
    "plan": plan("thufir_hawat", "crysknife-1", normal=3, spice=2),
}
SECRET_B = {
    "hand": ["shield-2", "baliset-1"],
    "traitors": ["piter_de_vries"],
    "plan": plan("duncan_idaho", defense="shield-2", normal=1),
}


def test_t41_no_leak_before_reveal() -> None:
    assert _script(SECRET_A) == _script(SECRET_B)


def test_sentinels_never_reach_other_viewers() -> None:
    for frame in _script(SECRET_A):
        for text in frame.values():
            for sentinel in (
                "karama-1",
                "crysknife-1",
                "kh_counter",
                '"traitors": ["feyd_rautha"]',
            ):
                assert sentinel not in text
            atreides_side = json.loads(text)["view"]["battle"]["aggressor"]
            assert set(atreides_side) == {"faction", "no_leader_available"}


def test_t42_windows_are_uniform() -> None:
    with_karama = {
        **SECRET_A,
        "hand": ["karama-1", "snooper-1"],
        "plan": plan("thufir_hawat", normal=3),
    }
    without = {
        **SECRET_A,
        "hand": ["baliset-1", "snooper-2"],
        "plan": plan("thufir_hawat", normal=3),
    }
    assert _script(with_karama) == _script(without)


def test_traitor_pick_is_secret() -> None:
    s = game.setup(7, {"factions": ["atreides", "fremen"]})
    offer = s.faction("atreides").traitor_offer
    picks = [act_events(s, "atreides", {"type": "pick_traitor", "leader": ld}) for ld in offer[:2]]
    frames = [
        {
            v: json.dumps([game.view(t, v), [game.redact(e, v) for e in ev]])
            for v in ("fremen", None)
        }
        for t, ev in picks
    ]
    assert frames[0] == frames[1]


def test_own_secrets_are_visible_to_owner() -> None:
    s = stage(
        advanced=True, hands={"atreides": ["karama-1"]}, traitors={"atreides": ["feyd_rautha"]}
    )
    s, _ = act_events(s, "atreides", plan("thufir_hawat", normal=2))
    v = game.view(s, "atreides")
    assert v["factions"]["atreides"]["hand"] == ["karama-1"]
    assert v["factions"]["atreides"]["traitors"] == ["feyd_rautha"]
    assert v["battle"]["aggressor"]["draft"]["leader"] == "thufir_hawat"
    assert v["legal_actions"] and v["prompt"]["step"] == "prescience"


def test_reveal_makes_plans_public() -> None:
    from dune_scenarios import fight

    s = stage()
    s, ev = fight(
        s, {"atreides": plan("thufir_hawat", normal=4), "harkonnen": plan("feyd_rautha", normal=3)}
    )
    revealed = next(e for e in ev if e.type == "plans_revealed")
    assert game.redact(revealed, None) is not None
    assert game.redact(revealed, None)["plans"]["atreides"]["leader"] == "thufir_hawat"


def test_prompt_is_the_same_for_every_viewer() -> None:
    s = stage(a="bene_gesserit", d="atreides", hands={"atreides": ["karama-1"]})
    s, _ = act_events(s, "bene_gesserit", {"type": "voice", "mode": "must", "target": "lasgun"})
    prompts = {json.dumps(game.view(s, v)["prompt"]) for v in ("bene_gesserit", "atreides", None)}
    assert len(prompts) == 1
