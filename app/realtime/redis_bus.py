"""Redis pub/sub backend of the bus: one channel per match, ``<prefix>:<match id>``.

One task owns the subscription connection: it polls for messages (a short timeout keeps
it responsive to newly watched matches), subscribes and unsubscribes between polls, and
pings when the line is quiet. A Redis restart breaks the read; the supervisor in
``RemoteBus`` reconnects, resubscribes, and the subscribe confirmations trigger the
resync of each match. Publishing uses the client's own pooled connections.
"""

from __future__ import annotations

import time
from typing import Any

import redis.asyncio as redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from app.config import BusSettings
from app.realtime.pubsub import RemoteBus

POLL_SECONDS = 0.2


class RedisBus(RemoteBus):
    def __init__(self, settings: BusSettings) -> None:
        super().__init__(settings)
        self.client_name = f"skirmish-bus-{self._origin}"  # in CLIENT LIST, for operators
        self._client: Any = redis.from_url(
            settings.url,
            client_name=self.client_name,
            socket_connect_timeout=2,
            socket_timeout=5,
            socket_keepalive=True,
            retry=Retry(NoBackoff(), 1),  # one quick retry (a pooled socket gone stale), no more
        )
        self._pubsub: Any = None

    async def _session(self) -> None:
        self._pubsub = self._client.pubsub()
        await self._pubsub.connect()  # raises while Redis is down
        subscribed: set[str] = set()
        last_heard = last_ping = time.monotonic()
        self._set_connected(True)
        await self._follow(subscribed)  # (re)subscribe everything watched
        while True:
            if self._changed.is_set() or self._unsent:
                await self._follow(subscribed)
            message = await self._pubsub.get_message(timeout=POLL_SECONDS)
            now = time.monotonic()
            if message is not None:
                last_heard = now
                self._handle(message)
            elif now - last_heard > 3 * self._keepalive:
                raise ConnectionError("redis answered no ping")
            elif now - last_heard > self._keepalive and now - last_ping > self._keepalive:
                await self._pubsub.ping()  # the pong arrives as a message
                last_ping = now

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        channel = _text(message.get("channel"))
        if kind == "message" and channel is not None:
            self._received(channel, _text(message["data"]) or "")
        elif kind == "subscribe" and channel is not None:
            self._resync(channel.removeprefix(f"{self.prefix}:"))

    async def _subscribe(self, match_ids: list[str]) -> None:
        await self._pubsub.subscribe(*[self.channel(m) for m in match_ids])

    async def _unsubscribe(self, match_ids: list[str]) -> None:
        await self._pubsub.unsubscribe(*[self.channel(m) for m in match_ids])

    async def _send(self, channel: str, text: str) -> None:
        await self._client.publish(channel, text)

    async def _ping(self) -> None:
        await self._client.ping()

    async def _disconnect(self) -> None:
        if self._pubsub is not None:
            pubsub, self._pubsub = self._pubsub, None
            await pubsub.aclose()

    async def _dispose(self) -> None:
        await self._disconnect()
        await self._client.aclose()


def _text(value: bytes | str | None) -> str | None:
    return value.decode() if isinstance(value, bytes) else value
