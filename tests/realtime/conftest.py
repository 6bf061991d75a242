"""A started countdown match on a live server, with the two seats' grants."""

from __future__ import annotations

from dataclasses import dataclass

import httpx
import pytest

from tests.support.server import LiveServer


@dataclass
class Table:
    server: LiveServer
    match_id: str
    north: str
    south: str

    @property
    def url(self) -> str:
        return self.server.ws(self.match_id)


async def open_table(server: LiveServer, start: int = 10, join: bool = True) -> Table:
    async with httpx.AsyncClient(base_url=server.http) as http:
        created = await http.post(
            "/api/matches", json={"game": "countdown", "options": {"start": start}, "seat": "north"}
        )
        created.raise_for_status()
        grant = created.json()
        south = ""
        if join:
            joined = await http.post(f"/api/matches/{grant['match_id']}/seats", json={})
            joined.raise_for_status()
            south = joined.json()["secret"]
    return Table(server, grant["match_id"], grant["secret"], south)


@pytest.fixture
async def table(server: LiveServer) -> Table:
    return await open_table(server)
