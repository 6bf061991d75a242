"""Frames written straight to the transport: well formed, in order, only when allowed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.streams import StreamReader

from app.config import Settings
from app.realtime import wire
from app.realtime.compression import Encoded
from app.realtime.outbox import Outbox
from app.realtime.wire import DirectWriter, direct_writer, frame_bytes
from tests.realtime.conftest import open_table
from tests.support.client import Client
from tests.support.server import LiveServer


def parsed(data: bytes) -> Frame:
    reader = StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False, max_size=None)
    try:
        next(parser)
    except StopIteration as done:
        assert reader.at_eof(), "bytes left after the frame"
        return done.value
    raise AssertionError("the frame was incomplete")


@pytest.mark.parametrize("size", [0, 125, 126, 65_535, 65_536])
def test_a_text_frame_of_any_length_parses_as_one_final_message(size: int) -> None:
    frame = parsed(frame_bytes("é" * (size // 2) + "x" * (size % 2)))
    assert frame.opcode is Opcode.TEXT and frame.fin
    assert frame.data.decode() == "é" * (size // 2) + "x" * (size % 2)


def test_bytes_become_a_binary_frame() -> None:
    frame = parsed(frame_bytes(b"\x00\xff" * 300))
    assert frame.opcode is Opcode.BINARY and frame.data == b"\x00\xff" * 300


def test_an_audience_frame_is_framed_once_per_compression_choice() -> None:
    encoded = Encoded("x" * 5000)
    assert encoded.wire(True) is encoded.wire(True)
    assert parsed(encoded.wire(True)).opcode is Opcode.BINARY
    assert parsed(encoded.wire(False)).data.decode() == "x" * 5000


class FakeTransport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing


def fake_protocol() -> Any:
    writable = asyncio.Event()
    writable.set()
    return SimpleNamespace(
        close_sent=False,
        disconnected=False,
        writable=writable,
        conn=SimpleNamespace(state=State.OPEN, extensions=[]),
        transport=FakeTransport(),
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda p: setattr(p, "close_sent", True),
        lambda p: setattr(p, "disconnected", True),
        lambda p: p.writable.clear(),
        lambda p: setattr(p.conn, "state", State.CLOSING),
        lambda p: setattr(p.transport, "closing", True),
    ],
    ids=["close_sent", "disconnected", "paused", "closing_handshake", "transport_closing"],
)
async def test_direct_writer_declines_unless_open_and_writable(
    change: Callable[[Any], None],
) -> None:
    protocol = fake_protocol()
    writer = DirectWriter(protocol)
    assert writer.write(b"a")
    change(protocol)
    assert not writer.write(b"b")
    assert protocol.transport.written == [b"a"]


def test_no_direct_writer_for_another_server_or_a_per_socket_extension() -> None:
    assert direct_writer({}) is None
    assert direct_writer({wire.SERVER_SEND: print}) is None


class RecordingSocket:
    def __init__(self) -> None:
        self.sent: list[str | bytes] = []
        self.release = asyncio.Event()

    async def send_text(self, data: str) -> None:
        await self.release.wait()
        self.sent.append(data)

    async def send_bytes(self, data: bytes) -> None:
        await self.release.wait()
        self.sent.append(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


async def test_outbox_writes_directly_while_nothing_is_queued() -> None:
    protocol = fake_protocol()
    socket = RecordingSocket()
    outbox = Outbox(socket, 8, DirectWriter(protocol))
    outbox.start()
    outbox.push("one")
    outbox.push_encoded(Encoded("two"), compress=False)
    assert [parsed(b).data for b in protocol.transport.written] == [b"one", b"two"]
    assert socket.sent == []
    await outbox.stop()


async def test_outbox_keeps_order_behind_a_backlog() -> None:
    protocol = fake_protocol()
    socket = RecordingSocket()
    outbox = Outbox(socket, 8, DirectWriter(protocol))
    outbox.start()
    protocol.writable.clear()  # the transport is full: the frame is queued
    outbox.push("one")
    protocol.writable.set()  # writable again, but "one" is still waiting in the queue
    outbox.push("two")
    assert protocol.transport.written == []
    socket.release.set()
    await asyncio.sleep(0.01)
    assert socket.sent == ["one", "two"]
    outbox.push("three")  # the backlog is gone: direct again
    assert [parsed(b).data for b in protocol.transport.written] == [b"three"]
    await outbox.stop()


@pytest.fixture
def sansio_server(serve: Callable[..., LiveServer]) -> LiveServer:
    assert Settings().server.ws_protocol == "websockets-sansio"
    return serve()


async def test_state_frames_reach_sockets_by_direct_writes(
    sansio_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: list[bytes] = []
    original = DirectWriter.write

    def counting(self: DirectWriter, frame: bytes) -> bool:
        done = original(self, frame)
        if done:
            writes.append(frame)
        return done

    monkeypatch.setattr(DirectWriter, "write", counting)
    table = await open_table(sansio_server)
    north = await Client.open(table.url, table.north)
    watcher = await Client.open(table.url, None)
    ack = await north.act(0, {"type": "take", "amount": 1})
    assert ack["type"] == "ack"
    state = await watcher.expect("state")
    assert state["version"] == 1
    assert any(b'"type":"state"' in w and b'"version":1' in w for w in writes)
