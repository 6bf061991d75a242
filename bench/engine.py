"""Engine benchmark: random complete Invaders games on one core.

Prints decisions/s (legal_actions + apply per decision), games/s and median
game length, and rewrites the "Invaders engine" section of docs/benchmarks.md.
It asserts nothing (DESIGN.md: bench prints figures).

    python bench/engine.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import invaders as game

DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
HEADER = "## Invaders engine (bench/engine.py)"


def play(seed: int) -> tuple[int, int, float, float]:
    """One random game: (turns, decisions, seconds in legal_actions+apply, seconds total)."""
    rng = random.Random(seed)
    start = time.process_time()
    s = game.setup(seed, {})
    hot = 0.0
    decisions = 0
    while game.outcome(s) is None:
        seat = next(iter(game.active_seats(s)))
        t0 = time.process_time()
        legal = game.legal_actions(s, seat)
        hot += time.process_time() - t0
        action = rng.choice(legal)
        t0 = time.process_time()
        s = game.apply(s, seat, action).state
        hot += time.process_time() - t0
        decisions += 1
    return s.turn, decisions, hot, time.process_time() - start


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "n/a"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = [play(args.seed + i) for i in range(args.games)]
    turns = [r[0] for r in results]
    decisions = [r[1] for r in results]
    hot = sum(r[2] for r in results)
    total = sum(r[3] for r in results)
    lines = [
        HEADER,
        "",
        f"- machine: Python {platform.python_version()} on {platform.machine()}, one core; "
        f"times are process CPU time (the machine is shared: load average {_load()})",
        f"- games: {args.games} random complete games (uniformly random legal actions, "
        f"seeds {args.seed}…{args.seed + args.games - 1})",
        f"- decisions/s (legal_actions + apply): **{sum(decisions) / hot:,.0f}**",
        f"- games/s (setup to outcome): **{args.games / total:,.1f}**",
        f"- median game length: {statistics.median(turns):.0f} turns, "
        f"{statistics.median(decisions):.0f} decisions",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    old = DOC.read_text() if DOC.exists() else "# Benchmarks\n\n"
    if HEADER in old:
        head, _, rest = old.partition(HEADER)
        nxt = rest.find("\n## ")
        old = head + (rest[nxt + 1 :] if nxt >= 0 else "")
    DOC.write_text(old.rstrip() + "\n\n" + text)


if __name__ == "__main__":
    main()
