"""Fitting the evaluation's weights to outcomes (bench/fit_leaf.py)."""

from __future__ import annotations

import math
import random

import pytest

from app.games import invaders as game
from app.games.invaders.bots import WEIGHT_NAMES
from app.games.invaders.bots.evaluation import MANKIND_WEIGHTS, mankind_score
from bench.fit_leaf import fit_logistic, halves, in_shipped_units, samples, terms
from bench.selfplay import Config

SHIPPED = [getattr(MANKIND_WEIGHTS, n) for n in WEIGHT_NAMES]


def test_the_weighted_terms_add_up_to_the_score() -> None:
    s = game.setup(11, {"first_player": "mankind"})
    t = terms(s)
    assert t is not None
    total = sum(w * v for w, v in zip(SHIPPED, t, strict=True))
    assert total == pytest.approx(mankind_score(s, MANKIND_WEIGHTS))


def test_the_regression_recovers_known_coefficients() -> None:
    rng = random.Random(5)
    truth = [0.5, 1.5, -2.0]  # intercept, then two features
    xs, ys = [], []
    for _ in range(6000):
        x = [rng.gauss(0, 1), rng.gauss(3, 2)]
        eta = truth[0] + truth[1] * x[0] + truth[2] * x[1]
        xs.append(x)
        ys.append(1 if rng.random() < 1 / (1 + math.exp(-eta)) else 0)
    fitted = fit_logistic(xs, ys)
    assert fitted == pytest.approx(truth, abs=0.15)


def test_weights_are_rescaled_into_the_shipped_units() -> None:
    rng = random.Random(3)
    xs = [[rng.uniform(-5, 5) for _ in SHIPPED] for _ in range(50)]
    k, weights = in_shipped_units(xs, [2.0 * w for w in SHIPPED])
    assert k == pytest.approx(2.0)
    assert weights == pytest.approx(SHIPPED)


def test_a_game_gives_one_sample_per_undecided_turn_start_of_the_seat() -> None:
    got = samples(1000, Config("heuristic", "heuristic"), "invader")
    assert 5 <= len(got) <= 40
    assert {y for _, y in got} in ({0}, {1})  # every sample carries the game's result
    assert all(len(x) == len(WEIGHT_NAMES) for x, _ in got)


def test_halves_split_by_seed_parity() -> None:
    rows = [{"seed": s, "x": [0.0], "y": 0} for s in (4, 5, 6, 7, 9)]
    even, odd = halves(rows)
    assert [r["seed"] for r in even] == [4, 6]
    assert [r["seed"] for r in odd] == [5, 7, 9]
