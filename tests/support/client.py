"""A WebSocket test client that records every frame it receives, for order and leak checks."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from app.realtime.compression import DEFLATE_RAW, inflate_raw

JSON = dict[str, Any]


class Client:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.raw: list[str] = []
        """Every frame as text (a compressed one inflated), for leak checks."""
        self.frames: list[JSON] = []
        self.binary = 0
        """How many frames came compressed (app/realtime/compression.py)."""
        self._unread: list[JSON] = []

    @classmethod
    async def open(
        cls, url: str, secret: str | None = None, version: int | None = None, compress: bool = False
    ) -> Client:
        """Connect and say hello; waits for the welcome and the first state frame."""
        client = await cls.connect(url)
        hello: JSON = {"type": "hello", "secret": secret, "version": version}
        if compress:
            hello["compress"] = DEFLATE_RAW
        await client.send(hello)
        await client.expect("welcome")
        await client.expect("state")
        return client

    @classmethod
    async def connect(cls, url: str) -> Client:
        return cls(await connect(url, max_size=2**20, open_timeout=5))

    async def send(self, frame: JSON | str) -> None:
        await self.ws.send(frame if isinstance(frame, str) else json.dumps(frame))

    async def act(self, version: int, action: JSON, client_id: str | None = None) -> JSON:
        """Send an act frame; returns its ack or error (other frames stay readable)."""
        client_id = client_id or str(uuid.uuid4())
        await self.send({"type": "act", "id": client_id, "version": version, "action": action})
        return await self.expect(("ack", "error"))

    async def expect(self, types: str | tuple[str, ...], timeout: float = 5.0) -> JSON:
        """The next unread frame of one of ``types``; frames skipped stay unread for later."""
        wanted = (types,) if isinstance(types, str) else types
        for i, frame in enumerate(self._unread):
            if frame["type"] in wanted:
                return self._unread.pop(i)
        async with asyncio.timeout(timeout):
            while True:
                frame = await self._receive()
                if frame["type"] in wanted:
                    return frame
                self._unread.append(frame)

    async def quiet(self, seconds: float = 0.3) -> list[JSON]:
        """Every frame that arrives within ``seconds`` (to prove nothing more is sent)."""
        try:
            async with asyncio.timeout(seconds):
                while True:
                    self._unread.append(await self._receive())
        except TimeoutError:
            pass
        return list(self._unread)

    def unread(self, frame_type: str) -> list[JSON]:
        return [f for f in self._unread if f["type"] == frame_type]

    async def close(self) -> None:
        await self.ws.close()

    async def _receive(self) -> JSON:
        data = await self.ws.recv()
        if isinstance(data, bytes):
            self.binary += 1
        text = inflate_raw(data) if isinstance(data, bytes) else data
        self.raw.append(text)
        frame: JSON = json.loads(text)
        self.frames.append(frame)
        return frame
