"""Random playouts: the checks the platform conformance suite will run, per seed.

Every step: exactly one seat acts and it is the only one with legal actions
(unused seats never act), every listed action applies and no other seat may
play it, lists stay small, views serialise, no viewer receives a secret
(audit.secrets), cards and forces are conserved (audit.invariants), the snapshot
round-trips; every game ends within MAX_STEPS; replay is identical.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import app.games.dune_battle as game
from app.games.base import IllegalAction

MAX_STEPS = 2000
MAX_LEGAL = 100
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"factions": ["bene_gesserit", "atreides"]},
    {"factions": ["emperor", "fremen", "harkonnen"], "advanced": False},
    {"factions": ["atreides", "bene_gesserit", "emperor", "fremen", "guild", "harkonnen"]},
    {
        "factions": ["harkonnen", "fremen"],
        "voice_targets": "gf9",
        "captured_leader_traitor_to_owner": False,
    },
    {
        "factions": ["atreides", "harkonnen", "guild"],
        "territory": "imperial_basin",
        "storm_sector": 9,
    },
    {
        "factions": ["bene_gesserit", "harkonnen", "atreides", "emperor"],
        "territory": "false_wall_east",
        "storm_sector": 6,
        "forces": 20,
        "territory_spice": 6,
    },
    {"factions": ["atreides", "emperor"], "storm_battles": "none", "storm_sector": 8},
    {"factions": ["bene_gesserit", "atreides", "harkonnen"], "bg_advisors": True},
    {"factions": ["harkonnen", "fremen", "atreides", "emperor"], "kill_captured_later": True},
]


def playout(
    seed: int, options: dict[str, Any], deep: bool = True
) -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
    rnd = random.Random(seed)
    state = game.setup(seed, options)
    log: list[tuple[str, dict[str, Any]]] = []
    for step in range(MAX_STEPS):
        legal = {seat: game.legal_actions(state, seat) for seat in game.SEATS}
        active = game.active_seats(state)
        assert active == {s for s, acts in legal.items() if acts}
        assert game.invariants(state) == []
        if game.outcome(state) is not None:
            assert not active
            return state, log
        assert len(active) == 1, "decisions are sequential: exactly one seat owes one"
        assert all(len(acts) <= MAX_LEGAL for acts in legal.values())
        if deep and step % 7 == 0:
            for seat in active:
                for action in legal[seat]:
                    game.apply(state, seat, action)
                for other in set(game.SEATS) - {seat}:
                    with pytest.raises(IllegalAction):
                        game.apply(state, other, legal[seat][0])
            for viewer in (*game.SEATS, None):
                v = game.view(state, viewer)
                json.dumps(v)
                assert v["legal_actions"] == (legal[viewer] if viewer else [])
        seat = rnd.choice(sorted(active))
        action = rnd.choice(legal[seat])
        transition = game.apply(state, seat, action)
        for viewer in (*game.SEATS, None):
            text = json.dumps(game.view(transition.state, viewer))
            text += json.dumps([game.redact(e, viewer) for e in transition.events])
            leaked = [s for s in game.secrets(transition.state, viewer) if s in text]
            assert not leaked, f"{viewer!r} sees {leaked[:3]}"
        state = transition.state
        assert game.from_json(json.loads(json.dumps(game.to_json(state)))) == state
        log.append((seat, action))
    raise AssertionError(f"seed {seed}: no outcome within {MAX_STEPS} steps")


@pytest.mark.parametrize("seed", range(24))
def test_random_playout_terminates_and_conforms(seed: int) -> None:
    playout(seed, OPTION_SETS[seed % len(OPTION_SETS)])


def test_replay_is_bit_identical() -> None:
    options = OPTION_SETS[3]
    final, log = playout(101, options, deep=False)
    state = game.setup(101, options)
    for seat, action in log:
        state = game.apply(state, seat, action).state
    assert game.to_json(state) == game.to_json(final)
    assert game.setup(101, options) == game.setup(101, options)
    assert game.setup(101, options) != game.setup(102, options)
