"""Fit the evaluation weights to game outcomes: a logistic regression of who won on the
evaluation's own terms, sampled where the strong level's rollouts stop.

docs/balance.md §22.4 left the evaluation itself as the untried lever for the strong
Invader, and §8 had tuned weights by win rate, which at 100-game rows cannot see small
changes. A regression reads every position of every game instead. The evaluation is linear
in its weights away from the decided positions, so each term is the score with that weight
alone set to 1 (``terms``), and the fitted coefficients are weights of the same form:
``--set SEAT.NAME=VALUE`` options for bench/selfplay.py, rescaled to the shipped weights'
units (the search's ``SCALE`` and ``MARGIN`` are in those units).

Samples are the positions where a turn of ``--at`` begins: the searching seat's rollouts stop
there (ismcts.grow's horizon). The label is whether Mankind won the game. It asserts nothing.

    python bench/fit_leaf.py --games 600 --seed 20000 --mankind heuristic --invader strong \\
        --iterations 10 --out var/leaf.jsonl        # play and save the samples
    python bench/fit_leaf.py --fit var/leaf.jsonl --seat invader   # fitted --set options
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.invaders.bots import WEIGHT_NAMES, Weights
from app.games.invaders.bots.evaluation import MANKIND_WEIGHTS, WIN, mankind_score
from app.games.invaders.state import SIDES, State
from bench.selfplay import Config, play

RIDGE = 1e-3  # keeps the Newton step defined when a term never varies in the samples
NEWTON_STEPS = 25


def unit(name: str) -> Weights:
    """The evaluation with only ``name`` weighted (1) and every other weight 0."""
    return replace(MANKIND_WEIGHTS, **{n: 1.0 if n == name else 0.0 for n in WEIGHT_NAMES})


_UNITS = [unit(n) for n in WEIGHT_NAMES]


def terms(s: State) -> list[float] | None:
    """Each weight's term of Mankind's score in ``s``; None where the score is decided
    (a projected win or loss: those positions never reach a weight)."""
    if abs(mankind_score(s, MANKIND_WEIGHTS)) >= WIN / 20:
        return None
    return [mankind_score(s, w) for w in _UNITS]


def samples(seed: int, cfg: Config, at: str) -> list[tuple[list[float], int]]:
    """(terms, Mankind won) at the start of every turn of ``at`` in one game."""
    side = SIDES.index(at)
    seen: list[list[float]] = []
    last = [-1]

    def watch(s: State) -> None:
        if s.outcome is None and s.active == side and s.turn != last[0]:
            last[0] = s.turn
            t = terms(s)
            if t is not None:
                seen.append(t)

    rec = play(seed, cfg, watch)
    won = 1 if rec.winner == "mankind" else 0
    return [(t, won) for t in seen]


def _samples_star(job: tuple[int, Config, str]) -> list[tuple[list[float], int]]:
    return samples(*job)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a is small and well conditioned)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit_logistic(xs: list[list[float]], ys: list[int]) -> list[float]:
    """Coefficients (intercept first) of P(y = 1) = sigmoid(b0 + b·x), by Newton's method
    with a small ridge; features are standardised inside and the result mapped back."""
    n, d = len(xs), len(xs[0])
    mean = [sum(x[j] for x in xs) / n for j in range(d)]
    sd = [math.sqrt(sum((x[j] - mean[j]) ** 2 for x in xs) / n) or 1.0 for j in range(d)]
    zs = [[1.0] + [(x[j] - mean[j]) / sd[j] for j in range(d)] for x in xs]
    beta = [0.0] * (d + 1)
    for _ in range(NEWTON_STEPS):
        grad = [-RIDGE * b for b in beta]
        hess = [[RIDGE if i == j else 0.0 for j in range(d + 1)] for i in range(d + 1)]
        for z, y in zip(zs, ys, strict=True):
            eta = sum(b * v for b, v in zip(beta, z, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, eta))))
            w = p * (1.0 - p)
            for i in range(d + 1):
                grad[i] += (y - p) * z[i]
                wi = w * z[i]
                for j in range(i, d + 1):
                    hess[i][j] += wi * z[j]
        for i in range(d + 1):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max(abs(s) for s in step) < 1e-8:
            break
    coef = [beta[j + 1] / sd[j] for j in range(d)]
    intercept = beta[0] - sum(c * m for c, m in zip(coef, mean, strict=True))
    return [intercept, *coef]


def in_shipped_units(xs: list[list[float]], coef: list[float]) -> tuple[float, list[float]]:
    """The fitted weights divided by ``k``, the least-squares slope of the fitted logit on
    the shipped score over the samples, so that both score in about the same units."""
    shipped = [getattr(MANKIND_WEIGHTS, n) for n in WEIGHT_NAMES]
    a = [sum(c * v for c, v in zip(coef, x, strict=True)) for x in xs]
    b = [sum(w * v for w, v in zip(shipped, x, strict=True)) for x in xs]
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    k = sum((u - ma) * (v - mb) for u, v in zip(a, b, strict=True))
    k /= sum((v - mb) ** 2 for v in b)
    return k, [c / k for c in coef]


Row = dict[str, Any]  # one saved sample: {"seed": int, "x": [terms], "y": 0 or 1}


def _fitted(rows: list[Row]) -> tuple[float, list[float]]:
    xs = [r["x"] for r in rows]
    return in_shipped_units(xs, fit_logistic(xs, [r["y"] for r in rows])[1:])


def halves(rows: list[Row]) -> tuple[list[Row], list[Row]]:
    """The samples of even and odd seeds (rows without a seed: the file's two halves),
    so that a weight fitted differently on each half shows as noise."""
    if all("seed" in r for r in rows):
        return [r for r in rows if r["seed"] % 2 == 0], [r for r in rows if r["seed"] % 2]
    return rows[: len(rows) // 2], rows[len(rows) // 2 :]


def _report(rows: list[Row]) -> list[float]:
    """Print the fit on every sample beside the fits on each half; return the first."""
    k, weights = _fitted(rows)
    a, b = (_fitted(h)[1] for h in halves(rows))
    won = sum(r["y"] for r in rows) / len(rows)
    print(f"{len(rows)} positions, Mankind won {won:.1%} of them; k = {k:.4f}")
    print(f"  {'weight':16s} {'shipped':>8s} {'fitted':>8s} {'half 1':>8s} {'half 2':>8s}")
    for i, name in enumerate(WEIGHT_NAMES):
        shipped = getattr(MANKIND_WEIGHTS, name)
        print(f"  {name:16s} {shipped:8.3f} {weights[i]:8.3f} {a[i]:8.3f} {b[i]:8.3f}")
    return weights


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--mankind", default="heuristic", choices=["random", "heuristic", "strong"])
    ap.add_argument("--invader", default="strong", choices=["random", "heuristic", "strong"])
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--at", default="invader", choices=list(SIDES), help="whose turns to sample")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, help="append the samples here (JSON lines)")
    ap.add_argument("--fit", type=Path, nargs="+", help="fit saved samples instead of playing")
    ap.add_argument("--seat", default="invader", choices=list(SIDES), help="--set options for")
    args = ap.parse_args()
    if args.fit:
        rows = [json.loads(line) for p in args.fit for line in p.read_text().splitlines()]
        weights = _report(rows)
        pairs = zip(WEIGHT_NAMES, weights, strict=True)
        print(" ".join(f"--set {args.seat}.{n}={w:.4f}" for n, w in pairs))
        return
    if args.out is None:
        ap.error("--out is needed to play")
    cfg = Config(args.mankind, args.invader, iterations=args.iterations, seconds=600.0)
    jobs = [(seed, cfg, args.at) for seed in range(args.seed, args.seed + args.games)]
    with ProcessPoolExecutor(max_workers=args.workers) as pool, args.out.open("a") as f:
        for (seed, _, _), game in zip(
            jobs, pool.map(_samples_star, jobs, chunksize=2), strict=True
        ):
            for x, y in game:
                row = {"seed": seed, "x": [round(v, 5) for v in x], "y": y}
                f.write(json.dumps(row) + "\n")
            f.flush()


if __name__ == "__main__":
    main()
