"""Turn timers in the browser: chosen in the lobby form, counted down at the table.

The countdown comes from the server's ``clock`` frames (docs/protocol.md §3.2) and is shown
only; the server alone plays the default move when the deadline passes.
"""

from __future__ import annotations

import re
import urllib.error
from typing import Any

import pytest

from tests.e2e.conftest import E2EServer
from tests.e2e.table import invite_link, match_id_of

pytestmark = pytest.mark.browser

COUNTDOWN = ".turn-clock"
SHOWN = ".turn-clock:not([hidden])"


def create_from_form(page: Any, name: str, timer: str) -> str:
    """Fill the lobby form as a person would (labels, not selectors); returns the match id."""
    page.goto("/")
    page.get_by_label("Your name").fill(name)
    page.locator("input[name=seat][value=mankind]").check()  # Mankind owes the first decision
    page.get_by_label("Turn timer").select_option(label=timer)
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"#/match/"))
    page.wait_for_selector(".invite")
    return match_id_of(page)


def seconds_shown(page: Any) -> int:
    """The countdown as a person reads it (m:ss), checked against its data attribute."""
    text = page.locator(f"{COUNTDOWN} .turn-clock-time").inner_text().strip()
    found = re.fullmatch(r"(\d+):(\d\d)", text)
    assert found, text
    seconds = int(found.group(1)) * 60 + int(found.group(2))
    assert abs(seconds - int(page.locator(COUNTDOWN).get_attribute("data-remaining"))) <= 1
    return seconds


def test_a_turn_timer_chosen_in_the_lobby_counts_down_at_the_table(
    new_page: Any, e2e_server: E2EServer
) -> None:
    alice = new_page()
    alice.clock.install()  # runs at real speed; lets the test jump ahead later
    match_id = create_from_form(alice, "Alice", "30 s")
    assert e2e_server.api("GET", f"/matches/{match_id}/clock")["turn_seconds"] == 30
    # Waiting for an opponent: nothing is owed yet, so no countdown.
    alice.wait_for_timeout(300)
    assert alice.locator(COUNTDOWN).is_hidden()

    e2e_server.api("POST", f"/matches/{match_id}/seats", {"name": "Bob"})
    alice.locator(SHOWN).wait_for()
    first = seconds_shown(alice)
    assert 20 <= first <= 30, first
    assert "is-mine" in (alice.locator(COUNTDOWN).get_attribute("class") or "")
    assert "Your time" in alice.locator(COUNTDOWN).inner_text()

    alice.wait_for_function(
        "(s) => Number(document.querySelector('.turn-clock')?.dataset.remaining) < s",
        arg=first,
        timeout=5_000,
    )
    assert seconds_shown(alice) < first

    # A spectator sees the same countdown, without the highlight of the seat that owes it.
    carol = new_page()
    carol.clock.install()
    carol.goto(invite_link(e2e_server, match_id))
    carol.locator(SHOWN).wait_for()
    assert carol.locator(".role").get_attribute("data-role") == "spectator"
    assert abs(seconds_shown(carol) - seconds_shown(alice)) <= 2

    # Under ten seconds the seat whose decision it is gets the warning; the watcher does not.
    assert "is-urgent" not in (alice.locator(COUNTDOWN).get_attribute("class") or "")
    for page in (alice, carol):
        page.clock.fast_forward(first * 1000 - 5_000)
    alice.locator(f"{COUNTDOWN}.is-urgent").wait_for(timeout=2_000)
    assert seconds_shown(alice) <= 10
    assert "is-urgent" not in (carol.locator(COUNTDOWN).get_attribute("class") or "")

    # A move starts the next decision's clock: the server's next frame, with a fresh offset.
    alice.locator(".zone-target.is-target").first.click()
    for page in (alice, carol):
        page.locator(f"{SHOWN}:not(.is-stale):not([data-version='0'])").wait_for()
        assert 20 <= seconds_shown(page) <= 30
    assert "is-urgent" not in (alice.locator(COUNTDOWN).get_attribute("class") or "")


def test_a_match_without_a_timer_shows_no_countdown(new_page: Any, e2e_server: E2EServer) -> None:
    alice = new_page()
    match_id = create_from_form(alice, "Alice", "None")
    with pytest.raises(urllib.error.HTTPError) as refused:
        e2e_server.api("GET", f"/matches/{match_id}/clock")
    assert refused.value.code == 404
    e2e_server.api("POST", f"/matches/{match_id}/seats", {"name": "Bob"})
    alice.wait_for_selector(".zone-target.is-target")  # her first decision is asked
    alice.wait_for_timeout(500)
    assert alice.locator(COUNTDOWN).count() == 1
    assert alice.locator(COUNTDOWN).is_hidden()
