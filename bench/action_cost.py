"""CPU per action on the server's hot path, in process: the service, rendering, compression.

Why in process: the load scenarios measure the whole path through sockets on a shared
2-core machine, where the client and other jobs blur the figures. This one plays real
Invaders matches through ``MatchService.act`` on a fresh SQLite file (or PostgreSQL) and
times each stage with ``time.process_time`` (the process's CPU, the database thread
included), so the split of the cost is stable even when the machine is busy.

    python bench/action_cost.py                 # SQLite, 30 matches, 1,500 actions
    python bench/action_cost.py --postgresql    # the test database on 127.0.0.1
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.db.migrate import upgrade_head
from app.db.session import create_engine, create_session_factory
from app.games.base import Viewer
from app.matches.service import MatchService
from app.realtime.compression import Encoded
from app.realtime.hub import render

AUDIENCES: tuple[Viewer, ...] = ("mankind", "invader", None)


async def play(url: str, matches: int, actions: int, seed: int) -> dict[str, list[float]]:
    """Per action, the CPU milliseconds of each stage."""
    engine = create_engine(url)

    async def notify(_match: str, _version: int) -> None:
        return None

    service = MatchService(create_session_factory(engine), "bench-pepper", notify)
    rng = random.Random(seed)
    live = []
    for _ in range(matches):
        grant = await service.create_match("invaders", {}, "mankind", None)
        await service.join_match(grant.match_id, None, None)
        live.append(grant.match_id)
    costs: dict[str, list[float]] = {"act": [], "render 3 audiences": [], "compress 3": []}
    positions = {m: await service.position(m) for m in live}
    done = 0
    while done < actions and live:
        for match_id in list(live):
            position = positions[match_id]
            game, state = position.game, position.state
            if game.outcome(state) is not None:
                live.remove(match_id)
                continue
            seat = next(iter(game.active_seats(state)))
            action: Any = rng.choice(game.legal_actions(state, seat))
            started = time.process_time()
            ack = await service.act(match_id, seat, f"a{done}", position.version, action)
            costs["act"].append(time.process_time() - started)
            progress = await service.progress(position, ack.version)
            step = progress.steps[-1]
            started = time.process_time()
            frames = [Encoded(render(game, step, viewer)) for viewer in AUDIENCES]
            costs["render 3 audiences"].append(time.process_time() - started)
            started = time.process_time()
            for frame in frames:
                frame.for_socket(compress=True)
            costs["compress 3"].append(time.process_time() - started)
            positions[match_id] = position.__class__(
                match_id, game, step.version, progress.status, step.state
            )
            done += 1
    await engine.dispose()
    return {k: [1000 * v for v in values] for k, values in costs.items()}


def report(name: str, costs: dict[str, list[float]]) -> None:
    total = sum(statistics.mean(v) for v in costs.values())
    print(f"{name}: {len(costs['act'])} actions; CPU ms per action (mean / median):")
    for stage, values in costs.items():
        mean, median = statistics.mean(values), statistics.median(values)
        print(f"  {stage:20s} {mean:6.2f} / {median:6.2f}  ({mean / total:.0%})")
    print(f"  {'total':20s} {total:6.2f}  → at most {1000 / total:.0f} actions/s per core")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgresql", action="store_true")
    args = parser.parse_args(argv)
    if args.postgresql:
        from bench.deployment import postgres_database

        with postgres_database() as url:
            upgrade_head(url)
            costs = asyncio.run(play(url, args.matches, args.actions, args.seed))
        report("PostgreSQL", costs)
        return
    with tempfile.TemporaryDirectory(prefix="bench-cost-") as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/bench.db"
        upgrade_head(url)
        costs = asyncio.run(play(url, args.matches, args.actions, args.seed))
    report("SQLite", costs)


if __name__ == "__main__":
    main()
