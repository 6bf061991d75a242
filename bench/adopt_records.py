"""Carry a probe's saved games over to the bots that adopted the probe, after replaying some.

A probe is played with ``--set`` options; when a later commit ships the same play as a rule
of the bots (docs/balance.md §32: the strong Invader's kept threat), the probe's games are
the games the shipped bots play on those seeds, but their header names the old revision
and the ``--set`` options, so they neither resume nor merge with runs of the new bots.
Replaying a strong run costs hours here. This replays ``--check`` of the probe's seeds
(spread over its range) with the current bots and the probe's configuration less the
dropped options, and writes the target only if every replayed game is the saved one in all
but its decision times. The target's header names the current bots and the source.

    python bench/adopt_records.py bench/records/probes/strong10_invkept1_v1.9.jsonl \\
        bench/records/strong10_v1.9_r2.jsonl --drop invader.kept_threat=1 --check 8
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import fields, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.selfplay import Config, GameRecord, _play_star, parse_sets
from bench.selfplay_records import RecordsMismatch, header, load_records

UNTIMED = tuple(f.name for f in fields(GameRecord) if f.name != "think")
"""Everything a saved game holds but its decision times (wall times differ on a replay)."""


def adopted_config(cfg: Config, drop: list[tuple[str, str, float]]) -> Config:
    """``cfg`` without the ``--set`` options that the bots now apply themselves."""
    missing = [d for d in drop if d not in cfg.overrides]
    if missing:
        raise RecordsMismatch(f"the source was not played with {missing}")
    return replace(cfg, overrides=[o for o in cfg.overrides if o not in drop])


def spread(seeds: list[int], n: int) -> list[int]:
    """``n`` seeds evenly over ``seeds`` (first and last included), or all of them."""
    if n >= len(seeds):
        return list(seeds)
    if n <= 1:
        return seeds[:n]
    return [seeds[round(i * (len(seeds) - 1) / (n - 1))] for i in range(n)]


LATER_FIELDS = ("plot_checks",)
"""Fields records gained later: a game saved before one was kept holds it empty."""


def differences(saved: GameRecord, replayed: GameRecord) -> list[str]:
    """The fields (decision times aside) in which a replay differs from the saved game; a
    field the saved game predates is not compared."""
    return [
        f
        for f in UNTIMED
        if getattr(saved, f) != getattr(replayed, f)
        and not (f in LATER_FIELDS and not getattr(saved, f))
    ]


def adopt(
    source: Path,
    target: Path,
    drop: list[tuple[str, str, float]],
    check: int,
    workers: int = 1,
) -> list[int]:
    """Write ``target`` from ``source`` once ``check`` replayed seeds match; the seeds replayed."""
    if target.exists():
        raise FileExistsError(f"{target} exists: adopt only into a new file")
    old, records = load_records([source])
    cfg = adopted_config(old, drop)
    seeds = spread([r.seed for r in records], check)
    by_seed = {r.seed: r for r in records}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        replays = list(pool.map(_play_star, [(seed, cfg) for seed in seeds]))
    for rec in replays:
        diff = differences(by_seed[rec.seed], rec)
        if diff:
            raise RecordsMismatch(f"seed {rec.seed} plays differently now: {', '.join(diff)}")
    head = {**header(cfg), "adopted": {"from": source.name, "replayed": seeds}}
    rows = source.read_text(encoding="utf-8").splitlines(keepends=True)[1:]
    complete = [row for row in rows if row.endswith("\n")]
    target.write_text(json.dumps(head) + "\n" + "".join(complete), encoding="utf-8")
    return seeds


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("source", type=Path, help="the probe's records file")
    ap.add_argument("target", type=Path, help="a new records file for the current bots")
    ap.add_argument(
        "--drop", action="append", default=[], help="SEAT.NAME=VALUE the bots now apply"
    )
    ap.add_argument("--check", type=int, default=8, help="seeds to replay before adopting")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    seeds = adopt(args.source, args.target, parse_sets(args.drop), args.check, args.workers)
    print(f"{args.target}: adopted {args.source.name}; replayed seeds {seeds} matched")


if __name__ == "__main__":
    main()
