"""The browser asks for large frames compressed once per audience (docs/protocol.md §3.4)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import E2EServer

pytestmark = pytest.mark.browser


def test_the_table_renders_from_compressed_frames(new_page: Any, e2e_server: E2EServer) -> None:
    made = e2e_server.api("POST", "/matches", {"game": "invaders", "seat": "mankind"})
    match_id = made["match_id"]
    e2e_server.api("POST", f"/matches/{match_id}/seats", {})
    page = new_page()
    received: list[str | bytes] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: received.append(frame)))
    page.goto(f"/#/match/{match_id}")
    page.wait_for_selector(".inv-table")
    page.wait_for_function("() => document.querySelector('.game-root').dataset.version === '0'")
    binary = [frame for frame in received if isinstance(frame, bytes)]
    assert binary, "the state frame came uncompressed"
    assert all(isinstance(f, str) and len(f) < 1024 for f in received if f not in binary)
