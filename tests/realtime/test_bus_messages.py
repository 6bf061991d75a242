"""What every remote bus does with messages, without a server: echoes, gaps, failures."""

from __future__ import annotations

from app.config import BusSettings
from app.observability import metrics
from app.realtime.pubsub import RemoteBus, decode_message, encode_message
from tests.realtime.bus_checks import listen


class OfflineBus(RemoteBus):
    """A bus whose sends fail (the server is down) and whose sends are recorded otherwise."""

    def __init__(self) -> None:
        super().__init__(BusSettings(channel="t"))
        self.sent: list[tuple[str, str]] = []

    async def _session(self) -> None:  # never started in these tests
        raise NotImplementedError

    async def _subscribe(self, match_ids: list[str]) -> None:
        return None

    async def _unsubscribe(self, match_ids: list[str]) -> None:
        return None

    async def _send(self, channel: str, text: str) -> None:
        self.sent.append((channel, text))

    async def _ping(self) -> None:
        return None

    async def _disconnect(self) -> None:
        return None

    async def _dispose(self) -> None:
        return None


def test_message_round_trips_without_state() -> None:
    version, published_at, origin = decode_message(encode_message(42, "w1"))
    assert (version, origin) == (42, "w1") and published_at > 0
    assert len(encode_message(10**9, "abcdef012345")) < 64  # tiny, whatever the game


def test_other_workers_messages_are_delivered_and_gaps_counted() -> None:
    bus = OfflineBus()
    heard = listen(bus)
    bus.watch("m")
    gaps = metrics.BUS_GAPS._value.get()
    for version in (1, 2, 5):
        bus._received("t:m", encode_message(version, "another-worker"))
    bus._received("t:m", encode_message(6, bus._origin))  # our own echo
    bus._received("t:m", "garbage")
    assert heard == [("m", 1), ("m", 2), ("m", 5)]
    assert metrics.BUS_GAPS._value.get() == gaps + 1


async def test_publish_while_down_delivers_locally_and_resends_later() -> None:
    bus = OfflineBus()
    heard = listen(bus)
    await bus.publish("m", 3)  # not connected: queued, not sent, the ack is not held up
    await bus.publish("m", 4)
    assert heard == [("m", 3), ("m", 4)] and bus.sent == []
    bus._set_connected(True)
    await bus._follow(set())
    assert [(c, decode_message(t)[0]) for c, t in bus.sent] == [("t:m", 4)]  # newest only
