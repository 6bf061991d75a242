"""The load harness at a trivial size: it plays, measures, and its correctness gate holds.

Correctness only, never speed (DESIGN §5: benchmarks assert nothing about figures). The
gate is the part worth testing: every viewer must receive every version exactly once,
in order, against a real server — and the bare baseline must speak enough of the
protocol for the same harness to drive it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
import uvicorn

from bench.baseline import board_text, create_app
from bench.load import LoadConfig, Result, run_load
from tests.support.server import LiveServer
from tests.support.services import free_port

pytestmark = pytest.mark.timeout(120)


def tiny(url: str, **kw: object) -> LoadConfig:
    """1 match, 2 seats + 1 spectator, 5 actions/s for 3 s: a few actions, a few seconds."""
    config = LoadConfig(url=url, matches=1, spectators=1, rate=5.0, seconds=3.0, warmup=0.5)
    for key, value in kw.items():
        setattr(config, key, value)
    return config


def assert_gate(result: Result) -> None:
    assert result.gate["passed"], result.gate
    assert result.gate["duplicates"] == result.gate["gaps"] == 0
    assert result.gate["missing_at_end"] == 0
    assert result.actions >= 3, result
    assert result.deliveries >= 2 * result.actions - 2  # the opponent and the spectator
    for cls in ("ack", "opponent", "spectator", "all"):
        assert result.latency_ms[cls]["n"] > 0, cls


async def test_harness_plays_invaders_and_every_viewer_sees_every_version(
    serve: Callable[..., LiveServer],
) -> None:
    server = serve(rate_per_second=1000, rate_burst=1000, ip_rate_per_second=1000)
    config = tiny(server.http, metrics_urls=[server.http + "/metrics"])
    result = await run_load(config)
    assert_gate(result)
    assert result.errors == {}
    assert {"applied", "committed", "first_send", "last_send"} <= set(result.stages_ms)


async def test_gate_holds_across_a_reconnect_storm(serve: Callable[..., LiveServer]) -> None:
    server = serve(rate_per_second=1000, rate_burst=1000, ip_rate_per_second=1000)
    result = await run_load(tiny(server.http, seconds=4.0, storm_at=2.0))
    assert_gate(result)
    assert result.reconnect_ms["n"] == 3  # both seats and the spectator came back


@pytest.fixture
def baseline() -> Iterator[str]:
    port = free_port()
    config = uvicorn.Config(create_app(board_text(2000)), port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


async def test_the_same_harness_drives_the_bare_baseline(baseline: str) -> None:
    result = await run_load(tiny(baseline, replace_finished=False))
    assert_gate(result)
