"""The "Action path under load" section of docs/benchmarks.md, rendered from the stored
scenario medians in var/bench/ (bench/scenarios.py runs the scenarios)."""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "var" / "bench"
DOC = ROOT / "docs" / "benchmarks.md"
HEADER = "## Action path under load (bench/load.py, bench/scenarios.py)"

Figures = dict[str, Any]


# -- the document --------------------------------------------------------------------


def num(value: Any, digits: int = 1) -> str:
    """A figure for a table: at most ``digits`` decimals, no trailing zeros."""
    if isinstance(value, int | float):
        return f"{round(float(value), digits):g}" if abs(value) < 1e6 else f"{value:,.0f}"
    return "–" if value is None else str(value)


def lat(figures: Figures, cls: str) -> str:
    got = figures["latency_ms"].get(cls, {})
    if not got.get("n") or "p50" not in got:  # no samples in (some of) the repeats
        return "–"
    return " / ".join(num(got[k]) for k in ("p50", "p95", "p99", "max"))


def stage_cells(figures: Figures) -> str:
    """Each stage's mean / p95, then the means of the spans between stages."""
    stages = figures.get("stages_ms", {})
    cells = []
    for name in STAGE_NAMES:
        got = stages.get(name)
        cells.append(f"{num(got['mean'])} / {num(got['p95'])}" if got else "–")
    means = {name: stages[name]["mean"] for name in STAGE_NAMES if name in stages}
    for start, end in (("applied", "committed"), ("committed", "first_send")):
        gap = means.get(end, 0.0) - means.get(start, 0.0) if {start, end} <= set(means) else None
        cells.append(f"{gap:.1f}" if gap is not None else "–")
    return " | ".join(cells)


def gc_cells(figures: Figures) -> str:
    gc = figures.get("gc") or {}
    if not gc:
        return "– | –"
    if any(value < 0 for value in gc.values()):  # a worker's counters restarted (S4's kill)
        return "– (a worker restarted) | –"
    full = f"{num(gc['full_collections'])} / {num(gc['full_pause_ms'])}"
    return f"{full} | {num(gc['young_collections'])} / {num(gc['young_pause_ms'])}"


STAGE_NAMES = ("validated", "applied", "committed", "first_send", "last_send")

TARGETS: list[tuple[str, str, str, tuple[str, ...], float, bool]] = [
    # The targets of issue 7: label, scenario, deployment, path into the figures, target,
    # lower is better. S1N is S1 in the deployment (nginx, 2 workers, PG + Redis).
    (
        "S1 p99 action → last viewer (ms), nginx + 2 workers",
        "S1N",
        "skirmish",
        ("latency_ms", "all", "p99"),
        20,
        True,
    ),
    (
        "S1 p99 action → last viewer (ms), one worker on SQLite",
        "S1",
        "skirmish",
        ("latency_ms", "all", "p99"),
        20,
        True,
    ),
    (
        "RSS per connected socket (KB), nginx + 2 workers (S1N), second half of the sockets",
        "S1N",
        "skirmish",
        ("rss_kb_per_socket_marginal",),
        40,
        True,
    ),
    (
        "RSS per connected socket (KB), nginx + 2 workers (S1N), whole setup incl. warm-up",
        "S1N",
        "skirmish",
        ("rss_kb_per_socket",),
        40,
        True,
    ),
    (
        "RSS per connected socket (KB), one worker (S2)",
        "S2",
        "skirmish",
        ("rss_kb_per_socket",),
        40,
        True,
    ),
    (
        "S2 p99 delivery to a spectator (ms)",
        "S2",
        "skirmish",
        ("latency_ms", "spectator", "p99"),
        150,
        True,
    ),
    (
        "S4 slowest socket back in sync after kill -9 (ms)",
        "S4",
        "skirmish",
        ("reconnect_ms", "max"),
        5000,
        True,
    ),
]


def dig(figures: Figures, path: tuple[str, ...]) -> float | None:
    value: Any = figures
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return float(value) if isinstance(value, int | float) else None


def target_lines(stored: dict[str, Figures]) -> list[str]:
    lines = ["| target | goal | measured (median) | met |", "|---|---|---|---|"]
    for label, scenario, deploy, path, goal, lower in TARGETS:
        value = dig(stored.get(scenario, {}).get(deploy, {}), path)
        if value is None:
            lines.append(f"| {label} | {'≤' if lower else '≥'} {goal:g} | not run | – |")
            continue
        met = value <= goal if lower else value >= goal
        factor = value / goal if lower else goal / value if value else float("inf")
        verdict = "yes" if met else f"no ({factor:.1f}× off)"
        lines.append(f"| {label} | {'≤' if lower else '≥'} {goal:g} | {num(value)} | {verdict} |")
    for scenario in ("S1N", "S1", "S2"):
        sk = dig(stored.get(scenario, {}).get("skirmish", {}), ("deliveries_per_cpu_second",))
        base = dig(stored.get(scenario, {}).get("baseline", {}), ("deliveries_per_cpu_second",))
        if sk and base:
            ratio = sk / base
            verdict = "yes" if ratio >= 0.5 else f"no ({0.5 / ratio:.1f}× off)"
            lines.append(
                f"| {scenario} deliveries per CPU-second vs bare baseline | ≥ 50% | "
                f"{ratio:.0%} | {verdict} |"
            )
    for scenario in ("S1N", "S4"):
        gate = stored.get(scenario, {}).get("skirmish", {}).get("gate")
        if gate is not None:
            verdict = "yes" if gate.get("passed") else "no"
            lines.append(
                f"| {scenario} versions lost, duplicated or reordered | 0 | "
                f"dup {gate['duplicates']}, gaps {gate['gaps']}, "
                f"missing {gate['missing_at_end']} | {verdict} |"
            )
    return lines


def row(name: str, deploy: str, f: Figures) -> str:
    gate = (
        "pass"
        if f["gate"]["passed"]
        else (
            f"FAIL (dup {f['gate']['duplicates']}, gaps {f['gate']['gaps']}, "
            f"missing {f['gate']['missing_at_end']})"
        )
    )
    rss = ", ".join(num(x) for x in f.get("rss_mb", []))
    return (
        f"| {name} | {deploy} | {num(f['sockets'])} | {num(f['actions_per_second'])} | "
        f"{num(f['deliveries_per_second'])} | {lat(f, 'ack')} | {lat(f, 'opponent')} | "
        f"{lat(f, 'spectator')} | {lat(f, 'all')} | {num(f['server_cpu_share'], 2)} "
        f"(+{num(f.get('server_wait_share'), 2)} waiting) | "
        f"{num(f['deliveries_per_cpu_second'])} | {rss} | "
        f"{num(f['bytes_per_delivery_text'])} / {num(f['bytes_per_delivery_wire'])} | "
        f"{num(f['client_cpu_share'], 2)} | {gate} |"
    )


def render_doc(stored: dict[str, Figures]) -> str:
    lines = [HEADER, ""]
    meta = [s.get("meta", {}) for s in stored.values()]
    lines.append(
        "Measured end to end by `bench/load.py` (an asyncio WebSocket client: scripted Invaders "
        "players choosing from `view.legal_actions`, plus spectators) against real `skirmish "
        "serve` processes started by `bench/scenarios.py`. Everything runs on one 2-core "
        "machine shared with other jobs: the load client competes with the server for the "
        "same cores, so latencies are upper bounds. Each figure is the **median of the "
        "repeats**; latencies are client-side milliseconds (p50 / p95 / p99 / max). Server "
        'CPU share is CPU-seconds per wall second from /proc (1.0 = one core); "waiting" '
        "is the time its threads were runnable but had no core (schedstat): how much of a "
        "latency is the shared machine. Bytes per delivery: JSON text / on the wire (as "
        "received by the client; large frames are compressed once per audience, "
        "docs/protocol.md §3.4). The correctness gate checks that every viewer received every "
        "version exactly once and in order. RSS per socket: growth from before the matches "
        "were created to every socket connected, divided by the sockets (an upper bound: it "
        "includes the matches' states)."
    )
    lines.append("")
    for name, figures in sorted(stored.items()):
        m = figures.get("meta", {})
        lines.append(
            f"- {name}: {m.get('date', '?')}, load average before/after {m.get('load_before')}"
            f" / {m.get('load_after')}, {m.get('repeats')} repeats, {m.get('scaled', '')}"
        )
    if meta:
        lines.append(f"- Python {platform.python_version()}, {os.cpu_count()} cores")
    lines.append("")
    lines.append(
        "| scenario | deployment | sockets | actions/s | deliveries/s | ack ms | opponent ms "
        "| spectator ms | all viewers ms | server CPU | deliveries/CPU-s | RSS MB/worker "
        "| bytes/delivery | client CPU | gate |"
    )
    lines.append("|" + "---|" * 15)
    for name, figures in sorted(stored.items()):
        for deploy, f in figures.items():
            if deploy == "meta":
                continue
            lines.append(row(name, deploy, f))
    lines.append("")
    lines.append(
        "Server-side stages (`skirmish_action_stage_seconds`: from the moment the worker "
        "received the act frame, cumulative; `_before` runs predate the `validated` stage and "
        "count from validation; mean / p95 in ms, p95 interpolated within Prometheus buckets). "
        "The two spans are differences of means: committed − applied (the write transaction, "
        "incl. waiting for the writer's turn) and first send − committed (notify, the room's "
        "hand-over of the new step, rendering and compressing). Garbage collection inside "
        "the window, all workers: full (generation 2) collections and their total wall ms, "
        "then the younger ones (`skirmish_gc_pause_seconds`, app/gc_freeze.py; – where the "
        "run predates that metric):"
    )
    lines.append("")
    lines.append(
        "| scenario | deployment | validated | applied | committed | first send | last send "
        "| commit span (mean) | hand-over to fan-out (mean) | GC full: n / ms | GC young: n / ms |"
    )
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, figures in sorted(stored.items()):
        for deploy, f in figures.items():
            if deploy != "meta" and f.get("stages_ms"):
                lines.append(f"| {name} | {deploy} | {stage_cells(f)} | {gc_cells(f)} |")
    lines.append("")
    for name, figures in sorted(stored.items()):
        sk, base = figures.get("skirmish"), figures.get("baseline")
        if (
            sk
            and base
            and sk.get("deliveries_per_cpu_second")
            and base.get("deliveries_per_cpu_second")
        ):
            ratio = sk["deliveries_per_cpu_second"] / base["deliveries_per_cpu_second"]
            lines.append(
                f"- {name}: Skirmish delivers {sk['deliveries_per_cpu_second']:g} frames per "
                f"server CPU-second, the bare baseline {base['deliveries_per_cpu_second']:g}: "
                f"**{ratio:.0%}** of the baseline."
            )
        if sk and sk.get("reconnect_ms", {}).get("n"):
            r = sk["reconnect_ms"]
            lines.append(
                f"- {name}: {num(r['n'])} reconnections; socket lost → caught up p50 "
                f"{num(r['p50'])} ms, p95 {num(r['p95'])} ms, max {num(r['max'])} ms; dropped by "
                f"the server {num(sk['gate']['dropped_by_server'])}."
            )
    lines.append("")
    lines.append("Targets of issue 7 against the untagged (current) runs:")
    lines.append("")
    lines.extend(target_lines(stored))
    lines.append("")
    extra = [f for f in stored.values() if f.get("meta", {}).get("notes")]
    for figures in extra:
        lines.extend(f"- {n}" for n in figures["meta"]["notes"])
    return "\n".join(lines).rstrip() + "\n"


def write_doc() -> None:
    stored = {p.stem: json.loads(p.read_text()) for p in sorted(RESULTS.glob("S*.json"))}
    section = render_doc(stored)
    text = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    start = text.find(HEADER)
    if start < 0:
        text = text.rstrip() + "\n\n" + section
    else:
        end = text.find("\n## ", start + len(HEADER))
        tail = text[end + 1 :] if end >= 0 else ""
        text = text[:start] + section + ("\n" + tail if tail else "")
    DOC.write_text(text)
    print(f"wrote {DOC}")
