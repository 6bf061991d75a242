"""The strong level's information-set MCTS: budget, tree statistics, selection, determinism."""

from __future__ import annotations

import random

import pytest

from app.games import invaders as game
from app.games.invaders.bots import Budget, Weights, choose, observe
from app.games.invaders.bots.evaluation import INVADER_WEIGHTS, MANKIND_WEIGHTS
from app.games.invaders.bots.ismcts import Node, action_key, candidates, grow, select, width
from app.games.invaders.bots.policy import kind_of
from app.games.invaders.state import State


def contested_main(seed: int) -> tuple[State, str]:
    """A main-phase position where the search really runs (several close options)."""
    s = game.setup(seed, {})
    rng = random.Random(seed)
    for _ in range(400):
        seat = next(iter(game.active_seats(s)))
        if s.turn >= 3 and kind_of(s) == "main" and len(game.legal_actions(s, seat)) > 3:
            root, _ = grow(observe(s, seat), random.Random(0), 2, None, *weights_for(seat))
            if root.children:
                return s, seat
        s = game.apply(s, seat, choose(s, seat, rng)).state
    raise AssertionError("no contested main decision found")


def weights_for(seat: str) -> tuple[Weights, Weights]:
    """(the seat's weights, its opponent's): each side searched with its own evaluator."""
    if seat == "mankind":
        return MANKIND_WEIGHTS, INVADER_WEIGHTS
    return INVADER_WEIGHTS, MANKIND_WEIGHTS


@pytest.fixture(scope="module")
def contested() -> tuple[State, str]:
    return contested_main(21)


def test_each_iteration_visits_the_root_once(contested: tuple[State, str]) -> None:
    s, seat = contested
    root, _ = grow(observe(s, seat), random.Random(5), 9, None, *weights_for(seat))
    assert root.visits == 9
    assert sum(c.visits for c in root.children.values()) == 9


def test_a_child_is_never_visited_more_often_than_it_was_available(
    contested: tuple[State, str],
) -> None:
    s, seat = contested
    root, _ = grow(observe(s, seat), random.Random(6), 12, None, *weights_for(seat))
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children.values():
            assert child.visits <= child.available <= node.visits
            stack.append(child)


def test_the_tree_grows_below_the_root(contested: tuple[State, str]) -> None:
    s, seat = contested
    root, _ = grow(observe(s, seat), random.Random(7), 16, None, *weights_for(seat))
    assert any(c.children for c in root.children.values())


def test_an_exhausted_time_budget_still_runs_one_iteration(contested: tuple[State, str]) -> None:
    s, seat = contested
    root, _ = grow(observe(s, seat), random.Random(8), 1000, 0.0, *weights_for(seat))
    assert root.visits == 1


def test_the_same_rng_seed_gives_the_same_decision(contested: tuple[State, str]) -> None:
    s, seat = contested
    budget = Budget(iterations=10, seconds=600.0)
    picks = {action_key(choose(s, seat, random.Random(3), budget, "strong")) for _ in range(3)}
    assert len(picks) == 1


def test_select_tries_unvisited_options_in_prior_order() -> None:
    node = Node(visits=3, children={"a": Node(visits=2, total=1.0, available=3), "b": Node()})
    assert select(node, ["a", "b"]) == "b"


def test_select_prefers_the_better_mean_at_equal_visits() -> None:
    good = Node(visits=4, total=3.0, available=8)
    bad = Node(visits=4, total=1.0, available=8)
    node = Node(visits=8, children={"a": bad, "b": good})
    assert select(node, ["a", "b"]) == "b"


def test_widening_admits_more_options_as_visits_grow() -> None:
    node = Node(ranked=["a", "b", "c", "d", "e", "f"], prior=dict.fromkeys("abcdef", 0.0))
    legal: dict[str, dict[str, str]] = {key: {} for key in "abcdef"}
    assert candidates(node, legal) == ["a", "b"]
    node.visits = 64
    assert len(candidates(node, legal)) == width(node) > 2


def test_options_far_below_the_best_prior_never_compete() -> None:
    node = Node(ranked=["a"], prior={"a": 10.0, "z": 0.0})
    assert candidates(node, {"a": {}, "z": {}}) == ["a"]


def test_an_option_first_seen_in_another_world_competes_after_the_ranked_ones() -> None:
    node = Node(ranked=["a"], prior={"a": 1.0})
    assert candidates(node, {"new": {}, "a": {}}) == ["a", "new"]


def test_routine_follow_ups_are_not_searched() -> None:
    s = game.setup(31, {})
    rng = random.Random(31)
    while True:
        seat = next(iter(game.active_seats(s)))
        routine = kind_of(s) not in ("main", "play_zone", "chainmail_window")
        if routine and len(game.legal_actions(s, seat)) > 1:
            break
        s = game.apply(s, seat, choose(s, seat, rng)).state
    root, _ = grow(observe(s, seat), random.Random(1), 50, None, *weights_for(seat))
    assert root.visits == 0
