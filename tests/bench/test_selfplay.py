"""What bench/selfplay.py records of one game."""

from __future__ import annotations

from bench.selfplay import Config, play

RANDOM = Config(mankind="random", invader="random")


def test_every_invader_plot_check_is_recorded_in_turn_order() -> None:
    rec = play(1000, RANDOM)
    assert len(rec.plot_checks) == rec.invader_turns > 0
    assert rec.plot_checks.count("-") == rec.failed_plot_checks
    assert set(rec.plot_checks) <= {"+", "-"}
