"""The module fulfils app/games/base.py: names, options, setup, snapshots, outcome."""

from __future__ import annotations

import json

import app.games.dune_battle as game
from app.games.base import Game
from app.games.dune_battle.catalog import CARD_TYPES, DECK, LEADERS
from app.games.dune_battle.rng import below, next_u64, seed_state, shuffled


def test_module_is_a_game() -> None:
    assert isinstance(game, Game)
    assert game.NAME == "dune_battle" and len(game.SEATS) == 6
    assert game.validate_options({}) == game.default_options()
    assert game.default_options()["factions"] == ["atreides", "harkonnen"]


def test_data_tables() -> None:
    assert len(DECK) == 33 and len(set(DECK)) == 33
    assert (
        sum(
            c.count
            for c in CARD_TYPES.values()
            if c.kind
            in {"karama", "truthtrance", "ghola", "weather_control", "family_atomics", "hajr"}
        )
        == 8
    )
    assert LEADERS["stilgar"].strength == 7 and LEADERS["iakin_nefud"].strength == 2
    assert sum(1 for ld in LEADERS.values() if ld.faction == "guild") == 5


def test_setup_deals_traitors_hands_and_forces() -> None:
    s = game.setup(5, {"factions": ["harkonnen", "fremen", "emperor"]})
    assert s.phase == "traitor_pick"
    assert len(s.faction("harkonnen").traitors) == 4 and not s.faction("harkonnen").traitor_offer
    assert len(s.faction("fremen").traitor_offer) == 4
    assert len(s.faction("harkonnen").hand) == 8 and len(s.faction("fremen").hand) == 4
    elite = {f.faction: f.elite for f in s.forces}
    assert elite["emperor"] == 2 and elite["fremen"] == 2 and elite["harkonnen"] == 0
    assert len(game.active_seats(s)) == 1 and game.active_seats(s) <= {"fremen", "emperor"}
    assert s.faction("fremen").spice == 3


def test_unused_seats_never_act() -> None:
    s = game.setup(1, {})
    for seat in ("bene_gesserit", "emperor", "fremen", "guild"):
        assert game.legal_actions(s, seat) == []
        assert game.view(s, seat)["legal_actions"] == []


def test_snapshot_round_trip() -> None:
    s = game.setup(9, {"factions": ["atreides", "bene_gesserit", "harkonnen"]})
    data = json.loads(json.dumps(game.to_json(s)))
    assert game.from_json(data) == s and data["version"] == game.SNAPSHOT_VERSION


def test_rng_is_deterministic_and_uniform_enough() -> None:
    assert next_u64(seed_state(1)) == next_u64(seed_state(1))
    state, counts = seed_state(42), [0] * 6
    for _ in range(6000):
        v, state = below(state, 6)
        counts[v] += 1
    assert all(900 < c < 1100 for c in counts)
    order, _ = shuffled(seed_state(3), range(10))
    assert sorted(order) == list(range(10))


def test_outcome_most_forces_wins() -> None:
    from dune_scenarios import fight, plan, stage

    s = stage()
    s, _ = fight(
        s, {"atreides": plan("thufir_hawat", normal=4), "harkonnen": plan("feyd_rautha", normal=3)}
    )
    result = game.outcome(s)
    assert s.phase == "over" and result is not None and result.winner == "atreides"
    assert game.view(s, None)["outcome"]["winner"] == "atreides"


def test_timeouts_alone_finish_the_game() -> None:
    from app.games.dune_battle.actions import timeout_action

    for seed in range(6):
        s = game.setup(
            seed, {"factions": ["bene_gesserit", "atreides", "harkonnen"][: 2 + seed % 2]}
        )
        for _ in range(500):
            if game.outcome(s):
                break
            moves = [(seat, timeout_action(s, seat)) for seat in sorted(game.active_seats(s))]
            moves = [(seat, a) for seat, a in moves if a is not None]
            assert moves, "someone must owe a decision the clock can play"
            s = game.apply(s, *moves[0]).state
        assert game.outcome(s) is not None
