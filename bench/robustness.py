"""The B-2 robustness table of invaders-cards.md §3.7: heuristic against heuristic, or
strong against strong with equal budgets (``--level strong``; §3.7 allows either).

B-2 asks for each side within 42–58% with the Invader first, and with each evaluation
weight shared by both bots ×0.5 and ×1.5 (one change at a time). A row of a few hundred
games cannot settle a rate near an edge, so the rows run in stages: every row plays the
first stage; a row whose 95% Wilson interval still straddles an edge of the band plays on
(the same seeds, extended) in the next stage, up to the last; within a stage the rows
nearest an edge play first. Each row ends **in** (the interval inside the band), **out**
(outside) or **open** (straddling at the last stage; its point estimate is reported).
Seeds are those of bench/selfplay.py, so any row repeats there with ``--games N --weight
NAME=F`` (or ``--first invader``). It asserts nothing.

    python bench/robustness.py --stages 160,480,2000 --json var/b2.json
    python bench/robustness.py --stages 160 --rows base,first,invader_hand=0.5
    python bench/robustness.py --level strong --iterations 10 --stages 80 --rows base,first
    python bench/robustness.py --level strong --iterations 10 --stages 300 \
        --records bench/records/b2_strong10_v1.8      # resumes: saved games are read, not played
    python bench/robustness.py --report --records bench/records/b2_strong10_v1.9

With ``--records DIR`` every row keeps its games in ``DIR/<row>.jsonl`` (bench/selfplay.py's
records), each appended as it ends: a stopped run loses only its games in flight, and the
same command later reads the saved seeds and plays the rest. The base row is the criteria
run's configuration, so ``DIR/base.jsonl`` may be a link to that run's file. ``--report``
plays nothing: it prints every row saved in DIR with its change against the base on the
same seeds, at the level and budget the rows were saved with (``--level`` is not needed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.invaders.bots import WEIGHT_NAMES
from bench.compare_records import Comparison
from bench.selfplay import Config, GameRecord, _play_star, parse_sets
from bench.selfplay_records import (
    RecordsMismatch,
    append_records,
    open_records,
    played_with,
    saved_config,
    saved_winners,
)
from bench.selfplay_report import wilson95

BAND = (0.42, 0.58)
FACTORS = (0.5, 1.5)

Job = tuple[int, Config]
Player = Callable[[list[Job]], list[str | None]]
"""Plays (seed, config) jobs and returns each game's winner, in order."""
Games = Callable[[list[Job]], Iterator[GameRecord]]
"""Plays (seed, config) jobs and yields each game's record as it ends, in order."""


@dataclass
class Row:
    """One B-2 variant and the games it has played so far."""

    label: str
    config: Config
    winners: list[str | None] = field(default_factory=list)

    def wins(self, seat: str) -> int:
        return sum(1 for w in self.winners if w == seat)


def all_rows(
    overrides: Sequence[tuple[str, str, float]] = (), template: Config | None = None
) -> list[Row]:
    """The base row, the Invader-first row and every weight at both factors; ``template``
    gives both seats' level and budget (heuristic by default)."""
    base = replace(template or Config(), overrides=list(overrides))
    rows = [Row("base", base), Row("first", replace(base, first="invader"))]
    for name in WEIGHT_NAMES:
        for f in FACTORS:
            rows.append(Row(f"{name}={f}", replace(base, weights=[(name, f)])))
    return rows


def verdict(wins: int, games: int, band: tuple[float, float] = BAND) -> str:
    """One side's standing, "in", "out" or "open", by its 95% Wilson interval."""
    lo, hi = wilson95(wins, games)
    if band[0] <= lo and hi <= band[1]:
        return "in"
    if hi < band[0] or lo > band[1]:
        return "out"
    return "open"


def row_verdict(row: Row) -> str:
    """Both sides must be inside; either side clearly outside puts the row out."""
    n = len(row.winners)
    sides = [verdict(row.wins(seat), n) for seat in ("mankind", "invader")]
    if "out" in sides:
        return "out"
    return "in" if sides == ["in", "in"] else "open"


def headroom(row: Row, band: tuple[float, float] = BAND) -> float:
    """How far the row's Mankind share sits inside the band (negative outside); a row
    without games has the whole half-band."""
    if not row.winners:
        return (band[1] - band[0]) / 2
    share = row.wins("mankind") / len(row.winners)
    return min(share - band[0], band[1] - share)


def run_stages(rows: list[Row], stages: Iterable[int], seed: int, play: Player) -> None:
    """Extend every row that is not yet decided to each stage's game count in turn.

    Within a stage the rows nearest an edge of the band play first: a stage of the
    strong level spans sittings, and a stopped run has then settled the rows that
    decide B-2 rather than those that will end "in"."""
    for target in stages:
        todo = [r for r in rows if len(r.winners) < target and row_verdict(r) == "open"]
        todo.sort(key=headroom)
        jobs = [(r, seed + i) for r in todo for i in range(len(r.winners), target)]
        winners = play([(s, r.config) for r, s in jobs])
        for (r, _), w in zip(jobs, winners, strict=True):
            r.winners.append(w)


def games_in_pool(workers: int) -> Games:
    def games(jobs: list[Job]) -> Iterator[GameRecord]:
        if not jobs:
            return
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield from pool.map(_play_star, jobs)

    return games


def play_in_pool(workers: int) -> Player:
    games = games_in_pool(workers)
    return lambda jobs: [rec.winner for rec in games(jobs)]


def play_with_records(rows: list[Row], folder: Path, games: Games) -> Player:
    """A player that reads each row's saved games from ``folder`` and plays only the seeds
    not yet there, appending every game to its row's file as soon as it ends."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {r.label: folder / f"{r.label}.jsonl" for r in rows}
    saved = {label: saved_winners(path) for label, path in paths.items()}

    def label_of(cfg: Config) -> str:
        return next(r.label for r in rows if r.config == cfg)

    def play(jobs: list[Job]) -> list[str | None]:
        todo = [(seed, cfg) for seed, cfg in jobs if seed not in saved[label_of(cfg)]]
        sinks = {}
        try:
            for (seed, cfg), rec in zip(todo, games(todo), strict=True):
                label = label_of(cfg)
                if label not in sinks:
                    sinks[label] = open_records(paths[label], cfg)
                append_records(sinks[label], [rec])
                saved[label][seed] = rec.winner
        finally:
            for f in sinks.values():
                f.close()
        return [saved[label_of(cfg)][seed] for seed, cfg in jobs]

    return play


def saved_rows(rows: list[Row], folder: Path, seed: int) -> list[Row]:
    """The rows with saved games in ``folder``, each holding its games on the seeds from
    ``seed`` on, as far as they run without a gap (the seeds a staged run plays). A file
    played with another configuration (say, another level or budget) is refused."""
    out = []
    for r in rows:
        path = folder / f"{r.label}.jsonl"
        if path.exists() and path.stat().st_size and not played_with(path, r.config):
            raise RecordsMismatch(f"{path} was not played with {r.config}")
        saved = saved_winners(path)
        n = 0
        while seed + n in saved:
            n += 1
        if n:
            out.append(replace(r, winners=[saved[seed + i] for i in range(n)]))
    return out


def paired(row: Row, base: Row) -> dict[str, float]:
    """The base row's Mankind share on the row's seeds, and the row's change against it:
    compare_records.py's paired reading (mean per-seed difference ± 1.96 standard errors)."""
    n = min(len(row.winners), len(base.winners))
    c = Comparison(
        "mankind",
        tuple(int(w == "mankind") for w in base.winners[:n]),
        tuple(int(w == "mankind") for w in row.winners[:n]),
    )
    return {
        "base": c.base_wins / n,
        "change": c.difference,
        "margin": c.half_width if n > 1 else 0.0,
    }


def summary(rows: list[Row], base: Row | None = None) -> list[dict[str, object]]:
    """One line per row; with ``base``, each row also read against it seed by seed."""
    out: list[dict[str, object]] = []
    for r in rows:
        n = len(r.winners)
        lo, hi = wilson95(r.wins("mankind"), n)
        share = r.wins("mankind") / n if n else 0.0
        line: dict[str, object] = {
            "row": r.label,
            "games": n,
            "mankind": share,
            "ci": [lo, hi],
            "verdict": row_verdict(r),
        }
        if base is not None and base.winners and n and r.label != base.label:
            line["paired"] = paired(r, base)
        out.append(line)
    return out


def print_table(table: list[dict[str, object]]) -> None:
    with_base = any("paired" in t for t in table)
    extra = f"  {'base':>6}  {'paired':>12}" if with_base else ""
    print(f"{'row':<22} {'games':>5}  {'Mankind':>7}  {'95% CI':>11}{extra}  verdict")
    for t in table:
        lo, hi = t["ci"]  # type: ignore[misc]
        cols = ""
        if with_base:
            p = t.get("paired")
            cols = (
                f"  {100 * p['base']:5.1f}%  {100 * p['change']:+5.1f} ± {100 * p['margin']:4.1f}"
                if isinstance(p, dict)
                else f"  {'':>6}  {'':>12}"
            )
        print(
            f"{t['row']:<22} {t['games']:>5}  {100 * t['mankind']:6.1f}%"  # type: ignore[operator]
            f"  {100 * lo:4.1f}–{100 * hi:4.1f}{cols}  {t['verdict']}"
        )
    counts = {v: sum(1 for t in table if t["verdict"] == v) for v in ("in", "out", "open")}
    print(f"in {counts['in']}, out {counts['out']}, open {counts['open']} of {len(table)} rows")


def saved_template(folder: Path) -> Config:
    """The levels, budget and ``--set`` overrides the rows in ``folder`` were played with
    (read from a row file's header), so ``--report`` needs no ``--level`` repeated."""
    files = sorted(folder.glob("*.jsonl"), key=lambda p: p.name != "base.jsonl")
    if not files:
        raise RecordsMismatch(f"no saved rows in {folder}")
    return replace(saved_config(files[0]), first="mankind", weights=[])


def report_saved(rows: list[Row], base: Row, folder: Path, seed: int) -> None:
    """Print the saved rows, each beside the base row's games on the same seeds."""
    saved = saved_rows(rows, folder, seed)
    base_saved = saved_rows([base], folder, seed)
    print(f"B-2 rows saved in {folder}, seeds from {seed} (nothing played)")
    print_table(summary(saved, base_saved[0] if base_saved else None))


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--stages", default="160,480,2000", help="games per row at each stage")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--rows", help="comma-separated labels (default: all)")
    ap.add_argument("--set", action="append", default=[], help="SEAT.NAME=VALUE for every row")
    ap.add_argument(
        "--level",
        choices=["heuristic", "strong"],
        help="both bots' level (default heuristic; --report reads it from the records)",
    )
    ap.add_argument("--iterations", type=int, default=10, help="strong: ISMCTS iterations")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path, help="also write the table as JSON here")
    ap.add_argument(
        "--records", type=Path, help="keep each row's games in DIR/<row>.jsonl, and resume"
    )
    ap.add_argument(
        "--report",
        action="store_true",
        help="play nothing: print the rows saved in --records, each against the base",
    )
    args = ap.parse_args()
    if args.report and not args.records:
        ap.error("--report reads the rows' games from --records DIR")
    if args.report and args.level is None:
        template = saved_template(args.records)
        every = all_rows(template.overrides, template)
    else:
        level = args.level or "heuristic"
        # The strong level is bound by iterations (the time limit never binds): deterministic.
        template = Config(level, level, iterations=args.iterations, seconds=600.0)
        every = all_rows(parse_sets(args.set), template)
    rows = every
    if args.rows:
        wanted = args.rows.split(",")
        rows = [r for r in rows if r.label in wanted]
    if args.report:
        report_saved(rows, every[0], args.records, args.seed)
        return
    t0 = time.perf_counter()
    player = (
        play_with_records(rows, args.records, games_in_pool(args.workers))
        if args.records
        else play_in_pool(args.workers)
    )
    run_stages(rows, [int(s) for s in args.stages.split(",")], args.seed, player)
    table = summary(rows)
    wall = time.perf_counter() - t0
    level = template.mankind + (f" ({args.iterations} it)" if template.mankind == "strong" else "")
    print(f"B-2 rows, {level}, seeds from {args.seed}, stages {args.stages} ({wall:.0f} s)")
    print_table(table)
    if args.json:
        args.json.write_text(json.dumps(table, indent=1))


if __name__ == "__main__":
    main()
