"""Frames lost on the way: a refused move reads as a sentence, a gap triggers a resync.

Playwright sits between the page and the real server (``route_web_socket``) and drops the
frames a bad network would lose; everything else passes through unchanged.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from app.realtime.compression import inflate_raw
from tests.e2e.conftest import E2EServer
from tests.e2e.table import create_match, version_of

pytestmark = pytest.mark.browser

SOCKET = re.compile(r"/ws/matches/")


def drop_state_frame(page: Any, version: int) -> list[dict[str, Any]]:
    """Forward every frame both ways, except the first state frame of ``version``.

    Playwright runs this handler while the test waits in a Playwright call, so the test
    must wait through Playwright (never ``time.sleep``) for frames to flow.
    """
    dropped: list[dict[str, Any]] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: str | bytes) -> None:
            text = inflate_raw(message) if isinstance(message, bytes) else message  # §3.4
            frame = json.loads(text)
            if not dropped and frame["type"] == "state" and frame["version"] == version:
                dropped.append(frame)
            else:
                ws.send(message)

        server.on_message(from_server)

    page.route_web_socket(SOCKET, route)
    return dropped


def wait_until_dropped(page: Any, dropped: list[dict[str, Any]], timeout: float = 10.0) -> None:
    """The ack and the state frame of a version may come in either order: wait for both."""
    deadline = time.monotonic() + timeout
    while not dropped:
        assert time.monotonic() < deadline, "the state frame never came"
        page.wait_for_timeout(50)  # lets Playwright run the route handler


class SocketPlayer:
    """A seat played over a plain WebSocket: always takes the first legal action."""

    def __init__(self, ws: ClientConnection, secret: str) -> None:
        self.ws = ws
        self.ws.send(json.dumps({"type": "hello", "secret": secret, "version": None}))
        self.state: dict[str, Any] = {}
        self.read_until(lambda f: f["type"] == "state")

    def read_until(self, done: Callable[[dict[str, Any]], bool]) -> None:
        while True:
            frame = json.loads(self.ws.recv(timeout=10))
            if frame["type"] == "state":
                self.state = frame
            if done(frame):
                return

    def act_first(self) -> int:
        """Send the first legal action; return once its ack and its state have arrived."""
        version = self.state["version"]
        action = self.state["view"]["legal_actions"][0]
        self.ws.send(
            json.dumps({"type": "act", "id": f"a{version}", "version": version, "action": action})
        )
        acked: list[int] = []

        def done(frame: dict[str, Any]) -> bool:
            if frame["type"] == "ack":
                acked.append(frame["version"])
            return bool(acked) and self.state["version"] == acked[0]

        self.read_until(done)
        return acked[0]


def test_a_refused_move_shows_a_readable_message_and_the_fresh_table(
    new_page: Any, e2e_server: E2EServer
) -> None:
    alice = new_page()
    # The state frame of Alice's first move is lost: she still sees the old question.
    dropped = drop_state_frame(alice, 1)
    match_id = create_match(alice, "mankind", "Alice")
    e2e_server.api("POST", f"/matches/{match_id}/seats", {"name": "Bob"})
    alice.locator(".zone-target.is-target").first.click()
    alice.wait_for_function("() => document.querySelector('.game-root').dataset.pending === '0'")
    wait_until_dropped(alice, dropped)
    assert version_of(alice) == "0"

    alice.locator(".zone-target.is-target").first.click()  # answers a question already answered
    alert = alice.locator(".errors[role=alert]")
    alert.wait_for()
    assert "The table changed before your move arrived" in alert.inner_text()
    alice.wait_for_function("() => document.querySelector('.game-root').dataset.version === '1'")
    alice.wait_for_selector("[data-action=end_main]")  # the fresh table: her main phase


def test_a_missed_state_frame_is_noticed_and_resynced(new_page: Any, e2e_server: E2EServer) -> None:
    made = e2e_server.api("POST", "/matches", {"game": "invaders", "seat": "mankind"})
    match_id = made["match_id"]
    e2e_server.api("POST", f"/matches/{match_id}/seats", {})
    carol = new_page()
    dropped = drop_state_frame(carol, 2)
    carol.goto(f"/#/match/{match_id}")
    carol.wait_for_selector(".inv-table")
    assert carol.locator(".role").get_attribute("data-role") == "spectator"

    with connect(e2e_server.ws_url(match_id)) as ws:
        mankind = SocketPlayer(ws, made["secret"])
        for _ in range(4):  # Mankind places the hero, then plays on: versions 1..4
            last = mankind.act_first()
    carol.wait_for_function(
        "(v) => document.querySelector('.game-root').dataset.version === v", arg=str(last)
    )
    wait_until_dropped(carol, dropped)
    assert [f["version"] for f in dropped] == [2]
    log = carol.locator(".event-log")
    assert "Reconnected: the table was brought up to date." in log.inner_text()
    # Every public event of versions 1..4 is in the log, those of the lost frame included.
    public = e2e_server.api("GET", f"/matches/{match_id}/log")["entries"]
    shown = log.locator("li:not([data-type=_resync])").count()
    assert shown == sum(len(entry["events"]) for entry in public)
