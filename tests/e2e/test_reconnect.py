"""The seat survives a reload; a dropped connection shows a banner and resyncs by itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.conftest import E2EServer
from tests.e2e.table import create_match, join_from_lobby, version_of, wait_same_version

pytestmark = pytest.mark.browser


def click_and_wait(page: Any, selector: str) -> None:
    before = version_of(page)
    page.locator(selector).first.click()
    page.wait_for_function(
        "(v) => document.querySelector('.game-root')?.dataset.version !== v", arg=before
    )


def test_reload_restores_the_seat_from_storage(new_page: Any, e2e_server: E2EServer) -> None:
    alice = new_page()
    match_id = create_match(alice, "mankind", "Alice")
    e2e_server.api("POST", f"/matches/{match_id}/seats", {"name": "Bob"})
    click_and_wait(alice, ".zone-target.is-target")  # Mankind places the first hero
    alice.wait_for_selector("[data-action=end_main]")
    hand = alice.locator(".own-hand .card-name").all_inner_texts()
    assert hand

    stored = alice.evaluate(f"() => localStorage.getItem('skirmish.seat.{match_id}')")
    secret = json.loads(stored)["secret"]
    assert secret and secret not in alice.url

    alice.reload()
    alice.wait_for_selector(".role[data-role=mankind]")
    assert alice.locator(".join").count() == 0
    alice.wait_for_selector("[data-action=end_main]")  # still her decision, still her seat
    assert alice.locator(".own-hand .card-name").all_inner_texts() == hand
    alice.locator(".event-log li:has-text('takes command in')").wait_for()  # history reloaded
    click_and_wait(alice, "[data-action=end_main]")  # and she can act


def test_lost_connection_shows_a_banner_and_resyncs(new_page: Any, e2e_server: E2EServer) -> None:
    alice, bob = new_page(), new_page()
    match_id = create_match(alice, "invader", "Alice")
    join_from_lobby(bob, match_id, "Bob")
    bob.wait_for_selector(".zone-target.is-target")
    wait_same_version([alice, bob])
    banner = alice.locator("#offline-banner")
    assert banner.is_hidden()

    alice.context.set_offline(True)
    banner.wait_for(state="visible")
    assert "reconnecting" in banner.inner_text()
    bob.wait_for_selector(".player[data-seat=invader][data-presence=offline]")

    # Mankind plays on while the Invader is away: place the hero, end the turn.
    click_and_wait(bob, ".zone-target.is-target")
    click_and_wait(bob, "[data-action=end_main]")
    missed = version_of(bob)
    assert version_of(alice) != missed

    alice.context.set_offline(False)
    banner.wait_for(state="hidden", timeout=15_000)
    alice.wait_for_function(
        "(v) => document.querySelector('.game-root')?.dataset.version === v", arg=missed
    )
    alice.wait_for_selector("[data-action=end_main]")  # the Invader's main phase, resynced
    log = alice.locator(".event-log").inner_text()
    assert "Mankind ends the main phase." in log  # the events missed while away
    assert "Reconnected: the table was brought up to date." in log
    bob.wait_for_selector(".player[data-seat=invader][data-presence=online]")
