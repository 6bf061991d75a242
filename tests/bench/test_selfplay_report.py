"""How bench/selfplay_report.py reads saved games."""

from __future__ import annotations

from bench.selfplay import Config, GameRecord
from bench.selfplay_report import report

CFG = Config(mankind="random", invader="random")


def _game(seed: int, checks: str) -> GameRecord:
    return GameRecord(
        seed,
        "mankind",
        "plot_skull",
        2 * len(checks),
        1,
        {"mankind": [0.001], "invader": [0.001]},
        invader_turns=len(checks),
        dry_invader_turns=checks.count("-"),
        failed_plot_checks=checks.count("-"),
        opening={"mankind": [], "invader": []},
        plot_checks=checks,
    )


def test_failed_plot_checks_are_read_by_invader_turn_over_the_games_reaching_it() -> None:
    games = [_game(1, "-+-"), _game(2, "++"), _game(3, "-")]
    assert report(games, CFG, 0.0)["plot"]["failed_by_invader_turn"] == [0.6667, 0.0, 1.0]


def test_games_saved_without_their_checks_leave_the_turn_reading_out() -> None:
    assert "failed_by_invader_turn" not in report([_game(1, "")], CFG, 0.0)["plot"]
