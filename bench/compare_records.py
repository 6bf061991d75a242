"""Read a bot probe against its base row, seed by seed, from saved self-play games.

docs/balance.md §24: probes of 40–100 games were read by their point estimates, and a
+12-point row fell back to −8 on the next 40 seeds. This puts the honest figures beside
each other: both win rates with Wilson intervals, the games only one row won, the paired
per-seed difference ± 1.96 standard errors, and how many seeds a difference of that size
would need before its interval leaves zero. Only seeds that both rows played count.
The two rows may differ in anything but the card catalog. It asserts nothing.

Two rows that play differently soon play different games, so their results on a seed are
only weakly correlated (docs/balance.md §37.5: 0.1–0.3), and a paired change keeps most of
the luck of the base's sample. When the base holds more seeds than the probe, the report
also gives the probe's rate over all of the base's seeds by a control variate (the probe's
rate corrected by how far the base's shared seeds sit from its whole run).

With --across-catalogs two catalogs may be read against each other (a cost probe, docs/
balance.md §34.4): a seed then counts only where both rows dealt the same opening hands,
so a change that reorders the decks cannot pair unrelated games.

With --dealt CARD (or --not-dealt CARD) only the seeds whose opening hands hold (or lack)
that card count: a step on one card then reads on the games it is dealt in, which is where
B-6 judges it (docs/balance.md §42.2).

    python bench/compare_records.py bench/records/probes/heuristic_vs_strong30_v1.8.jsonl \\
        bench/records/probes/heuristic_vs_strong30_deck0.9_v1.8.jsonl --seat invader
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.invaders.setup import DEFAULT_OPTIONS
from bench.selfplay_records import RecordsMismatch, load_records
from bench.selfplay_report import paired_se, wilson95

if TYPE_CHECKING:
    from bench.selfplay import GameRecord

Z = 1.96


@dataclass(frozen=True)
class Comparison:
    """``seat``'s result on each shared seed (1 won, 0 not) in the base and the probe row."""

    seat: str
    base: tuple[int, ...]
    probe: tuple[int, ...]
    base_rest: tuple[int, ...] = ()
    """The base's result on the seeds it played and the probe did not (or not paired)."""

    @property
    def seeds(self) -> int:
        return len(self.base)

    @property
    def base_wins(self) -> int:
        return sum(self.base)

    @property
    def probe_wins(self) -> int:
        return sum(self.probe)

    @property
    def only_base(self) -> int:
        return sum(a > b for a, b in zip(self.base, self.probe, strict=True))

    @property
    def only_probe(self) -> int:
        return sum(b > a for a, b in zip(self.base, self.probe, strict=True))

    @property
    def difference(self) -> float:
        """Mean per-seed change in the seat's wins (probe − base)."""
        return (self.probe_wins - self.base_wins) / self.seeds if self.seeds else 0.0

    @property
    def half_width(self) -> float:
        """1.96 standard errors of that mean (paired: a seed both rows won or both lost is 0)."""
        return Z * paired_se(self.base, self.probe) if self.seeds >= 2 else math.inf

    def seeds_to_resolve(self) -> int | None:
        """Seeds at which a difference of this size and spread would leave zero (the half
        width shrinks with the root of the seeds); none when the rows never differ in total."""
        if self.difference == 0 or self.seeds < 2:
            return None
        return math.ceil(self.seeds * (self.half_width / abs(self.difference)) ** 2)

    @property
    def correlation(self) -> float | None:
        """Per-seed correlation of the two rows' results; none if either never varies."""
        if self.seeds < 2 or len(set(self.base)) < 2 or len(set(self.probe)) < 2:
            return None
        return statistics.correlation(self.base, self.probe)

    def over_base_seeds(self) -> tuple[float, float] | None:
        """The probe's rate over all the base's seeds ± 1.96 standard errors: its shared
        rate plus the slope times the base's whole-run rate less its shared rate (a
        control variate); none unless the base holds seeds the probe did not play."""
        n, rest = self.seeds, self.base_rest
        if n < 2 or len(rest) < 2:
            return None
        spread = statistics.variance(self.base)
        slope = statistics.covariance(self.base, self.probe) / spread if spread else 0.0
        keep = slope * len(rest) / (n + len(rest))
        shared = [y - keep * x for x, y in zip(self.base, self.probe, strict=True)]
        estimate = statistics.fmean(shared) + keep * statistics.fmean(rest)
        var = statistics.variance(shared) / n + keep**2 * statistics.variance(rest) / len(rest)
        return estimate, Z * math.sqrt(var)


def compare(
    base: list[Path],
    probe: list[Path],
    seat: str,
    across_catalogs: bool = False,
    dealt: tuple[str, bool] | None = None,
) -> Comparison:
    """The two rows' games on the seeds both hold (each row may span several files);
    ``dealt`` = (card, True) keeps the seeds whose openings hold the card, (card, False)
    the seeds whose openings lack it."""
    if _catalog(base[0]) != _catalog(probe[0]) and not across_catalogs:
        raise RecordsMismatch("the rows were dealt from different card catalogs")
    a = {r.seed: r for r in load_records(base)[1] if _kept(r, dealt)}
    b = {r.seed: r for r in load_records(probe)[1] if _kept(r, dealt)}
    shared = sorted(a.keys() & b.keys())
    if across_catalogs:
        shared = [s for s in shared if a[s].opening and _dealt(a[s]) == _dealt(b[s])]
    paired = set(shared)
    return Comparison(
        seat,
        tuple(int(a[s].winner == seat) for s in shared),
        tuple(int(b[s].winner == seat) for s in shared),
        tuple(int(a[s].winner == seat) for s in sorted(a.keys() - paired)),
    )


def _dealt(record: GameRecord) -> dict[str, list[str]]:
    """The opening hands the seed dealt. A record's openings hold each seat's first 7
    cards, and with the Invader first Mankind draws his last two after the first attack
    has drained his deck: comparing those would drop exactly the seeds where a cost
    change acted in round 1 (docs/balance.md §44.1)."""
    size = DEFAULT_OPTIONS["opening_hand"]
    return {seat: cards[:size] for seat, cards in record.opening.items()}


def _kept(record: GameRecord, dealt: tuple[str, bool] | None) -> bool:
    """Whether a game counts under ``dealt`` (a game saved without openings never does)."""
    if dealt is None:
        return True
    card, held = dealt
    if not record.opening:
        return False
    return any(card in hand for hand in record.opening.values()) == held


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
    if (r := c.correlation) is not None:
        out.append(f"  per-seed correlation of the rows {r:.2f}")
    if (over := c.over_base_seeds()) is not None:
        total = c.seeds + len(c.base_rest)
        out.append(
            f"  the probe over the base's {total} seeds (control variate) "
            f"{100 * over[0]:.1f}% ± {100 * over[1]:.1f}"
        )
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
    ap.add_argument(
        "--across-catalogs",
        action="store_true",
        help="read rows of two catalogs, on the seeds whose openings are identical",
    )
    dealt = ap.add_mutually_exclusive_group()
    dealt.add_argument("--dealt", metavar="CARD", help="only seeds whose openings hold CARD")
    dealt.add_argument("--not-dealt", metavar="CARD", help="only seeds whose openings lack CARD")
    args = ap.parse_args()
    base, probe = [args.base, *args.more_base], [args.probe, *args.more_probe]
    held = (args.dealt, True) if args.dealt else (args.not_dealt, False) if args.not_dealt else None
    c = compare(base, probe, args.seat, args.across_catalogs, held)
    print("\n".join(lines(c)))


if __name__ == "__main__":
    main()
