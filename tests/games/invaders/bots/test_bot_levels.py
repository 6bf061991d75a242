"""Each bot level returns a legal action and decides only on the seat's information."""

from __future__ import annotations

import random

import pytest

from app.games import invaders as game
from app.games.invaders.bots import LEVELS, Budget, choose, observe
from app.games.invaders.state import SIDES
from tests.games.invaders.bots.test_bot_knowledge import hidden_twin, random_position

FAST = Budget(iterations=6, seconds=60.0)  # iteration-bound: deterministic
POSITIONS = [(seed, n) for seed in (11, 12) for n in (0, 7, 30, 90, 120)]


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("seed", "decisions"), POSITIONS)
def test_level_returns_a_legal_action(level: str, seed: int, decisions: int) -> None:
    s = random_position(seed, decisions)
    if game.outcome(s) is not None:
        pytest.skip("the random game ended early")
    seat = next(iter(game.active_seats(s)))
    action = choose(s, seat, random.Random(seed), FAST, level)
    assert action in game.legal_actions(s, seat)
    game.apply(s, seat, action)  # and the engine accepts it


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("seed", "decisions"), POSITIONS)
def test_hidden_cards_do_not_change_the_decision(level: str, seed: int, decisions: int) -> None:
    s = random_position(seed, decisions)
    if game.outcome(s) is not None:
        pytest.skip("the random game ended early")
    seat = next(iter(game.active_seats(s)))
    twin = hidden_twin(s, seat, seed + 100)
    mine = choose(s, seat, random.Random(1), FAST, level)
    theirs = choose(twin, seat, random.Random(1), FAST, level)
    assert mine == theirs


def test_choose_accepts_knowledge_and_refuses_the_wrong_seat() -> None:
    s = random_position(13, 20)
    seat = next(iter(game.active_seats(s)))
    k = observe(s, seat)
    assert choose(k, seat, random.Random(2)) == choose(s, seat, random.Random(2))
    other = SIDES[1 - SIDES.index(seat)]
    with pytest.raises(ValueError, match="knowledge"):
        choose(k, other, random.Random(2))


def test_unknown_level_is_refused() -> None:
    s = random_position(14, 0)
    with pytest.raises(ValueError, match="unknown bot level"):
        choose(s, "mankind", random.Random(1), level="genius")


def test_random_level_is_uniform_over_legal_actions() -> None:
    s = random_position(15, 30)
    seat = next(iter(game.active_seats(s)))
    legal = game.legal_actions(s, seat)
    seen = {str(choose(s, seat, random.Random(i), level="random")) for i in range(200)}
    assert seen == {str(a) for a in legal}
