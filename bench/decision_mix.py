"""How a seat's strong-level decisions change with its weights: a screen on saved positions.

docs/balance.md §40. A one-sided game read of a weight change costs about 12 minutes per 200
games, and B-2 asks how a bot's *play* moves when one weight is halved or raised by half. This
screen answers the second question in minutes: it plays ``--games`` self-play games once,
keeps a seeded sample of the seat's main-phase decisions, and lets every weight variant
decide each of those positions with the same rng seed (common random numbers). It prints
each variant's decision mix (stop, play, plot action, strategy, ability), its plays of
cards with a discard cost of 2 or more, and how often it chose what the first variant chose.
A ``--noise`` row repeats the first variant with other rng seeds: the agreement that search
noise alone leaves. The mix, not the agreement, is the signal (§40.3). ``--cache`` keeps the
positions, so a later screen (say, with a search constant patched) decides the same ones
without replaying the games. It asserts nothing.

    python bench/decision_mix.py --games 40 --seed 7000 --positions 400 \\
        --set invader.invader_hand=1.8 \\
        --variant flat0.8:invader_hand=0.8 --variant flat1.8:invader_hand=1.8 --noise
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.invaders import engine
from app.games.invaders.bots import Budget, choose, default_weights
from app.games.invaders.bots.ismcts import action_key
from app.games.invaders.bots.policy import kind_of
from app.games.invaders.cards import card
from app.games.invaders.decisions import parse_cid
from app.games.invaders.state import SIDES, State
from bench.selfplay import Config, parse_sets, play

KINDS = ("end_main", "play", "plot_action", "enable", "use")
COSTLY = 2  # a play of a card with at least this discard cost counts as costly
NOISE_SEED = 100_000  # added to a position's rng seed for the --noise row


@dataclass(frozen=True)
class Variant:
    name: str
    values: tuple[tuple[str, float], ...]
    rng_offset: int = 0


def parse_variant(text: str) -> Variant:
    """``NAME:weight=value,weight=value`` (an empty list keeps the seat's shipped weights)."""
    name, _, spec = text.partition(":")
    pairs = [item.split("=") for item in spec.split(",") if item]
    return Variant(name, tuple((k, float(v)) for k, v in pairs))


def positions(seed: int, cfg: Config, seat: str) -> list[State]:
    """Every position of one game in which ``seat`` answers a main-phase decision."""
    side = SIDES.index(seat)
    out: list[State] = []

    def watch(s: State) -> None:
        if s.outcome is None and engine.owing(s) == side and kind_of(s) == "main":
            out.append(s)

    play(seed, cfg, watch)
    return out


def _positions_star(job: tuple[int, Config, str]) -> list[State]:
    return positions(*job)


def decide(
    s: State, index: int, seat: str, variants: list[Variant], iterations: int
) -> list[tuple[str, str, int]]:
    """(action key, action type, discard cost of a played card or -1) for each variant."""
    out = []
    for v in variants:
        w = replace(default_weights(seat), **dict(v.values))
        rng = random.Random(index + v.rng_offset)
        a = choose(s, seat, rng, Budget(iterations, 600.0), "strong", w)
        discard = card(s.types[parse_cid(a["card"])]).discard if a["type"] == "play" else -1
        out.append((action_key(a), a["type"], discard))
    return out


def _decide_star(job: tuple[State, int, str, list[Variant], int]) -> list[tuple[str, str, int]]:
    return decide(*job)


def tally(
    rows: list[list[tuple[str, str, int]]], variants: list[Variant]
) -> list[dict[str, str | int | float]]:
    """Each variant's decision mix, costly plays and agreement with the first variant."""
    out = []
    for i, v in enumerate(variants):
        kinds = Counter(r[i][1] for r in rows)
        out.append(
            {
                "variant": v.name,
                "positions": len(rows),
                **{k: kinds.get(k, 0) for k in KINDS},
                "costly": sum(1 for r in rows if r[i][2] >= COSTLY),
                "agree_first": sum(1 for r in rows if r[i][0] == r[0][0]) / max(1, len(rows)),
            }
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7000)
    ap.add_argument("--seat", choices=SIDES, default="invader")
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--sample-seed", type=int, default=1, help="which positions are sampled")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--set", action="append", default=[], help="SEAT.NAME=VALUE, the games")
    ap.add_argument("--variant", action="append", default=[], help="NAME:weight=value,...")
    ap.add_argument("--noise", action="store_true", help="the first variant, other rng seeds")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cache", type=Path, help="positions: read if present, else saved here")
    args = ap.parse_args()
    variants = [parse_variant(t) for t in args.variant] or [Variant("shipped", ())]
    if args.noise:
        variants.append(replace(variants[0], name=variants[0].name + "~", rng_offset=NOISE_SEED))
    cfg = Config("strong", "strong", iterations=args.iterations, seconds=600.0)
    cfg.overrides = parse_sets(args.set)
    seeds = range(args.seed, args.seed + args.games)
    with ProcessPoolExecutor(args.workers) as pool:
        if args.cache and args.cache.exists():
            found = pickle.loads(args.cache.read_bytes())
        else:
            games = list(pool.map(_positions_star, [(sd, cfg, args.seat) for sd in seeds]))
            found = [s for g in games for s in g]
            if args.cache:
                args.cache.write_bytes(pickle.dumps(found))
        n = min(args.positions, len(found))
        picked = sorted(random.Random(args.sample_seed).sample(range(len(found)), n))
        jobs = [(found[i], i, args.seat, variants, args.iterations) for i in picked]
        rows = list(pool.map(_decide_star, jobs, chunksize=4))
    print(f"{len(found)} positions, {args.games} games from seed {args.seed}; {len(rows)} sampled")
    print(f"{'variant':>14} " + " ".join(f"{k:>11}" for k in (*KINDS, "costly")) + "  agree")
    for t in tally(rows, variants):
        cells = " ".join(f"{t[k]:>11}" for k in (*KINDS, "costly"))
        print(f"{t['variant']:>14} {cells}  {t['agree_first']:.3f}")


if __name__ == "__main__":
    main()
