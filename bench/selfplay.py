"""Self-play: N Invaders games between two bot levels, in parallel processes.

Prints win rate per side with a 95% confidence interval, game length in turns
and rounds (median, p10/p90, min/max), how games ended, bot decision time, and
the figures behind the balance criteria B-1 … B-10 of invaders-cards.md §3.7.
It asserts nothing (DESIGN.md: benchmarks print figures).

    python bench/selfplay.py --games 200 --mankind heuristic --invader heuristic
    python bench/selfplay.py --games 100 --mankind strong --invader heuristic --iterations 10 \
        --seconds 600                 # iteration-bound: the run repeats exactly for its seeds
    python bench/selfplay.py --games 400 --first invader           # B-2 variant
    python bench/selfplay.py --games 400 --weight plot=0.5         # B-2 variant (both bots)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import invaders as game
from app.games.invaders.bots import Budget, choose, default_weights, scaled
from app.games.invaders.cards import card
from app.games.invaders.state import State
from bench.opening_seeds import read_seed_file
from bench.selfplay_records import append_records, load_records, open_records, saved_seeds
from bench.selfplay_report import print_criteria, print_report, report

OPENING_CARDS = 7  # "among his first 7 cards" (§3.6): opening hand 5 + first draw 2


@dataclass
class Config:
    mankind: str = "heuristic"
    invader: str = "heuristic"
    first: str = "mankind"
    weights: list[tuple[str, float]] = field(default_factory=list)
    overrides: list[tuple[str, str, float]] = field(default_factory=list)  # seat, name, value
    iterations: int = 200
    seconds: float = 0.5
    seat_iterations: dict[str, int] = field(default_factory=dict)  # overrides ``iterations``

    def budget(self, seat: str) -> Budget:
        return Budget(self.seat_iterations.get(seat, self.iterations), self.seconds)


@dataclass
class GameRecord:
    seed: int
    winner: str | None
    reason: str
    turns: int
    decisions: int
    think: dict[str, list[float]]
    invader_turns: int = 0
    dry_invader_turns: int = 0
    failed_plot_checks: int = 0
    hero_losses: int = 0
    ops_centre: int = 0
    played: set[str] = field(default_factory=set)
    opening: dict[str, list[str]] = field(default_factory=dict)
    strategies: dict[str, int] = field(default_factory=dict)  # id -> round enabled
    # One character per Invader plot check in turn order: "+" he drained, "-" it failed.
    # Games saved before it was kept have "" (docs/balance.md §44.3 reads it by turn).
    plot_checks: str = ""


def _weights(seat: str, cfg: Config):  # type: ignore[no-untyped-def]
    """The seat's weights: ``--set`` values first, then ``--weight`` factors scale them."""
    w = default_weights(seat)
    for who, name, value in cfg.overrides:
        if who == seat:
            w = replace(w, **{name: value})
    for name, factor in cfg.weights:
        w = scaled(w, name, factor)
    return w


def _opponent_model(seat: str, cfg: Config):  # type: ignore[no-untyped-def]
    """How the strong level models the other seat: its side's default weights with the
    shared ``--weight`` factors (B-2 scales a weight in both bots, their opponent models
    included); one seat's ``--set`` stays that seat's own (a one-sided check)."""
    w = default_weights(seat)
    for name, factor in cfg.weights:
        w = scaled(w, name, factor)
    return w


def parse_sets(items: list[str]) -> list[tuple[str, str, float]]:
    """``SEAT.NAME=VALUE`` options as (seat, weight name, value)."""
    out = []
    for item in items:
        key, value = item.split("=")
        seat, name = key.split(".")
        out.append((seat, name, float(value)))
    return out


def play(seed: int, cfg: Config, watch: Callable[[State], None] | None = None) -> GameRecord:
    """One complete game; both bots get their own seeded rng. ``watch`` sees every position
    after an action (bench/fit_leaf.py samples it)."""
    s = game.setup(seed, {"first_player": cfg.first})
    levels = {"mankind": cfg.mankind, "invader": cfg.invader}
    rngs = {seat: random.Random(seed * 2 + i) for i, seat in enumerate(game.SEATS)}
    weights = {seat: _weights(seat, cfg) for seat in game.SEATS}
    models = {seat: _opponent_model(seat, cfg) for seat in game.SEATS}
    budgets = {seat: cfg.budget(seat) for seat in game.SEATS}
    rec = GameRecord(seed, None, "", 0, 0, {seat: [] for seat in game.SEATS})
    rec.opening = {seat: [] for seat in game.SEATS}
    while game.outcome(s) is None:
        seat = next(iter(game.active_seats(s)))
        t0 = time.perf_counter()
        other = models["invader" if seat == "mankind" else "mankind"]
        action = choose(s, seat, rngs[seat], budgets[seat], levels[seat], weights[seat], other)
        rec.think[seat].append(time.perf_counter() - t0)
        tr = game.apply(s, seat, action)
        for e in tr.events:
            d = e.data
            if e.type == "card_drawn" and len(rec.opening[d["seat"]]) < OPENING_CARDS:
                rec.opening[d["seat"]].append(d["card_type"])
            elif e.type == "card_played":
                rec.played.add(d["card_type"])
            elif e.type == "plot_check":
                rec.plot_checks += "+" if d["drain_inflicted"] else "-"
            elif e.type == "card_destroyed" and card(d["card_type"]).side == "hero":
                rec.hero_losses += 1
            elif e.type == "ops_centre_used":
                rec.ops_centre += 1
            elif e.type == "strategy_enabled":
                rec.strategies.setdefault(d["strategy"], (tr.state.turn + 1) // 2)
        s = tr.state
        rec.decisions += 1
        if watch is not None:
            watch(s)
    out = game.outcome(s)
    assert out is not None
    rec.winner, rec.reason, rec.turns = out.winner, out.reason, s.turn
    rec.invader_turns = len(rec.plot_checks)
    rec.failed_plot_checks = rec.dry_invader_turns = rec.plot_checks.count("-")
    return rec


def _play_star(job: tuple[int, Config]) -> GameRecord:
    return play(*job)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument(
        "--seed-file", type=Path, help="play these seeds instead (bench/opening_seeds.py)"
    )
    ap.add_argument("--mankind", default="heuristic", choices=["random", "heuristic", "strong"])
    ap.add_argument("--invader", default="heuristic", choices=["random", "heuristic", "strong"])
    ap.add_argument("--first", default="mankind", choices=["mankind", "invader"])
    ap.add_argument("--weight", action="append", default=[], help="NAME=FACTOR for both bots")
    ap.add_argument("--set", action="append", default=[], help="SEAT.NAME=VALUE (tuning)")
    ap.add_argument("--iterations", type=int, default=200, help="strong: ISMCTS iterations")
    for seat in game.SEATS:
        ap.add_argument(f"--{seat}-iterations", type=int, help=f"strong {seat}: iterations")
    ap.add_argument(
        "--seconds",
        type=float,
        default=0.5,
        help="strong: seconds per decision (set it high so iterations bind: deterministic)",
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON here")
    ap.add_argument("--criteria", type=Path, help="only print B-1…B-10 of a saved --json run")
    ap.add_argument(
        "--records", type=Path, help="append each finished game to this JSON-lines file"
    )
    ap.add_argument(
        "--merge", type=Path, nargs="+", help="only report the games of saved --records files"
    )
    args = ap.parse_args()
    if args.criteria:
        print_criteria(json.loads(args.criteria.read_text()))
        return
    if args.merge:
        cfg, records = load_records(args.merge)
        _print(report(records, cfg, 0.0), args.json)
        return
    weights = [(k, float(v)) for k, v in (w.split("=") for w in args.weight)]
    overrides = parse_sets(args.set)
    cfg = Config(
        args.mankind, args.invader, args.first, weights, overrides, args.iterations, args.seconds
    )
    for seat in game.SEATS:
        if getattr(args, f"{seat}_iterations") is not None:
            cfg.seat_iterations[seat] = getattr(args, f"{seat}_iterations")
    seeds = (
        read_seed_file(args.seed_file)
        if args.seed_file
        else list(range(args.seed, args.seed + args.games))
    )
    wanted = set(seeds)
    sink = open_records(args.records, cfg) if args.records else None
    done = saved_seeds(args.records) if args.records else set()
    jobs = [(seed, cfg) for seed in seeds if seed not in done]
    t0 = time.perf_counter()
    records = []
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for rec in pool.map(_play_star, jobs, chunksize=4):
            records.append(rec)
            if sink is not None:
                append_records(sink, [rec])
    if args.records:  # the report covers the file: a resumed run reports every game in it
        records = [r for r in load_records([args.records])[1] if r.seed in wanted]
    _print(report(records, cfg, time.perf_counter() - t0), args.json)


def _print(r: dict, json_path: Path | None) -> None:  # type: ignore[type-arg]
    print_report(r)
    print_criteria(r)
    if json_path:
        json_path.write_text(json.dumps(r, indent=1))


if __name__ == "__main__":
    main()
