"""Self-play: N Invaders games between two bot levels, in parallel processes.

Prints win rate per side with a 95% confidence interval, game length in turns
and rounds (median, p10/p90, min/max), how games ended, bot decision time, and
the figures behind the balance criteria B-1 … B-10 of invaders-cards.md §3.7.
It asserts nothing (DESIGN.md: benchmarks print figures).

    python bench/selfplay.py --games 200 --mankind heuristic --invader heuristic
    python bench/selfplay.py --games 50 --mankind strong --invader heuristic --seconds 0.2
    python bench/selfplay.py --games 400 --first invader           # B-2 variant
    python bench/selfplay.py --games 400 --weight plot=0.5         # B-2 variant (both bots)
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import invaders as game
from app.games.invaders.bots import Budget, choose, default_weights, scaled
from app.games.invaders.cards import card

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


def _weights(seat: str, cfg: Config):  # type: ignore[no-untyped-def]
    w = default_weights(seat)
    for name, factor in cfg.weights:
        w = scaled(w, name, factor)
    for who, name, value in cfg.overrides:
        if who == seat:
            w = replace(w, **{name: value})
    return w


def play(seed: int, cfg: Config) -> GameRecord:
    """One complete game; both bots get their own seeded rng."""
    s = game.setup(seed, {"first_player": cfg.first})
    levels = {"mankind": cfg.mankind, "invader": cfg.invader}
    rngs = {seat: random.Random(seed * 2 + i) for i, seat in enumerate(game.SEATS)}
    weights = {seat: _weights(seat, cfg) for seat in game.SEATS}
    budget = Budget(cfg.iterations, cfg.seconds)
    rec = GameRecord(seed, None, "", 0, 0, {seat: [] for seat in game.SEATS})
    rec.opening = {seat: [] for seat in game.SEATS}
    while game.outcome(s) is None:
        seat = next(iter(game.active_seats(s)))
        t0 = time.perf_counter()
        action = choose(s, seat, rngs[seat], budget, levels[seat], weights[seat])
        rec.think[seat].append(time.perf_counter() - t0)
        tr = game.apply(s, seat, action)
        for e in tr.events:
            d = e.data
            if e.type == "card_drawn" and len(rec.opening[d["seat"]]) < OPENING_CARDS:
                rec.opening[d["seat"]].append(d["card_type"])
            elif e.type == "card_played":
                rec.played.add(d["card_type"])
            elif e.type == "plot_check":
                rec.invader_turns += 1
                if not d["drain_inflicted"]:
                    rec.failed_plot_checks += 1
            elif e.type == "card_destroyed" and card(d["card_type"]).side == "hero":
                rec.hero_losses += 1
            elif e.type == "ops_centre_used":
                rec.ops_centre += 1
            elif e.type == "strategy_enabled":
                rec.strategies.setdefault(d["strategy"], (tr.state.turn + 1) // 2)
        s = tr.state
        rec.decisions += 1
    out = game.outcome(s)
    assert out is not None
    rec.winner, rec.reason, rec.turns = out.winner, out.reason, s.turn
    rec.dry_invader_turns = rec.failed_plot_checks
    return rec


def _play_star(job: tuple[int, Config]) -> GameRecord:
    return play(*job)


def ci95(wins: int, n: int) -> tuple[float, float]:
    """Win share and the half-width of its normal-approximation 95% interval."""
    p = wins / n if n else 0.0
    return p, 1.96 * math.sqrt(p * (1 - p) / n) if n else 0.0


def wilson95(wins: int, n: int) -> tuple[float, float]:
    """Wilson score interval: honest also at 0 or n wins and for small n."""
    if not n:
        return 0.0, 1.0
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


ROAD = {
    "mankind_decked_draw": "Mankind deck-out",
    "mankind_decked_drain": "Mankind deck-out",
    "invader_decked_draw": "Invader deck-out",
    "invader_decked_drain": "Invader deck-out",
    "plot_skull": "plot skull",
    "last_hero": "last hero",
    "both_decks": "W5 both decks",
}


def report(records: list[GameRecord], cfg: Config, wall: float) -> dict[str, Any]:
    """All figures as a dict (printed as text; ``--json`` writes it)."""
    n = len(records)
    out: dict[str, Any] = {"games": n, "config": cfg.__dict__, "wall_seconds": round(wall, 1)}
    for seat in game.SEATS:
        wins = sum(r.winner == seat for r in records)
        p, half = ci95(wins, n)
        lo, hi = wilson95(wins, n)
        out[f"{seat}_wins"] = {
            "share": round(p, 4),
            "ci95": round(half, 4),
            "wilson95": [round(lo, 4), round(hi, 4)],
            "wins": wins,
        }
    turns = [r.turns for r in records]
    rounds = [(t + 1) // 2 for t in turns]
    out["turns"] = {
        "median": statistics.median(turns),
        "p10": _pct(turns, 0.1),
        "p90": _pct(turns, 0.9),
        "min": min(turns),
        "max": max(turns),
        "stdev": round(statistics.pstdev(turns), 2),
    }
    out["rounds"] = {
        "median": statistics.median(rounds),
        "p10": _pct(rounds, 0.1),
        "p90": _pct(rounds, 0.9),
        "before_8": round(sum(r < 8 for r in rounds) / n, 4),
        "after_22": round(sum(r > 22 for r in rounds) / n, 4),
    }
    out["reasons"] = dict(Counter(r.reason for r in records).most_common())
    out["roads"] = {
        k: round(v / n, 4)
        for k, v in Counter(ROAD.get(r.reason, r.reason) for r in records).items()
    }
    for seat in game.SEATS:
        times = [t for r in records for t in r.think[seat]]
        out[f"{seat}_think_ms"] = {
            "mean": round(1000 * statistics.fmean(times), 2),
            "median": round(1000 * statistics.median(times), 2),
            "p99": round(1000 * _pct(times, 0.99), 1),
            "max": round(1000 * max(times), 1),
            "decisions": len(times),
        }
    inv_turns = sum(r.invader_turns for r in records)
    out["plot"] = {
        "failed_checks_per_game": round(sum(r.failed_plot_checks for r in records) / n, 2),
        "dry_invader_turn_share": round(
            sum(r.dry_invader_turns for r in records) / max(1, inv_turns), 4
        ),
    }
    out["hero_losses_per_game"] = round(sum(r.hero_losses for r in records) / n, 3)
    out["ops_centre"] = {
        "per_game": round(sum(r.ops_centre for r in records) / n, 2),
        "share_of_games": round(sum(r.ops_centre > 0 for r in records) / n, 4),
    }
    out["strategies"] = _strategies(records)
    out["cards_played_share"] = _played(records)
    out["opening_shift"] = _opening(records)
    return out


def _strategies(records: list[GameRecord]) -> dict[str, Any]:
    from app.games.invaders.cards import STRATEGY_IDS

    n = len(records)
    out = {}
    for sid in STRATEGY_IDS:
        rounds = [r.strategies[sid] for r in records if sid in r.strategies]
        out[sid] = {
            "share": round(len(rounds) / n, 4),
            "median_round": statistics.median(rounds) if rounds else None,
            "before_round_3_share": round(sum(x < 3 for x in rounds) / n, 4),
        }
    return out


def _played(records: list[GameRecord]) -> dict[str, float]:
    from app.games.invaders.catalog import CATALOG

    n = len(records)
    counts = Counter(t for r in records for t in r.played)
    decks = {*CATALOG.mankind_deck, *CATALOG.invader_deck}
    return {t: round(counts[t] / n, 4) for t in sorted(decks, key=lambda t: counts[t])}


def _opening(records: list[GameRecord]) -> dict[str, Any]:
    """Win-rate shift for a card's owner when it is among his first 7 cards (B-6)."""
    from app.games.invaders.catalog import CATALOG

    base = {seat: sum(r.winner == seat for r in records) / len(records) for seat in game.SEATS}
    out = {}
    for seat, deck in (("mankind", CATALOG.mankind_deck), ("invader", CATALOG.invader_deck)):
        for t in sorted(set(deck)):
            with_card = [r for r in records if t in r.opening[seat]]
            if len(with_card) < 20:
                continue
            share = sum(r.winner == seat for r in with_card) / len(with_card)
            out[t] = {
                "shift": round(100 * (share - base[seat]), 1),
                "games": len(with_card),
                "copies": deck.count(t),
            }
    return dict(sorted(out.items(), key=lambda kv: -abs(kv[1]["shift"])))


def print_report(r: dict[str, Any]) -> None:
    c = r["config"]
    print(
        f"{r['games']} games, mankind={c['mankind']} invader={c['invader']} first={c['first']} "
        f"weights={c['weights'] or 'default'} set={c['overrides'] or '-'} "
        f"budget={c['iterations']} it/{c['seconds']} s ({r['wall_seconds']} s wall)"
    )
    for seat in game.SEATS:
        w = r[f"{seat}_wins"]
        lo, hi = w.get("wilson95", (0.0, 1.0))
        print(
            f"  {seat:8} wins {100 * w['share']:5.1f}% ± {100 * w['ci95']:.1f} ({w['wins']}; "
            f"Wilson 95% {100 * lo:.1f}–{100 * hi:.1f})"
        )
    print(f"  turns  {r['turns']}")
    print(f"  rounds {r['rounds']}")
    print(f"  reasons {r['reasons']}")
    print(f"  roads {r['roads']}")
    for seat in game.SEATS:
        print(f"  {seat} decision time ms {r[f'{seat}_think_ms']}")
    print(
        f"  plot {r['plot']}; hero losses/game {r['hero_losses_per_game']}; "
        f"ops centre {r['ops_centre']}"
    )
    print(
        "  strategies "
        + ", ".join(
            f"{k} {100 * v['share']:.0f}% (median round {v['median_round']}, "
            f"<3: {100 * v['before_round_3_share']:.0f}%)"
            for k, v in r["strategies"].items()
        )
    )
    rare = list(r["cards_played_share"].items())[:8]
    print("  least played " + ", ".join(f"{t} {100 * v:.1f}%" for t, v in rare))
    top = list(r["opening_shift"].items())[:8]
    print(
        "  opening-hand shift "
        + ", ".join(f"{t} {v['shift']:+.1f} ({v['copies']}x, n={v['games']})" for t, v in top)
    )


def criteria(r: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """B-1, B-3 … B-10 of invaders-cards.md §3.7 from one report: (id, measured, met)."""
    out: list[tuple[str, str, bool]] = []
    m, i = r["mankind_wins"]["share"], r["invader_wins"]["share"]
    out.append(("B-1", f"Mankind {100 * m:.1f}% / Invader {100 * i:.1f}%", 0.45 <= m <= 0.55))
    rd = r["rounds"]
    ok = 13 <= rd["median"] <= 18 and rd["before_8"] <= 0.05 and rd["after_22"] <= 0.05
    b3 = f"median {rd['median']} rounds; <8: {100 * rd['before_8']:.1f}%; >22: "
    out.append(("B-3", b3 + f"{100 * rd['after_22']:.1f}%", ok))
    roads = r["roads"]
    main = [roads.get(k, 0.0) for k in ("Mankind deck-out", "plot skull", "Invader deck-out")]
    rare = [roads.get(k, 0.0) for k in ("last hero", "W5 both decks")]
    ok = all(x >= 0.15 for x in main) and max(main) <= 0.60 and all(x < 0.02 for x in rare)
    text = ", ".join(f"{k} {100 * v:.1f}%" for k, v in sorted(roads.items()))
    out.append(("B-4", text, ok))
    p = r["plot"]
    ok = 4 <= p["failed_checks_per_game"] <= 9 and 0.35 <= p["dry_invader_turn_share"] <= 0.60
    text = f"{p['failed_checks_per_game']} failed checks/game; "
    out.append(("B-5", text + f"{100 * p['dry_invader_turn_share']:.1f}% dry turns", ok))
    shifts = r["opening_shift"]
    bad = [
        f"{t} {v['shift']:+.1f}"
        for t, v in shifts.items()
        if abs(v["shift"]) > (10 if v["copies"] >= 2 else 15)
    ]
    worst = max((abs(v["shift"]) for v in shifts.values()), default=0.0)
    text = f"largest shift ±{worst:.1f} points; outside: {', '.join(bad) or 'none'}"
    out.append(("B-6", text, not bad))
    played = r["cards_played_share"]
    copies = {t: v["copies"] for t, v in shifts.items()}
    from app.games.invaders.catalog import CATALOG

    for t in played:
        copies.setdefault(t, CATALOG.cards[t].copies)
    dead = [
        f"{t} {100 * v:.1f}%" for t, v in played.items() if v < (0.10 if copies[t] >= 2 else 0.05)
    ]
    low = min(played.values())
    out.append(("B-7", f"min {100 * low:.1f}%; below: {', '.join(dead) or 'none'}", not dead))
    st = r["strategies"]
    ok = all(v["share"] >= 0.25 and v["before_round_3_share"] <= 0.5 for v in st.values())
    lo = min(st.items(), key=lambda kv: kv[1]["share"])
    early = max(st.items(), key=lambda kv: kv[1]["before_round_3_share"])
    text = f"least enabled {lo[0]} {100 * lo[1]['share']:.0f}%; most often before round 3: "
    text += f"{early[0]} {100 * early[1]['before_round_3_share']:.0f}% of games"
    out.append(("B-8", text, ok))
    h = r["hero_losses_per_game"]
    out.append(("B-9", f"{h} hero losses/game", 0.1 <= h <= 1.0))
    o = r["ops_centre"]
    ok = o["share_of_games"] >= 0.30 and o["per_game"] <= 3
    text = f"used in {100 * o['share_of_games']:.1f}% of games, {o['per_game']} per game"
    out.append(("B-10", text, ok))
    return out


def print_criteria(r: dict[str, Any]) -> None:
    for key, measured, met in criteria(r):
        print(f"  {key:5} {'met ' if met else 'FAIL'} {measured}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--mankind", default="heuristic", choices=["random", "heuristic", "strong"])
    ap.add_argument("--invader", default="heuristic", choices=["random", "heuristic", "strong"])
    ap.add_argument("--first", default="mankind", choices=["mankind", "invader"])
    ap.add_argument("--weight", action="append", default=[], help="NAME=FACTOR for both bots")
    ap.add_argument("--set", action="append", default=[], help="SEAT.NAME=VALUE (tuning)")
    ap.add_argument("--iterations", type=int, default=200, help="strong: iterations per decision")
    ap.add_argument("--seconds", type=float, default=0.5, help="strong: seconds per decision")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON here")
    ap.add_argument("--criteria", type=Path, help="only print B-1…B-10 of a saved --json run")
    args = ap.parse_args()
    if args.criteria:
        print_criteria(json.loads(args.criteria.read_text()))
        return
    weights = [(k, float(v)) for k, v in (w.split("=") for w in args.weight)]
    overrides = [
        (k.split(".")[0], k.split(".")[1], float(v)) for k, v in (o.split("=") for o in args.set)
    ]
    cfg = Config(
        args.mankind, args.invader, args.first, weights, overrides, args.iterations, args.seconds
    )
    jobs = [(args.seed + i, cfg) for i in range(args.games)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        records = list(pool.map(_play_star, jobs, chunksize=4))
    r = report(records, cfg, time.perf_counter() - t0)
    print_report(r)
    print_criteria(r)
    if args.json:
        args.json.write_text(json.dumps(r, indent=1))


if __name__ == "__main__":
    main()
