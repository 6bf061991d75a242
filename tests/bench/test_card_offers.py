"""bench/card_offers.py: what it counts about one card agrees with the games it watches."""

from __future__ import annotations

import argparse

import pytest

from bench.card_offers import run
from bench.selfplay import Config, play


def _args(**kw: object) -> argparse.Namespace:
    base = {"level": "heuristic", "iterations": 10, "recheck": 0}
    return argparse.Namespace(**(base | kw))


@pytest.mark.parametrize("seed", range(1000, 1006))
def test_a_played_card_was_payable_and_held_and_chosen_where_legal(seed: int) -> None:
    rec = run(seed, "rifle_platoon", _args())
    assert rec.played <= rec.payable <= rec.held
    assert len(rec.chosen) == len(rec.gaps)
    assert rec.played == any(rec.chosen)


def test_it_watches_the_same_games_as_selfplay() -> None:
    """Same seeds and bot rngs: the card is played exactly when self-play's record says so."""
    for seed in range(1000, 1004):
        game = play(seed, Config())
        assert run(seed, "rifle_platoon", _args()).played == ("rifle_platoon" in game.played)


def test_the_second_look_answers_at_every_legal_decision() -> None:
    rec = run(1000, "rifle_platoon", _args(recheck=5))
    assert len(rec.rechosen) == len(rec.chosen) > 0
