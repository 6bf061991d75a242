"""Frames written straight to a socket's transport, framed once per audience.

Why: with a dozen viewers per match, the sends cost as much as the action itself
(docs/benchmarks.md). Through the ASGI stack every frame to every socket is a hop through
the socket's send task, Starlette, uvicorn and the WebSocket library's frame objects. A
server-to-client frame is never masked (RFC 6455 §5.1), so the bytes of one frame are the
same for every socket that gets it: they are built once, and each socket's transport gets
them with one ``write``.

Only uvicorn's sans-I/O WebSocket protocol is written to this way, and only while its
connection is open, its write buffer is below the high-water mark and no per-socket
extension (permessage-deflate) is in use. In every other case the frame takes the ASGI
path, which applies the same backpressure (outbox.py), so a slow reader is still dropped.
"""

from __future__ import annotations

from typing import Any

from starlette.types import Scope
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

SERVER_SEND = "skirmish.server_send"
"""Scope key under which the outermost middleware keeps the server's own ``send``."""

TEXT, BINARY = 0x1, 0x2
FIN = 0x80


def frame_bytes(payload: str | bytes) -> bytes:
    """One complete, unmasked WebSocket message (RFC 6455 §5.2): text for str, else binary."""
    if isinstance(payload, str):
        opcode, data = TEXT, payload.encode()
    else:
        opcode, data = BINARY, payload
    size = len(data)
    if size < 126:
        head = bytes((FIN | opcode, size))
    elif size < 1 << 16:
        head = bytes((FIN | opcode, 126)) + size.to_bytes(2, "big")
    else:
        head = bytes((FIN | opcode, 127)) + size.to_bytes(8, "big")
    return head + data


class DirectWriter:
    """Writes whole frames to one open connection's transport, when it may."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self._protocol = protocol

    def write(self, frame: bytes) -> bool:
        """Write ``frame`` now; False (nothing written) when the ASGI path must take it."""
        protocol = self._protocol
        if (
            protocol.close_sent
            or protocol.disconnected
            or not protocol.writable.is_set()
            or protocol.conn.state is not State.OPEN
            or protocol.transport.is_closing()
        ):
            return False
        protocol.transport.write(frame)
        return True


def direct_writer(scope: Scope) -> DirectWriter | None:
    """A writer for this WebSocket's connection, if the server allows writing directly."""
    send: Any = scope.get(SERVER_SEND)
    protocol = getattr(send, "__self__", None)
    if not isinstance(protocol, WebSocketsSansIOProtocol) or protocol.conn.extensions:
        return None
    return DirectWriter(protocol)
