"""A tiny self-play smoke test: complete games between the levels (balance is in bench/)."""

from __future__ import annotations

import random

import pytest

from app.games import invaders as game
from app.games.invaders.bots import Budget, choose

BUDGET = Budget(iterations=4, seconds=5.0)
ITERATION_BOUND = Budget(iterations=4, seconds=600.0)  # the clock never binds: deterministic
MAX_DECISIONS = 3000


@pytest.mark.parametrize(
    ("mankind", "invader", "seed"),
    [("heuristic", "random", 1), ("random", "heuristic", 2), ("heuristic", "heuristic", 3)],
)
def test_bots_play_complete_games(mankind: str, invader: str, seed: int) -> None:
    s = game.setup(seed, {})
    levels = {"mankind": mankind, "invader": invader}
    rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if game.outcome(s) is not None:
            break
        seat = next(iter(game.active_seats(s)))
        s = game.apply(s, seat, choose(s, seat, rng, BUDGET, levels[seat])).state
        assert game.invariants(s) == []
    assert game.outcome(s) is not None


def test_strong_plays_the_first_rounds_legally() -> None:
    s = game.setup(4, {})
    rng = random.Random(4)
    for _ in range(60):
        if game.outcome(s) is not None:
            break
        seat = next(iter(game.active_seats(s)))
        action = choose(s, seat, rng, BUDGET, "strong")
        assert action in game.legal_actions(s, seat)
        s = game.apply(s, seat, action).state
    assert s.turn >= 3


def _actions(seed: int, levels: dict[str, str], limit: int) -> list[tuple[str, str]]:
    """The first ``limit`` decisions of a self-play game, each seat with its own seeded rng."""
    s = game.setup(seed, {})
    rngs = {seat: random.Random(seed * 2 + i) for i, seat in enumerate(game.SEATS)}
    out = []
    for _ in range(limit):
        if game.outcome(s) is not None:
            break
        seat = next(iter(game.active_seats(s)))
        action = choose(s, seat, rngs[seat], ITERATION_BOUND, levels[seat])
        out.append((seat, str(action)))
        s = game.apply(s, seat, action).state
    return out


def test_heuristic_self_play_is_deterministic_for_a_seed() -> None:
    levels = {"mankind": "heuristic", "invader": "heuristic"}
    assert _actions(5, levels, MAX_DECISIONS) == _actions(5, levels, MAX_DECISIONS)


def test_strong_self_play_is_deterministic_for_a_seed_with_an_iteration_budget() -> None:
    levels = {"mankind": "strong", "invader": "strong"}
    assert _actions(6, levels, 40) == _actions(6, levels, 40)
