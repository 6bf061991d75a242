"""Opening shifts of one card read in two rows (bench/order_shift.py)."""

from __future__ import annotations

import math

from bench.order_shift import MIN_GAMES, compare, shift
from bench.selfplay import GameRecord


def _game(seed: int, winner: str, mankind_opening: list[str]) -> GameRecord:
    return GameRecord(
        seed, winner, "plot_skull", 20, 100, {}, opening={"mankind": mankind_opening, "invader": []}
    )


def _row(held_wins: int, held: int, rest_wins: int, rest: int) -> list[GameRecord]:
    """Mankind holds 'rifle_platoon' in ``held`` games (winning ``held_wins``) and
    'saladin_vtol' in the others."""
    games = [
        _game(i, "mankind" if i < held_wins else "invader", ["rifle_platoon"]) for i in range(held)
    ]
    games += [
        _game(held + i, "mankind" if i < rest_wins else "invader", ["saladin_vtol"])
        for i in range(rest)
    ]
    return games


def test_shift_is_the_holders_rate_less_the_others() -> None:
    s = shift(_row(30, 40, 20, 40), "mankind", "rifle_platoon")
    assert s is not None
    assert s.holders == 40
    assert round(s.points, 6) == 25.0  # 75% with the card, 50% without
    assert s.se > 0


def test_too_few_holders_are_not_read() -> None:
    assert shift(_row(5, MIN_GAMES - 1, 20, 40), "mankind", "rifle_platoon") is None


def test_compare_orders_the_cards_by_their_difference_in_standard_errors() -> None:
    one = _row(20, 40, 20, 40)  # no shift for either card
    two = _row(36, 40, 20, 40)  # rifle_platoon +40, saladin_vtol -40
    rows = compare(one, two)
    assert {card for _, card, _, _ in rows} == {"rifle_platoon", "saladin_vtol"}
    scores = [abs(b.points - a.points) / math.hypot(a.se, b.se) for _, _, a, b in rows]
    assert scores == sorted(scores, reverse=True)
    assert all(a.points == 0 and round(abs(b.points), 6) == 40 for _, _, a, b in rows)


def test_identical_rows_show_no_difference() -> None:
    row = _row(30, 40, 20, 40)
    assert all(a.points == b.points for _, _, a, b in compare(row, row))
