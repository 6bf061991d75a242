"""kill -9 the server mid-game, start it again: every acknowledged action survives."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.client import Client
from tests.support.services import free_port, port_open

ROOT = Path(__file__).resolve().parents[2]


class ServerProcess:
    """``skirmish serve`` (with the test game registered) as a child process."""

    def __init__(self, database_url: str) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "SKIRMISH_DATABASE__URL": database_url,
            "SKIRMISH_ENVIRONMENT": "development",
        }
        command = [sys.executable, "-m", "tests.support.serve_countdown", "serve"]
        self.proc = subprocess.Popen(
            [*command, "--port", str(self.port)], cwd=ROOT, env=env, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 20
        while not port_open(self.port):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.kill()
                raise RuntimeError("skirmish serve did not start")
            time.sleep(0.05)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


@pytest.fixture
def database_file(tmp_path: Path) -> Iterator[str]:
    yield f"sqlite+aiosqlite:///{tmp_path / 'crash.db'}"


async def test_kill_9_then_restart_loses_no_acknowledged_action(database_file: str) -> None:
    first = ServerProcess(database_file)  # applies the migrations itself
    try:
        async with httpx.AsyncClient(base_url=first.http) as http:
            grant = await http.post("/api/matches", json={"game": "countdown", "seat": "north"})
            match_id, north_secret = grant.json()["match_id"], grant.json()["secret"]
            south_secret = (await http.post(f"/api/matches/{match_id}/seats", json={})).json()[
                "secret"
            ]
        north = await Client.open(first.ws(match_id), north_secret)
        south = await Client.open(first.ws(match_id), south_secret)
        acked = [await north.act(0, {"type": "take", "amount": 3})]
        await south.expect("state")
        acked.append(await south.act(1, {"type": "take", "amount": 3}))
        assert [a["version"] for a in acked] == [1, 2]
    finally:
        first.kill()

    second = ServerProcess(database_file)
    try:
        north = await Client.open(second.ws(match_id), north_secret, version=1)
        south = await Client.open(second.ws(match_id), south_secret, version=2)
        spectator = await Client.open(second.ws(match_id), None, version=0)
        caught_up = next(f for f in north.frames if f["type"] == "state")
        assert caught_up["version"] == 2 and caught_up["view"]["counter"] == 4
        assert [e["type"] for e in caught_up["events"]] == ["took", "drew"]
        acked.append(await north.act(2, {"type": "take", "amount": 1}))
        await south.expect("state")
        acked.append(await south.act(3, {"type": "take", "amount": 3}))
        assert (await spectator.expect("state"))["version"] == 3
        assert (await spectator.expect("state"))["view"]["winner"] == "south"
        async with httpx.AsyncClient(base_url=second.http) as http:
            log = (await http.get(f"/api/matches/{match_id}/log")).json()
        assert [e["seq"] for e in log["entries"]] == [a["version"] for a in acked] == [1, 2, 3, 4]
        assert [e["action"]["amount"] for e in log["entries"]] == [3, 3, 1, 3]
    finally:
        second.kill()
