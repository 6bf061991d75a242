"""Two browsers play Invaders to the end through clicks only while a third one watches."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.e2e.conftest import E2EServer
from tests.e2e.table import (
    ScriptedPlayer,
    create_match,
    invite_link,
    join_by_invite,
    play_step,
    wait_same_version,
    watch_from_lobby,
)

pytestmark = pytest.mark.browser

MAX_STEPS = 600
MAX_SECONDS = 150
LEAK_CHECK_EVERY = 15

PRIVATE_TEXT_JS = """() => {
  // What only this seat may know: its hand, and its own draws in the log.
  const hand = [...document.querySelectorAll('.own-hand .card-name')].map((e) => e.textContent);
  const main = document.querySelector('main').cloneNode(true);
  const own = '.hand-panel, .event-log li[data-type=card_drawn]';
  main.querySelectorAll(own).forEach((e) => e.remove());
  return {hand, public: main.textContent};
}"""


def hidden_hand_names(player_page: Any) -> set[str]:
    """Names of hand cards that appear nowhere public on this player's own table."""
    seen = player_page.evaluate(PRIVATE_TEXT_JS)
    return {name for name in seen["hand"] if name not in seen["public"]}


def assert_spectator_sees_no_hand(spectator: Any, players: list[Any]) -> None:
    assert spectator.locator(".own-hand, .hand-panel").count() == 0
    assert spectator.locator(".game-root .is-target").count() == 0  # nothing to decide
    text = spectator.locator("main").inner_text()
    for player in players:
        for name in hidden_hand_names(player):
            assert name not in text, f"the spectator sees {name!r} from a hand"


def test_two_players_finish_a_game_while_a_spectator_watches(
    new_page: Any, e2e_server: E2EServer
) -> None:
    alice = new_page(permissions=["clipboard-read", "clipboard-write"])
    bob, carol = new_page(), new_page()
    match_id = create_match(alice, "mankind", "Alice")
    assert "secret" not in alice.url and match_id in alice.url
    alice.get_by_role("button", name="Copy link").click()
    link = alice.evaluate("() => navigator.clipboard.readText()")
    assert link == invite_link(e2e_server, match_id) == alice.locator("#invite-link").input_value()

    join_by_invite(bob, link, "Bob")
    alice.wait_for_selector(".player[data-seat=invader][data-presence=online]:has-text('Bob')")
    watch_from_lobby(carol, match_id)
    assert carol.locator(".role").get_attribute("data-role") == "spectator"
    carol.wait_for_selector(".watchers:has-text('1 watching')")
    alice.wait_for_selector(".watchers:has-text('1 watching')")

    rng = random.Random(20261130)
    players = [ScriptedPlayer(alice, rng), ScriptedPlayer(bob, rng)]
    started, steps, idle_since = time.monotonic(), 0, time.monotonic()
    while alice.locator(".game-over").count() == 0:
        assert steps < MAX_STEPS, "the game did not end within the step bound"
        assert time.monotonic() - started < MAX_SECONDS, (
            f"the game did not end in time ({steps} steps)"
        )
        if play_step(players):
            steps += 1
            idle_since = time.monotonic()
            if steps % LEAK_CHECK_EVERY == 0:
                wait_same_version([alice, bob, carol])
                assert_spectator_sees_no_hand(carol, [alice, bob])
        else:
            assert time.monotonic() - idle_since < 10, "nobody had an option to click"
            time.sleep(0.05)

    wait_same_version([alice, bob, carol])
    assert_spectator_sees_no_hand(carol, [alice, bob])
    outcomes = []
    for page in (alice, bob, carol):
        box = page.locator(".game-over")
        box.wait_for()
        outcomes.append((box.get_attribute("data-winner"), box.get_attribute("data-reason")))
        assert page.locator(".outcome-reason").inner_text().strip()
    assert len(set(outcomes)) == 1, outcomes
    winner = outcomes[0][0]
    assert winner in ("mankind", "invader")
    headlines = {
        alice.locator(".outcome-headline").inner_text(),
        bob.locator(".outcome-headline").inner_text(),
    }
    assert headlines == {"You won!", "You lost."}
    assert carol.locator(".event-log li").count() > 10
    assert e2e_server.api("GET", f"/matches/{match_id}")["status"] == "finished"

    # Opened again from the lobby, the finished match replays move by move from its log.
    moves = len(e2e_server.api("GET", f"/matches/{match_id}/log")["entries"])
    carol.goto("/")
    carol.locator(f".match-list.finished [data-match-id='{match_id}'] a").click()
    replay = carol.locator(".replay")
    replay.wait_for()
    assert replay.locator(".replay-move").inner_text().startswith(f"Move 1 of {moves}:")
    replay.get_by_role("button", name="Next").click()
    assert replay.locator(".replay-move").inner_text().startswith(f"Move 2 of {moves}:")
    replay.get_by_role("button", name="Last move").click()
    assert replay.locator(".replay-move").inner_text().startswith(f"Move {moves} of {moves}:")
    assert "Game over" in replay.locator(".replay-events").inner_text()
