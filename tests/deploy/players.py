"""Drive a match over real sockets: choose from each view's legal actions, check delivery."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.deploy.stack import Stack
from tests.observability.scrape import sample
from tests.support.client import JSON, Client

MAX_ACTIONS = 2000  # an Invaders game takes 100-200; this only bounds a broken one


async def worker_connections(stack: Stack) -> list[int]:
    """``skirmish_connections`` of each worker, scraped from its own port (not the proxy)."""
    counts = []
    async with httpx.AsyncClient(timeout=2) as http:
        for worker in stack.workers:
            text = (await http.get(f"{worker.http}/metrics")).text
            counts.append(int(sample(text, "skirmish_connections")))
    return counts


async def settled_counts(stack: Stack, total: int) -> list[int]:
    """Worker connection counts once they add up to ``total`` sockets."""
    async with asyncio.timeout(5):
        while sum(counts := await worker_connections(stack)) != total:
            await asyncio.sleep(0.02)
    return counts


@dataclass
class Table:
    """A match seen through sockets opened via the proxy, each on a known worker."""

    stack: Stack
    match_id: str
    secrets: dict[str, str]
    sockets: list[tuple[Client, int, str | None]] = field(default_factory=list)
    latest: dict[int, JSON] = field(default_factory=dict)  # id(client) -> last state frame
    via_proxy: int = 0  # sockets nginx itself placed on the wanted worker

    async def open(self, seat: str | None, worker: int) -> Client:
        """A socket on ``worker``: through nginx when it routes this match there, else
        straight to the worker. nginx sends every socket of a match to one worker (match
        affinity); a socket reaches the other one only after a failover or a rebalance,
        and that is the bus's cross-worker path these tests exercise."""
        secret = self.secrets[seat] if seat else None
        before = await settled_counts(self.stack, len(self.sockets))
        client = await Client.open(self.stack.proxy.ws(self.match_id), secret)
        after = await settled_counts(self.stack, len(self.sockets) + 1)
        if after[worker] != before[worker] + 1:
            await client.close()
            await settled_counts(self.stack, len(self.sockets))
            direct = f"ws://127.0.0.1:{self.stack.workers[worker].port}/ws/matches/{self.match_id}"
            client = await Client.open(direct, secret)
            after = await settled_counts(self.stack, len(self.sockets) + 1)
            assert after[worker] == before[worker] + 1, (before, after)
        else:
            self.via_proxy += 1
        self.sockets.append((client, worker, seat))
        self.latest[id(client)] = client.frames[-1]
        return client

    def clients(self, worker: int | None = None) -> list[Client]:
        return [c for c, w, _ in self.sockets if worker is None or w == worker]

    def seat_socket(self, seat: str, worker: int) -> Client:
        return next(c for c, w, s in self.sockets if s == seat and w == worker)

    def view(self, client: Client) -> JSON:
        view: JSON = self.latest[id(client)]["view"]
        return view

    def over(self) -> bool:
        return any(self.view(c).get("outcome") for c in self.clients())

    async def step(
        self, actors: dict[str, Client], version: int, rng: random.Random, watchers: list[Client]
    ) -> int:
        """One legal action by whichever seat must decide; every watcher sees the next version."""
        movers = [(s, c) for s, c in actors.items() if self.view(c)["legal_actions"]]
        assert len(movers) == 1, f"expected one seat to decide at version {version}"
        seat, client = movers[0]
        action: dict[str, Any] = rng.choice(self.view(client)["legal_actions"])
        answer = await client.act(version, action)
        assert answer == {"type": "ack", "id": answer.get("id"), "version": version + 1}, answer
        for watcher in watchers:
            frame = await watcher.expect("state", timeout=10)
            assert frame["version"] == version + 1, (seat, action, frame["version"])
            self.latest[id(watcher)] = frame
        return version + 1

    async def play(
        self, actors: dict[str, Client], version: int, rng: random.Random, until: int | None
    ) -> int:
        """Play from ``version`` to the end (or to version ``until``) with every socket watching."""
        for _ in range(MAX_ACTIONS):
            if self.over() or (until is not None and version >= until):
                return version
            version = await self.step(actors, version, rng, self.clients())
        raise AssertionError("the game did not end within MAX_ACTIONS")

    def assert_every_version_once_in_order(self, last: int) -> None:
        for client, worker, seat in self.sockets:
            versions = [f["version"] for f in client.frames if f["type"] == "state"]
            assert versions == list(range(last + 1)), (worker, seat, versions)
            errors = [f for f in client.frames if f["type"] == "error"]
            assert not errors, errors


async def new_table(stack: Stack) -> Table:
    """An Invaders match created and joined through the proxy (REST)."""
    async with httpx.AsyncClient(base_url=stack.proxy.http, timeout=5) as http:
        created = await http.post("/api/matches", json={"game": "invaders", "seat": "mankind"})
        assert created.status_code == 201, created.text
        match_id = created.json()["match_id"]
        joined = await http.post(f"/api/matches/{match_id}/seats", json={"seat": "invader"})
        assert joined.status_code == 201, joined.text
    secrets = {"mankind": created.json()["secret"], "invader": joined.json()["secret"]}
    return Table(stack, match_id, secrets)
