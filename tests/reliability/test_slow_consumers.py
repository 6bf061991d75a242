"""A spectator that stops reading never delays the players; it is dropped and resyncs."""

from __future__ import annotations

import base64
import os
import socket
import statistics
import time
from collections.abc import Callable

import httpx
import pytest

from tests.reliability import ballast
from tests.support.client import Client
from tests.support.server import LiveServer

MOVES = 60  # moves without the laggard, then batches with it until it is dropped
BATCH = 20
MAX_LOADED_MOVES = 400  # ~24 MB of frames: far more than the kernel and uvicorn buffer
QUEUE = 8


async def play(north: Client, south: Client, start: int, moves: int) -> list[float]:
    """Alternate ``take 1`` moves; the latency of each, from send to ack."""
    latencies = []
    for version in range(start, start + moves):
        mover = north if version % 2 == 0 else south
        sent = time.perf_counter()
        ack = await mover.act(version, {"type": "take", "amount": 1})
        latencies.append(time.perf_counter() - sent)
        assert ack["type"] == "ack", ack
        await mover.expect("state")
        await (south if mover is north else north).expect("state")
    return latencies


def read_until_closed(sock: socket.socket) -> tuple[int, int | None]:
    """Read every buffered frame; the last state version seen and the close code, if any."""
    sock.settimeout(10)
    data = b""
    while chunk := sock.recv(1 << 20):
        data += chunk
    sock.close()
    seen, code, at = -1, None, 0
    while at + 2 <= len(data):
        opcode, size, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if size == 126:
            size, at = int.from_bytes(data[at : at + 2], "big"), at + 2
        elif size == 127:
            size, at = int.from_bytes(data[at : at + 8], "big"), at + 8
        payload, at = data[at : at + size], at + size
        if opcode == 0x1 and payload.startswith(b'{"type":"state"'):
            seen = int(payload.split(b'"version":')[1].split(b",")[0])
        elif opcode == 0x8 and len(payload) >= 2:
            code = int.from_bytes(payload[:2], "big")
    return seen, code


def laggard_dropped(player: Client) -> bool:
    """A presence said the one spectator came, and a later one that it left (dropped)."""
    counts = [f["spectators"] for f in player.frames if f["type"] == "presence"]
    return 1 in counts and 0 in counts[counts.index(1) :]


def p99(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.99) - 1)]


def masked_text_frame(text: str) -> bytes:
    """One client-to-server WebSocket text frame (RFC 6455 §5.2: clients must mask)."""
    payload = text.encode()
    mask = os.urandom(4)
    assert len(payload) < 126
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


def stalled_socket(port: int, match_id: str) -> socket.socket:
    """A spectator that says hello over a plain socket, then never reads a byte."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/matches/{match_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)  # byte by byte: nothing after the headers is read
    assert response.startswith(b"HTTP/1.1 101"), response
    sock.sendall(masked_text_frame('{"type":"hello","secret":null,"version":null}'))
    return sock


async def test_stalled_spectator_is_dropped_without_delaying_players(
    serve: Callable[..., LiveServer],
    monkeypatch: pytest.MonkeyPatch,
    figures: Callable[..., None],
) -> None:
    monkeypatch.setattr(ballast, "BALLAST_BYTES", 60_000)
    server = serve(
        send_queue_frames=QUEUE, rate_burst=1000, ip_rate_burst=1000, rate_per_second=1000
    )
    async with httpx.AsyncClient(base_url=server.http) as http:
        body = {"game": "ballast", "options": {"start": 1000}, "seat": "north"}
        made = (await http.post("/api/matches", json=body)).json()
        south_secret = (await http.post(f"/api/matches/{made['match_id']}/seats", json={})).json()[
            "secret"
        ]
    url = server.ws(made["match_id"])
    north = await Client.open(url, made["secret"])
    south = await Client.open(url, south_secret)

    baseline = await play(north, south, 0, MOVES)
    stalled = stalled_socket(server.port, made["match_id"])
    while (await north.expect("presence"))["spectators"] != 1:  # the laggard is in the room
        pass
    loaded: list[float] = []
    while not laggard_dropped(north) and len(loaded) < MAX_LOADED_MOVES:
        loaded += await play(north, south, MOVES + len(loaded), BATCH)
        await north.quiet(0.1)
    assert laggard_dropped(north), f"the laggard was not dropped after {len(loaded)} moves"

    # The laggard wakes up: it reads what was buffered, then learns it was dropped.
    seen, code = read_until_closed(stalled)
    back = await Client.connect(url)
    await back.send({"type": "hello", "secret": None, "version": seen})
    await back.expect("welcome")
    resynced = await back.expect("state")
    final = MOVES + len(loaded)
    assert resynced["version"] == final
    assert len(resynced["events"]) == 2 * (final - seen)  # took + drew per version missed

    figures(
        ack_p50_ms_without_laggard=round(statistics.median(baseline) * 1000, 2),
        ack_p99_ms_without_laggard=round(p99(baseline) * 1000, 2),
        ack_p50_ms_with_laggard=round(statistics.median(loaded) * 1000, 2),
        ack_p99_ms_with_laggard=round(p99(loaded) * 1000, 2),
        laggard_last_version_seen=seen,
        laggard_dropped_within_moves=len(loaded),
        laggard_close_code=code,
        frame_bytes=len(north.raw[-1]),
        send_queue_frames=QUEUE,
    )
    assert statistics.median(loaded) < statistics.median(baseline) * 3 + 0.02
