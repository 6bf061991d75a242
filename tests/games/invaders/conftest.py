"""Fixtures for the Invaders tests; the builders live in invaders_builders.py."""

from __future__ import annotations

import importlib

import pytest

from app.games import invaders as game
from app.games.invaders.state import State


@pytest.fixture
def setup_state() -> State:
    """A fresh match at its first decision (Mankind places the starting hero)."""
    return game.setup(1, {})


SPEC_ZONE_POWERS = (2, 3, 2)
"""The spec's placeholder zone powers (invaders.md R-ZPOW-5), which its worked examples and
our rulings' arithmetic assume; the shipped catalog prints others (BAL-9, docs/rulings.md)."""


@pytest.fixture
def spec_zone_powers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Play on the spec's placeholder zone powers: for examples that state that assumption."""
    for module in ("app.games.invaders.power", "app.games.invaders.view"):
        monkeypatch.setattr(importlib.import_module(module), "PRINTED_ZONE_POWER", SPEC_ZONE_POWERS)
