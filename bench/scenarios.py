"""Load scenarios S1–S5 of issue 7: start the servers, drive them, write the figures.

Why a runner: the figures only mean something side by side (Skirmish against the bare
baseline in the same run, SQLite against PostgreSQL on the same load), on a machine whose
load is written down with them. Each scenario starts its own processes on loopback, runs
``--repeat`` times (medians are reported), stops everything, and stores its medians in
``var/bench/<scenario>.json``; ``--doc`` rewrites the "Action path under load" section of
docs/benchmarks.md from every stored scenario, leaving the other sections alone.

    python bench/scenarios.py S1 --s1-matches 60 --repeat 3
    python bench/scenarios.py S2 S3 S5 --repeat 3
    python bench/scenarios.py S4 --repeat 1
    python bench/scenarios.py --doc
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import deployment
from bench.load import LoadConfig, render_text, run_load

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "var" / "bench"
DOC = ROOT / "docs" / "benchmarks.md"
HEADER = "## Action path under load (bench/load.py, bench/scenarios.py)"

Figures = dict[str, Any]


# -- running -------------------------------------------------------------------------


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run_one(config: LoadConfig, disrupt: Callable[[], Awaitable[None]] | None = None) -> Figures:
    result = asyncio.run(run_load(config, disrupt))
    print(render_text(result), flush=True)
    return asdict(result)


def median_of(runs: list[Figures]) -> Figures:
    """Leaf by leaf: the median of every number across repeats; other leaves from run 1."""
    first = runs[0]
    out: Figures = {}
    for key, value in first.items():
        values = [r.get(key) for r in runs]
        if isinstance(value, dict):
            out[key] = median_of([v for v in values if isinstance(v, dict)])
        elif isinstance(value, bool):
            out[key] = all(values)
        elif isinstance(value, int | float) and all(isinstance(v, int | float) for v in values):
            out[key] = round(statistics.median(float(v) for v in values if v is not None), 2)
        elif isinstance(value, list) and value and all(isinstance(x, int | float) for x in value):
            out[key] = [round(statistics.median(x), 1) for x in zip(*values, strict=False)]
        else:
            out[key] = value
    return out


def repeat(config: LoadConfig, times: int, **kw: Any) -> Figures:
    runs = [run_one(replace(config, seed=config.seed + i), **kw) for i in range(times)]
    figures = median_of(runs)
    figures["repeats"] = times
    figures["gate"]["passed"] = all(r["gate"]["passed"] for r in runs)
    figures["gate"]["examples"] = [e for r in runs for e in r["gate"]["examples"]][:5]
    return figures


def single_worker(workdir: Path, url: str, deflate: bool = True) -> deployment.Process:
    return deployment.skirmish_worker(workdir, url, deflate=deflate).start()


def sqlite_url(workdir: Path, name: str = "bench") -> str:
    return f"sqlite+aiosqlite:///{workdir}/{name}.db"


def against_skirmish(server: deployment.Process, config: LoadConfig) -> LoadConfig:
    return replace(
        config, url=server.http, pids=[server.pid], metrics_urls=[server.http + "/metrics"]
    )


def with_baseline(name: str, config: LoadConfig, times: int, deflate: bool = True) -> Figures:
    """Skirmish (single worker, SQLite) and the bare baseline, same load, same run."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as tmp:
        workdir = Path(tmp)
        server = single_worker(workdir, sqlite_url(workdir), deflate)
        try:
            skirmish = repeat(against_skirmish(server, replace(config, label=name)), times)
        finally:
            server.stop()
        view_bytes = int(skirmish["bytes_per_delivery_text"] or 8000)
        base = deployment.baseline_server(workdir, view_bytes, deflate).start()
        try:
            bare_config = replace(
                config,
                url=base.http,
                pids=[base.pid],
                metrics_urls=[],
                label=f"{name}-baseline",
                replace_finished=False,
            )
            bare = repeat(bare_config, times)
        finally:
            base.stop()
    return {"skirmish": skirmish, "baseline": bare}


def scenario_s1(args: argparse.Namespace) -> Figures:
    config = LoadConfig(
        url="", matches=args.s1_matches, spectators=10, rate=1.0, seconds=args.seconds, warmup=5.0
    )
    return with_baseline("S1", config, args.repeat, not args.no_deflate)


def scenario_s2(args: argparse.Namespace) -> Figures:
    config = LoadConfig(
        url="", matches=1, spectators=args.s2_spectators, rate=2.0, seconds=args.seconds, warmup=5.0
    )
    return with_baseline("S2", config, args.repeat, not args.no_deflate)


def scenario_s3(args: argparse.Namespace) -> Figures:
    """Every socket closes at once mid-run and reconnects with its last version."""
    config = LoadConfig(
        url="",
        matches=args.s1_matches,
        spectators=10,
        rate=1.0,
        seconds=args.seconds,
        warmup=3.0,
        storm_at=args.seconds / 2,
        label="S3",
    )
    with tempfile.TemporaryDirectory(prefix="bench-S3-") as tmp:
        workdir = Path(tmp)
        server = single_worker(workdir, sqlite_url(workdir), not args.no_deflate)
        try:
            return {"skirmish": repeat(against_skirmish(server, config), args.repeat)}
        finally:
            server.stop()


def scenario_s4(args: argparse.Namespace) -> Figures:
    """Two workers behind nginx on PostgreSQL + Redis; kill -9 one of them mid-run."""
    config = LoadConfig(
        url="",
        matches=args.s4_matches,
        spectators=4,
        rate=1.0,
        seconds=args.seconds,
        warmup=3.0,
        disrupt_at=args.seconds / 3,
        label="S4",
    )
    runs = []
    for i in range(args.repeat):
        with (
            tempfile.TemporaryDirectory(prefix="bench-S4-") as tmp,
            deployment.postgres_database() as url,
        ):
            workdir = Path(tmp)
            bus = deployment.redis_bus()
            workers = []
            proxy = None
            try:
                for index in (1, 2):  # one after the other: the first one migrates
                    worker = deployment.skirmish_worker(
                        workdir, url, f"worker{index}", not args.no_deflate, bus, True
                    )
                    workers.append(worker.start())
                upstreams = [f"127.0.0.1:{w.port}" for w in workers]
                proxy = deployment.nginx_proxy(workdir, upstreams).start(ready_path=None)
                time.sleep(0.5)

                victim = workers[0]

                async def kill_first(victim: deployment.Process = victim) -> None:
                    victim.kill9()

                run = replace(
                    config,
                    url=proxy.http,
                    pids=[w.pid for w in workers],
                    seed=1 + i,
                    metrics_urls=[w.http + "/metrics" for w in workers],
                )
                runs.append(run_one(run, kill_first))
            finally:
                if proxy is not None:
                    proxy.stop()
                for worker in workers:
                    worker.stop()
    figures = median_of(runs)
    figures["repeats"] = len(runs)
    figures["gate"]["passed"] = all(r["gate"]["passed"] for r in runs)
    return {"skirmish": figures}


def scenario_s5(args: argparse.Namespace) -> Figures:
    """Commit cost: the same closed-loop load (no spectators) on SQLite, then PostgreSQL."""
    config = LoadConfig(
        url="", matches=args.s5_matches, spectators=0, rate=0.0, seconds=args.seconds, warmup=3.0
    )
    out: Figures = {}
    with tempfile.TemporaryDirectory(prefix="bench-S5-") as tmp:
        workdir = Path(tmp)
        server = single_worker(workdir, sqlite_url(workdir), not args.no_deflate)
        try:
            out["sqlite"] = repeat(
                against_skirmish(server, replace(config, label="S5-sqlite")), args.repeat
            )
        finally:
            server.stop()
        with deployment.postgres_database() as url:
            server = single_worker(workdir, url, not args.no_deflate)
            try:
                pg = replace(config, label="S5-postgresql")
                out["postgresql"] = repeat(against_skirmish(server, pg), args.repeat)
            finally:
                server.stop()
    return out


SCENARIOS: dict[str, Callable[[argparse.Namespace], Figures]] = {
    "S1": scenario_s1,
    "S2": scenario_s2,
    "S3": scenario_s3,
    "S4": scenario_s4,
    "S5": scenario_s5,
}

SCALE = {
    "S1": "300 matches × (2 seats + 10 spectators) at 1 action/s per match",
    "S2": "1 match × (2 seats + 1,000 spectators) at 2 actions/s",
    "S3": "S1's shape; every socket closes at mid-run and reconnects with its last version",
    "S4": "2 workers behind nginx, PostgreSQL + Redis; kill -9 of worker 1 at 1/3 of the run",
    "S5": "closed loop (each match acts as soon as its view allows), no spectators",
}


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


STAGE_NAMES = ("validated", "applied", "committed", "first_send", "last_send")

TARGETS: list[tuple[str, str, str, tuple[str, ...], float, bool]] = [
    # label, scenario, deployment, path into the figures, target, lower is better
    ("S1 p95 action → ack (ms)", "S1", "skirmish", ("latency_ms", "ack", "p95"), 50, True),
    (
        "S1 p95 action → all deliveries (ms)",
        "S1",
        "skirmish",
        ("latency_ms", "all", "p95"),
        150,
        True,
    ),
    (
        "S2 p95 delivery to a spectator (ms)",
        "S2",
        "skirmish",
        ("latency_ms", "spectator", "p95"),
        250,
        True,
    ),
    (
        "S2 p95 delivery to a spectator, per-message-deflate off (ms)",
        "S2_nodeflate",
        "skirmish",
        ("latency_ms", "spectator", "p95"),
        250,
        True,
    ),
    (
        "accepted actions/s, SQLite, one worker (S5)",
        "S5",
        "sqlite",
        ("actions_per_second",),
        1000,
        False,
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
    for scenario in ("S1", "S2", "S1_nodeflate", "S2_nodeflate"):
        sk = dig(stored.get(scenario, {}).get("skirmish", {}), ("deliveries_per_cpu_second",))
        base = dig(stored.get(scenario, {}).get("baseline", {}), ("deliveries_per_cpu_second",))
        if sk and base:
            ratio = sk / base
            verdict = "yes" if ratio >= 0.25 else f"no ({0.25 / ratio:.1f}× off)"
            lines.append(
                f"| {scenario} deliveries per CPU-second vs bare baseline | ≥ 25% | "
                f"{ratio:.0%} | {verdict} |"
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
        "received by the client, after "
        "per-message-deflate). The correctness gate checks that every viewer received every "
        "version exactly once and in order."
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
        "DB read of the new step, rendering):"
    )
    lines.append("")
    lines.append(
        "| scenario | deployment | validated | applied | committed | first send | last send "
        "| commit span (mean) | hand-over to fan-out (mean) |"
    )
    lines.append("|---|---|---|---|---|---|---|---|---|")
    for name, figures in sorted(stored.items()):
        for deploy, f in figures.items():
            if deploy != "meta" and f.get("stages_ms"):
                lines.append(f"| {name} | {deploy} | {stage_cells(f)} |")
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="load scenarios S1–S5 (issue 7)")
    parser.add_argument("scenarios", nargs="*", choices=[*SCENARIOS, []], metavar="SCENARIO")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--s1-matches", type=int, default=300)
    parser.add_argument("--s2-spectators", type=int, default=1000)
    parser.add_argument("--s4-matches", type=int, default=40)
    parser.add_argument("--s5-matches", type=int, default=40)
    parser.add_argument("--no-deflate", action="store_true", help="server without deflate")
    parser.add_argument("--tag", default="", help="stored as <scenario><tag>.json")
    parser.add_argument("--note", action="append", default=[])
    parser.add_argument("--doc", action="store_true", help="rewrite docs/benchmarks.md")
    parser.add_argument("--app-root", type=Path, help="run servers from this copy of the tree")
    args = parser.parse_args(argv)
    if args.app_root is not None:
        deployment.APP_ROOT = args.app_root.resolve()
    RESULTS.mkdir(parents=True, exist_ok=True)
    for name in args.scenarios:
        before = load_average()
        figures = SCENARIOS[name](args)
        scaled = SCALE[name]
        if name in ("S1", "S3") and args.s1_matches != 300:
            scaled += f"; **scaled to {args.s1_matches} matches**"
        if name == "S2" and args.s2_spectators != 1000:
            scaled += f"; **scaled to {args.s2_spectators} spectators**"
        if name == "S4":
            scaled += f"; {args.s4_matches} matches × (2 + 4 spectators)"
        if name == "S5":
            scaled += f"; {args.s5_matches} matches"
        scaled += f"; {args.seconds:g} s runs" + ("; deflate off" if args.no_deflate else "")
        figures["meta"] = {
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "load_before": before,
            "load_after": load_average(),
            "repeats": args.repeat,
            "scaled": scaled,
            "notes": args.note,
        }
        (RESULTS / f"{name}{args.tag}.json").write_text(json.dumps(figures, indent=2))
    if args.doc:
        write_doc()


if __name__ == "__main__":
    main()
