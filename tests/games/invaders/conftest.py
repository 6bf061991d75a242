"""Fixtures for the Invaders tests; the builders live in invaders_builders.py."""

from __future__ import annotations

import importlib

import pytest
from invaders_builders import SPEC_ZONE_POWERS, ZONE_POWER_READERS

from app.games import invaders as game
from app.games.invaders.state import State


@pytest.fixture
def setup_state() -> State:
    """A fresh match at its first decision (Mankind places the starting hero)."""
    return game.setup(1, {})


@pytest.fixture
def spec_zone_powers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Play on the spec's placeholder zone powers: for examples that state that assumption."""
    for module in ZONE_POWER_READERS:
        monkeypatch.setattr(importlib.import_module(module), "PRINTED_ZONE_POWER", SPEC_ZONE_POWERS)
