"""The self-play report: win rates with intervals, game length, how games end, and the
balance criteria B-1 … B-10 of invaders-cards.md §3.7 (bench/selfplay.py plays the games)."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from app.games import invaders as game

if TYPE_CHECKING:
    from bench.selfplay import Config, GameRecord


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


def paired_se(a: Sequence[int], b: Sequence[int]) -> float:
    """Standard error of the mean per-seed difference b − a (same seeds)."""
    d = [y - x for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / max(1, n - 1)
    return math.sqrt(var / n)


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
    by_turn = _failed_by_invader_turn(records)
    if by_turn:
        out["plot"]["failed_by_invader_turn"] = by_turn
    out["hero_losses_per_game"] = round(sum(r.hero_losses for r in records) / n, 3)
    out["ops_centre"] = {
        "per_game": round(sum(r.ops_centre for r in records) / n, 2),
        "share_of_games": round(sum(r.ops_centre > 0 for r in records) / n, 4),
    }
    out["strategies"] = _strategies(records)
    out["cards_played_share"] = _played(records)
    out["opening_shift"] = _opening(records)
    return out


FIRST_CHECKS = 4
"""Plot checks read by turn: B-2's first-move edge shows in the Invader's first four turns
(docs/balance.md §44.3)."""


def _failed_by_invader_turn(records: list[GameRecord]) -> list[float]:
    """Share of failed plot checks at each of the Invader's first turns, over the games
    saved with their checks (none: empty)."""
    kept = [r.plot_checks for r in records if r.plot_checks]
    out = []
    for i in range(FIRST_CHECKS):
        reached = [checks[i] for checks in kept if len(checks) > i]
        if reached:
            out.append(round(reached.count("-") / len(reached), 4))
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


def _per_seat(c: dict[str, Any]) -> str:
    """Per-seat iteration budgets, when a run gives the two seats different ones."""
    seats = c.get("seat_iterations") or {}
    return "".join(f" ({seat} {n})" for seat, n in sorted(seats.items()))


def print_report(r: dict[str, Any]) -> None:
    c = r["config"]
    print(
        f"{r['games']} games, mankind={c['mankind']} invader={c['invader']} first={c['first']} "
        f"weights={c['weights'] or 'default'} set={c['overrides'] or '-'} "
        f"budget={c['iterations']} it{_per_seat(c)}/{c['seconds']} s "
        f"({r['wall_seconds']} s wall)"
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
