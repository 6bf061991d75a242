"""Two browsers fight one Dune battle phase to its end by clicks while a third one watches.

The players click only options the client highlighted (``.is-target``, each drawn from
``view.legal_actions``). After every settled step the engine's own views, rebuilt from the
match snapshot in the server's database, tell what each seat may not know (the other
hands, plans before reveal, traitor cards); no page may show any of it.
"""

from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from app.games import dune_battle
from app.games.dune_battle.steps import PRE_STEPS
from tests.e2e.conftest import PHONE, E2EServer
from tests.e2e.table import SETTLED_JS, wait_same_version

SEATS = ("atreides", "harkonnen")
I18N = Path(__file__).resolve().parents[2] / "static" / "i18n" / "dune_battle"
MAX_STEPS = 400
MAX_SECONDS = 90
PRE_REVEAL = frozenset(PRE_STEPS)  # the engine's own list of steps before the reveal
# How much a scripted player likes each kind of option (a person keeps battles short too).
WEIGHTS = {
    "commit_plan": 10.0,
    "pass": 6.0,
    "decline_traitor": 4.0,
    "truthtrance": 0.3,
    "karama": 0.5,
}
# Card names the table also uses as words of its own (steps, Voice targets, questions).
UI_WORDS = {"Karama", "Truthtrance", "Shield", "Snooper", "Lasgun", "Cheap Hero", "Tleilaxu Ghola"}

TARGETS_JS = """() => {
  const root = document.querySelector('.game-root');
  if (!root || root.dataset.pending !== '0' || !root.querySelector('.db-table')) return null;
  return {
    version: root.dataset.version,
    actions: [...root.querySelectorAll('.is-target')].map((el) => el.dataset.action || ''),
  };
}"""

PAGE_JS = """() => {
  const main = document.querySelector('main');
  return {
    html: main.innerHTML,
    text: main.innerText,
    own: main.querySelectorAll('.db-own, .db-own-plan, [data-card], [data-traitor]').length,
    plans: main.querySelectorAll('.db-plan').length,
    targets: main.querySelectorAll('.is-target').length,
  };
}"""


def seat_page(
    new_page: Any, match_id: str, seat: str | None, secret: str | None, lang: str = "en"
) -> Any:
    """A browser holding the seat secret the way the client stores it (localStorage).

    ``lang`` is the saved language the page starts in (the Dune texts load on their own).
    """
    page = new_page()
    page.add_init_script(f"localStorage.setItem('skirmish.lang', {json.dumps(lang)});")
    if seat:
        key, stored = f"skirmish.seat.{match_id}", json.dumps({"seat": seat, "secret": secret})
        page.add_init_script(f"localStorage.setItem({json.dumps(key)}, {json.dumps(stored)});")
    page.goto(f"/#/match/{match_id}")
    page.wait_for_selector(".db-table")
    return page


def engine_state(db: Path, match_id: str) -> tuple[int, Any]:
    """The match's version and engine state, read straight from the server's database."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        version, snapshot = conn.execute(
            "SELECT version, snapshot FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
    data = json.loads(snapshot) if isinstance(snapshot, str) else snapshot
    return int(version), dune_battle.from_json(data)


def secrets_hidden_from(
    state: Any, viewer: str | None, known: list[str]
) -> tuple[set[str], set[str]]:
    """Hand card ids (and distinctive names) of the other seats that viewer may not know.

    ``known`` gathers every view this viewer was entitled to so far: a card revealed in a
    plan and then kept in hand stays known (the log shows the reveal).
    """
    from app.games.dune_battle.catalog import card_name, card_slug

    known.append(json.dumps(dune_battle.view(state, viewer)))
    public = "\n".join(known)
    ids: set[str] = set()
    names: set[str] = set()
    for seat in SEATS:
        if seat == viewer:
            continue
        hand = dune_battle.view(state, seat)["factions"][seat]["hand"]
        for card in hand:
            if card in public:
                continue
            ids.add(card)
            if card_slug(card) not in public and card_name(card) not in UI_WORDS:
                names.add(card_name(card))
    return ids, names


def assert_no_leak(
    pages: dict[str | None, Any], state: Any, known: dict[str | None, list[str]]
) -> int:
    """Check every page against the engine's views; returns how many secrets were checked."""
    checked = 0
    battle = state.battle
    before_reveal = battle is not None and battle.step in PRE_REVEAL
    for viewer, page in pages.items():
        seen = page.evaluate(PAGE_JS)
        ids, names = secrets_hidden_from(state, viewer, known.setdefault(viewer, []))
        checked += len(ids) + len(names)
        for card in ids:
            assert card not in seen["html"], f"{viewer or 'spectator'} sees the card id {card}"
        for name in names:
            assert name not in seen["text"], f"{viewer or 'spectator'} sees {name!r} from a hand"
        if viewer is None:
            assert seen["own"] == 0, "the spectator sees a hand, a plan or traitor cards"
            assert seen["targets"] == 0, "the spectator is offered a decision"
            if before_reveal:
                assert seen["plans"] == 0, "the spectator sees a plan before the reveal"
        elif before_reveal:
            # one's own draft (and an Atreides full view) only: never the opponent's plan
            opponent = battle.other(viewer)
            shown = page.locator(f".db-plan[data-faction={opponent.faction}]").count()
            assert shown == 0, f"{viewer} sees the opponent's plan before the reveal"
    return checked


def pick(rng: random.Random, actions: list[str]) -> int:
    weights = [WEIGHTS.get(a, 1.0) for a in actions]
    return rng.choices(range(len(actions)), weights=weights)[0]


def play_one(page: Any, rng: random.Random, keyboard: bool = False) -> bool:
    found = page.evaluate(TARGETS_JS)
    if not found or not found["actions"]:
        return False
    if keyboard:  # Tab to the first highlighted option and press Enter, as without a mouse
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement?.classList.contains('is-target')"):
                break
        else:
            raise AssertionError("no highlighted option is reachable with Tab")
        page.keyboard.press("Enter")
    else:
        index = pick(rng, found["actions"])
        page.locator(".game-root .is-target").nth(index).click()
    page.wait_for_function(SETTLED_JS, arg=found["version"], timeout=10_000)
    errors = page.locator(".errors")
    assert errors.count() == 0, errors.inner_text()
    return True


def plan_with_the_builder(page: Any) -> None:
    """Load a listed plan into the form ("Edit") and set it from there ("Set this plan")."""
    version = page.locator(".game-root").get_attribute("data-version")
    listed = page.locator(".db-suggestion").last.inner_text()
    page.locator(".db-edit").last.click()
    assert page.locator(".db-builder-summary").inner_text() == listed
    page.locator(".db-submit").click()
    page.wait_for_function(SETTLED_JS, arg=version, timeout=10_000)
    assert page.locator(".errors").count() == 0, page.locator(".errors").inner_text()
    assert page.locator(".db-own-plan").get_attribute("data-committed") == "false"


def screenshot(page: Any, name: str) -> None:
    """Desktop and phone pictures for a person to look at (SKIRMISH_SCREENSHOTS=<dir>)."""
    folder = os.environ.get("SKIRMISH_SCREENSHOTS")
    if not folder:
        return
    size = page.viewport_size
    page.screenshot(path=f"{folder}/dune_{name}_desktop.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=f"{folder}/dune_{name}_phone.png", full_page=True)
    page.set_viewport_size(size)


def assert_fits_a_phone(page: Any) -> None:
    """At 390 px the table needs no sideways scrolling (checked at the busiest steps)."""
    size = page.viewport_size
    page.set_viewport_size(PHONE)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    page.set_viewport_size(size)
    assert width <= PHONE["width"], f"the table is {width}px wide on a phone"


@pytest.mark.browser
def test_two_factions_fight_the_battle_phase_while_a_spectator_watches(
    new_page: Any, e2e_server: E2EServer
) -> None:
    made = e2e_server.api(
        "POST", "/matches", {"game": "dune_battle", "seat": SEATS[0], "name": "Paul"}
    )
    match_id = made["match_id"]
    joined = e2e_server.api(
        "POST", f"/matches/{match_id}/seats", {"seat": SEATS[1], "name": "Vladimir"}
    )
    db = e2e_server.log_path.parent / "e2e.db"

    players: dict[str | None, Any] = {
        SEATS[0]: seat_page(new_page, match_id, SEATS[0], made["secret"]),
        SEATS[1]: seat_page(new_page, match_id, SEATS[1], joined["secret"], lang="nl"),
    }
    spectator = seat_page(new_page, match_id, None, None)
    pages: dict[str | None, Any] = {**players, None: spectator}
    assert spectator.locator(".role").get_attribute("data-role") == "spectator"

    rng = random.Random(20261130)
    started, steps, shots = time.monotonic(), 0, set()
    known: dict[str | None, list[str]] = {}
    secrets_checked = 0
    outcome = None
    while outcome is None:
        version = wait_same_version(list(pages.values()))
        db_version, state = engine_state(db, match_id)
        assert str(db_version) == version
        secrets_checked += assert_no_leak(pages, state, known)
        step = state.battle.step if state.battle is not None else None
        if step in ("commit", "traitor") and step not in shots:
            shots.add(step)
            for page in pages.values():
                assert_fits_a_phone(page)
            screenshot(players[next(iter(dune_battle.active_seats(state)))], step)
        outcome = dune_battle.outcome(state)
        if outcome is not None:
            break
        assert steps < MAX_STEPS, "the battle phase did not end within the step bound"
        assert time.monotonic() - started < MAX_SECONDS, f"no end in time ({steps} steps)"
        actor = players[next(iter(dune_battle.active_seats(state)))]
        if "builder" not in shots and actor.locator(".db-edit").count():
            shots.add("builder")
            plan_with_the_builder(actor)
            steps += 1
            continue
        acted = any(play_one(page, rng, keyboard=steps == 0) for page in players.values())
        assert acted, "nobody was offered a decision although the match is not over"
        steps += 1

    assert secrets_checked > 0, "the leak check found no secret to look for"
    assert "builder" in shots, "the plan builder was never offered"
    expected = outcome.to_json()
    for viewer, page in pages.items():
        box = page.wait_for_selector(".game-over")
        assert box.get_attribute("data-winner") == (expected["winner"] or ""), viewer
        assert box.get_attribute("data-reason") == expected["reason"], viewer
        assert page.locator(".db-table[data-phase=over]").count() == 1, viewer
        assert page.locator(".game-root .is-target").count() == 0, viewer
    screenshot(spectator, "over")

    spectator.select_option("#lang-select", "ru")
    title = json.loads((I18N / "ru.json").read_text(encoding="utf-8"))["ui"]["final_title"]
    spectator.wait_for_selector(f".db-final h2:has-text('{title}')")


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


@pytest.mark.parametrize("lang", ["nl", "de", "ru"])
def test_dune_texts_have_the_english_keys_and_placeholders(lang: str) -> None:
    english = flatten(json.loads((I18N / "en.json").read_text(encoding="utf-8")))
    other = flatten(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))
    assert sorted(set(english) ^ set(other)) == []
    for key, text in english.items():
        wanted = set(re.findall(r"\{(\w+)\}", text))
        assert set(re.findall(r"\{(\w+)\}", other[key])) == wanted, key
