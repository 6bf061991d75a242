"""How bench/selfplay.py builds each seat's weights and budget from its options."""

from __future__ import annotations

from app.games.invaders.bots import default_weights
from bench.selfplay import Config, _opponent_model, _weights, parse_sets


def test_weight_factor_scales_the_value_set_for_that_seat() -> None:
    cfg = Config(weights=[("pressure", 1.5)], overrides=[("invader", "pressure", 0.6)])
    assert _weights("invader", cfg).pressure == 0.6 * 1.5
    assert _weights("mankind", cfg).pressure == default_weights("mankind").pressure * 1.5


def test_set_options_parse_to_seat_name_and_value() -> None:
    assert parse_sets(["invader.pressure=0.6", "mankind.plot=2"]) == [
        ("invader", "pressure", 0.6),
        ("mankind", "plot", 2.0),
    ]


def test_opponent_model_takes_the_shared_factors_but_not_the_other_seats_settings() -> None:
    cfg = Config(weights=[("pressure", 1.5)], overrides=[("invader", "pressure", 0.6)])
    model = _opponent_model("invader", cfg)
    assert model.pressure == default_weights("invader").pressure * 1.5


def test_a_seat_iteration_budget_overrides_the_shared_one() -> None:
    cfg = Config(iterations=10, seconds=600.0, seat_iterations={"mankind": 30})
    assert cfg.budget("mankind").iterations == 30
    assert cfg.budget("invader").iterations == 10
