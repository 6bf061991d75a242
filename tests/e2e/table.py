"""What a person does at the table, as Playwright steps: create, join, watch, click options.

The scripted player only ever clicks an element the client highlighted (``.is-target``,
each one drawn from ``view.legal_actions``), so it plays exactly as a person could.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass
from typing import Any

from tests.e2e.conftest import E2EServer

OPTIONS_JS = """() => {
  const root = document.querySelector('.game-root');
  if (!root || root.dataset.pending !== '0') return null;
  const targets = [...root.querySelectorAll('.is-target')];
  return {
    version: root.dataset.version,
    count: targets.length,
    endMain: targets.findIndex((el) => el.dataset.action === 'end_main'),
  };
}"""

SETTLED_JS = """(old) => {
  const root = document.querySelector('.game-root');
  if (!root || root.dataset.pending !== '0') return false;
  return root.dataset.version !== old || document.querySelector('.errors') !== null;
}"""


def match_id_of(page: Any) -> str:
    found = re.search(r"#/match/([^/?#]+)", page.url)
    assert found, page.url
    return found.group(1)


def create_match(page: Any, seat: str, name: str) -> str:
    """Create a match from the lobby form; returns its id (the page moves to the table)."""
    page.goto("/")
    page.get_by_label("Your name").fill(name)
    page.locator(f"input[name=seat][value={seat}]").check()
    page.get_by_role("button", name="Create match").click()
    page.wait_for_url(re.compile(r"#/match/"))
    page.wait_for_selector(".invite")
    return match_id_of(page)


def join_by_invite(page: Any, invite_link: str, name: str) -> None:
    """Open the invite link, give a name, then take the open seat."""
    page.goto(invite_link)
    page.locator(".join input[name=name]").fill(name)
    page.locator(".join button").first.click()
    page.wait_for_selector(".role[data-role=mankind], .role[data-role=invader]")


def watch_from_lobby(page: Any, match_id: str) -> None:
    """Find the match among the live ones in the lobby and watch it."""
    page.goto("/")
    page.locator(f".match-list.live [data-match-id='{match_id}'] a").click()
    page.wait_for_selector(".inv-table")


def join_from_lobby(page: Any, match_id: str, name: str) -> None:
    """Find the match among the open ones in the lobby and take its free seat."""
    page.goto("/")
    page.get_by_label("Your name").fill(name)
    page.locator(f".match-list.open [data-match-id='{match_id}'] button").click()
    page.wait_for_selector(".role[data-role=mankind], .role[data-role=invader]")


def version_of(page: Any) -> str | None:
    return page.locator(".game-root").get_attribute("data-version")


def wait_same_version(pages: list[Any], timeout: float = 10.0) -> str:
    """Wait until every page shows the same version of the match; returns it."""
    deadline = time.monotonic() + timeout
    while True:
        versions = {version_of(p) for p in pages}
        if len(versions) == 1 and None not in versions:
            return versions.pop()  # type: ignore[return-value]
        if time.monotonic() > deadline:
            raise AssertionError(f"pages did not converge: {versions}")
        time.sleep(0.05)


@dataclass
class ScriptedPlayer:
    """Clicks one highlighted option; ends the main phase with probability ``end_bias``."""

    page: Any
    rng: random.Random
    end_bias: float = 0.35

    def options(self) -> dict[str, Any] | None:
        found = self.page.evaluate(OPTIONS_JS)
        return found if found and found["count"] else None

    def act(self, found: dict[str, Any]) -> None:
        targets = self.page.locator(".game-root .is-target")
        if found["endMain"] >= 0 and self.rng.random() < self.end_bias:
            index = found["endMain"]
        else:
            index = self.rng.randrange(found["count"])
        targets.nth(index).click()
        self.page.wait_for_function(SETTLED_JS, arg=found["version"], timeout=10_000)
        errors = self.page.locator(".errors")
        assert errors.count() == 0, errors.inner_text()


def play_step(players: list[ScriptedPlayer]) -> bool:
    """Let whichever player owes a decision click once; False if nobody could."""
    for player in players:
        found = player.options()
        if found:
            player.act(found)
            return True
    return False


def invite_link(server: E2EServer, match_id: str) -> str:
    return f"{server.url}/#/match/{match_id}"
