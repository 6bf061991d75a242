"""How close Mankind came to stopping each Invader attack, and what a flat defence step
would have changed on the same boards (docs/balance.md §45.2).

Replays self-play games (seeds and bot rngs as in bench/selfplay.py, so each game is that
bench's game) and keeps, for every Invader turn, the board as his main phase ends: each
zone's (Mankind, Invader) totals and Mankind's shield. An attack's *need* is the drain it
inflicts on that board (the overflow of every zone less the shield): Mankind stops the
attack, and the plot check fails, when it is 0. The counterfactual rows read the same
boards with one more point of printed power in a zone, or one more point of shield. They
are static: the Invader would play differently against a stronger zone, so they rank
levers, they do not measure them. Both turn orders by default. It asserts nothing.

    python bench/attack_margins.py --games 60 --seed 1000 --level strong --iterations 10
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.invaders.power import all_powers, all_zone_totals
from app.games.invaders.state import INVADER, State
from bench.selfplay import Config, play

Totals = list[tuple[int, int]]
TURNS = 6  # Invader turns shown one by one
LEVERS: dict[str, tuple[tuple[int, int, int], int]] = {
    "as played": ((0, 0, 0), 0),
    "Pacific rim +1": ((1, 0, 0), 0),
    "Eurasia +1": ((0, 1, 0), 0),
    "Africa +1": ((0, 0, 1), 0),
    "both minor zones +1": ((1, 0, 1), 0),
    "every zone +1": ((1, 1, 1), 0),
    "shield +1": ((0, 0, 0), 1),
}


@dataclass(frozen=True)
class Attack:
    """The board an Invader attack met: zone totals and Mankind's shield."""

    totals: Totals
    shield: int

    def need(self, zones: Sequence[int] = (0, 0, 0), shield: int = 0) -> int:
        """Drain this attack inflicts (<= 0: stopped) with ``zones`` more printed power and
        ``shield`` more shield."""
        over = sum(max(0, inv - mk - zones[z]) for z, (mk, inv) in enumerate(self.totals))
        return over - self.shield - shield


def record_attacks(seed: int, cfg: Config) -> dict[str, Any]:
    """One game, with the board at the end of every Invader main phase."""
    boards: dict[int, Attack] = {}

    def watch(s: State) -> None:
        if s.active == INVADER and s.phase == "main":
            boards[s.turn] = Attack(all_zone_totals(s, all_powers(s)), s.shield)

    rec = play(seed, cfg, watch)
    attacks = [boards[t] for t in sorted(boards)]
    return {"seed": seed, "winner": rec.winner, "checks": rec.plot_checks, "attacks": attacks}


def _job(job: tuple[int, Config]) -> dict[str, Any]:
    return record_attacks(*job)


def summarize(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Stopped attacks by Invader turn and per game, as played and under each lever; how
    often the static reading agrees with the game's own plot checks."""
    n = len(games)
    agree = sum(
        (a.need() > 0) == (c == "+")
        for g in games
        for a, c in zip(g["attacks"], g["checks"], strict=False)
    )
    checked = sum(min(len(g["attacks"]), len(g["checks"])) for g in games)
    out: dict[str, Any] = {"games": n, "agreement": round(agree / max(1, checked), 3)}
    for name, (zones, shield) in LEVERS.items():
        by_turn = []
        for k in range(TURNS):
            met = [g["attacks"][k] for g in games if len(g["attacks"]) > k]
            by_turn.append(
                round(sum(a.need(zones, shield) <= 0 for a in met) / max(1, len(met)), 3)
            )
        whole = sum(a.need(zones, shield) <= 0 for g in games for a in g["attacks"]) / n
        drain = sum(max(0, a.need(zones, shield)) for g in games for a in g["attacks"]) / n
        out[name] = {
            "stopped_by_turn": by_turn,
            "stopped": round(whole, 2),
            "drain": round(drain, 1),
        }
    needs = []
    for k in range(4):
        vals = [g["attacks"][k].need() for g in games if len(g["attacks"]) > k]
        needs.append({"median": median(vals), "short_by_1_or_2": sum(v in (1, 2) for v in vals)})
    out["need"] = needs
    return out


def print_summary(first: str, s: dict[str, Any]) -> None:
    print(
        f"== {first} first: {s['games']} games; static reading agrees with the plot checks "
        f"{100 * s['agreement']:.1f}%"
    )
    print(f"  {'':22s} stopped at Invader turn 1..{TURNS}        a game  drain a game")
    for name in LEVERS:
        row = s[name]
        turns = " ".join(f"{x:5.2f}" for x in row["stopped_by_turn"])
        print(f"  {name:22s} {turns}   {row['stopped']:5.2f}  {row['drain']:5.1f}")
    for k, nd in enumerate(s["need"], 1):
        print(
            f"  turn {k}: median need {nd['median']}, short by 1-2 in {nd['short_by_1_or_2']} games"
        )


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--level", default="strong", choices=["heuristic", "strong"])
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--first", choices=["mankind", "invader", "both"], default="both")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path, help="also write the summaries here")
    a = ap.parse_args()
    orders = ["mankind", "invader"] if a.first == "both" else [a.first]
    cfgs = {
        first: Config(a.level, a.level, first, iterations=a.iterations, seconds=600.0)
        for first in orders
    }
    jobs = [(seed, cfgs[first]) for first in orders for seed in range(a.seed, a.seed + a.games)]
    with ProcessPoolExecutor(a.workers) as ex:
        games = list(ex.map(_job, jobs))
    summaries = {}
    for i, first in enumerate(orders):
        summaries[first] = summarize(games[i * a.games : (i + 1) * a.games])
        print_summary(first, summaries[first])
    if a.json:
        a.json.write_text(json.dumps(summaries, indent=1) + "\n")


if __name__ == "__main__":
    main()
