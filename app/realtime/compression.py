"""Frames compressed once per audience instead of once per socket.

permessage-deflate compresses every frame again for every socket (with its own context),
which made compression ~75–80 % of fan-out CPU (docs/benchmarks.md). A client that says
``"compress": "deflate-raw"`` in its hello gets large frames as binary messages holding
raw DEFLATE of the JSON text, without shared context: the same bytes serve every socket
of an audience, and browsers inflate them with ``DecompressionStream("deflate-raw")``.
Small frames stay text: compressing them costs more than it saves.
"""

from __future__ import annotations

import zlib

from app.realtime.wire import frame_bytes

DEFLATE_RAW = "deflate-raw"
MIN_BYTES = 1024
"""Frames shorter than this (acks, errors, presence) are sent as text."""
LEVEL = 3
"""zlib level: on a 13.8 KB Invaders view, level 3 takes 0.08 ms for 3.6 KB, level 6 0.17 ms
for 3.3 KB (bench/action_cost.py). Compressed once per audience, the CPU is paid 3 times a
version and the bytes once per socket: 3 is the middle of that trade."""


def deflate_raw(text: str) -> bytes:
    """Raw DEFLATE (RFC 1951, no zlib header) of the UTF-8 text, as one complete stream."""
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(text.encode()) + compressor.flush()


def inflate_raw(data: bytes) -> str:
    """The inverse, for tests and the load client."""
    return zlib.decompress(data, -zlib.MAX_WBITS).decode()


class Encoded:
    """One frame's text and, once a socket needs them, its compressed bytes and the whole
    WebSocket frames of either (wire.py)."""

    __slots__ = ("_compressed", "_wire", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._compressed: bytes | None = None
        self._wire: dict[bool, bytes] = {}

    def wire(self, compress: bool) -> bytes:
        """The complete WebSocket frame a socket with this ``compress`` choice gets."""
        framed = self._wire.get(compress)
        if framed is None:
            framed = self._wire[compress] = frame_bytes(self.for_socket(compress))
        return framed

    def for_socket(self, compress: bool) -> str | bytes:
        if not compress or len(self.text) < MIN_BYTES:
            return self.text
        if self._compressed is None:
            self._compressed = deflate_raw(self.text)
        return self._compressed
