"""Tune each side's evaluation weights by self-play (invaders-cards.md §3.7, criterion B-2).

Coordinate-wise best response: for one side at a time, each weight in turn is tried at
every factor (×0.6, ×0.8, ×1.25, ×1.6 by default) against the other side's current
weights, heuristic against heuristic, on the same fixed seeds. The best factor is kept
if it raises that side's win rate by more than the noise: more than ``--min-gain``
points and more than twice the standard error of the paired per-seed difference (the
same seeds are played by both configurations, so the difference is paired). A kept
change becomes the new baseline at once. Then the other side does the same against
the updated weights, and so on for ``--rounds`` rounds.

Every game is deterministic for its seed, so a run repeats exactly. It prints every
configuration it tried with its win rate and asserts nothing (DESIGN.md: benchmarks
print figures).

    python bench/tune_weights.py --games 300 --seed 20000 --rounds 1 \
        --names mankind_hand,invader_hand,pressure,invader_board
    python bench/tune_weights.py --set invader.invader_hand=1.0   # start from other weights
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.invaders.bots import WEIGHT_NAMES, default_weights
from app.games.invaders.bots.evaluation import UNREAD_NAMES
from bench.selfplay import Config, play
from bench.selfplay_report import paired_se

SEATS = ("mankind", "invader")


def _winner(job: tuple[int, Config]) -> int:
    """1 if Mankind won the game of this seed, else 0."""
    return int(play(*job).winner == "mankind")


def measure(
    pool: ProcessPoolExecutor, weights: dict[str, dict[str, float]], seeds: range
) -> list[int]:
    """Per-seed Mankind wins, both sides heuristic with these absolute weights."""
    overrides = [(seat, k, v) for seat in SEATS for k, v in weights[seat].items()]
    cfg = Config(overrides=overrides)
    return list(pool.map(_winner, [(s, cfg) for s in seeds], chunksize=8))


def side_rate(wins: list[int], seat: str) -> float:
    share = sum(wins) / len(wins)
    return share if seat == "mankind" else 1.0 - share


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--sides", default="mankind,invader", help="order within a round")
    ap.add_argument(
        "--names",
        default="mankind_hand,invader_hand,pressure,invader_board",
        help="weights to try, in order: NAME (both sides) or SEAT.NAME (that side only)",
    )
    ap.add_argument("--factors", default="0.6,0.8,1.25,1.6")
    ap.add_argument("--min-gain", type=float, default=3.0, help="points of win rate")
    ap.add_argument("--set", action="append", default=[], help="SEAT.NAME=VALUE start point")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path, help="also write every measurement here")
    args = ap.parse_args()
    names = [n for n in args.names.split(",") if n]  # NAME for both sides, or SEAT.NAME
    unknown = {n.split(".")[-1] for n in names} - set(WEIGHT_NAMES + UNREAD_NAMES)
    if unknown:  # ``surprise`` is read with --set SEAT.surge_model=0 (the previous bots)
        raise SystemExit(f"unknown weights {sorted(unknown)}; known: {WEIGHT_NAMES}")
    factors = [float(f) for f in args.factors.split(",")]
    weights = {seat: asdict(default_weights(seat)) for seat in SEATS}
    for item in args.set:
        key, value = item.split("=")
        seat, name = key.split(".")
        weights[seat][name] = float(value)
    seeds = range(args.seed, args.seed + args.games)
    log: list[dict[str, object]] = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        base = measure(pool, weights, seeds)
        print(
            f"start: Mankind {100 * sum(base) / len(base):.1f}% on seeds {seeds.start}–"
            f"{seeds.stop - 1}; weights {json.dumps(weights)}",
            flush=True,
        )
        for rnd in range(1, args.rounds + 1):
            for seat in args.sides.split(","):
                for item in names:
                    if "." in item and not item.startswith(seat + "."):
                        continue
                    name = item.split(".")[-1]
                    old = weights[seat][name]
                    best = (0.0, 1.0, base)
                    for f in factors:
                        trial = {s: dict(w) for s, w in weights.items()}
                        trial[seat][name] = old * f
                        wins = measure(pool, trial, seeds)
                        gain = 100 * (side_rate(wins, seat) - side_rate(base, seat))
                        se = 100 * paired_se(base, wins)
                        print(
                            f"round {rnd} {seat:7} {name:14} ×{f:<4} = {old * f:7.3f}: "
                            f"{seat} {100 * side_rate(wins, seat):5.1f}% "
                            f"(gain {gain:+5.1f} ± {se:.1f} SE)  "
                            f"[{time.perf_counter() - t0:5.0f} s]",
                            flush=True,
                        )
                        log.append(
                            {
                                "round": rnd,
                                "seat": seat,
                                "name": name,
                                "factor": f,
                                "value": old * f,
                                "rate": side_rate(wins, seat),
                                "gain": gain,
                                "se": se,
                            }
                        )
                        if gain > max(args.min_gain, 2 * se) and gain > best[0]:
                            best = (gain, f, wins)
                    if best[1] != 1.0:
                        weights[seat][name] = old * best[1]
                        base = best[2]
                        print(
                            f"  keep {seat}.{name} = {old * best[1]:.3f} (×{best[1]}, "
                            f"{best[0]:+.1f} points); Mankind now "
                            f"{100 * sum(base) / len(base):.1f}%",
                            flush=True,
                        )
        print(f"final: Mankind {100 * sum(base) / len(base):.1f}%")
        for seat in SEATS:
            changed = {
                k: round(v, 4)
                for k, v in weights[seat].items()
                if v != getattr(default_weights(seat), k)
            }
            print(f"  {seat}: {changed or 'defaults'}")
    if args.json:
        args.json.write_text(json.dumps({"log": log, "weights": weights}, indent=1))


if __name__ == "__main__":
    main()
