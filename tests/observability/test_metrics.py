"""/metrics: Prometheus text with connections, matches, actions, stage timings, bus lag."""

from __future__ import annotations

import httpx

from app.config import ObservabilitySettings
from tests.observability.scrape import sample
from tests.realtime.conftest import open_table
from tests.support.client import Client
from tests.support.server import LiveServer
from tests.support.settings import make_settings


async def test_metrics_count_sockets_actions_and_time_each_stage(server: LiveServer) -> None:
    table = await open_table(server)
    async with httpx.AsyncClient(base_url=server.http) as http:
        before = (await http.get("/metrics")).text
        north = await Client.open(table.url, table.north)
        spectator = await Client.open(table.url)
        assert (await north.act(0, {"type": "take", "amount": 1}))["type"] == "ack"
        await spectator.expect("state")
        response = await http.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert sample(text, "skirmish_connections") == sample(before, "skirmish_connections") + 2
    assert sample(text, "skirmish_matches_open") >= 1
    committed = 'skirmish_actions_total{result="committed"}'
    prior = sample(before, committed) if committed in before else 0.0
    assert sample(text, committed) == prior + 1
    for stage in ("validated", "applied", "committed", "first_send", "last_send"):
        assert sample(text, f'skirmish_action_stage_seconds_count{{stage="{stage}"}}') >= 1
    assert "skirmish_action_seconds_bucket" in text and "skirmish_bus_lag_seconds" in text
    validated = 'skirmish_action_stage_seconds_sum{stage="validated"}'
    prior = sample(before, validated) if validated in before else 0.0
    assert sample(text, validated) > prior  # timed from the frame's arrival, not from zero
    await north.close()
    await spectator.close()


async def test_metrics_can_be_switched_off(sqlite_url: str) -> None:
    settings = make_settings(sqlite_url).model_copy(
        update={"observability": ObservabilitySettings(metrics=False)}
    )
    server = LiveServer(settings).start()
    try:
        async with httpx.AsyncClient(base_url=server.http) as http:
            assert (await http.get("/metrics")).status_code == 404
    finally:
        server.stop()
