"""Fixtures for the Invaders tests; the builders live in invaders_builders.py."""

from __future__ import annotations

import pytest

from app.games import invaders as game
from app.games.invaders.state import State


@pytest.fixture
def setup_state() -> State:
    """A fresh match at its first decision (Mankind places the starting hero)."""
    return game.setup(1, {})
