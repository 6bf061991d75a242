"""Seeds of saved games in which one seat's opening (its first 7 cards) held a card.

B-6 reads a card's opening shift from saved games; a probe of that card's play replays
exactly those seeds (``bench/selfplay.py --seed-file``) and reads the result against the
saved games seed by seed (``bench/compare_records.py``).

    python bench/opening_seeds.py bench/records/strong10_v1.8.jsonl \
        --seat mankind --card mount_rushmore > rushmore.seeds
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.selfplay_records import load_records


def opening_seeds(paths: list[Path], seat: str, card_type: str) -> list[int]:
    """Seeds (ascending) whose game dealt ``card_type`` into ``seat``'s opening."""
    _, records = load_records(paths)
    return [r.seed for r in records if card_type in r.opening.get(seat, [])]


def read_seed_file(path: Path) -> list[int]:
    """Whitespace-separated seeds, in file order, each once."""
    seeds = [int(tok) for tok in path.read_text(encoding="utf-8").split()]
    return list(dict.fromkeys(seeds))


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("records", type=Path, nargs="+", help="saved --records files")
    ap.add_argument("--seat", required=True, choices=["mankind", "invader"])
    ap.add_argument("--card", required=True, help="card type id, e.g. mount_rushmore")
    args = ap.parse_args()
    for seed in opening_seeds(args.records, args.seat, args.card):
        print(seed)


if __name__ == "__main__":
    main()
