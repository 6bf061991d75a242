"""Redis pub/sub backend of the bus: every worker hears every "match M at version v".

A worker hears its own messages too, which keeps one delivery path for local and
remote changes. Messages are tiny ("<match id> <version>"); the truth stays in the DB.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import redis.asyncio as redis

from app.realtime.pubsub import Listener

log = logging.getLogger(__name__)


class RedisBus:
    def __init__(self, url: str, channel: str) -> None:
        self._client: Any = redis.from_url(url)
        self._channel = channel
        self._listeners: list[Listener] = []
        self._pubsub: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Subscribe now if Redis answers, else keep trying in the background (not ready)."""
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        subscribed = await self._subscribe()
        self._task = asyncio.create_task(self._listen(subscribed))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._pubsub is not None:
            await self._pubsub.aclose()
        await self._client.aclose()
        self._listeners.clear()

    async def ping(self) -> None:
        await self._client.ping()

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def publish(self, match_id: str, version: int) -> None:
        await self._client.publish(self._channel, f"{match_id} {version}")

    async def _subscribe(self) -> bool:
        try:
            await self._pubsub.subscribe(self._channel)
        except Exception:
            log.warning("redis bus unavailable; retrying")
            return False
        return True

    async def _listen(self, subscribed: bool) -> None:
        while True:
            if not subscribed and not (subscribed := await self._subscribe()):
                await asyncio.sleep(0.5)
                continue
            try:
                async for message in self._pubsub.listen():
                    self._deliver(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped connection: back off, then resubscribe
                log.warning("redis bus connection lost; retrying")
                subscribed = False
                await asyncio.sleep(0.5)

    def _deliver(self, data: bytes | str) -> None:
        text = data.decode() if isinstance(data, bytes) else data
        match_id, _, version = text.rpartition(" ")
        for listener in list(self._listeners):
            listener(match_id, int(version))
