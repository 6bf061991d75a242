"""Behaviour diagnostics for the B-2 analysis (docs/balance.md §10): hand sizes at the start
and end of each side's main phase, cards played and discarded per own turn, and the mean
count of every event type per game (``--events``), split by the seat the event names, or
by the seat acting when it names none (``card_destroyed``, for instance).

    python bench/selfplay_diag.py --games 150 --weight invader_hand=0.5
    python bench/selfplay_diag.py --games 80 --events \
        --set mankind.hand_ratio=0.7 --set invader.hand_ratio=0.7

Heuristic against heuristic, Mankind first, one process; seeds and bot rngs as in
bench/selfplay.py, so the games are the same ones. It asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import invaders as game
from app.games.invaders.bots import Budget, choose
from bench.selfplay import Config, _weights, parse_sets


def run(seed: int, cfg: Config) -> dict[str, Any]:
    """One game with per-side behaviour counters."""
    s = game.setup(seed, {"first_player": cfg.first})
    rngs = {seat: random.Random(seed * 2 + i) for i, seat in enumerate(game.SEATS)}
    weights = {seat: _weights(seat, cfg) for seat in game.SEATS}
    st: dict[str, dict[str, Any]] = {
        seat: {"start": [], "end": [], "played": 0, "discarded": 0, "turns": 0}
        for seat in game.SEATS
    }
    events: Counter[tuple[str, str]] = Counter()
    while game.outcome(s) is None:
        seat = next(iter(game.active_seats(s)))
        action = choose(s, seat, rngs[seat], Budget(), "heuristic", weights[seat])
        tr = game.apply(s, seat, action)
        for e in tr.events:
            who = e.data.get("seat")
            who = who if who in st else seat
            events[(e.type, who)] += 1
            hand = len(tr.state.hand[game.SEATS.index(who)])
            if e.type == "main_phase":
                st[who]["start"].append(hand)
                st[who]["turns"] += 1
            elif e.type == "main_phase_ended":
                st[who]["end"].append(hand)
            elif e.type == "card_played":
                st[who]["played"] += 1
            elif e.type == "card_discarded":
                st[who]["discarded"] += 1
        s = tr.state
    out = game.outcome(s)
    assert out is not None
    return {"winner": out.winner, "reason": out.reason, "turns": s.turn, "st": st, "ev": events}


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--weight", action="append", default=[], help="NAME=FACTOR for both bots")
    ap.add_argument("--set", action="append", default=[], help="SEAT.NAME=VALUE")
    ap.add_argument("--events", action="store_true", help="also print every event type")
    a = ap.parse_args()
    weights = [(k, float(v)) for k, v in (w.split("=") for w in a.weight)]
    sets = parse_sets(a.set)
    cfg = Config(weights=weights, overrides=sets)
    res = [run(a.seed + i, cfg) for i in range(a.games)]
    n = len(res)
    mankind = sum(r["winner"] == "mankind" for r in res) / n
    print(f"{a.weight} {a.set}: {n} games, Mankind {100 * mankind:.1f}%")
    print("  ends", dict(Counter(r["reason"] for r in res).most_common()))
    print("  median rounds", statistics.median((r["turns"] + 1) // 2 for r in res))
    for seat in game.SEATS:
        turns = sum(r["st"][seat]["turns"] for r in res)
        start = statistics.fmean(h for r in res for h in r["st"][seat]["start"])
        end = statistics.fmean(h for r in res for h in r["st"][seat]["end"])
        played = sum(r["st"][seat]["played"] for r in res) / turns
        discarded = sum(r["st"][seat]["discarded"] for r in res) / turns
        print(
            f"  {seat}: hand at start of main {start:.2f}, at end {end:.2f}; per own turn "
            f"played {played:.2f}, discarded {discarded:.2f}; {turns / n:.1f} turns/game"
        )
    if a.events:
        total: Counter[tuple[str, str]] = Counter()
        for r in res:
            total.update(r["ev"])
        for (kind, seat), count in sorted(total.items()):
            print(f"    {kind:28s} {seat:8s} {count / n:6.2f}")


if __name__ == "__main__":
    main()
