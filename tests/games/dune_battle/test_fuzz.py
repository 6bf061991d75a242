"""Malformed intents: whatever a client sends, apply answers IllegalAction or a new state.

Hypothesis builds junk parameters for every action type and throws them at
states taken from a seeded random playout (every phase and step occurs there).
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import app.games.dune_battle as game
from app.games.base import IllegalAction
from app.games.dune_battle.actions import HANDLERS


def _states() -> list[Any]:
    rnd, out = random.Random(4), []
    for seed in range(3):
        s = game.setup(
            seed, {"factions": ["bene_gesserit", "atreides", "harkonnen", "fremen"][: 2 + seed]}
        )
        while game.outcome(s) is None:
            out.append(s)
            seat = next(iter(game.active_seats(s)))
            s = game.apply(s, seat, rnd.choice(game.legal_actions(s, seat))).state
    return out


STATES = _states()
junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 60)
    | st.floats(allow_nan=True)
    | st.text(max_size=12)
    | st.sampled_from(["thufir_hawat", "shield-1", "karama-1", "none", "must", "leader", "dial"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
KEYS = [
    "leader",
    "weapon",
    "defense",
    "normal",
    "elite",
    "spice",
    "kwisatz_haderach",
    "mode",
    "target",
    "element",
    "value",
    "effect",
    "card_id",
    "question",
    "answer",
    "take",
    "choice",
    "discard",
    "territory",
    "sectors",
    "opponent",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, len(STATES) - 1),
    st.sampled_from([*sorted(HANDLERS), "nonsense"]),
    st.sampled_from([*game.SEATS]),
    st.dictionaries(st.sampled_from(KEYS), junk, max_size=5),
)
def test_junk_never_crashes(index: int, kind: str, seat: str, params: dict[str, Any]) -> None:
    state = STATES[index]
    with contextlib.suppress(IllegalAction):
        game.apply(state, seat, {"type": kind, **params})


def test_unhashable_parameters_are_refused() -> None:
    from dune_scenarios import stage

    s = stage(hands={"atreides": ["truthtrance-1", "tleilaxu_ghola-1"]})
    for action in (
        {
            "type": "truthtrance",
            "card_id": "truthtrance-1",
            "question": {"kind": "holds_traitor", "param": []},
        },
        {"type": "ghola", "card_id": "tleilaxu_ghola-1", "leader": ["thufir_hawat"]},
        {"type": "answer_prescience", "value": float("nan")},
        {"type": "set_plan", "leader": {"x": 1}},
    ):
        try:
            game.apply(s, "atreides", action)
        except IllegalAction:
            continue
        raise AssertionError(f"accepted {action}")
