"""Read a bot probe against its base row, seed by seed, from saved self-play games.

docs/balance.md §24: probes of 40–100 games were read by their point estimates, and a
+12-point row fell back to −8 on the next 40 seeds. This puts the honest figures beside
each other: both win rates with Wilson intervals, the games only one row won, the paired
per-seed difference ± 1.96 standard errors, and how many seeds a difference of that size
would need before its interval leaves zero. Only seeds that both rows played count.
The two rows may differ in anything but the card catalog. It asserts nothing.

    python bench/compare_records.py bench/records/probes/heuristic_vs_strong30_v1.8.jsonl \\
        bench/records/probes/heuristic_vs_strong30_deck0.9_v1.8.jsonl --seat invader
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.selfplay_records import RecordsMismatch, load_records
from bench.selfplay_report import wilson95

Z = 1.96


@dataclass(frozen=True)
class Comparison:
    """``seat``'s wins in the base and the probe row over their shared seeds."""

    seat: str
    seeds: int
    base_wins: int
    probe_wins: int
    only_base: int
    only_probe: int

    @property
    def difference(self) -> float:
        """Mean per-seed change in the seat's wins (probe − base)."""
        return (self.probe_wins - self.base_wins) / self.seeds if self.seeds else 0.0

    @property
    def half_width(self) -> float:
        """1.96 standard errors of that mean (paired: a seed both rows won or both lost is 0)."""
        if self.seeds < 2:
            return math.inf
        d, n = self.difference, self.seeds
        # per-seed changes are +1 (only the probe won), -1 (only the base) or 0
        var = (
            self.only_probe * (1 - d) ** 2
            + self.only_base * (1 + d) ** 2
            + (n - self.only_probe - self.only_base) * d**2
        ) / (n - 1)
        return Z * math.sqrt(var / n)

    def seeds_to_resolve(self) -> int | None:
        """Seeds at which a difference of this size and spread would leave zero; none when
        the rows never differ in total."""
        if self.difference == 0 or self.seeds < 2:
            return None
        spread = self.half_width * math.sqrt(self.seeds) / Z
        return math.ceil((Z * spread / abs(self.difference)) ** 2)


def compare(base: list[Path], probe: list[Path], seat: str) -> Comparison:
    """The two rows' games on the seeds both hold (each row may span several files)."""
    if _catalog(base[0]) != _catalog(probe[0]):
        raise RecordsMismatch("the rows were dealt from different card catalogs")
    a = {r.seed: r.winner == seat for r in load_records(base)[1]}
    b = {r.seed: r.winner == seat for r in load_records(probe)[1]}
    shared = sorted(a.keys() & b.keys())
    return Comparison(
        seat=seat,
        seeds=len(shared),
        base_wins=sum(a[s] for s in shared),
        probe_wins=sum(b[s] for s in shared),
        only_base=sum(a[s] and not b[s] for s in shared),
        only_probe=sum(b[s] and not a[s] for s in shared),
    )


def _catalog(path: Path) -> str:
    with path.open(encoding="utf-8") as f:
        return str(json.loads(f.readline())["catalog"])


def lines(c: Comparison) -> list[str]:
    """The report, one figure a line."""
    if not c.seeds:
        return [f"{c.seat}: the rows share no seed"]
    out = [f"{c.seat}, {c.seeds} shared seeds"]
    for name, wins in (("base ", c.base_wins), ("probe", c.probe_wins)):
        lo, hi = wilson95(wins, c.seeds)
        out.append(
            f"  {name} {wins:4d} wins  {100 * wins / c.seeds:5.1f}%  "
            f"(Wilson 95% {100 * lo:.1f}–{100 * hi:.1f})"
        )
    out.append(f"  won only by the base {c.only_base}, only by the probe {c.only_probe}")
    out.append(f"  paired change {100 * c.difference:+.1f} ± {100 * c.half_width:.1f} points")
    need = c.seeds_to_resolve()
    if need is None:
        out.append("  no difference to resolve")
    elif need <= c.seeds:
        out.append("  resolved: the interval excludes zero")
    else:
        out.append(f"  a change of this size needs about {need} seeds to be read")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("base", type=Path, help="records file of the base row")
    ap.add_argument("probe", type=Path, help="records file of the probe row")
    ap.add_argument("--more-base", type=Path, nargs="*", default=[], help="further base files")
    ap.add_argument("--more-probe", type=Path, nargs="*", default=[], help="further probe files")
    ap.add_argument("--seat", choices=("mankind", "invader"), default="mankind")
    args = ap.parse_args()
    c = compare([args.base, *args.more_base], [args.probe, *args.more_probe], args.seat)
    print("\n".join(lines(c)))


if __name__ == "__main__":
    main()
