"""A person starts a match against each bot level from the lobby and plays it to the end."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from tests.e2e.conftest import E2EServer
from tests.e2e.table import ScriptedPlayer, match_id_of, play_step

pytestmark = pytest.mark.browser

MAX_STEPS = 600
MAX_SECONDS = 150
IDLE_SECONDS = 20  # the bot's pause and search between the person's options


def create_versus_bot(page: Any, seat: str, level: str) -> str:
    """Create a match from the lobby form with the computer as the opponent."""
    page.goto("/")
    page.get_by_label("Your name").fill("Alice")
    page.locator(f"input[name=seat][value={seat}]").check()
    page.locator("select[name=bot]").select_option(level)
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"#/match/"))
    page.wait_for_selector(".inv-table")
    return match_id_of(page)


def play_to_the_end(player: ScriptedPlayer) -> int:
    started, steps, idle_since = time.monotonic(), 0, time.monotonic()
    while player.page.locator(".game-over").count() == 0:
        assert steps < MAX_STEPS, "the game did not end within the step bound"
        assert time.monotonic() - started < MAX_SECONDS, f"no end in time ({steps} steps)"
        if play_step([player]):
            steps, idle_since = steps + 1, time.monotonic()
        else:
            assert time.monotonic() - idle_since < IDLE_SECONDS, "the bot never answered"
            time.sleep(0.05)
    return steps


@pytest.mark.parametrize(
    ("level", "seat"), [("random", "mankind"), ("heuristic", "invader"), ("strong", "mankind")]
)
def test_a_person_finishes_a_match_against_the_bot_chosen_in_the_lobby(
    new_page: Any, e2e_server: E2EServer, level: str, seat: str
) -> None:
    page = new_page()
    match_id = create_versus_bot(page, seat, level)
    seats = {s["seat"]: s for s in e2e_server.api("GET", f"/matches/{match_id}")["seats"]}
    other = "invader" if seat == "mankind" else "mankind"
    assert seats[other]["name"] == f"bot:{level}"

    steps = play_to_the_end(ScriptedPlayer(page, random.Random(7)))

    box = page.locator(".game-over")
    assert box.get_attribute("data-winner") in ("mankind", "invader")
    assert page.locator(".outcome-headline").inner_text() in ("You won!", "You lost.")
    assert steps > 0
    summary = e2e_server.api("GET", f"/matches/{match_id}")
    assert summary["status"] == "finished"
    moves = len(e2e_server.api("GET", f"/matches/{match_id}/log")["entries"])
    assert moves > steps, "the bot made no move of its own"
