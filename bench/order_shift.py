"""Which opening cards are worth more in one row than in another, seat by seat
(docs/balance.md §45.3).

For every card and seat: the owner's win rate with the card among his first 7 cards less
his win rate without it, in each of two saved rows (e.g. the base and the Invader-first
row of B-2), and the difference with ± 1.96 standard errors. A card whose shift differs
between the two turn orders is one the first-move edge may ride on. Sixty-odd cards are
read at once, so expect two or three at 2 standard errors by chance: read a row again on
other records before acting on it. It asserts nothing.

    python bench/order_shift.py bench/records/b2_strong10_v1.12_r5/base.jsonl \\
        bench/records/b2_strong10_v1.12_r5/first.jsonl --top 12
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.selfplay import GameRecord
from bench.selfplay_records import load_records

MIN_GAMES = 20  # with and without the card, in each row


@dataclass(frozen=True)
class Shift:
    """Owner's win rate with the card less without it, in points, and its standard error."""

    points: float
    se: float
    holders: int


def shift(records: list[GameRecord], seat: str, card: str) -> Shift | None:
    """The card's opening shift for ``seat``; None when either side has too few games."""
    held = [r.winner == seat for r in records if card in r.opening[seat]]
    rest = [r.winner == seat for r in records if card not in r.opening[seat]]
    if len(held) < MIN_GAMES or len(rest) < MIN_GAMES:
        return None
    a, b = sum(held) / len(held), sum(rest) / len(rest)
    se = math.sqrt(a * (1 - a) / len(held) + b * (1 - b) / len(rest))
    return Shift(100 * (a - b), 100 * se, len(held))


def compare(
    first: list[GameRecord], second: list[GameRecord]
) -> list[tuple[str, str, Shift, Shift]]:
    """(seat, card, shift in ``first``, shift in ``second``) for every card both rows read,
    largest difference in standard errors first."""
    rows = []
    for seat in ("mankind", "invader"):
        cards = sorted({c for r in first for c in r.opening[seat]})
        for card in cards:
            a, b = shift(first, seat, card), shift(second, seat, card)
            if a and b:
                rows.append((seat, card, a, b))
    return sorted(
        rows, key=lambda r: -abs(r[3].points - r[2].points) / math.hypot(r[2].se, r[3].se)
    )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("first", type=Path)
    ap.add_argument("second", type=Path)
    ap.add_argument("--top", type=int, default=0, help="print only this many rows")
    a = ap.parse_args()
    _, one = load_records([a.first])
    _, two = load_records([a.second])
    rows = compare(one, two)
    print(f"{len(one)} games against {len(two)}; owner's shift with the card in his first 7")
    for seat, card, x, y in rows[: a.top or None]:
        diff = y.points - x.points
        print(
            f"  {seat:8s} {card:30s} {x.points:+6.1f} (n={x.holders:4d})  {y.points:+6.1f} "
            f"(n={y.holders:4d})  difference {diff:+6.1f} ± {1.96 * math.hypot(x.se, y.se):4.1f}"
        )


if __name__ == "__main__":
    main()
