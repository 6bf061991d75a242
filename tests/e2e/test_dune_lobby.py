"""More than two factions from the lobby: the creator picks who plays, and they all fight.

The lobby offers the game's ``seat_option`` (the Dune battle: 2 to 6 factions) as check
boxes; the three browsers then play the whole battle phase by clicks, as in
test_dune_battle.py, with the same leak check for every page.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest

from app.games import dune_battle
from tests.e2e.conftest import E2EServer
from tests.e2e.table import match_id_of, wait_same_version
from tests.e2e.test_dune_battle import (
    MAX_SECONDS,
    MAX_STEPS,
    assert_no_leak,
    engine_state,
    play_one,
    seat_page,
)

pytestmark = pytest.mark.browser
THREE = ("atreides", "fremen", "harkonnen")


def create_from_the_lobby(page: Any) -> str:
    page.goto("/")
    page.get_by_label("Your name").fill("Paul")
    page.select_option("select[name=game]", "dune_battle")
    page.locator("input[name=in_play][value=fremen]").check()
    page.locator("input[name=seat][value=atreides]").check()
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"#/match/"))
    page.wait_for_selector(".db-table")
    return match_id_of(page)


def test_three_factions_chosen_in_the_lobby_fight_to_the_end(
    new_page: Any, e2e_server: E2EServer
) -> None:
    paul = new_page()
    match_id = create_from_the_lobby(paul)
    summary = e2e_server.api("GET", f"/matches/{match_id}")
    assert sorted(s["seat"] for s in summary["seats"]) == list(THREE)
    players = {"atreides": paul}
    for seat in ("fremen", "harkonnen"):
        grant = e2e_server.api("POST", f"/matches/{match_id}/seats", {"seat": seat})
        players[seat] = seat_page(new_page, match_id, seat, grant["secret"])
    db = e2e_server.log_path.parent / "e2e.db"
    rng = random.Random(3)
    started, steps, known, checked = time.monotonic(), 0, {}, 0
    while True:
        version = wait_same_version(list(players.values()))
        db_version, state = engine_state(db, match_id)
        assert str(db_version) == version
        checked += assert_no_leak(dict(players), state, known)
        if dune_battle.outcome(state) is not None:
            break
        assert steps < MAX_STEPS and time.monotonic() - started < MAX_SECONDS, steps
        assert any(play_one(page, rng) for page in players.values()), "nobody could act"
        steps += 1
    assert checked > 0
    for page in players.values():
        page.wait_for_selector(".game-over")
