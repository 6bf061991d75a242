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
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import deployment
from bench.benchmarks_doc import RESULTS, write_doc
from bench.deployment import Process
from bench.load import LoadConfig, render_text, run_load

Figures = dict[str, Any]


# -- running -------------------------------------------------------------------------


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


APP_COMPRESSION = [True]
"""Clients ask for frames compressed once per audience (``--no-app-compression`` clears it)."""


def run_one(config: LoadConfig, disrupt: Callable[[], Awaitable[None]] | None = None) -> Figures:
    config = replace(config, app_compression=APP_COMPRESSION[0])
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
    # The repeats share one server: from the second on, its sockets reuse memory the first
    # run's freed, so only the first run says what a socket costs a fresh worker.
    for key in ("rss_kb_per_socket", "rss_kb_per_socket_marginal"):
        figures[key] = runs[0].get(key)
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


def against_baseline(
    workdir: Path, name: str, config: LoadConfig, skirmish: Figures, times: int, deflate: bool
) -> Figures:
    """The bare baseline under the same load, its frames as large as Skirmish's were."""
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
        return repeat(bare_config, times)
    finally:
        base.stop()


def with_baseline(name: str, config: LoadConfig, times: int, deflate: bool = True) -> Figures:
    """Skirmish (single worker, SQLite) and the bare baseline, same load, same run."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as tmp:
        workdir = Path(tmp)
        server = single_worker(workdir, sqlite_url(workdir), deflate)
        try:
            skirmish = repeat(against_skirmish(server, replace(config, label=name)), times)
        finally:
            server.stop()
        bare = against_baseline(workdir, name, config, skirmish, times, deflate)
    return {"skirmish": skirmish, "baseline": bare}


def scenario_s1(args: argparse.Namespace) -> Figures:
    config = LoadConfig(
        url="", matches=args.s1_matches, spectators=10, rate=1.0, seconds=args.seconds, warmup=5.0
    )
    return with_baseline("S1", config, args.repeat, args.permessage_deflate)


def scenario_s2(args: argparse.Namespace) -> Figures:
    config = LoadConfig(
        url="", matches=1, spectators=args.s2_spectators, rate=2.0, seconds=args.seconds, warmup=5.0
    )
    return with_baseline("S2", config, args.repeat, args.permessage_deflate)


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
        server = single_worker(workdir, sqlite_url(workdir), args.permessage_deflate)
        try:
            return {"skirmish": repeat(against_skirmish(server, config), args.repeat)}
        finally:
            server.stop()


@contextlib.contextmanager
def behind_nginx(args: argparse.Namespace, name: str) -> Iterator[tuple[Process, list[Process]]]:
    """The production shape: nginx → 2 × ``skirmish serve`` on PostgreSQL + Redis."""
    with (
        tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as tmp,
        deployment.postgres_database() as url,
    ):
        workdir = Path(tmp)
        bus = deployment.redis_bus()
        workers: list[Process] = []
        proxy = None
        try:
            for index in (1, 2):  # one after the other: the first one migrates
                worker = deployment.skirmish_worker(
                    workdir, url, f"worker{index}", args.permessage_deflate, bus, True
                )
                workers.append(worker.start())
            upstreams = [f"127.0.0.1:{w.port}" for w in workers]
            proxy = deployment.nginx_proxy(workdir, upstreams).start(ready_path=None)
            time.sleep(0.5)
            yield proxy, workers
        finally:
            if proxy is not None:
                proxy.stop()
            for worker in workers:
                worker.stop()


def against_workers(config: LoadConfig, proxy: Process, workers: list[Process]) -> LoadConfig:
    return replace(
        config,
        url=proxy.http,
        pids=[w.pid for w in workers],
        metrics_urls=[w.http + "/metrics" for w in workers],
    )


def scenario_s1n(args: argparse.Namespace) -> Figures:
    """S1 as the issue states it: through nginx, 2 workers, PostgreSQL + Redis; then the
    bare baseline (one process: the ratio compares deliveries per CPU-second)."""
    config = LoadConfig(
        url="", matches=args.s1_matches, spectators=10, rate=1.0, seconds=args.seconds, warmup=5.0
    )
    runs = []
    for i in range(args.repeat):
        with behind_nginx(args, "S1N") as (proxy, workers):
            run = replace(against_workers(config, proxy, workers), seed=1 + i, label="S1N")
            runs.append(run_one(run))
    skirmish = median_of(runs)
    skirmish["gate"]["passed"] = all(r["gate"]["passed"] for r in runs)
    with tempfile.TemporaryDirectory(prefix="bench-S1N-") as tmp:
        baseline = against_baseline(
            Path(tmp), "S1N", config, skirmish, args.repeat, args.permessage_deflate
        )
    return {"skirmish": skirmish, "baseline": baseline}


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
        with behind_nginx(args, "S4") as (proxy, workers):
            victim = workers[0]

            async def kill_first(victim: Process = victim) -> None:
                victim.kill9()

            run = replace(against_workers(config, proxy, workers), seed=1 + i)
            runs.append(run_one(run, kill_first))
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
        server = single_worker(workdir, sqlite_url(workdir), args.permessage_deflate)
        try:
            out["sqlite"] = repeat(
                against_skirmish(server, replace(config, label="S5-sqlite")), args.repeat
            )
        finally:
            server.stop()
        with deployment.postgres_database() as url:
            server = single_worker(workdir, url, args.permessage_deflate)
            try:
                pg = replace(config, label="S5-postgresql")
                out["postgresql"] = repeat(against_skirmish(server, pg), args.repeat)
            finally:
                server.stop()
    return out


SCENARIOS: dict[str, Callable[[argparse.Namespace], Figures]] = {
    "S1": scenario_s1,
    "S1N": scenario_s1n,
    "S2": scenario_s2,
    "S3": scenario_s3,
    "S4": scenario_s4,
    "S5": scenario_s5,
}

SCALE = {
    "S1": "300 matches × (2 seats + 10 spectators) at 1 action/s per match; one worker, SQLite",
    "S1N": "S1 through nginx → 2 workers on PostgreSQL + Redis (the issue's deployment)",
    "S2": "1 match × (2 seats + 1,000 spectators) at 2 actions/s",
    "S3": "S1's shape; every socket closes at mid-run and reconnects with its last version",
    "S4": "2 workers behind nginx, PostgreSQL + Redis; kill -9 of worker 1 at 1/3 of the run",
    "S5": "closed loop (each match acts as soon as its view allows), no spectators",
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="load scenarios S1–S5 (issue 7)")
    parser.add_argument("scenarios", nargs="*", choices=[*SCENARIOS, []], metavar="SCENARIO")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--s1-matches", type=int, default=300)
    parser.add_argument("--s2-spectators", type=int, default=1000)
    parser.add_argument("--s4-matches", type=int, default=40)
    parser.add_argument("--s5-matches", type=int, default=40)
    parser.add_argument(
        "--permessage-deflate", action="store_true", help="servers compress per socket too"
    )
    parser.add_argument(
        "--no-app-compression",
        action="store_true",
        help="clients do not ask for frames compressed per audience (needed for older trees)",
    )
    parser.add_argument("--tag", default="", help="stored as <scenario><tag>.json")
    parser.add_argument("--note", action="append", default=[])
    parser.add_argument("--doc", action="store_true", help="rewrite docs/benchmarks.md")
    parser.add_argument("--app-root", type=Path, help="run servers from this copy of the tree")
    args = parser.parse_args(argv)
    if args.app_root is not None:
        deployment.APP_ROOT = args.app_root.resolve()
    APP_COMPRESSION[0] = not args.no_app_compression
    RESULTS.mkdir(parents=True, exist_ok=True)
    for name in args.scenarios:
        before = load_average()
        figures = SCENARIOS[name](args)
        scaled = SCALE[name]
        if name in ("S1", "S1N", "S3") and args.s1_matches != 300:
            scaled += f"; **scaled to {args.s1_matches} matches**"
        if name == "S2" and args.s2_spectators != 1000:
            scaled += f"; **scaled to {args.s2_spectators} spectators**"
        if name == "S4":
            scaled += f"; {args.s4_matches} matches × (2 + 4 spectators)"
        if name == "S5":
            scaled += f"; {args.s5_matches} matches"
        scaled += (
            f"; {args.seconds:g} s runs"
            + ("; permessage-deflate on" if args.permessage_deflate else "")
            + ("; app compression off" if args.no_app_compression else "")
        )
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
