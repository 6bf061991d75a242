"""The attack margins replayed from self-play games (bench/attack_margins.py)."""

from __future__ import annotations

from bench.attack_margins import LEVERS, Attack, record_attacks, summarize
from bench.selfplay import Config, play


def test_need_is_the_overflow_of_every_zone_less_the_shield() -> None:
    a = Attack([(4, 7), (9, 2), (3, 5)], shield=1)
    assert a.need() == 3 + 0 + 2 - 1
    assert a.need(zones=(1, 0, 1)) == 2 + 0 + 1 - 1
    assert a.need(shield=4) == 0


def test_a_stopped_attack_needs_nothing_however_far_it_falls_short() -> None:
    assert Attack([(9, 2), (8, 1), (7, 0)], shield=0).need() == 0


def test_replays_the_selfplay_game_and_keeps_one_board_per_invader_turn() -> None:
    cfg = Config()  # heuristic against heuristic: quick, and the same game as self-play
    got = record_attacks(1000, cfg)
    rec = play(1000, cfg)
    assert got["winner"] == rec.winner and got["checks"] == rec.plot_checks
    assert len(got["attacks"]) == len(rec.plot_checks)


def test_the_static_reading_mostly_agrees_with_the_games_own_plot_checks() -> None:
    games = [record_attacks(seed, Config()) for seed in range(1000, 1004)]
    s = summarize(games)
    assert s["agreement"] > 0.8
    assert s["every zone +1"]["stopped"] >= s["as played"]["stopped"]
    assert set(LEVERS) <= set(s)
