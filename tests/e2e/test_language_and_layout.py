"""Languages (from the browser, switchable), phone width, keyboard play, screenshots."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE, E2EServer
from tests.e2e.table import create_match, invite_link, join_by_invite, version_of

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(os.environ.get("SKIRMISH_SCREENSHOTS", "/tmp"))
NO_SIDEWAYS_SCROLL_JS = "() => document.documentElement.scrollWidth"
UNNAMED_CONTROLS_JS = """() => [...document.querySelectorAll('button, a, select, input, summary')]
  .filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim() || el.labels?.length))
  .map((el) => el.outerHTML.slice(0, 80))"""


def test_language_comes_from_the_browser_and_can_be_switched(new_page: Any) -> None:
    page = new_page(locale="de-DE")
    page.goto("/")
    create = page.locator(".create-match button[type=submit]")
    assert create.inner_text() == "Partie erstellen"
    assert page.locator("html").get_attribute("lang") == "de"

    page.locator("#lang-select").select_option("ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    assert create.inner_text() == "Создать партию"
    assert page.get_by_role("heading", name="Открытые партии").is_visible()

    page.locator("#lang-select").select_option("nl")
    page.wait_for_function("() => document.documentElement.lang === 'nl'")
    assert create.inner_text() == "Partij aanmaken"
    page.reload()  # the choice is remembered
    assert page.locator(".create-match button[type=submit]").inner_text() == "Partij aanmaken"


def test_table_texts_follow_the_language_and_card_names_do_not(new_page: Any) -> None:
    page = new_page()
    create_match(page, "mankind", "Alice")
    page.locator("#lang-select").select_option("de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    chainmail = page.locator(".strategy[data-strategy=project_chainmail]")
    # the table re-renders after the language's texts have loaded: wait for that, not longer
    chainmail.filter(has_text="Nachziehstapel").wait_for(timeout=5_000)
    assert "Activate Project 'Chainmail'" in chainmail.inner_text()  # names stay as printed
    assert "jederzeit (auch im Zug des Invasors)" in chainmail.inner_text()  # texts are translated
    assert page.locator(".role").inner_text() == "Du spielst Menschheit"


def test_phone_width_has_no_sideways_scrolling_and_keys_play(
    new_page: Any, e2e_server: E2EServer
) -> None:
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto("/")
    assert phone.evaluate(NO_SIDEWAYS_SCROLL_JS) <= PHONE["width"]

    match_id = create_match(phone, "mankind", "Alice")
    desk = new_page(viewport=DESKTOP)
    join_by_invite(desk, invite_link(e2e_server, match_id), "Bob")
    phone.wait_for_selector(".zone-target.is-target")

    # Keyboard only: skip to the content, Tab to a highlighted zone, Enter places the hero.
    phone.locator(".skip-link").focus()
    phone.keyboard.press("Enter")
    assert phone.evaluate("() => document.activeElement.id") == "main"
    assert f"#/match/{match_id}" in phone.url  # the route (the hash) is untouched
    before = version_of(phone)
    for _ in range(80):
        phone.keyboard.press("Tab")
        if phone.evaluate("() => document.activeElement?.classList.contains('zone-target')"):
            break
    else:
        pytest.fail("no highlighted zone could be reached with Tab")
    phone.keyboard.press("Enter")
    phone.wait_for_function(
        "(v) => document.querySelector('.game-root').dataset.version !== v", arg=before
    )
    phone.wait_for_selector(".own-hand .card")
    phone.wait_for_selector("[data-action=end_main]")

    assert phone.evaluate(NO_SIDEWAYS_SCROLL_JS) <= PHONE["width"]
    assert phone.evaluate(UNNAMED_CONTROLS_JS) == []  # every control has a name to announce
    phone.locator("details.pile").first.evaluate("(d) => { d.open = true; }")
    assert phone.evaluate(NO_SIDEWAYS_SCROLL_JS) <= PHONE["width"]
    phone.screenshot(path=str(SCREENSHOTS / "skirmish-table-phone.png"), full_page=True)
    desk.wait_for_selector(".own-hand .card")
    desk.screenshot(path=str(SCREENSHOTS / "skirmish-table-desktop.png"), full_page=True)
