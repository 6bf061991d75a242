"""Fixtures of the reliability suite: the ballast game and a place to record figures.

Figures (latencies, recovery times, counts) are printed and appended as JSON lines to
``var/reliability/figures.jsonl``; docs/reliability.md quotes them.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games import registry
from tests.realtime.conftest import Table, open_table
from tests.reliability import ballast
from tests.support.server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "var" / "reliability" / "figures.jsonl"

Record = Callable[..., None]


@pytest.fixture(scope="session", autouse=True)
def ballast_registered(countdown_registered: None) -> Iterator[None]:
    registry.register(ballast)
    yield
    registry.unregister(ballast.NAME)


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Iterator[Record]:
    """``figures(name=value, ...)``: record measured figures of this test."""
    found: dict[str, Any] = {}

    def record(**values: Any) -> None:
        found.update(values)

    yield record
    if found:
        FIGURES.parent.mkdir(parents=True, exist_ok=True)
        line = {"test": request.node.nodeid, "at": time.strftime("%Y-%m-%dT%H:%M:%S"), **found}
        with FIGURES.open("a") as out:
            out.write(json.dumps(line) + "\n")
        print(f"\nFIGURES {request.node.name}: {json.dumps(found)}")


@pytest.fixture
async def table(server: LiveServer) -> Table:
    """A started countdown match from 10 on a live server (north to move)."""
    return await open_table(server)
